"""The club's page as it looks, in a real headless Chromium at phone and TV sizes, fed through the
club's own state (the broker's part is tested in test_club_live): the connection dot stays beside
the count, the dealer is said in a word, log lines carry their points, the standings have one
column per figure and stay beside the tables on a TV, winners stand out, players keep their names.
Screenshots go to ``$CARDTABLE_SCREENSHOTS`` (when set)."""

from __future__ import annotations

import json
import re
import secrets

import pytest
from test_page_browser import PHONE, TV, keep
from web_helpers import Outputs, open_tab, play_with_bots

from cardtable.club.server import ClubState, create_club_app
from cardtable.club.signing import KEY_BYTES, seal
from cardtable.club.store import ClubStore
from cardtable.club.topics import table_topic
from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.journal import Journal
from cardtable.pages.records import game_key, game_record
from cardtable.pages.server import WebServer
from cardtable.pages.viewdata import view_data


@pytest.fixture
def club(tmp_path):
    """A club that has heard one finished game of Ann and Bob's at T1 (its view and its record),
    signed with the key the club holds for T1."""
    store = ClubStore(tmp_path / "club.sqlite")
    key = secrets.token_bytes(KEY_BYTES)
    state = ClubState(store, "club", keys={"T1": key})
    last = Outputs()
    with Journal(tmp_path / "journal.sqlite") as journal:
        c = Table(TableSetup("cribbage", 2, options={"target": 61}, mode="dealer", names=("Ann", "Bob"), seed=2),
                       journal, last, resume=False)
        play_with_bots(c)
        record = journal.games()[-1]
        data = game_record(journal, record, ["Ann", "Bob"]) | {"names": ["Ann", "Bob"], "at": record.started}
        game = game_key(record)
    view = view_data(last.views[-1]) | {"key": game, "at": record.started}
    state.receive(table_topic("club", "T1", "status"), b"online")
    for topic, message in ((table_topic("club", "T1", "view"), view), (table_topic("club", "T1", "game", game), data)):
        state.receive(topic, seal(key, topic, json.dumps(message)).encode())
    server = WebServer(create_club_app(state), "127.0.0.1", 0, name="club").start()
    yield server, last.views[-1]
    server.close()
    store.close()


@pytest.mark.slow
@pytest.mark.parametrize("size", ["phone", "tv"])
def test_the_club_page_says_it_plainly(browser, club, tmp_path, size):
    server, view = club
    tab = open_tab(browser, server.url + "/", PHONE if size == "phone" else TV)
    tab.wait_for_selector(".ranking tr:nth-child(3)")
    count, dot = tab.locator("#count").bounding_box(), tab.locator("#link").bounding_box()
    assert abs((count["y"] + count["height"] / 2) - (dot["y"] + dot["height"] / 2)) < 8   # on one line
    table = tab.locator(".club-table").first
    assert not re.search(r"\u00b7 D\b", table.inner_text()), table.inner_text()
    assert table.locator(".chip:not(.won)").all_text_contents() in ([], ["Dealer"])
    log = table.locator(".club-log li").all_inner_texts()
    assert not [line for line in log if "Seat " in line]                  # the players' names
    scored = [line for line in log if re.match(r"([+-]\d+ )?(Ann|Bob): ", line)]   # "+2 Ann: fifteen two"
    assert scored and all(re.match(r"[+-]\d+ ", line) for line in scored), log
    heads = tab.locator(".ranking th").all_inner_texts()
    assert len(heads) == len(set(heads)) and not {"Wins", "Won"} <= set(heads)
    players = tab.locator(".ranking td:nth-child(2)").all_inner_texts()
    assert sorted(players) == ["Ann", "Bob"]
    winner = max(view.seats, key=lambda s: s.score).name
    assert table.locator(".club-seats li.winner .name").all_inner_texts() == [winner]
    if size == "tv":       # the standings sit beside the tables, not at the far edge of the screen
        tables = tab.locator(".club-table").last.bounding_box()
        standings = tab.locator(".club-standings").bounding_box()
        assert standings["x"] - (tables["x"] + tables["width"]) < 60
    assert tab.evaluate("document.documentElement.scrollWidth") <= (PHONE if size == "phone" else TV)["width"]
    tab.screenshot(path=tmp_path / f"club-page-{size}.png", full_page=True)
    keep(tmp_path / f"club-page-{size}.png")
