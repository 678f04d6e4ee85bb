"""The running table: every input device feeds one queue; the controller takes them in order.

Inputs run in their own threads (the camera loop, the serial link, gpiozero's callbacks) and only
put items on the queue; the controller, the journal and the displays are used from the loop's
thread alone. Reader notices (an unknown tag, the link going down) become :class:`Notice` items.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from cardtable.controller import Controller, Notice
from engine.table_events import TableEvent
from hardware.gpio import ButtonPress

log = logging.getLogger(__name__)


def as_input(item):
    """A controller input for anything a device reports (``None`` for what it need not hear)."""
    if isinstance(item, (TableEvent, ButtonPress, Notice)):
        return item
    state = getattr(item, "state", None)
    if state == "up":
        return Notice("The card readers are connected", "rfid")
    if state in ("down", "refused"):
        return Notice(f"The card readers are not answering: {item.reason}" if state == "down"
                      else f"The card readers were refused: {item.reason}", "rfid")
    if hasattr(item, "uid"):                          # an unknown tag
        return Notice(f"A card the table does not know ({item}); enrol it with 'cardtable enroll'", "rfid")
    return None


class CameraThread(threading.Thread):
    """Reads frames from a source, runs the vision pipeline, puts its events on the queue, and
    tells the table (at most every ``quiet`` seconds) about codes that are not this deck's cards
    and about a card seen in two places at once."""

    def __init__(self, source, pipeline, put: Callable[[object], None], stop: threading.Event,
                 *, quiet: float = 10.0) -> None:
        super().__init__(name="camera", daemon=True)
        self.source, self.pipeline, self.put, self.stop, self.quiet = source, pipeline, put, stop, quiet
        self._foreign, self._told = 0, float("-inf")
        self._warned: set[str] = set()

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                got = self.source.read()
                if got is None:
                    self.put(Notice("The camera stopped sending pictures", "camera"))
                    return
                frame, now = got
                for event in self.pipeline.process(frame, now):
                    self.put(event)
                self._notices(now)
        except Exception as err:  # the camera thread must report, never die silently
            log.exception("camera loop failed")
            self.put(Notice(f"The camera failed: {err}", "camera"))

    def _notices(self, now: float) -> None:
        for message in self.pipeline.warnings:
            if message not in self._warned:
                self._warned.add(message)
                self.put(Notice(message[0].upper() + message[1:], "camera"))
        foreign = self.pipeline.stats.foreign_codes
        if foreign > self._foreign and now - self._told >= self.quiet:
            self._told = now
            self.put(Notice("A code on the table is not one of this deck's cards: it is ignored", "camera"))
        self._foreign = foreign


def run_loop(controller: Controller, items: queue.Queue, stop: threading.Event, *,
             idle: float = 0.2) -> None:
    """Hand every queued input to the controller until ``stop`` is set."""
    while not stop.is_set():
        try:
            item = items.get(timeout=idle)
        except queue.Empty:
            continue
        converted = as_input(item)
        if converted is not None:
            controller.handle(converted)
