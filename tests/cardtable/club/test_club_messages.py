"""What the club reads from the broker is checked, cut down and never trusted; the ``[club]``
section; the standings."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from cardtable.club.signing import BAD, SIGNED, UNKNOWN, new_key_file, read_key, seal
from cardtable.club.spec import parse_broker, parse_club
from cardtable.club.standings import match_points, standings
from cardtable.club.topics import MAX_SEATS, read_message, clean_view
from engine.errors import InvalidInput

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=50),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=30,
)
view_like = st.fixed_dictionaries({}, optional={
    "game": json_values, "prompt": json_values, "seats": st.lists(st.dictionaries(
        st.sampled_from(["name", "score", "turn", "dealer", "note"]), json_values), max_size=12) | json_values,
    "centre": json_values, "play": json_values, "at": json_values, "finished": json_values})
topics = st.sampled_from(["cardtable/club/T1/view", "cardtable/club/T1/status", "cardtable/club/T1/game/1-2",
                          "cardtable/club/T1/game/x", "cardtable/other/T1/view", "cardtable/club/+/view", "#"])


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(topics, st.binary(max_size=200) | view_like.map(lambda d: json.dumps(d).encode()))
def test_any_message_on_any_topic_is_read_or_refused_never_raises(topic, payload):
    message = read_message(topic, payload, "club")
    if message is not None and message.kind == "view":
        view = message.data
        assert isinstance(view["prompt"], str) and len(view["seats"]) <= MAX_SEATS
        assert all(isinstance(s["score"], int) and isinstance(s["name"], str) for s in view["seats"])
        json.dumps(view, allow_nan=False)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["events", "scores", "winners", "names", "players", "finished"]), json_values))
def test_any_game_record_is_cut_down_to_plain_types(data):
    message = read_message("cardtable/club/T1/game/3-1700000000", json.dumps(data).encode(), "club")
    record = message.data
    json.dumps(record, allow_nan=False)
    assert all(isinstance(w, int) and 0 <= w < MAX_SEATS for w in record["winners"])
    assert all(isinstance(s, int) for s in record["scores"])


def test_a_view_keeps_only_known_fields_with_bounded_text():
    view = clean_view({"prompt": "x" * 10_000, "seats": [{"name": "Ann", "score": 5, "evil": 1}], "script": 1})
    assert len(view["prompt"]) == 300 and "script" not in view
    assert view["seats"] == [{"name": "Ann", "score": 5, "dealer": False, "turn": False, "note": ""}]


def test_status_is_online_or_offline_only():
    assert read_message("cardtable/club/T1/status", b"online", "club").data == "online"
    assert read_message("cardtable/club/T1/status", b"<b>up</b>", "club") is None


def test_broker_addresses():
    assert parse_broker("mqtt://10.0.0.5") == parse_broker("mqtt://10.0.0.5:1883")
    assert parse_broker("mqtts://club.example:8884").tls
    with pytest.raises(InvalidInput, match="mqtt://host:1883"):
        parse_broker("http://club.example")
    with pytest.raises(InvalidInput, match="port"):
        parse_broker("mqtt://host:99999")


def test_the_club_section_names_every_mistake():
    problems: list[str] = []
    spec = parse_club({"broker": "mqtt://h:1883", "table": "T 1", "club": 7, "colour": "red"}, problems)
    assert spec.broker.host == "h"
    assert [p.split(":")[0] for p in problems] == ["club.colour", "club.club", "club.table"]
    problems = []
    parse_club({"table": "T1"}, problems)
    assert problems == ["club.broker: missing; give the club's broker, e.g. broker = \"mqtt://192.168.1.10:1883\""]


def game(table, names, scores, winners, kind="cribbage", margin="win"):
    return {"table": table, "game": kind, "title": kind.title(), "names": names, "scores": scores, "winners": winners,
            "margin": margin}


def test_cribbage_club_scoring_two_for_a_win_three_for_a_skunk():
    """The margin is the game's (the record carries it): the club never re-derives skunk lines."""
    assert match_points("cribbage", "win") == 2
    assert match_points("cribbage", "skunk") == 3 and match_points("cribbage", "double skunk") == 3
    assert match_points("cribbage", "") == 2 and match_points("cribbage", "lots") == 2
    assert match_points("allfives", "win") == 1


def test_standings_rank_by_match_points_then_games_then_spread():
    board = standings([
        game("T1", ["Ann", "Bob"], [121, 80], [0], margin="skunk"),      # Ann skunks Bob: 3
        game("T2", ["Cat", "Dan"], [121, 100], [0]),     # Cat 2
        game("T2", ["Cat", "Dan"], [110, 121], [1]),     # Dan 2
        game("T3", ["Seat 1", "Seat 2"], [40, 61], [1], "allfives"),
    ])
    crib = board[1]
    assert crib["game"] == "cribbage"
    assert [(r["player"], r["points"]) for r in crib["rows"]] == [("Ann", 3), ("Cat", 2), ("Dan", 2), ("Bob", 0)]
    cat, dan = crib["rows"][1], crib["rows"][2]
    assert cat["spread"] == 21 - 11 and dan["spread"] == 11 - 21
    fives = board[0]
    assert fives["rows"][0] == {"player": "T3 seat 2", "points": 1, "wins": 1, "played": 1, "spread": 21}


envelopes = st.fixed_dictionaries({"signed": st.text(max_size=80) | json_values, "hmac": st.text(max_size=70) | json_values})


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(topics, envelopes.map(lambda d: json.dumps(d).encode()) | st.binary(max_size=100))
def test_any_signed_looking_message_is_read_or_refused_never_raises_and_never_trusted(topic, payload):
    message = read_message(topic, payload, "club", {"T1": bytes(32)})
    assert message is None or message.trust != SIGNED


@given(st.text(max_size=30), st.integers(0, 10**6))
def test_a_signed_message_is_trusted_only_under_its_own_topic_and_key(name, score):
    key, topic = bytes(range(32)), "cardtable/club/T1/view"
    payload = seal(key, topic, json.dumps({"prompt": name, "seats": [{"name": name, "score": score}]})).encode()
    message = read_message(topic, payload, "club", {"T1": key})
    assert message.trust == SIGNED and message.data["seats"][0]["score"] == min(score, 10**6)
    assert read_message(topic, payload, "club", {"T1": bytes(32)}).trust == BAD
    assert read_message(topic, payload, "club", {}).trust == UNKNOWN
    assert read_message("cardtable/club/T2/view", payload, "club", {"T2": key}).trust == BAD   # moved to T2
    assert read_message(topic, payload.replace(b"prompt", b"prompx"), "club", {"T1": key}).trust == BAD


def test_a_key_file_is_made_once_and_read_back_and_anything_else_is_refused(tmp_path):
    import os

    path = new_key_file(tmp_path / "keys" / "T1.key")
    assert os.stat(path).st_mode & 0o077 == 0 and len(read_key(path)) == 32
    with pytest.raises(InvalidInput, match="exists already"):
        new_key_file(path)
    os.mkfifo(tmp_path / "fifo.key")
    (tmp_path / "short.key").write_text("abcd\n")
    (tmp_path / "bytes.key").write_bytes(b"\xff" * 100)
    for bad, words in (("fifo.key", "not a regular file"), ("short.key", "not a club key"),
                       ("bytes.key", "not a club key"), ("missing.key", "cannot read")):
        with pytest.raises(InvalidInput, match=words):
            read_key(tmp_path / bad)


def test_a_club_key_file_that_cannot_be_read_is_named(tmp_path):
    problems: list[str] = []
    spec = parse_club({"broker": "mqtt://127.0.0.1", "key_file": str(tmp_path / "nope.key")}, problems)
    assert spec.key is None and problems == [f"club.key_file: cannot read the club key {tmp_path / 'nope.key'}: "
                                             "No such file or directory"]
    path = new_key_file(tmp_path / "T1.key")
    assert parse_club({"broker": "mqtt://127.0.0.1", "key_file": str(path)}, problems).key == read_key(path)
