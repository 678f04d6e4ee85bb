"""The owner's requests reach the table through its own loop: start a game with names and
options, undo, end a game; the history lists the journal's games; nothing without the PIN."""

from __future__ import annotations

import httpx2

import pytest
from web_helpers import owner_client, wait_until
from cardtable.table.owner_requests import ENDED
from engine.decks import get_deck
from engine.table_events import TableEvent
from waiting import patience


def owner(page) -> httpx2.Client:
    return owner_client(page.url, "2468")


@pytest.mark.slow
def test_nothing_without_the_pin(table):
    page, session, _ = table
    stranger = httpx2.Client(base_url=page.url, timeout=patience(10))
    for path in ("/owner/undo", "/owner/end", "/owner/start"):
        assert stranger.post(path, json={}).status_code == 403
    assert stranger.get("/owner/status.json").status_code == 403
    assert stranger.get("/owner/camera.jpg").status_code == 403
    assert "pin" in stranger.get("/owner").text.lower() and "undo" not in stranger.get("/owner").text.lower()
    assert session.game.rules.name == "cribbage"


@pytest.mark.slow
def test_the_owner_starts_a_game_with_names_and_options_undoes_and_ends_it(table):
    page, session, items = table
    client = owner(page)
    answer = client.post("/owner/start", json={"game": "allfives", "players": 3, "names": ["Ann", "Bob", "<i>Cy</i>"],
                                               "options": {"target": 31}}).json()["answer"]
    assert answer == "All Fives for 3 has started"
    assert session.game.setup.names == ("Ann", "Bob", "<i>Cy</i>")
    assert session.game.setup.options["target"] == 31
    view = httpx2.get(page.url + "/view.json").json()
    assert view["game"] == "All Fives" and [s["name"] for s in view["seats"]] == ["Ann", "Bob", "<i>Cy</i>"]
    assert client.post("/owner/undo", json={}).json()["answer"] == "Nothing to undo"
    deck = get_deck(session.game.rules.deck)
    items.put(TableEvent("placed", deck.cards[0], "seat1", 0.0))        # Ann cuts a card
    wait_until(lambda: httpx2.get(page.url + "/view.json").json()["prompt"].startswith("Bob"))
    assert client.post("/owner/undo", json={}).json()["answer"] == "The last action was taken back"
    assert client.post("/owner/end", json={}).json()["answer"] == "The game was ended; a new one has started"
    games = httpx2.get(page.url + "/history.json").json()
    assert [g["result"] for g in games] == [ENDED]    # a game is journalled with its first action: only All Fives
    record = httpx2.get(f"{page.url}/history/{games[0]['id']}.json").json()
    assert record["game"] == "allfives" and record["result"] == ENDED and "actions" in record
    assert httpx2.get(page.url + "/history/999.json").status_code == 404


def test_a_bad_request_is_answered_in_words_and_the_table_goes_on(table):
    page, session, _ = table
    client = owner(page)
    assert client.post("/owner/start", json={"game": "chess"}).json()["answer"].startswith("Not done:")
    assert client.post("/owner/start", json={"game": "its15", "players": 9}).json()["answer"] == \
        "Not done: It's 15 is for 2 or 3 or 4 or 5 players"
    assert client.post("/owner/start", json={"game": "cribbage", "options": {"target": 7}}).json()["answer"] \
        .startswith("Not done: option target")
    assert client.post("/owner/start", content=b"[1,").status_code == 400
    assert client.post("/owner/fly", json={}).json()["answer"].startswith("Not done")
    assert session.game.rules.name == "cribbage" and not session.game.finished
