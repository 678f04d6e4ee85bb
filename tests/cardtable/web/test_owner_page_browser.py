"""The owner's page as it looks (its requests are tested elsewhere), in a real headless Chromium:
options said in words rather than by their keys, the running game preselected in the start form,
the current game and its scores shown, no blank band at the top. Screenshots go to
``$CARDTABLE_SCREENSHOTS`` (when set)."""

from __future__ import annotations

import re

import pytest
from test_page_browser import PHONE, keep
from web_helpers import open_tab

from cardtable.table.view import build_view
from cardtable.web.page import TablePage
from engine.games import get_game


@pytest.fixture
def page(tmp_path):
    page = TablePage(host="127.0.0.1", port=0, journal_path=tmp_path / "journal.sqlite", pin="2468")
    game = get_game("allfives")
    page.show(build_view(game, game.new_game(2, seed=1), ["Ann", "Bob"]))
    yield page
    page.close()


@pytest.mark.slow
def test_the_owner_page_says_what_runs_and_its_options_in_words(browser, page, tmp_path):
    tab = open_tab(browser, page.url + "/owner", PHONE, scale=2)
    tab.fill("input[name=pin]", "2468")
    tab.click("button[type=submit]")
    tab.wait_for_selector("#current .seat-score")
    assert tab.locator("#game").input_value() == "allfives"            # the running game, not the first
    current = tab.locator("#current").inner_text()
    assert "All Fives" in current and "Ann" in current and "Bob" in current
    labels = tab.locator("#options label").all_inner_texts() + tab.locator("#options option").all_inner_texts()
    assert labels and not [text for text in labels if re.search(r"[a-z]_[a-z]", text)]   # no "false_go_penalty"
    assert any("points to win" in text.lower() for text in labels)
    answer = tab.locator("#answer").bounding_box()
    assert answer is None or answer["height"] == 0                      # no blank band before an answer
    first = tab.locator("main > *:visible").first.bounding_box()
    header = tab.locator("header").bounding_box()
    assert first["y"] - (header["y"] + header["height"]) < 30
    tab.screenshot(path=tmp_path / "owner-phone.png", full_page=True)
    keep(tmp_path / "owner-phone.png")
