"""The host side of the CT1 protocol as a pure state machine: bytes and clock in, outputs out.

A :class:`Ct1Host` (the host side of CT1) is fed the bytes read from the port and the time; it answers with outputs:
:class:`ReaderChange` values (a tag placed, removed or moved), :class:`LinkChange` values (up, down,
resynced, refused), :class:`Send` (bytes to write back), and the board's health and error reports.
It drops bad lines, counts lost and repeated frames, asks for a snapshot (``SYNC?``) after a gap,
reconciles from every snapshot, pings a quiet board and declares it dead after ``dead_after``
seconds without a new frame. A line seen before is dropped however late it comes back; a frame
whose number does not follow (an old line, or a board that restarted while its HELLO was lost)
is dropped and answered with ``HELLO?``, as is a heartbeat whose uptime went back; the board's
boot id in HELLO tells a restart from an answer. The link (:mod:`firmware_bridge.link`) only
moves the bytes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from firmware_bridge.protocol import (
    PROTO_MAJOR, Frame, FrameError, Heartbeat, Hello, LineSplitter, Log, McuError, ReaderHealth,
    SeqWindow, State, Tag, decode_frame, encode_frame, parse_message,
)
from firmware_bridge.readers import ReaderView

logger = logging.getLogger(__name__)

UP, DOWN, RESYNCED, REFUSED = "up", "down", "resynced", "refused"


@dataclass(frozen=True)
class LinkChange:
    """The link went ``up``, ``down``, was ``resynced`` from a snapshot, or ``refused`` the board;
    ``reason`` says why in words for a person, ``info`` adds details (firmware, board, readers)."""

    state: str
    time: float
    reason: str = ""
    info: tuple[tuple[str, object], ...] = ()

    def to_json(self) -> dict:
        return {"type": "link", "state": self.state, "reason": self.reason, "time": round(self.time, 4),
                **dict(self.info)}


@dataclass(frozen=True)
class Send:
    """Bytes the link must write to the board."""

    data: bytes


@dataclass
class Counters:
    """What the host side has seen: lines, good frames, and every kind of damage."""

    lines: int = 0
    frames: int = 0
    noise: int = 0
    bad_crc: int = 0
    malformed: int = 0
    overlong: int = 0
    lost: int = 0
    duplicates: int = 0
    out_of_step: int = 0
    syncs: int = 0
    restarts: int = 0


class LinkStateReporter:
    """Reports link changes once per transition (``down`` is not repeated while retrying)."""

    def __init__(self) -> None:
        self.reported: str | None = None
        self.view = ReaderView()
        self.counters = Counters()
        self.dead = False

    def _report(self, state: str, now: float, reason: str = "", info=()) -> list[LinkChange]:
        if state == self.reported and state in (DOWN, REFUSED):
            return []
        self.reported = state
        return [LinkChange(state, now, reason, tuple(info))]

    def failed(self, reason: str, now: float) -> list[LinkChange]:
        """The port could not be opened or broke: ``reason`` says how."""
        self.dead = False
        return self._report(DOWN, now, reason)


class Ct1Host(LinkStateReporter):
    """The CT1 host side. Call :meth:`opened` when the port opens, :meth:`feed` with every chunk
    read, :meth:`tick` regularly, and :meth:`failed` when the port closes; :attr:`dead` turns true
    when the link must be closed and reopened."""

    def __init__(self, *, dead_after: float = 3.0, ping_after: float = 1.0) -> None:
        super().__init__()
        self.dead_after = dead_after
        self.ping_after = ping_after
        self.state = "closed"
        self.hello: Hello | None = None
        self._rx = SeqWindow()
        self._old_boots: set[str] = set()
        self._uptime: int | None = None
        self._asked: float | None = None
        self._tx_seq = 0
        self._splitter = LineSplitter()
        self._last_frame = 0.0
        self._last_sent = 0.0
        self._sync_pending = False

    # --- driven by the link ---

    def opened(self, now: float) -> list:
        """The port is open: say hello and wait for the board's HELLO."""
        self.state, self.dead = "waiting", False
        self._last_frame = now
        self._rx.forget()
        return [self._send("HELLO?", now)]

    def feed(self, data: bytes, now: float) -> list:
        """Everything the bytes ``data`` (any chunk of the stream) bring."""
        outputs = []
        for line in self._splitter.feed(data):
            outputs += self.line(line, now)
        self.counters.overlong = self._splitter.overlong
        return outputs

    def tick(self, now: float) -> list:
        """Time-driven work: resend HELLO? while waiting, PING a quiet board, declare it dead."""
        if self.state == "closed":
            return []
        silent = now - self._last_frame
        if silent >= self.dead_after:
            self.dead = True
            self.state = "closed"
            return self._report(DOWN, now, f"no word from the reader board for {silent:.1f} s")
        if self._asked is not None and now - self._asked >= self.ping_after:
            return self._ask_who(now)
        if now - self._last_sent >= self.ping_after:
            if self.state == "waiting":
                return [self._send("HELLO?", now)]
            if silent >= self.ping_after:
                return [self._send("PING", now)]
        return []

    def failed(self, reason: str, now: float) -> list[LinkChange]:
        self.state = "closed"
        return super().failed(reason, now)

    # --- one line ---

    def line(self, line: bytes, now: float) -> list:
        """Everything one line brings (its newline already cut off)."""
        self.counters.lines += 1
        start = line.rfind(b"$")
        if start != 0:
            self.counters.noise += 1
            if start < 0:
                logger.debug("not a frame: %r", line[:60])
                return []
        try:
            frame = decode_frame(line[start:])
            message = parse_message(frame)
        except FrameError as err:
            if err.reason == "bad_crc":
                self.counters.bad_crc += 1
            else:
                self.counters.malformed += 1
            logger.debug("dropped: %s", err)
            return []
        self.counters.frames += 1
        if frame.major != PROTO_MAJOR or (isinstance(message, Hello) and message.major != PROTO_MAJOR):
            self._last_frame = now
            return self._refuse(message, frame.major, now)
        if isinstance(message, Hello):
            return self._hello(frame, message, now)
        if self.state != "up":
            return []
        verdict = self._judge(frame)
        if verdict in ("repeat", "out_of_step"):
            return self._ask_who(now) if verdict == "out_of_step" else []
        self._last_frame = now
        outputs = [self._sync(now)] if verdict == "gap" else []
        if isinstance(message, Heartbeat):
            if self._uptime is not None and message.uptime_ms < self._uptime:
                logger.info("the reader board's uptime went back: it restarted")
                outputs += self._ask_who(now)
            self._uptime = message.uptime_ms
        return outputs + self._handle(message, now)

    def _judge(self, frame: Frame) -> str:
        verdict = self._rx.check(frame.seq, frame.crc)
        self.counters.lost, self.counters.duplicates = self._rx.lost, self._rx.repeats
        self.counters.out_of_step = self._rx.out_of_step
        return verdict

    def _ask_who(self, now: float) -> list:
        """Send ``HELLO?`` (at most every ``ping_after`` seconds until a HELLO comes)."""
        if self._asked is not None and now - self._asked < self.ping_after:
            return []
        self._asked = now
        return [self._send("HELLO?", now)]

    def _handle(self, message, now: float) -> list:
        readers = self.hello.readers
        if isinstance(message, Tag):
            if message.reader >= readers:
                return self._out_of_range(message.reader)
            return self.view.tag(message.reader, message.placed, message.uid, now)
        if isinstance(message, State):
            uids = message.uids[: max(0, readers - message.first)]
            changes = self.view.state(message.first, uids, now)
            if not self._sync_pending:
                return changes
            self._sync_pending = False
            return changes + self._report(RESYNCED, now, f"{len(changes)} change(s) caught up",
                                          [("changes", len(changes))])
        if isinstance(message, (ReaderHealth, McuError)):
            if isinstance(message, McuError):
                logger.warning("reader board error %s: %s", message.code, message.text)
            return [message]
        if isinstance(message, Log):
            logger.debug("reader board says: %s", message.text)
        return []

    def _out_of_range(self, reader: int) -> list:
        self.counters.malformed += 1
        logger.debug("reader %d is past the %d the board announced", reader, self.hello.readers)
        return []

    def _hello(self, frame: Frame, hello: Hello, now: float) -> list:
        """A HELLO: the handshake, the board's answer to ``HELLO?``, or a restarted board. A new
        boot id (or, from firmware without one, a number out of step) means a restart; a HELLO
        seen before, or from an earlier boot, is an old line and changes nothing."""
        if self.state != "up":
            return [] if hello.boot in self._old_boots else self._greet(frame, hello, now, restarted=False)
        boot = hello.boot
        if boot is not None and boot != self.hello.boot:
            if boot in self._old_boots:
                return []
            return self._greet(frame, hello, now, restarted=True)
        verdict = self._judge(frame)
        if verdict == "repeat" or (verdict == "out_of_step" and boot is not None):
            return []
        if verdict == "out_of_step":
            return self._greet(frame, hello, now, restarted=True)
        self._last_frame, self._asked = now, None                  # the answer to our HELLO?
        return [self._sync(now)]

    def _greet(self, frame: Frame, hello: Hello, now: float, *, restarted: bool) -> list:
        if self.hello is not None and self.hello.boot not in (None, hello.boot):
            self._old_boots.add(self.hello.boot)
        self.state, self.hello = "up", hello
        self._rx.restart(frame.seq, frame.crc)
        self._last_frame, self._asked, self._uptime = now, None, None
        self._sync_pending = True
        self.counters.restarts += restarted
        info = [("fw", hello.fw), ("board", hello.board), ("readers", hello.readers)]
        reason = "the reader board restarted" if restarted else f"{hello.board} firmware {hello.fw}"
        logger.info("reader board %s firmware %s, %d readers", hello.board, hello.fw, hello.readers)
        return [self._send("SYNC?", now)] + self._report(UP, now, reason, info)

    def _refuse(self, message, major: int, now: float) -> list:
        self.state = "refused"
        version = message.proto if isinstance(message, Hello) else str(major)
        fw = f" (firmware {message.fw})" if isinstance(message, Hello) else ""
        reason = (f"the reader board speaks protocol version {version}{fw}, but this cardtable speaks "
                  f"version {PROTO_MAJOR}: flash the firmware that ships with this cardtable")
        return self._report(REFUSED, now, reason)

    def _sync(self, now: float) -> Send:
        self.counters.syncs += 1
        self._sync_pending = True
        return self._send("SYNC?", now)

    def _send(self, type_: str, now: float) -> Send:
        self._last_sent = now
        data = encode_frame(self._tx_seq, type_)
        self._tx_seq = (self._tx_seq + 1) % 65536
        return Send(data)
