"""A reader kind added the way docs/adding_a_reader.md says (the proof of that page, registered
by tests/cardtable/test_adding_a_reader.py): a hand-held code scanner in its serial (USB CDC)
mode, one per zone, reading the QR code printed on each card (``cardtable vision print-deck``).
Each line it sends is one code; a card's code is that card laid in the scanner's zone, anything
else is said on the table's display and ignored.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import serial

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
