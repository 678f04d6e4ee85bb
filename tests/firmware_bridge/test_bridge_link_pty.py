"""The bridge over a real pseudo-terminal against the twin: events, faults, unplugging, rebooting.

Real time is needed here (a real pty and a thread on each side); every wait is bounded and short.
"""

import queue
import time

import pytest

from engine.table_events import TableEvent
from firmware_bridge.bridge import Bridge, UnknownTag
from firmware_bridge.link import Link, LinkClosed
from firmware_bridge.protocol import ReaderHealth, Request
from firmware_bridge.host import Ct1Host, LinkChange
from firmware_bridge.twin import Twin

from bridge_helpers import collect, uid_of
from waiting import patience, wait_until


def cards(events):
    return [(e.kind, e.card.id, e.zone) for e in events if isinstance(e, TableEvent)]


def states(events):
    return [e.state for e in events if isinstance(e, LinkChange)]


def has(*wanted):
    return lambda events: all(item in cards(events) for item in wanted)


@pytest.mark.slow
def test_cards_become_table_events_in_their_zones_and_unknown_tags_stay_unknown(twin, registry, fast):
    with Bridge(twin.port, registry, zones=["seat1", "seat2"], **fast) as bridge:
        assert states(collect(bridge, lambda ev: "resynced" in states(ev))) == ["up", "resynced"]
        twin.place(0, uid_of(6))        # 7S
        twin.place(1, uid_of(6 + 13))   # 7H
        twin.place(2, "DEADBEEF")
        events = collect(bridge, lambda ev: len(cards(ev)) == 2 and any(isinstance(e, UnknownTag) for e in ev))
        assert cards(events) == [("placed", "7S", "seat1"), ("placed", "7H", "seat2")]
        unknown = [e for e in events if isinstance(e, UnknownTag)]
        assert [(u.uid, u.zone, u.kind) for u in unknown] == [("DEADBEEF", "reader2", "placed")]
        assert all(e.source == "rfid" for e in events if isinstance(e, TableEvent))
        twin.place(1, uid_of(6))         # the 7S moves from seat1 to seat2, replacing the 7H
        events = collect(bridge, lambda ev: len(cards(ev)) == 2)
        assert cards(events) == [("removed", "7H", "seat2"), ("moved", "7S", "seat2")]
        assert [e.from_zone for e in events if isinstance(e, TableEvent)][-1] == "seat1"
        since = twin.snapshots       # two snapshots go by: nothing new
        wait_until(lambda: twin.snapshots >= since + 2, 5, what="two STATE snapshots")
        assert cards(collect(bridge, lambda ev: False, timeout=0.3)) == []


def test_garbage_truncated_corrupt_and_dropped_lines_never_invent_or_lose_cards(twin, registry, fast):
    with Bridge(twin.port, registry, **fast) as bridge:
        collect(bridge, lambda ev: "resynced" in states(ev))
        twin.inject_garbage(b"\x00\xff$CT1,9,TAG,0,PLACED,04000033*0000\n$$$\n")
        twin.truncate_lines(1)
        twin.place(0, uid_of(1))
        twin.corrupt_lines(1)
        twin.place(1, uid_of(2))
        twin.drop_lines(1)
        twin.place(2, uid_of(3))
        twin.inject_garbage()
        events = collect(bridge, has(("placed", "2S", "reader0"), ("placed", "3S", "reader1"), ("placed", "4S", "reader2")))
        assert sorted(cards(events)) == [("placed", "2S", "reader0"), ("placed", "3S", "reader1"), ("placed", "4S", "reader2")]
        counters = bridge.link.host.counters
        assert counters.bad_crc + counters.malformed >= 2 and counters.syncs >= 1
        assert any(isinstance(message, Request) and message.type == "SYNC?" for message in twin.received)


@pytest.mark.slow
def test_silence_takes_the_link_down_and_it_comes_back_by_itself(twin, registry, fast):
    with Bridge(twin.port, registry, **fast) as bridge:
        collect(bridge, lambda ev: "resynced" in states(ev))
        twin.go_silent()
        twin.place(0, uid_of(10))
        assert "down" in states(collect(bridge, lambda ev: "down" in states(ev), timeout=1.5))
        twin.speak()
        events = collect(bridge, has(("placed", "JS", "reader0")), timeout=2.0)
        assert states(events)[0] == "up" and cards(events) == [("placed", "JS", "reader0")]


@pytest.mark.slow
def test_unplug_and_replug_recover_without_restarting_anything(twin, registry, fast):
    with Bridge(twin.port, registry, **fast) as bridge:
        collect(bridge, lambda ev: "resynced" in states(ev))
        twin.place(0, uid_of(0))
        twin.place(1, uid_of(1))
        collect(bridge, lambda ev: len(cards(ev)) == 2)
        twin.unplug()
        down = collect(bridge, lambda ev: "down" in states(ev), timeout=1.0)
        assert "disconnected" in [e for e in down if isinstance(e, LinkChange)][0].reason
        twin.remove(0)               # while unplugged: the host must learn it from the snapshot
        twin.place(2, uid_of(2))
        time.sleep(patience(0.3))
        twin.replug()
        events = collect(bridge, has(("removed", "AS", "reader0"), ("placed", "3S", "reader2")), timeout=2.0)
        assert sorted(cards(events)) == [("placed", "3S", "reader2"), ("removed", "AS", "reader0")]
        assert bridge.link.is_up and bridge.link.reconnects >= 1


@pytest.mark.slow
def test_a_reboot_mid_game_reports_only_real_changes(twin, registry, fast):
    with Bridge(twin.port, registry, **fast) as bridge:
        collect(bridge, lambda ev: "resynced" in states(ev))
        twin.place(0, uid_of(0))
        collect(bridge, lambda ev: len(cards(ev)) == 1)
        twin.reboot()
        events = collect(bridge, lambda ev: "resynced" in states(ev))
        restarted = [e for e in events if isinstance(e, LinkChange) and e.state == "up"]
        assert restarted and "restarted" in restarted[0].reason
        assert cards(events + collect(bridge, lambda ev: False, timeout=0.3)) == []


@pytest.mark.slow
def test_a_board_speaking_another_protocol_is_refused(registry, fast):
    with Twin(readers=2, proto="2", heartbeat=0.25) as board, Bridge(board.port, registry, **fast) as bridge:
        events = collect(bridge, lambda ev: "refused" in states(ev))
        refusal = [e for e in events if isinstance(e, LinkChange)][0]
        assert refusal.state == "refused" and "protocol version 2" in refusal.reason
        board.place(0, uid_of(0))
        assert cards(collect(bridge, lambda ev: False, timeout=0.4)) == []


def test_reader_health_is_reported(twin, registry, fast):
    with Bridge(twin.port, registry, **fast) as bridge:
        collect(bridge, lambda ev: "resynced" in states(ev))
        twin.set_reader_ok(3, False)
        events = collect(bridge, lambda ev: any(isinstance(e, ReaderHealth) for e in ev))
        assert [e for e in events if isinstance(e, ReaderHealth)] == [ReaderHealth(3, False, "00")]


@pytest.mark.slow
def test_five_percent_loss_with_garbage_delivers_every_placement_within_two_seconds_once(registry, fast):
    """The target: 5% of lines lost, garbage mixed in; 24 cards laid four at a time, each for 0.4 s."""
    with Twin(readers=4, heartbeat=0.25, state_every=0.5, seed=5) as board, Bridge(board.port, registry, **fast) as bridge:
        collect(bridge, lambda ev: "resynced" in states(ev))
        board.set_noise(loss=0.05, garbage=0.05)
        board.inject_garbage()
        laid, events = {}, []
        for round_ in range(6):
            for reader in range(4):
                index = round_ * 4 + reader
                laid[registry.deck.cards[index].id] = time.monotonic()
                board.place(reader, uid_of(index))
            events += collect(bridge, lambda ev: False, timeout=0.4)
        for reader in range(4):
            board.remove(reader)
        events += collect(bridge, lambda ev: sum(1 for e in cards(ev) if e[0] == "removed") >= 4, timeout=2.0)
        table = [e for e in events if isinstance(e, TableEvent)]
        arrivals = {}
        for event in table:
            if event.kind in ("placed", "moved"):
                assert event.card.id not in arrivals, f"{event.card.id} was delivered twice"
                arrivals[event.card.id] = event.time
        assert set(arrivals) == set(laid)
        assert max(arrivals[card] - laid[card] for card in laid) < 2.0
        assert board.dropped > 0 and bridge.link.host.counters.noise > 0


def test_close_is_idempotent_and_a_closed_link_cannot_restart(twin, registry, fast):
    bridge = Bridge(twin.port, registry, **fast).start()
    bridge.close()
    bridge.close()
    with pytest.raises(LinkClosed):
        bridge.start()
    twin.close()
    twin.close()


def test_a_session_that_raises_never_ends_the_link(twin, fast):
    """Whatever the host meets, the link thread reports it, reopens the port and carries on."""

    class Fragile(Ct1Host):
        raised = 0

        def feed(self, data, now):
            if Fragile.raised < 2:
                Fragile.raised += 1
                raise ValueError("a parser met something it was never written for")
            return super().feed(data, now)

    with Link(twin.port, host=Fragile(dead_after=0.6, ping_after=0.2), backoff=fast["backoff"]) as link:
        deadline, seen = time.monotonic() + 5, []
        while "resynced" not in [getattr(e, "state", None) for e in seen] and time.monotonic() < deadline:
            try:
                seen.append(link.outputs.get(timeout=0.05))
            except queue.Empty:
                pass
        downs = [e.reason for e in seen if isinstance(e, LinkChange) and e.state == "down"]
        assert downs and "a parser met something it was never written for" in downs[0]
        assert link.is_alive() and link.is_up
    assert not link.is_alive()


def test_a_reboot_whose_hello_is_damaged_is_noticed_and_a_card_laid_just_after_comes_at_once(registry, fast):
    """Snapshots only every 5 s here, so nothing but noticing the restart brings the card soon."""
    with Twin(readers=4, heartbeat=0.25, state_every=5.0, seed=3) as twin, Bridge(twin.port, registry, **fast) as bridge:
        collect(bridge, lambda ev: "resynced" in states(ev))
        twin.place(0, uid_of(0))
        collect(bridge, lambda ev: len(cards(ev)) == 1)
        twin.corrupt_lines(1)
        twin.reboot()                    # its HELLO is damaged on the wire
        laid = time.monotonic()
        twin.place(1, uid_of(1))
        events = collect(bridge, lambda ev: len(cards(ev)) == 1, timeout=3)
        assert cards(events) == [("placed", "2S", "reader1")] and time.monotonic() - laid < 0.5
        assert "the reader board restarted" in [e.reason for e in events if isinstance(e, LinkChange)]
