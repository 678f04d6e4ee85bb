"""The CT1 wire protocol as a pure byte codec: framing, CRC, messages and the sequence window.

A frame is one ASCII line ``$CT1,<seq>,<TYPE>,<fields...>*<CRC>\\n``: the CRC is
CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) of the bytes between ``$`` and ``*``,
written as four uppercase hex digits; ``seq`` counts 0..65535 per direction and wraps; a line is at
most 128 bytes with its newline. Nothing here does I/O: the link moves bytes, this module judges
them.

>>> encode_frame(2, "HB", ["12345"])
b'$CT1,2,HB,12345*1BF6\\n'
>>> decode_message(b"$CT1,3,TAG,0,REMOVED,04A2B3C4*04EB")
Tag(reader=0, placed=False, uid='04A2B3C4')
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass, field

from engine.errors import InvalidInput

PROTO_MAJOR = 1
MAX_LINE = 128
SEQ_MODULO = 1 << 16
#: How far ahead of the last accepted frame a frame may be numbered and still be believed. While
#: the link is up no more frames than this can be lost in a row (it goes down after 3 s without a
#: frame); anything further ahead, or behind, is an old line or a board that counts from 0 again.
FORWARD_WINDOW = 1024
MIN_UID_BYTES, MAX_UID_BYTES = 4, 10
EMPTY = "-"

HOST_TYPES = ("HELLO?", "SYNC?", "PING")

_FIELD_CHARS = rb"[\x20-\x23\x25-\x29\x2b\x2d-\x7e]"
_FRAME = re.compile(
    rb"\$(CT(\d{1,3}),(\d{1,5}),([A-Z]{1,8}\??)((?:," + _FIELD_CHARS + rb"*)*))\*([0-9A-F]{4})"
)
_UID = re.compile(r"(?:[0-9A-F]{2}){%d,%d}" % (MIN_UID_BYTES, MAX_UID_BYTES))
_FIELD_TEXT = re.compile(r"[\x20-\x23\x25-\x29\x2b\x2d-\x7e]*")


class FrameError(InvalidInput):
    """A line that is not a valid frame. ``reason`` is one of ``bad_crc``, ``malformed``,
    ``too_long``; the line must be dropped."""

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        super().__init__(message)


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data``.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True)
class Frame:
    """A frame whose CRC checked: protocol ``major``, ``seq``, message ``type``, its ``fields``
    and the ``crc`` it carried (which tells one line from another under the same number)."""

    major: int
    seq: int
    type: str
    fields: tuple[str, ...] = ()
    crc: int = 0


def encode_frame(seq: int, type_: str, fields=(), *, major: int = PROTO_MAJOR) -> bytes:
    """The wire bytes of one frame, newline included.

    :raises InvalidInput: when a field holds a character the framing reserves (``,*$``, control
        characters) or the line would pass 128 bytes.
    """
    fields = [str(item) for item in fields]
    for item in fields:
        if not _FIELD_TEXT.fullmatch(item):
            raise InvalidInput(f"frame field {item!r} holds a reserved character (',', '*', '$' or a control)")
    body = ",".join([f"CT{major}", str(seq % SEQ_MODULO), type_, *fields]).encode("ascii")
    line = b"$%s*%04X\n" % (body, crc16(body))
    if len(line) > MAX_LINE:
        raise InvalidInput(f"a {type_} frame of {len(line)} bytes passes the {MAX_LINE}-byte line limit")
    return line


def decode_frame(line: bytes) -> Frame:
    """Check and split one line (its trailing ``\\r``/``\\n`` optional).

    :raises FrameError: ``too_long`` past 128 bytes, ``malformed`` when the shape is wrong,
        ``bad_crc`` when the checksum does not match the body.
    """
    line = line.rstrip(b"\r\n")
    if len(line) >= MAX_LINE:
        raise FrameError("too_long", f"a line of {len(line)} bytes passes the {MAX_LINE}-byte limit")
    match = _FRAME.fullmatch(line)
    if match is None:
        raise FrameError("malformed", f"not a CT frame: {line[:40]!r}")
    body, major, seq, type_, fields, crc = match.groups()
    if crc16(body) != int(crc, 16):
        raise FrameError("bad_crc", f"checksum {crc.decode()} does not match the line {line[:40]!r}")
    seq_number = int(seq)
    if seq_number >= SEQ_MODULO:
        raise FrameError("malformed", f"sequence number {seq_number} is past 65535")
    parts = tuple(fields.decode("ascii").split(",")[1:]) if fields else ()
    return Frame(int(major), seq_number, type_.decode("ascii"), parts, int(crc, 16))


# --- messages -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """The microcontroller introduces itself: protocol version, firmware, board, reader count."""

    proto: str
    fw: str
    board: str
    readers: int
    extra: tuple[tuple[str, str], ...] = ()

    @property
    def major(self) -> int:
        return int(self.proto.split(".")[0])

    @property
    def boot(self) -> str | None:
        """The board's boot id (new at every start), when its firmware sends one."""
        return dict(self.extra).get("boot")

    def fields(self) -> list[str]:
        pairs = [("proto", self.proto), ("fw", self.fw), ("board", self.board), ("readers", self.readers)]
        return [f"{key}={value}" for key, value in pairs + list(self.extra)]


@dataclass(frozen=True)
class Tag:
    """A card arrived on (``placed``) or left a reader."""

    reader: int
    placed: bool
    uid: str

    def fields(self) -> list[str]:
        return [str(self.reader), "PLACED" if self.placed else "REMOVED", self.uid]


@dataclass(frozen=True)
class State:
    """What lies on readers ``first``, ``first+1``, ...: a UID or None for an empty reader."""

    first: int
    uids: tuple[str | None, ...]

    def fields(self) -> list[str]:
        return [str(self.first), *(uid or EMPTY for uid in self.uids)]


@dataclass(frozen=True)
class Heartbeat:
    """Sent every second: uptime in ms and, optionally, a bit mask of readers that answer."""

    uptime_ms: int
    ok_mask: int | None = None

    def fields(self) -> list[str]:
        return [str(self.uptime_ms)] + ([] if self.ok_mask is None else [f"{self.ok_mask:X}"])


@dataclass(frozen=True)
class ReaderHealth:
    """One reader's health: answers on the bus (``ok``) or not, with its version register."""

    reader: int
    ok: bool
    version: str = ""

    def fields(self) -> list[str]:
        return [str(self.reader), "OK" if self.ok else "FAIL"] + ([self.version] if self.version else [])


@dataclass(frozen=True)
class McuError:
    """The microcontroller reports a problem: a ``code`` such as BADCRC or OVERFLOW, and text."""

    code: str
    text: str = ""

    def fields(self) -> list[str]:
        return [self.code] + ([self.text] if self.text else [])


@dataclass(frozen=True)
class Log:
    """Debug text from the firmware."""

    text: str

    def fields(self) -> list[str]:
        return [self.text]


@dataclass(frozen=True)
class Request:
    """A host request: ``HELLO?``, ``SYNC?`` or ``PING``."""

    type: str
    fields_: tuple[str, ...] = field(default=())

    def fields(self) -> list[str]:
        return list(self.fields_)


Message = Hello | Tag | State | Heartbeat | ReaderHealth | McuError | Log | Request

_TYPE_OF = {Hello: "HELLO", Tag: "TAG", State: "STATE", Heartbeat: "HB", ReaderHealth: "RDR",
            McuError: "ERR", Log: "LOG"}


def message_type(message: Message) -> str:
    """The wire TYPE of a message."""
    return message.type if isinstance(message, Request) else _TYPE_OF[type(message)]


def encode_message(seq: int, message: Message, *, major: int = PROTO_MAJOR) -> bytes:
    """The wire bytes of a message.

    :raises InvalidInput: as :func:`encode_frame`.
    """
    return encode_frame(seq, message_type(message), message.fields(), major=major)


def _malformed(frame: Frame, why: str) -> FrameError:
    return FrameError("malformed", f"{frame.type} frame {','.join(frame.fields)!r}: {why}")


def _reader(frame: Frame, text: str) -> int:
    if not text.isdigit() or len(text) > 2:
        raise _malformed(frame, f"reader {text!r} is not a reader number")
    return int(text)


def parse_uid(frame: Frame, text: str) -> str:
    """A UID field: 4 to 10 bytes as uppercase hex without separators.

    :raises FrameError: ``malformed`` otherwise.
    """
    if not _UID.fullmatch(text):
        raise _malformed(frame, f"{text!r} is not a tag UID (4 to 10 bytes of uppercase hex)")
    return text


def _hello(frame: Frame) -> Hello:
    pairs = {}
    for item in frame.fields:
        key, sep, value = item.partition("=")
        if not sep:
            raise _malformed(frame, f"{item!r} is not key=value")
        pairs[key] = value
    proto, readers = pairs.pop("proto", ""), pairs.pop("readers", "")
    if not re.fullmatch(r"\d{1,3}(\.\d{1,3})*", proto):
        raise _malformed(frame, "no protocol version")
    if not readers.isdigit() or not 1 <= int(readers) <= 32:
        raise _malformed(frame, "readers must be 1 to 32")
    fw, board = pairs.pop("fw", "?"), pairs.pop("board", "?")
    return Hello(proto, fw, board, int(readers), tuple(sorted(pairs.items())))


def _tag(frame: Frame) -> Tag:
    if len(frame.fields) != 3 or frame.fields[1] not in ("PLACED", "REMOVED"):
        raise _malformed(frame, "expected <reader>,PLACED|REMOVED,<uid>")
    return Tag(_reader(frame, frame.fields[0]), frame.fields[1] == "PLACED", parse_uid(frame, frame.fields[2]))


def _state(frame: Frame) -> State:
    if len(frame.fields) < 2:
        raise _malformed(frame, "expected <first reader>,<uid or ->...")
    uids = tuple(None if text == EMPTY else parse_uid(frame, text) for text in frame.fields[1:])
    return State(_reader(frame, frame.fields[0]), uids)


def _heartbeat(frame: Frame) -> Heartbeat:
    if not 1 <= len(frame.fields) <= 2 or not frame.fields[0].isdigit():
        raise _malformed(frame, "expected <uptime ms>[,<ok mask hex>]")
    mask = None
    if len(frame.fields) == 2:
        if not re.fullmatch(r"[0-9A-F]{1,8}", frame.fields[1]):
            raise _malformed(frame, "reader mask is not hex")
        mask = int(frame.fields[1], 16)
    return Heartbeat(int(frame.fields[0]), mask)


def _health(frame: Frame) -> ReaderHealth:
    if not 2 <= len(frame.fields) <= 3 or frame.fields[1] not in ("OK", "FAIL"):
        raise _malformed(frame, "expected <reader>,OK|FAIL[,<version>]")
    version = frame.fields[2] if len(frame.fields) == 3 else ""
    return ReaderHealth(_reader(frame, frame.fields[0]), frame.fields[1] == "OK", version)


def _error(frame: Frame) -> McuError:
    if not frame.fields:
        raise _malformed(frame, "no error code")
    return McuError(frame.fields[0], ",".join(frame.fields[1:]))


def _parse_request(frame: Frame) -> Request:
    return Request(frame.type, frame.fields)


_PARSERS = {
    "HELLO": _hello, "TAG": _tag, "STATE": _state, "HB": _heartbeat, "RDR": _health, "ERR": _error,
    "LOG": lambda frame: Log(",".join(frame.fields)),
    **{name: _parse_request for name in HOST_TYPES},
}


def parse_message(frame: Frame) -> Message:
    """The typed message a checked frame carries.

    :raises FrameError: ``malformed`` for an unknown type or fields that do not fit it.
    """
    parser = _PARSERS.get(frame.type)
    if parser is None:
        raise FrameError("malformed", f"unknown message type {frame.type!r}")
    return parser(frame)


def decode_message(line: bytes) -> Message:
    """:func:`decode_frame` then :func:`parse_message`.

    :raises FrameError: as those do.
    """
    return parse_message(decode_frame(line))


# --- sequence numbers and line splitting -------------------------------------------------------


class SeqWindow:
    """Judges the sequence numbers of one direction. It remembers the checksums of the last lines
    seen under each of the 65536 numbers (``memory`` of them: lines from before the board's last
    few restarts too), so a line seen before is known however late it comes back, and an old
    number is never taken as new.

    Each frame is ``ok`` (the next number), ``gap`` (a little ahead: frames were lost before it,
    it is still good), ``repeat`` (a line seen before under that number: drop it) or
    ``out_of_step`` (behind, or too far ahead, with content never seen: an old line, or a board
    that started counting again; drop it and ask the board who it is).

    >>> window = SeqWindow()
    >>> [window.check(seq, crc) for seq, crc in ((65535, 7), (0, 8), (2, 9), (2, 9), (0, 8), (1, 5))]
    ['ok', 'ok', 'gap', 'repeat', 'repeat', 'out_of_step']
    >>> window.lost, window.repeats, window.out_of_step
    (1, 2, 1)
    """

    def __init__(self, memory: int = 8) -> None:
        self.memory = memory
        self.last: int | None = None
        self._seen: dict[int, tuple[int, ...]] = {}
        self.lost = self.gaps = self.repeats = self.out_of_step = 0

    def forget(self) -> None:
        """Start from nothing (a new connection: the board may number anything next)."""
        self.last = None
        self._seen.clear()

    def _remember(self, seq: int, crc: int) -> None:
        self._seen[seq] = (self._seen.get(seq, ()) + (crc,))[-self.memory:]

    def restart(self, seq: int, crc: int) -> None:
        """The board counts again from ``seq``: accept that frame and judge the next ones from it.
        Lines remembered from before stay known, so they are still repeats if they come back."""
        self.last = seq
        self._remember(seq, crc)

    def check(self, seq: int, crc: int) -> str:
        """The verdict on a frame numbered ``seq`` whose checksum is ``crc`` (accepted unless
        ``repeat`` or ``out_of_step``; remembered either way)."""
        if crc in self._seen.get(seq, ()):
            self.repeats += 1
            return "repeat"
        self._remember(seq, crc)
        ahead = 1 if self.last is None else (seq - self.last) % SEQ_MODULO
        if not 1 <= ahead <= FORWARD_WINDOW:
            self.out_of_step += 1
            return "out_of_step"
        self.last = seq
        if ahead == 1:
            return "ok"
        self.gaps += 1
        self.lost += ahead - 1
        return "gap"


class LineSplitter:
    """Cuts a byte stream into lines of at most ``max_line`` bytes, never blocking on a partial
    line. A line longer than the limit is thrown away up to its end and counted in ``overlong``.
    ``delimiters`` beyond ``\\n`` end a line too (compat mode adds ``\\r`` and RDM6300's ``\\x03``).

    >>> splitter = LineSplitter()
    >>> splitter.feed(b"ab\\ncd"), splitter.feed(b"e\\n")
    ([b'ab'], [b'cde'])
    """

    def __init__(self, max_line: int = MAX_LINE, delimiters: bytes = b"\n") -> None:
        self.max_line = max_line
        self._table = bytes.maketrans(delimiters, b"\n" * len(delimiters)) if delimiters != b"\n" else None
        self._buffer = b""
        self._discarding = False
        self.overlong = 0

    def feed(self, data: bytes) -> list[bytes]:
        """The complete lines ``data`` finishes, without their delimiters."""
        if self._table is not None:
            data = data.translate(self._table)
        *lines, rest = (self._buffer + data).split(b"\n")
        if self._discarding and lines:
            lines.pop(0)
            self._discarding = False
        kept = []
        for line in lines:
            if len(line) >= self.max_line:
                self.overlong += 1
            else:
                kept.append(line)
        if len(rest) >= self.max_line:
            self.overlong += not self._discarding
            self._discarding, rest = True, b""
        self._buffer = rest
        return kept
