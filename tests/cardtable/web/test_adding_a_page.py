"""docs/adding_a_page.md, proven: a page (``/scores``, tests/cardtable/web/scores_page.py) joins the
table's web app with its module and one registration line; the real app serves it over HTTP with
the shared headers, and in a real headless Chromium it follows a bot game's views to the end."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

import cardtable.web.public_pages as public_pages
from cardtable.web.page import TablePage
from cardtable.web.public_pages import Page, register_page
from game_views import bot_game_views
from scores_page import PAGE
from waiting import patience

pytestmark = pytest.mark.slow          # the page in a real headless Chromium


@pytest.fixture
def scores(monkeypatch):
    """The registry with the scores page added (and the shipped pages' registry untouched after)."""
    monkeypatch.setattr(public_pages, "_PAGES", dict(public_pages._PAGES))
    register_page(PAGE)                                            # the registration line
    return PAGE


@pytest.fixture
def table_page(scores, tmp_path):
    page = TablePage(host="127.0.0.1", port=0, journal_path=tmp_path / "journal.sqlite")
    yield page
    page.close()


def _get(url: str):
    with urllib.request.urlopen(url, timeout=patience(10)) as answer:
        return answer.status, answer.headers, answer.read().decode()


def test_without_its_line_there_is_no_page(tmp_path):
    page = TablePage(host="127.0.0.1", port=0, journal_path=tmp_path / "journal.sqlite")
    try:
        with pytest.raises(urllib.error.HTTPError, match="404"):
            _get(page.url + "/scores")
    finally:
        page.close()


def test_the_app_serves_it_and_its_files_with_the_shared_headers(table_page):
    status, headers, html = _get(table_page.url + "/scores")
    assert status == 200 and "<title>Scores</title>" in html
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert "new EventSource(\"/events\")" in _get(table_page.url + "/scores/files/scores.js")[2]
    assert "function el(" in _get(table_page.url + "/common/cards.js")[2]


def test_a_path_of_the_app_or_of_another_page_is_refused(scores):
    for path in ("/owner", "/owner/start", "/static", "/overlay", "/scores"):
        with pytest.raises(ValueError, match=f"the path {path} is taken"):
            register_page(Page(path, PAGE.html.with_name("scores.css")))
    with pytest.raises(ValueError, match="plain path"):
        register_page(Page("/scores/{n}", PAGE.html))
    with pytest.raises(ValueError, match="no HTML file"):
        register_page(Page("/tv", PAGE.html.with_name("tv.html")))


def test_it_follows_a_real_game_in_chromium(table_page, browser, tmp_path):
    views = bot_game_views("cribbage", ["Ann", "Bob"])
    tab = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        tab.goto(table_page.url + "/scores")
        for view in views[:-1]:
            table_page.show(view)
        mid = next(v for v in reversed(views[:-1]) if any(s.is_turn for s in v.seats))
        table_page.show(mid)
        expected = [f"{s.name}{s.score}" for s in mid.seats]
        tab.wait_for_function("n => document.querySelectorAll('#board li').length === n", arg=len(expected))
        tab.wait_for_function("e => [...document.querySelectorAll('#board li')].map(li => li.textContent)"
                              ".join('|') === e", arg="|".join(expected))
        turn = [i for i, s in enumerate(mid.seats) if s.is_turn]
        assert tab.eval_on_selector_all("#board li", "lis => lis.flatMap((li, i) => li.className ? [i] : [])") == turn
        tab.screenshot(path=str(tmp_path / "scores-mid.png"))
        table_page.show(views[-1])
        tab.wait_for_function("() => document.getElementById('game').textContent.endsWith('game over')")
        shown = tab.eval_on_selector_all("#board .score", "nodes => nodes.map(n => Number(n.textContent))")
        assert shown == [s.score for s in views[-1].seats] and max(shown) >= 121
        tab.screenshot(path=str(tmp_path / "scores-end.png"))
    finally:
        tab.close()
