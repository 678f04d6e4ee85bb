"""Random serial streams against the host side: lines lost, repeated at once or long after,
bits flipped, garbage, boards restarting with or without their HELLO, silences long enough to
reconnect. Whatever comes, nothing raises, no tag is reported where it is not, and once the line
is clean again the host's view is the board's (nothing accepted is lost)."""

from __future__ import annotations

from collections import deque

from hypothesis import given, settings, strategies as st

from firmware_bridge.protocol import (
    FrameError, Heartbeat, Hello, Request, State, Tag, decode_message, encode_message,
)
from firmware_bridge.readers import MOVED, PLACED, REMOVED, ReaderChange
from firmware_bridge.host import Ct1Host, Send

READERS = 4
UIDS = ("04A23B1C", "0A0B0C0D", "11223344", "04A23B1C556677")


class Board:
    """A reader board: the truth of what lies on each reader, and the lines it sends about it."""

    def __init__(self) -> None:
        self.uids: list[str | None] = [None] * READERS
        self.boots = 0
        self.boot(0.0)

    def boot(self, now: float) -> None:
        self.seq, self.booted, self.boots = 0, now, self.boots + 1

    def line(self, message) -> bytes:
        data = encode_message(self.seq, message)
        self.seq = (self.seq + 1) % 65536
        return data

    def hello(self, now: float) -> bytes:
        hello = Hello("1", "1.0.0", "fuzz", READERS, (("boot", f"{self.boots:08X}"),))
        return self.line(hello) + self.state()

    def state(self) -> bytes:
        return self.line(State(0, tuple(self.uids)))

    def beat(self, now: float) -> bytes:
        return self.line(Heartbeat(int((now - self.booted) * 1000)))

    def place(self, reader: int, uid: str) -> bytes:
        data = b""
        if self.uids[reader] is not None:
            data += self.remove(reader)
        if uid in self.uids:                       # a card is on one reader at a time
            data += self.remove(self.uids.index(uid))
        self.uids[reader] = uid
        return data + self.line(Tag(reader, True, uid))

    def remove(self, reader: int) -> bytes:
        uid, self.uids[reader] = self.uids[reader], None
        return b"" if uid is None else self.line(Tag(reader, False, uid))

    def answer(self, request: bytes, now: float) -> bytes:
        try:
            message = decode_message(request)
        except FrameError:
            return b""
        if message == Request("HELLO?"):
            return self.hello(now)
        if message == Request("SYNC?"):
            return self.state()
        return self.beat(now) if message == Request("PING") else b""


class Table:
    """The board, the wire (with the faults a step asks for) and the host side, checked as
    they go: every tag the host reports as arriving lies on that reader."""

    def __init__(self) -> None:
        self.board, self.ct1, self.now = Board(), Ct1Host(), 0.0
        self.history: list[bytes] = []           # every line the wire carried on this connection
        self.view: dict[int, str] = {}
        self.pending: deque[bytes] = deque()     # lines on their way, in order
        self.delivering = False
        self.host(self.ct1.opened(0.0))

    def host(self, outputs: list) -> None:
        """Check the host's outputs against the truth, and let the board answer its requests."""
        for index, item in enumerate(outputs):
            if isinstance(item, Send):
                self.wire(self.board.answer(item.data, self.now))
            elif isinstance(item, ReaderChange):
                self.check(item, outputs[index + 1:])

    def check(self, change: ReaderChange, after: list) -> None:
        if change.kind == REMOVED:
            assert self.view.get(change.reader) == change.uid
            del self.view[change.reader]
            return
        lost_placement = (change.kind == PLACED and after and isinstance(after[0], ReaderChange)
                          and (after[0].kind, after[0].reader, after[0].uid) == (REMOVED, change.reader, change.uid))
        assert lost_placement or self.board.uids[change.reader] == change.uid, f"{change} is not on the table"
        if change.kind == MOVED:
            assert self.view.pop(change.from_reader) == change.uid
        self.view[change.reader] = change.uid

    def wire(self, data: bytes) -> None:
        """Send ``data`` after what is already on its way; the board's answers queue up behind."""
        self.pending.extend(data.splitlines(keepends=True))
        if self.delivering:
            return
        self.delivering = True
        while self.pending:
            line = self.pending.popleft()
            self.history.append(line)
            self.host(self.ct1.feed(line, self.now))
        self.delivering = False

    def tick(self, seconds: float) -> None:
        self.now += seconds
        self.host(self.ct1.tick(self.now))
        if self.ct1.dead:                    # the link closes the port and opens it again
            self.ct1.failed("silent", self.now)
            self.history = []
            self.host(self.ct1.opened(self.now))


steps = st.lists(st.one_of(
    st.tuples(st.just("place"), st.integers(0, READERS - 1), st.sampled_from(UIDS)),
    st.tuples(st.just("remove"), st.integers(0, READERS - 1)),
    st.tuples(st.sampled_from(["beat", "state", "repeat", "drop"])),
    st.tuples(st.just("stale"), st.integers(1, 3000)),
    st.tuples(st.just("flip"), st.integers(0, 200), st.integers(0, 7)),
    st.tuples(st.just("garbage"), st.binary(min_size=1, max_size=40)),
    st.tuples(st.just("reboot"), st.sampled_from(["hello", "no hello", "damaged hello"])),
    st.tuples(st.just("wait"), st.sampled_from([0.3, 1.1, 3.5])),
), max_size=40)


def play(table: Table, step: tuple) -> None:
    board, kind = table.board, step[0]
    if kind == "place":
        table.wire(board.place(step[1], step[2]))
    elif kind == "remove":
        table.wire(board.remove(step[1]))
    elif kind == "beat":
        table.wire(board.beat(table.now))
    elif kind == "state":
        table.wire(board.state())
    elif kind == "repeat" and table.history:
        table.wire(table.history[-1])
    elif kind == "stale" and table.history:
        table.wire(table.history[-1 - step[1] % len(table.history)])
    elif kind == "drop":
        board.beat(table.now)                    # sent, never arrives
    elif kind == "flip":
        line = bytearray(board.beat(table.now))
        where = step[1] % (len(line) - 1)
        line[where] ^= 1 << step[2]
        table.wire(bytes(line))
    elif kind == "garbage":
        table.wire(step[1])
    elif kind == "reboot":
        board.boot(table.now)
        hello = board.hello(table.now)
        if step[1] == "hello":
            table.wire(hello)
        elif step[1] == "damaged hello":
            table.wire(hello[:8] + b"X" + hello[9:])
    elif kind == "wait":
        table.tick(step[1])
    table.tick(0.05)


@settings(max_examples=150, deadline=None)
@given(steps)
def test_no_stream_raises_invents_a_tag_or_loses_one(script):
    table = Table()
    for step in script:
        play(table, step)
    for _ in range(12):                          # a clean line for a few seconds
        table.wire(table.board.beat(table.now) + table.board.state())
        table.tick(0.5)
    assert table.ct1.state == "up"
    assert table.ct1.view.uids == table.view == {r: u for r, u in enumerate(table.board.uids) if u}
