"""The CT1 host state machine, driven by hand-made bytes and a fake clock (no port, no sleeping)."""

import pytest
from hypothesis import given, settings, strategies as st

from firmware_bridge.protocol import (
    Heartbeat, Hello, McuError, ReaderHealth, State, Tag, decode_message, encode_message,
)
from firmware_bridge.readers import ReaderChange
from firmware_bridge.host import Ct1Host, LinkChange, Send


class Board:
    """Writes what a board would send, numbering its frames."""

    def __init__(self, proto="1"):
        self.seq, self.proto, self.boot = 0, proto, "0000CAFE"

    def frame(self, message) -> bytes:
        line = encode_message(self.seq, message, major=int(self.proto.split(".")[0]))
        self.seq += 1
        return line

    def hello(self, readers=4):
        return self.frame(Hello(self.proto, "1.0.0", "pico", readers, (("boot", self.boot),)))


def sent(outputs):
    return [decode_message(item.data).type for item in outputs if isinstance(item, Send)]


def changes(outputs):
    return [(c.kind, c.reader, c.uid) for c in outputs if isinstance(c, ReaderChange)]


def links(outputs):
    return [c.state for c in outputs if isinstance(c, LinkChange)]


def up_host(readers=4):
    host, board = Ct1Host(), Board()
    assert sent(host.opened(0.0)) == ["HELLO?"]
    outputs = host.feed(board.hello(readers) + board.frame(State(0, (None,) * readers)), 0.1)
    assert links(outputs) == ["up", "resynced"] and sent(outputs) == ["SYNC?"]
    return host, board


def test_handshake_then_tags_become_changes_and_a_repeat_is_nothing():
    host, board = up_host()
    out = host.feed(board.frame(Tag(1, True, "04A23B1C")) + board.frame(Tag(1, True, "04A23B1C")), 0.2)
    assert changes(out) == [("placed", 1, "04A23B1C")]


def test_frames_before_the_hello_are_ignored():
    host, board = Ct1Host(), Board()
    host.opened(0.0)
    assert host.feed(board.frame(Tag(0, True, "04A23B1C")), 0.1) == []


def test_a_gap_is_answered_with_sync_and_the_snapshot_heals_the_lost_event():
    host, board = up_host()
    board.frame(Tag(2, True, "04A23B1C"))  # lost on the wire
    out = host.feed(board.frame(Tag(0, True, "0A0B0C0D")), 0.3)
    assert changes(out) == [("placed", 0, "0A0B0C0D")] and sent(out) == ["SYNC?"]
    out = host.feed(board.frame(State(0, ("0A0B0C0D", None, "04A23B1C", None))), 0.35)
    assert changes(out) == [("placed", 2, "04A23B1C")] and links(out) == ["resynced"]
    assert host.counters.lost == 1 and host.counters.syncs == 1


def test_bad_crc_noise_and_overlong_lines_are_dropped_and_counted():
    host, board = up_host()
    good = board.frame(Tag(0, True, "04A23B1C"))
    bad = bytearray(board.frame(Tag(1, True, "0A0B0C0D")))
    bad[12] ^= 1
    out = host.feed(b"\x00\xffjunk\n" + bytes(bad) + b"x" * 300 + b"\n" + b"garbage$$" + good, 0.3)
    assert changes(out) == [("placed", 0, "04A23B1C")]
    assert host.counters.bad_crc == 1 and host.counters.overlong == 1 and host.counters.noise == 2


def test_a_repeated_frame_is_dropped():
    host, board = up_host()
    line = board.frame(Tag(0, True, "04A23B1C"))
    host.feed(line, 0.2)
    removed = board.frame(Tag(0, False, "04A23B1C"))
    assert changes(host.feed(removed + line, 0.3)) == [("removed", 0, "04A23B1C")]
    assert host.counters.duplicates == 1


def test_quiet_board_is_pinged_then_declared_dead_after_three_seconds():
    host, board = up_host()
    assert host.tick(0.5) == []
    assert sent(host.tick(1.2)) == ["PING"]
    assert host.tick(2.0) == [] and not host.dead
    out = host.tick(3.15)
    assert links(out) == ["down"] and host.dead and "3.0 s" in out[0].reason
    assert host.failed("closed", 3.2) == []  # down is reported once


def test_while_waiting_for_hello_it_asks_again_and_gives_up_after_three_seconds():
    host = Ct1Host()
    host.opened(0.0)
    assert sent(host.tick(1.0)) == ["HELLO?"]
    assert sent(host.tick(2.0)) == ["HELLO?"]
    assert links(host.tick(3.0)) == ["down"]


def test_another_protocol_major_is_refused_with_a_clear_message_once():
    host, board = Ct1Host(), Board(proto="2")
    host.opened(0.0)
    out = host.feed(board.hello() + board.frame(Tag(0, True, "04A23B1C")) + board.hello(), 0.1)
    assert links(out) == ["refused"] and changes(out) == []
    assert "protocol version 2" in out[0].reason and "flash the firmware" in out[0].reason


def test_a_reboot_keeps_the_cards_and_reports_only_what_changed():
    host, board = up_host()
    host.feed(board.frame(Tag(0, True, "04A23B1C")) + board.frame(Tag(1, True, "0A0B0C0D")), 0.2)
    board.seq, board.boot = 0, "0000BEEF"
    out = host.feed(board.hello() + board.frame(State(0, ("04A23B1C", None, None, None))), 5.0)
    assert links(out) == ["up", "resynced"]
    assert "restarted" in [c for c in out if isinstance(c, LinkChange)][0].reason
    assert changes(out) == [("removed", 1, "0A0B0C0D")]


def test_tags_on_readers_the_board_does_not_have_are_dropped():
    host, board = up_host(readers=2)
    assert changes(host.feed(board.frame(Tag(5, True, "04A23B1C")), 0.2)) == []
    assert host.counters.malformed == 1


def test_health_and_errors_pass_through():
    host, board = up_host()
    out = host.feed(board.frame(ReaderHealth(3, False, "00")) + board.frame(McuError("OVERFLOW", "rx")), 0.2)
    assert out == [ReaderHealth(3, False, "00"), McuError("OVERFLOW", "rx")]


events = st.lists(st.tuples(st.integers(0, 3), st.booleans(), st.sampled_from(["04A23B1C", "0A0B0C0D", "11223344"])),
                  min_size=1, max_size=12)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(events, st.data())
def test_corrupted_lines_never_make_events(tags, data):
    """Feed a stream where some frames are damaged: every change must come from an intact frame."""
    host, board = up_host()
    stream, intact = b"", set()
    for reader, placed, uid in tags:
        line = bytearray(board.frame(Tag(reader, placed, uid)))
        if data.draw(st.booleans()):
            where = data.draw(st.integers(1, len(line) - 2))
            line[where] = data.draw(st.integers(0, 255).filter(lambda b, old=line[where]: b not in (old, 10)))
        else:
            intact.add((reader, uid))
        stream += bytes(line)
    stream += data.draw(st.binary(max_size=30))
    out = host.feed(stream, 1.0)
    assert {(c.reader, c.uid) for c in out if isinstance(c, ReaderChange)} <= intact


# --- stale lines, restarts the HELLO did not announce, repeated HELLOs (issue 10) ---------------


class AnsweringBoard(Board):
    """A board that also answers the host's requests and can restart with its HELLO lost."""

    def __init__(self, readers=4, boot="0000CAFE"):
        super().__init__()
        self.readers, self.boot, self.uids, self.uptime = readers, boot, [None] * readers, 0

    def hello(self, readers=None):
        return self.frame(Hello("1", "1.0.0", "pico", self.readers, (("boot", self.boot),)))

    def state(self):
        return self.frame(State(0, tuple(self.uids)))

    def beat(self, ms=1000):
        self.uptime += ms
        return self.frame(Heartbeat(self.uptime))

    def place(self, reader, uid):
        self.uids[reader] = uid
        return self.frame(Tag(reader, True, uid))

    def remove(self, reader):
        uid, self.uids[reader] = self.uids[reader], None
        return self.frame(Tag(reader, False, uid))

    def restart(self, boot):
        self.seq, self.boot, self.uptime = 0, boot, 0

    def answer(self, outputs) -> bytes:
        replies = b""
        for request in sent(outputs):
            if request == "HELLO?":
                replies += self.hello() + self.state()
            elif request == "SYNC?":
                replies += self.state()
        return replies


def converse(host, board, data, now):
    """Feed ``data``, then the board's answers to whatever the host asks, until it asks nothing."""
    outputs = []
    while data:
        step = host.feed(data, now)
        outputs += step
        data = board.answer(step)
    return outputs


def answering_session():
    host, board = Ct1Host(), AnsweringBoard()
    converse(host, board, board.answer(host.opened(0.0)), 0.1)
    assert host.state == "up"
    return host, board


@pytest.mark.parametrize("late", [32, 40, 100, 1000])
def test_a_valid_line_sent_again_long_after_is_never_new(late):
    host, board = answering_session()
    placed = board.place(0, "04A23B1C")
    assert changes(converse(host, board, placed, 0.2)) == [("placed", 0, "04A23B1C")]
    assert changes(converse(host, board, board.remove(0), 0.3)) == [("removed", 0, "04A23B1C")]
    for _ in range(late):
        converse(host, board, board.beat(10), 0.4)
    out = converse(host, board, placed + board.beat(10), 0.5)
    assert changes(out) == [] and links(out) == []


def test_a_restart_whose_hello_is_lost_is_noticed_from_the_sequence_numbers():
    host, board = answering_session()
    for _ in range(5):
        converse(host, board, board.beat(), 1.0)
    board.restart("0000BEEF")
    board.frame(Hello("1", "1.0.0", "pico", 4, (("boot", "0000BEEF"),)))     # lost on the wire
    out = converse(host, board, board.state() + board.place(2, "0A0B0C0D"), 6.0)
    assert changes(out) == [("placed", 2, "0A0B0C0D")]
    assert [(c.state, c.reason) for c in out if isinstance(c, LinkChange)][0] == ("up", "the reader board restarted")


def test_a_restart_whose_numbers_happen_to_fit_is_noticed_from_the_uptime():
    host, board = answering_session()
    converse(host, board, board.beat(5000), 5.0)
    last = board.seq
    board.restart("0000BEEF")
    board.seq = last                                   # its numbers happen to carry on from ours
    out = converse(host, board, board.beat(40) + board.place(1, "0A0B0C0D"), 5.1)
    assert "the reader board restarted" in [c.reason for c in out if isinstance(c, LinkChange)]
    assert changes(out) == [("placed", 1, "0A0B0C0D")]


def test_a_repeated_hello_reports_the_restart_once():
    host, board = answering_session()
    board.restart("0000BEEF")
    hello = board.hello()
    out = converse(host, board, hello + hello + board.state(), 2.0)
    assert [c.reason for c in out if isinstance(c, LinkChange) and c.state == "up"] == ["the reader board restarted"]
