"""A reader kind added the way docs/adding_a_reader.md says (the proof of that page, registered
by tests/cardtable/test_adding_a_reader.py): a hand-held code scanner in its serial (USB CDC)
mode, one per zone, reading the QR code printed on each card (``cardtable vision print-deck``).
Each line it sends is one code; a card's code is that card laid in the scanner's zone, anything
else is said on the table's display and ignored.

One module: the reader (:class:`ScannerReader`), its config section (``[scanner] ports = { seat1
= "/dev/ttyACM0", ... }``, the port of the scanner at each zone) and the kind (:data:`SCANNER`)
that ``register_reader_kind(SCANNER)`` makes a choice of ``[input] kind``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import serial

from cardtable.config.app_sections import GAME
from cardtable.readers.kinds import ReaderKind, Wiring, unwatched
from config_kit.reads import shown, text, unknown_keys
from config_kit.section import Context, Section
from engine.table_events import PLACED, Notice, TableEvent
from vision.markers import ForeignMarker, card_for_payload
from waiting import patience

BAUDRATE = 9600
MAX_LINE = 256          # bytes: no card's code is longer; a longer line is noise


class ScannerReader(threading.Thread):
    """Reads the scanner at ``port`` (a pyserial URL or device path) and puts a
    :class:`~engine.table_events.TableEvent` for each card of ``deck`` it scans, laid in ``zone``,
    on the table's queue through ``put``. It ends only when the port fails (:attr:`failure` says
    how); the table's supervisor then starts it again.

    :raises serial.SerialException: the port cannot be opened (when the table starts the input).
    """

    def __init__(self, port: str, zone: str, deck: str, put: Callable[[object], None], *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(name=f"scanner at {zone}", daemon=True)
        self.zone, self.deck, self.put, self.clock = zone, deck, put, clock
        self.failure: str | None = None
        self.stopping = threading.Event()
        self.link = serial.serial_for_url(port, baudrate=BAUDRATE, timeout=0.1)

    def started(self) -> ScannerReader:
        """Start the thread and return it (what the supervisor's ``watch`` wants)."""
        self.start()
        return self

    def run(self) -> None:
        pending = b""
        try:
            while not self.stopping.is_set():
                *lines, pending = (pending + self.link.read(MAX_LINE)).replace(b"\r", b"\n").split(b"\n")
                if len(pending) > MAX_LINE:
                    lines, pending = [pending], b""
                for line in lines:
                    self.scanned(line)
        except (serial.SerialException, OSError) as err:    # unplugged: the supervisor starts it again
            self.failure = f"the scanner at {self.zone} stopped answering: {err}"
        finally:
            self.link.close()

    def scanned(self, line: bytes) -> None:
        """One line from the scanner: a card laid in the zone, a sentence for the table, or
        nothing (an empty line)."""
        text = line.decode("ascii", "replace").strip()
        if not text:
            return
        try:
            card = card_for_payload(text, self.deck)
        except ForeignMarker as err:
            self.put(Notice(f"The scanner at {self.zone} read a code that is not one of this deck's cards "
                            f"({err}): it is ignored", "scanner"))
            return
        self.put(TableEvent(PLACED, card, self.zone, self.clock(), source="scanner"))

    def close(self) -> None:
        """Stop reading and close the port; calling it again does nothing."""
        self.stopping.set()
        if self.is_alive() and self is not threading.current_thread():
            self.join(timeout=patience(2))


@dataclass(frozen=True)
class ScannerSpec:
    """The checked ``[scanner]``: the port of the scanner at each zone, as (zone, port) pairs."""

    ports: tuple[tuple[str, str], ...] = ()


def parse_scanner(section: Mapping, problems: list[str], context: Context) -> ScannerSpec:
    """``ports``, a table of zone = serial port (a device path or a pyserial URL)."""
    unknown_keys(section, ("ports",), "scanner", problems)
    ports = section.get("ports", {})
    if not isinstance(ports, Mapping):
        problems.append(f'scanner.ports: expected a table of zone = port, e.g. {{ seat1 = "/dev/ttyACM0" }}, '
                        f"got {shown(ports)}")
        return ScannerSpec()
    found = []
    for zone, port in ports.items():
        if text(zone, "scanner.ports", problems, "a zone name") is not None:
            port = text(port, f"scanner.ports.{zone}", problems, "a serial port such as /dev/ttyACM0", longest=4096)
            found += [(zone, port)] if port is not None else []
    return ScannerSpec(tuple(found))


SCANNER_SECTION = Section("scanner", ScannerSpec, parse_scanner)


def start(wiring: Wiring):
    """A scanner per zone, each watched on its own."""
    deck, put = wiring.config[GAME].deck, wiring.put
    return [(f"scanner at {zone}", lambda port=port, zone=zone: ScannerReader(port, zone, deck, put).started())
            for zone, port in wiring.config[SCANNER_SECTION].ports]


SCANNER = ReaderKind(
    "scanner", "code scanners", start,
    check_zones=lambda config, needed, problems: unwatched(
        [zone for zone, _ in config[SCANNER_SECTION].ports], needed, "scanner.ports", "scanner", problems),
    enrolment=lambda config: "The scanners read the cards' printed codes: there is nothing to enrol.",
    section=SCANNER_SECTION, swipe=True)
