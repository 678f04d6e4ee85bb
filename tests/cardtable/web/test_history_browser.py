"""The history page in a real headless Chromium on a phone: games listed by their names, the
detail opened where the game was tapped, breakdowns said in words, nothing said twice.
Screenshots go to ``$CARDTABLE_SCREENSHOTS`` (when set)."""

from __future__ import annotations

import re

import pytest
from test_page_browser import PHONE, keep
from web_helpers import Outputs, open_tab, play_with_bots

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.journal import Journal
from cardtable.web.page import TablePage

CODE = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])[SHDC](?![A-Za-z0-9])")
GAMES = [("cribbage", 2, {"target": 61}), ("quinze", 2, {}), ("its15", 3, {"rounds": 3})]


@pytest.fixture
def history(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        for name, players, options in GAMES:
            play_with_bots(Table(TableSetup(name, players, options=options, mode="dealer", seed=2), journal,
                                      Outputs(), resume=False))
    page = TablePage(host="127.0.0.1", port=0, journal_path=path)
    yield page
    page.close()


@pytest.mark.slow
def test_the_history_names_the_games_and_opens_one_where_it_was_tapped(browser, history, tmp_path):
    tab = open_tab(browser, history.url + "/history", PHONE, scale=2)
    tab.wait_for_selector(".games button")
    listed = tab.locator(".games button").all_inner_texts()
    assert [text.split(" \u00b7 ")[0] for text in listed] == ["It's 15", "Le Quinze", "Cribbage"]
    assert not any(re.search(r"\b(its15|quinze|cribbage)\b", text) for text in listed)
    tab.locator(".games button").nth(2).click()                   # the cribbage game, last in the list
    tab.wait_for_selector(".games li:nth-child(3) .record li")
    record = tab.locator(".games li:nth-child(3) .record")
    box = record.bounding_box()
    assert box["y"] < PHONE["height"]                             # opened in sight, under the game tapped
    details = record.locator(".detail").all_inner_texts()
    assert details and not [d for d in details if CODE.search(d)]  # "a pair for 2: jack of ..."
    assert any(" of " in d for d in details)
    lines = record.locator("li").all_inner_texts()
    assert len(lines) == len(set(lines)) or all(lines.count(x) == 1 for x in lines if "wins" in x)
    result = record.locator(".result").inner_text()
    assert record.inner_text().count(result) == 1                 # the result is said once
    tab.screenshot(path=tmp_path / "history-open-phone.png", full_page=True)
    keep(tmp_path / "history-open-phone.png")
    # tapping it again closes it; tapping another opens that one under it
    tab.locator(".games button").nth(0).click()
    tab.wait_for_selector(".games li:nth-child(1) .record li")
    assert tab.locator(".record").count() == 1
