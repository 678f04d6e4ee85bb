"""The board, the show and the last move on the table's page and the overlay, in a real headless
Chromium at phone, tablet and TV sizes: the pegs stand at the scores and move with every score,
every hand of the show is there with its breakdown, the last move reads across the room.
Screenshots go to ``$CARDTABLE_SCREENSHOTS`` (when set) for people to look at."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_page_browser import PHONE, TV, keep
from web_helpers import Outputs, play_with_bots

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.web.page import TablePage
from hardware.view import ShownHand

TABLET = {"width": 820, "height": 1180}
SIZES = {"phone": PHONE, "tablet": TABLET, "tv": TV}


def views_of_a_game(journal, players=2, names=("Ann", "Bob")):
    """A dealt cribbage game between bots, view by view, up to the first show after 30 points."""
    outputs = Outputs()
    c = Table(TableSetup("cribbage", players, mode="dealer", names=names, seed=3), journal, outputs)
    play_with_bots(c, lambda: outputs.views[-1].shown and max(s.score for s in outputs.views[-1].sides) >= 30)
    return outputs.views


@pytest.fixture
def page(tmp_path):
    page = TablePage(host="127.0.0.1", port=0, journal_path=tmp_path / "journal.sqlite")
    yield page
    page.close()


def pegs(tab):
    return sorted(tab.eval_on_selector_all(
        "#board .peg", "ps => ps.map(p => [Number(p.dataset.side), Number(p.dataset.score), p.dataset.front])"))


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_the_board_the_show_and_the_last_move_on_the_page(browser, page, journal, tmp_path, size):
    views = views_of_a_game(journal)
    view = views[-1]
    tab = browser.new_page(viewport=SIZES[size], bypass_csp=True)
    tab.goto(page.url + "/")
    page.show(view)
    tab.wait_for_selector("#board .peg")
    assert pegs(tab) == sorted([side, s.score, "front"] for side, s in enumerate(view.sides)) \
        + sorted([side, s.back if s.back != s.score else 0, "back"] for side, s in enumerate(view.sides)) \
        or len(pegs(tab)) == 4
    assert {(p[0], p[1]) for p in pegs(tab) if p[2] == "front"} == {(n, s.score) for n, s in enumerate(view.sides)}
    assert tab.locator("#board .hole").count() == 2 * 122 + 1
    assert tab.locator("#board .skunk").count() == 2
    hands = tab.locator("#shown .hand")
    assert hands.count() == len(view.shown) == 3
    for n, hand in enumerate(view.shown):
        box = hands.nth(n)
        assert box.locator(".hand-label").inner_text().startswith(hand.label)
        assert box.locator(".hand-cards .card").count() == len(hand.cards) + 1        # and the starter
        assert box.locator(".items li").count() == len(hand.items)
        assert str(hand.points) in box.locator(".points").inner_text()
    assert tab.locator("#last-move").inner_text() == view.last_move
    # big enough to read across the table: the last move and the cards grow with the screen
    card_h = tab.eval_on_selector("#shown .card", "c => c.getBoundingClientRect().height")
    move_px = tab.eval_on_selector("#last-move", "m => parseFloat(getComputedStyle(m).fontSize)")
    if size == "tv":
        assert card_h >= 110 and move_px >= 36
        used = tab.evaluate("Math.max(...[...document.querySelectorAll('main > section')]"
                            ".map(s => s.getBoundingClientRect().right))")
        assert used >= 0.9 * TV["width"]
    assert tab.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    tab.screenshot(path=tmp_path / f"board-{size}.png", full_page=True)
    keep(tmp_path / f"board-{size}.png")
    # the pegs move with every score: the next view that scores moves a front peg, the back one follows
    later = next(v for v in views[::-1] if v.sides != view.sides)
    page.show(later)
    tab.wait_for_function("document.querySelectorAll('#shown .hand').length !== 3 || "
                          "document.querySelector('#last-move').textContent !== " + repr(view.last_move))
    assert {(p[0], p[1]) for p in pegs(tab) if p[2] == "front"} == {(n, s.score) for n, s in enumerate(later.sides)}


@pytest.mark.slow
def test_the_crib_laid_out_so_far_waits_for_its_count(browser, page, journal):
    view = views_of_a_game(journal)[-1]
    laying = replace(view, shown=view.shown[:2] + (ShownHand("Bob", "crib", ("5D", "5S"), "2H"),))
    tab = browser.new_page(viewport=PHONE, bypass_csp=True)
    tab.goto(page.url + "/")
    page.show(laying)
    tab.wait_for_selector("#shown .hand:nth-child(3)")
    crib = tab.locator("#shown .hand").nth(2)
    assert crib.locator(".hand-cards .card").count() == 3
    assert crib.locator(".points").inner_text() == "not counted yet"


@pytest.mark.slow
def test_four_players_peg_as_partners_and_the_overlay_has_the_board(browser, page, journal, tmp_path):
    view = views_of_a_game(journal, 4, ("Ann", "Bob", "Cy", "Di"))[-1]
    overlay = browser.new_page(viewport={"width": 1280, "height": 720}, bypass_csp=True)
    overlay.goto(page.url + "/overlay")
    page.show(view)
    overlay.wait_for_selector("#board .peg")
    assert overlay.locator("#board .lane-name").all_inner_texts() == ["Ann & Cy", "Bob & Di"]
    colours = overlay.eval_on_selector_all(".seat", "ss => ss.map(s => getComputedStyle(s).borderLeftColor)")
    assert colours[0] == colours[2] != colours[1] == colours[3]          # partners in their side's colour
    assert overlay.locator("#game").inner_text() == "Cribbage \u00b7 game to 121"
    assert overlay.locator("#last-move").inner_text() == view.last_move
    assert overlay.eval_on_selector(".chip", "c => getComputedStyle(c).textShadow") == "none"
    overlay.screenshot(path=tmp_path / "board-overlay.png", omit_background=True)
    keep(tmp_path / "board-overlay.png")
    # each score the last move made on a line of its own
    fresh = replace(view, score_log=("+2 Ann: fifteen two", "+1 Bob: one for the go"), log_fresh=2)
    page.show(fresh)
    overlay.wait_for_function("document.querySelectorAll('#last-score li').length === 2")


def test_a_count_of_nothing_is_left_to_the_prompt(browser, page, journal):
    view = replace(views_of_a_game(journal)[-1], play_label="Count 0", play_cards=(), prompt="Ann to play (count 0)")
    tab = browser.new_page(viewport=PHONE, bypass_csp=True)
    tab.goto(page.url + "/")
    page.show(view)
    tab.wait_for_function("document.getElementById('prompt').textContent.includes('count 0')")
    assert not tab.locator("#play-label").is_visible()


@pytest.mark.slow
def test_le_quinze_has_a_track_and_no_empty_scoring_heading(browser, page):
    from cardtable.table.view import build_view
    from engine.games import get_game

    game = get_game("quinze")
    tab = browser.new_page(viewport=TABLET, bypass_csp=True)
    tab.goto(page.url + "/")
    page.show(build_view(game, game.new_game(2, seed=1), ["Ann", "Bob"]))
    tab.wait_for_selector("#board .peg")
    assert tab.locator("#board .hole").count() == 2 * 11 and tab.locator("#board .skunk").count() == 0
    assert not tab.locator(".log h2").is_visible() and not tab.locator(".show h2").is_visible()
