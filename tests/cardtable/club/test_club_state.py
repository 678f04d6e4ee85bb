"""The club's standings kept game by game: after any sequence of records (new, replaced, unsigned,
from any table) they are what counting every kept record afresh gives; a table's games beyond the
cap are folded into totals that a restart reads back, and a folded game sent again is not counted
twice."""

from __future__ import annotations

import json
import time

import pytest
from waiting import wait_until

from hypothesis import HealthCheck, given, settings, strategies as st

from cardtable.club.server import ClubState
from cardtable.club.signing import SIGNED, UNSIGNED
from cardtable.club.standings import standings
from cardtable.club.store import ClubStore
from cardtable.club.topics import ClubMessage


def record(n: int, scores: list[int], winners: list[int], names=("Ann", "Bob"), at: float = 0.0) -> dict:
    return {"key": f"{n}-{1000 + n}", "game": "cribbage", "title": "Cribbage", "players": len(scores),
            "names": list(names), "scores": scores, "winners": winners, "events": [{"text": f"game {n}"}],
            "started": 1000.0 + n, "finished": 2000.0 + n if winners else None, "at": at or 3000.0 + n,
            "result": "", "instance": ""}


def message(table: str, data: dict, trust: str = SIGNED) -> ClubMessage:
    return ClubMessage(table, "game", data, data["key"], trust=trust)


games = st.tuples(st.sampled_from(["T1", "T2", "T3"]), st.integers(0, 6),
                  st.lists(st.integers(0, 121), min_size=2, max_size=2), st.sampled_from([[], [0], [1]]),
                  st.sampled_from(["Ann", "Bob", "Seat 1"]), st.sampled_from([SIGNED, SIGNED, UNSIGNED]))


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(games, max_size=40))
def test_standings_kept_game_by_game_are_those_counted_afresh(tmp_path_factory, sequence):
    store = ClubStore(tmp_path_factory.mktemp("club") / "club.sqlite")
    state = ClubState(store, "club", keys={"T1": b"k", "T2": b"k"}, push_interval=0)
    latest: dict[tuple[str, str], dict] = {}
    for at, (table, n, scores, winners, name, trust) in enumerate(sequence):
        data = record(n, scores, winners, names=(name, "Cy"), at=5000.0 + at)
        state.apply(message(table, data, trust))
        if trust == SIGNED or table == "T3":                 # the club holds keys for T1 and T2 only
            latest[(table, data["key"])] = {**data, "table": table, "trust": trust}
    counted = [r for r in latest.values() if r["trust"] == SIGNED]
    assert state.rankings() == standings(counted)
    state.close()
    store.close()


def test_a_table_cannot_make_the_club_keep_more_than_its_cap_and_folded_games_still_count(tmp_path):
    store = ClubStore(tmp_path / "club.sqlite")
    state = ClubState(store, "club", keys={"T1": b"k"}, max_games=3, push_interval=0)
    records = [record(n, [121, 80 + n], [0], names=("Ann", f"Bob{n % 2}")) for n in range(10)]
    for data in records:
        state.apply(message("T1", data))
    everything = standings([{**r, "table": "T1"} for r in records])
    assert state.rankings() == everything
    assert len(store.games(table="T1")) == 3
    # a folded game sent again (a table that reconnects republishes the evening) is not counted twice
    state.apply(message("T1", {**records[0], "at": 9999.0}))
    state.apply(message("T1", {**records[1], "winners": [1], "at": 9999.0}))
    assert state.rankings() == everything and len(store.games(table="T1")) == 3
    state.close()
    # a restart reads the folded totals and the kept games back
    again = ClubState(store, "club", keys={"T1": b"k"}, max_games=3, push_interval=0)
    assert again.rankings() == everything
    again.apply(message("T1", {**records[9], "winners": [1], "at": 9999.0}))    # an undo after the end
    assert again.rankings() == standings([{**r, "table": "T1"} for r in records[:9]]
                                         + [{**records[9], "winners": [1], "table": "T1"}])
    again.close()
    store.close()


def test_a_burst_of_records_makes_few_pushes(tmp_path):
    store = ClubStore(tmp_path / "club.sqlite")
    state = ClubState(store, "club", keys={"T1": b"k"}, push_interval=0.2)
    pushed = []
    state.broadcaster.send = lambda event, data, at=None: pushed.append(event)
    started = time.monotonic()
    for n in range(200):
        state.apply(message("T1", record(n, [121, 50], [0])))
    wait_until(lambda: "standings" in pushed, 5, what="the standings pushed")   # by the pusher's thread
    state.close()
    most = max(5, 2 + (time.monotonic() - started) / 0.2)      # one push an interval, however slow the machine
    assert 1 <= pushed.count("standings") <= most and pushed.count("table") <= most
    store.close()


def test_a_signed_table_is_still_shown_signed_after_the_club_restarts(tmp_path):
    store = ClubStore(tmp_path / "club.sqlite")
    state = ClubState(store, "club", keys={"T1": b"k"}, push_interval=0)
    state.apply(ClubMessage("T1", "view", {"game": "Cribbage", "seats": [], "at": 1.0}, trust=SIGNED))
    state.apply(ClubMessage("T1", "view", {"game": "Forged", "seats": [], "at": 2.0}, trust=UNSIGNED))
    state.close()
    again = ClubState(store, "club", keys={"T1": b"k"}, push_interval=0)
    tables, _, _ = again.snapshot()
    (table,) = json.loads(tables.data)
    assert table["trust"] == "signed" and table["game"] == "Cribbage"
    again.close()
    store.close()
