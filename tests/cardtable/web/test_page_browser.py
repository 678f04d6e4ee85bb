"""The table's page in a real headless Chromium: it follows a demo game to its end, the overlay
renders, and the owner's pages need the PIN. Screenshots of a phone and a TV are written to
``$CARDTABLE_SCREENSHOTS`` (when set) for people to look at."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from cardtable.sim.demo import run_demo
from cardtable.network.demo import Held
from cardtable.web.page import TablePage
from waiting import patience

pytestmark = pytest.mark.slow          # the page in a real headless Chromium

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}


def keep(path: Path) -> None:
    folder = os.environ.get("CARDTABLE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / path.name)


@pytest.fixture
def demo_page(tmp_path):
    page = TablePage(host="127.0.0.1", port=0, journal_path=tmp_path / "journal.sqlite", pin="2468")
    yield page
    page.close()


def play_in_background(tmp_path, page, game="cribbage", players=2, *, pause_at: int = 0):
    """The demo on a thread; with ``pause_at``, it waits at the first move after a seat reaches
    that score until ``box["go_on"]`` is set (for a screenshot in the middle of the game)."""
    box = {"paused": threading.Event(), "go_on": threading.Event()}
    ready = threading.Event()

    def on_move(move, controller):
        if pause_at and not box["paused"].is_set() and max(controller.game.rules.scores(controller.game.state)) >= pause_at \
                and controller.view().play_cards:
            box["paused"].set()
            box["go_on"].wait(30)

    def play():
        ready.wait(10)
        box["result"] = run_demo(game, players=players, input_kind="rfid", seed=3, out_dir=tmp_path,
                                 displays=[Held(page)], on_move=on_move)
    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    return thread, ready, box


def test_the_page_follows_a_demo_game_to_its_end_on_a_phone_and_a_tv(browser, demo_page, tmp_path):
    phone = browser.new_page(viewport=PHONE, device_scale_factor=2, bypass_csp=True)
    tv = browser.new_page(viewport=TV, bypass_csp=True)
    phone.goto(demo_page.url + "/")
    tv.goto(demo_page.url + "/")
    thread, ready, box = play_in_background(tmp_path, demo_page, pause_at=60)
    ready.set()
    assert box["paused"].wait(60)
    for page in (phone, tv):
        page.wait_for_function("document.querySelectorAll('#play-cards .card').length > 0", timeout=patience(10000))
    tv.screenshot(path=tmp_path / "tv-midgame.png")
    phone.screenshot(path=tmp_path / "phone-midgame.png")
    box["go_on"].set()
    thread.join(120)
    result = box["result"]
    assert result.agrees
    for page, name in ((phone, "phone"), (tv, "tv")):
        page.wait_for_function("document.body.classList.contains('finished')", timeout=patience(10000))
        scores = [int(s) for s in page.locator(".seat .score").all_inner_texts()]
        assert tuple(scores) == tuple(result.scores)
        assert "wins" in page.locator("#prompt").inner_text()
        page.screenshot(path=tmp_path / f"{name}-final.png", full_page=name == "phone")
    for name in ("tv-midgame", "phone-midgame", "phone-final", "tv-final"):
        keep(tmp_path / f"{name}.png")
    # the history lists the game, and shows its record
    phone.goto(demo_page.url + "/history")
    phone.click(".games button")
    phone.wait_for_selector(".record .events li")
    assert phone.locator(".record .events li").count() > 10
    assert str(result.scores[0]) in phone.locator(".record .result").inner_text()
    phone.screenshot(path=tmp_path / "history-phone.png", full_page=True)
    keep(tmp_path / "history-phone.png")
    # the phone page is one column and nothing sticks out sideways
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_overlay_renders_transparent_and_holds_views_back_by_its_delay(browser, demo_page, tmp_path):
    overlay = browser.new_page(viewport={"width": 640, "height": 480}, bypass_csp=True)
    overlay.goto(demo_page.url + "/overlay?delay=1.5")
    live = browser.new_page(viewport={"width": 640, "height": 480}, bypass_csp=True)
    live.goto(demo_page.url + "/")
    thread, ready, box = play_in_background(tmp_path, demo_page)
    ready.set()
    live.wait_for_function("document.querySelectorAll('.seat').length > 0", timeout=patience(30000))
    live_at = time.monotonic()
    overlay.wait_for_function("document.querySelectorAll('.seat').length > 0", timeout=patience(30000))
    assert time.monotonic() - live_at > 0.7          # held back by about its 1.5 s
    thread.join(120)
    overlay.wait_for_function("document.body.classList.contains('finished')", timeout=patience(15000))
    scores = [int(s) for s in overlay.locator(".seat .score").all_inner_texts()]
    assert tuple(scores) == tuple(box["result"].scores)
    assert overlay.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    overlay.screenshot(path=tmp_path / "overlay.png", omit_background=True)
    keep(tmp_path / "overlay.png")


def test_the_owners_pages_need_the_pin(browser, demo_page, tmp_path):
    page = browser.new_page(bypass_csp=True)
    response = page.goto(demo_page.url + "/owner/status.json")
    assert response.status == 403
    page.goto(demo_page.url + "/owner")
    assert page.locator("input[name=pin]").count() == 1
    assert page.locator("#undo").count() == 0
    page.fill("input[name=pin]", "1111")
    page.click("button[type=submit]")
    page.wait_for_url("**/owner?wrong=1&wait=1")
    assert page.locator("#wrong").is_visible()
    page.wait_for_timeout(400)                       # a wrong PIN shuts the gate for a moment
    page.fill("input[name=pin]", "2468")
    page.click("button[type=submit]")
    page.wait_for_selector("#undo")
    page.wait_for_function("document.querySelectorAll('#game option').length === 5")
    page.set_viewport_size(PHONE)
    page.screenshot(path=tmp_path / "owner-phone.png", full_page=True)
    keep(tmp_path / "owner-phone.png")
    assert page.goto(demo_page.url + "/owner/status.json").status == 200
    # the spectators' page has no way in to the owner's
    spectator = browser.new_page(bypass_csp=True)
    spectator.goto(demo_page.url + "/")
    assert "owner" not in spectator.content().lower()


def test_the_owners_buttons_wait_until_the_page_can_send(browser, demo_page):
    """A click on Undo before the page has its token used to do nothing at all (the button was
    there, its handler was not yet): the buttons are off until the page can send a request."""
    page = browser.new_page(bypass_csp=True)
    page.goto(demo_page.url + "/owner")
    page.fill("input[name=pin]", "2468")
    held = []
    page.route("**/owner/status.json", lambda route: held.append(route))
    page.click("button[type=submit]")
    page.wait_for_selector("#undo")
    deadline = time.monotonic() + patience(10)
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the owner's page never asked for its status"
    for button in ("#undo", "#end", "#start button[type=submit]"):
        assert page.locator(button).is_disabled()
    held[0].continue_()
    page.click("#undo")                              # waits for the button to be on
    page.wait_for_function("document.getElementById('answer').textContent.length > 1")
    assert page.locator("#answer").inner_text() != "\u2026"
