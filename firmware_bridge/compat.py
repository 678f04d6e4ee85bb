"""Compatibility mode: readers running stock example sketches instead of the CT1 firmware.

Understood outputs (one reader per port unless the line names its reader):

- MFRC522 library ``DumpInfo``: ``Card UID: 04 A2 3B 1C``; ``ReadUidMultiReader``:
  ``Reader 1: Card UID: 04 A2 3B 1C``; ``ReadNUID``: ``In hex:  04 a2 3b 1c``
- Adafruit PN532: ``UID Value: 0x04 0xA2 0x3B 0x1C`` (bytes may lack their leading zero)
- ESPHome: ``[D][rc522:066]: Found new tag '74-10-37-94'`` (ANSI colours stripped), and the
  rdm6300 component's ``Found new tag with ID 7616525``
- Tasmota: ``... = {"RC522":{"UID":"BA839D07",...}}`` (any JSON object holding a ``UID`` key)
- RDM6300 binary frames: ``0x02``, 10 hex digits, 2 hex digits of XOR checksum, ``0x03``
- hobby sketches: ``UID: 04A2B3C4``, ``uid=04:a2:b3:c4``

These carry no removal and no checksum (except RDM6300): a tag counts as removed once it has not
been reported for ``removal_after`` seconds, which works only with sketches that keep reporting a
tag while it lies on the reader. With no checksum, one damaged line can name a tag that was never
there, so a tag is believed only when the same reader reports it twice in a row (within
``removal_after`` seconds), or at once when it is enrolled (``known``); the same damage twice in
a row cannot be told from a real tag. Once a sketch has named its readers (``Reader 1: ...``), a
line naming none is taken as damaged, not as the default reader's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.protocol import MAX_UID_BYTES, MIN_UID_BYTES, LineSplitter
from firmware_bridge.host import UP, LinkStateReporter

#: seconds without a report after which a stock sketch's tag counts as removed (the application's default too)
REMOVAL_AFTER = 1.5

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
#: The bytes of a UID, to the end of the line (here, in the last pattern and in a decimal ID): a
#: damaged character among them ("0T") makes no shorter UID of the bytes before it.
_BYTES = r"((?:[\s:-]*(?:0x)?[0-9A-Fa-f]{1,2}(?![0-9A-Fa-f]))+)\s*$"
_PATTERNS = (
    re.compile(r"Reader\s*(\d{1,2})\s*:\s*Card UID:" + _BYTES),
    re.compile(r"()Card UID:" + _BYTES),
    re.compile(r"()In hex:" + _BYTES),
    re.compile(r"()UID Value:" + _BYTES),
    re.compile(r"()Found new tag '([0-9A-Fa-f]{2}(?:-[0-9A-Fa-f]{2})+)'"),
    re.compile(r"()\buid\s*[:=]\s*((?:[0-9A-Fa-f]{2}[:\- ]?){4,10})\s*$", re.IGNORECASE),
)
_DECIMAL_ID = re.compile(r"Found new tag with ID (\d{1,10})\s*$")
_HEX_RUN = re.compile(r"(?:[0-9A-F]{2})+")


@dataclass(frozen=True)
class Sighting:
    """A tag ``uid`` seen by a stock sketch; ``reader`` when the line names it."""

    uid: str
    reader: int | None = None


def normalise_uid(text: str) -> str | None:
    """Uppercase hex without separators, or None when ``text`` is no 4-10 byte UID.

    Bytes separated by spaces, colons, dashes or ``0x`` may lack their leading zero; a run with
    no separators must have an even number of digits.

    >>> normalise_uid("0x4 0xA2 0x3B 0x1C"), normalise_uid("74-10-37-94"), normalise_uid("4A23B1C")
    ('04A23B1C', '74103794', None)
    """
    tokens = [token for token in re.split(r"[\s:\-]+|0[xX]", text.strip()) if token]
    if len(tokens) == 1:
        uid = tokens[0].upper()
        ok = _HEX_RUN.fullmatch(uid) is not None
    else:
        ok = all(len(token) <= 2 and re.fullmatch(r"[0-9A-Fa-f]+", token) for token in tokens)
        uid = "".join(token.upper().zfill(2) for token in tokens)
    if not ok or not MIN_UID_BYTES <= len(uid) // 2 <= MAX_UID_BYTES:
        return None
    return uid


def parse_rdm6300(frame: bytes) -> str | None:
    """The tag in an RDM6300 frame (``0x02`` + 12 hex digits, terminator already cut), checksum
    checked, as 10 hex digits; None when the frame is damaged.

    >>> parse_rdm6300(b"\\x020A00B1C2D3AA")
    '0A00B1C2D3'
    """
    body = frame[1:]
    if len(body) != 12 or not frame.startswith(b"\x02") or not _HEX_RUN.fullmatch(body.decode("latin-1").upper()):
        return None
    values = bytes.fromhex(body.decode("ascii"))
    checksum = 0
    for value in values[:5]:
        checksum ^= value
    return body[:10].decode("ascii").upper() if checksum == values[5] else None


def _tasmota(text: str) -> str | None:
    start = text.find("{")
    if start < 0:
        return None
    try:
        data = json.loads(text[start:])
    except ValueError:
        return None
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            uid = item.get("UID")
            if isinstance(uid, str):
                return normalise_uid(uid)
            stack.extend(item.values())
    return None


def parse_compat_line(line: bytes) -> Sighting | None:
    """The tag a stock sketch's line reports, or None for any other line.

    >>> parse_compat_line(b"Reader 1: Card UID: 04 A2 3B 1C")
    Sighting(uid='04A23B1C', reader=1)
    >>> parse_compat_line(b"Firmware Version: 0x92 = v2.0") is None
    True
    """
    if line.startswith(b"\x02"):
        uid = parse_rdm6300(line.strip(b"\r\n"))
        return Sighting(uid) if uid else None
    text = _ANSI.sub("", line.decode("latin-1")).strip()
    for pattern in _PATTERNS:
        match = pattern.search(text)
        if match:
            uid = normalise_uid(match.group(2))
            reader = int(match.group(1)) if match.group(1) else None
            return Sighting(uid, reader) if uid else None
    decimal = _DECIMAL_ID.search(text)
    if decimal and int(decimal.group(1)) < 1 << 32:
        return Sighting(f"{int(decimal.group(1)):08X}")
    uid = _tasmota(text) if "UID" in text else None
    return Sighting(uid) if uid else None


class CompatHost(LinkStateReporter):
    """The host side for a stock sketch: the same interface as :class:`~firmware_bridge.host.Ct1Host`
    (opened, feed, tick, failed, dead), no handshake, a tag believed on its second report in a
    row (on its first when ``known(uid)`` says it is enrolled), removal by timeout."""

    def __init__(self, *, reader: int = 0, removal_after: float = REMOVAL_AFTER,
                 known: Callable[[str], bool] | None = None) -> None:
        super().__init__()
        self.reader = reader
        self.removal_after = removal_after
        self.known = known
        self._splitter = LineSplitter(delimiters=b"\n\r\x03")
        self._seen: dict[int, float] = {}
        self._once: dict[int, tuple[str, float, bool]] = {}
        self._names_readers = False

    def opened(self, now: float) -> list:
        return self._report(UP, now, "compatibility mode: removal is guessed after "
                                     f"{self.removal_after:g} s without a report")

    def feed(self, data: bytes, now: float) -> list:
        changes = []
        for line in self._splitter.feed(data):
            self.counters.lines += 1
            sighting = parse_compat_line(line)
            if sighting is None:
                self.counters.noise += 1
                continue
            self._names_readers = self._names_readers or sighting.reader is not None
            if sighting.reader is None and self._names_readers:
                self.counters.malformed += 1            # its "Reader n:" was damaged
                continue
            self.counters.frames += 1
            reader = self.reader if sighting.reader is None else sighting.reader
            if self._confirmed(reader, sighting.uid, now, sighting.reader is not None):
                self._seen[reader] = now
                changes += self.view.tag(reader, True, sighting.uid, now)
        self.counters.overlong = self._splitter.overlong
        return changes

    def _confirmed(self, reader: int, uid: str, now: float, named: bool) -> bool:
        """True for the tag ``reader`` holds, or one it reported just before in the same form
        (``named``: the line named its reader; the first report of a tag is only remembered). A
        report of the tag on another reader in between (a damaged reader number) starts it
        again, and so does a line naming no reader taken for the default one: a "Reader 1:"
        whose colon was damaged away, then another whose 1 was damaged into a 0, are not two
        reports on reader 0."""
        self._once = {other: seen for other, seen in self._once.items() if other == reader or seen[0] != uid}
        once = self._once.pop(reader, None)
        if uid == self.view.uids.get(reader) or (self.known is not None and self.known(uid)):
            return True
        if once is not None and once[0] == uid and once[2] == named and now - once[1] < self.removal_after:
            return True
        self._once[reader] = (uid, now, named)
        return False

    def tick(self, now: float) -> list:
        changes = []
        held = self.view.uids
        for reader, seen in list(self._seen.items()):
            if now - seen >= self.removal_after:
                del self._seen[reader]
                if reader in held:
                    changes += self.view.tag(reader, False, held[reader], now)
        return changes
