"""``[web]`` in a table configuration, and the PIN gate."""

from __future__ import annotations

from cardtable.club.spec import CLUB
from cardtable.config import check_values
from cardtable.web.owner import PinGate
from cardtable.web.spec import WEB, parse_web


def test_the_page_is_off_unless_enabled():
    problems: list[str] = []
    assert not parse_web({}, problems).enabled and not problems


def test_every_mistake_in_web_is_named():
    problems: list[str] = []
    parse_web({"enabled": "yes", "port": 70000, "pin": 1234, "colour": 1}, problems)
    assert [p.split(":")[0] for p in problems] == ["web.colour", "web.enabled", "web.port", "web.pin"]
    assert "in quotes" in problems[-1]


def test_a_table_configuration_carries_web_and_club(tmp_path):
    problems: list[str] = []
    config = check_values({"game": {"name": "cribbage"}, "input": {"kind": "rfid"},
                           "rfid": {"readers": ["seat1", "seat2", "crib", "starter"]},
                           "web": {"enabled": True, "port": 8081, "pin": "0421"},
                           "club": {"broker": "mqtt://127.0.0.1:1883", "table": "T4"}},
                          tmp_path / "table.toml", problems)
    assert not problems
    web, club = config[WEB], config[CLUB]
    assert web.port == 8081 and web.pin == "0421"
    assert club.table == "T4" and club.broker.port == 1883


def test_wrong_pins_shut_the_gate_for_longer_each_time():
    now = [0.0]
    gate = PinGate("2468", clock=lambda: now[0])
    assert gate.login("1111") is None
    assert gate.login("2468") is None            # still shut
    now[0] += 0.3
    token = gate.login("2468")
    assert gate.allows(token) and not gate.allows("guess") and not gate.allows(None)
    gate.logout(token)
    assert not gate.allows(token)
    assert not PinGate("").enabled and PinGate("").login("") is None



def test_wrong_pins_shut_the_gate_for_the_client_that_sent_them_longer_each_time():
    now = [0.0]
    gate = PinGate("2468", clock=lambda: now[0], max_wait=60.0, clients=3)
    waits = []
    for _ in range(10):
        assert gate.login("0000", "guest") is None
        waits.append(gate.wait("guest"))
        assert gate.login("2468", "guest") is None              # the right PIN in the wait is refused too
        assert gate.wait("owner") == 0 and gate.allows(gate.login("2468", "owner"))   # never the owner
        now[0] += waits[-1]
    assert waits[:5] == [0.25, 0.5, 1.0, 2.0, 4.0] and waits[-1] == 60.0
    assert gate.allows(gate.login("2468", "guest"))
    assert gate.wait("guest") == 0                              # the right PIN forgets the wrong ones
    for n in range(10):
        gate.login("0000", f"flood{n}")
    assert len(gate._failures) <= 3                          # a flood of clients holds no memory
