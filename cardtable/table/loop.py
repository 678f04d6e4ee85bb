"""The running table: every input feeds one queue; the table takes them in order.

Inputs run in their own threads (the camera loop, the serial link, gpiozero's callbacks, the web
page's and the club's threads) and only put items on the queue; the table, the journal and the
displays are used from the loop's thread alone. Every source puts the one type the table reads,
:data:`engine.table_events.TableInput`: the camera's events and sentences (the pipeline returns
both), the reader bridge's events and sentences (:class:`firmware_bridge.bridge.Bridge`'s
``on_input``), button presses, the owner's requests, the club's sentences.

No input ends an input thread: a picture the pipeline cannot take is counted, said and skipped.
A thread that ends anyway is started again by the :class:`Supervisor`, with a sentence on the
display; one that keeps ending stops the table with :class:`InputFailed`, so that the process
exits non-zero and the service manager starts it again, rather than staying up with a dead input.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from engine.errors import CardtableError
from engine.table_events import Notice, TableInput

log = logging.getLogger(__name__)


class Handler(Protocol):
    """What the loop hands inputs to: the :class:`~cardtable.table.table.Table`."""

    def handle(self, item: TableInput) -> None: ...


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _said(err: BaseException) -> str:
    return str(err) or type(err).__name__


class CameraThread(threading.Thread):
    """Reads frames from a source, runs the vision pipeline and puts what it returns on the
    queue (the frame's events and sentences: a code not of this deck, a card seen in two places
    at once, a card it cannot read), and tells the table (at most every ``quiet`` seconds) about
    pictures the pipeline could not take (counted in :attr:`skipped`). It ends when the source
    has no more frames (:attr:`finished`) or when reading the source fails (:attr:`failure` says
    how); it closes its source as it ends."""

    def __init__(self, source, pipeline, put: Callable[[TableInput], None], stop: threading.Event,
                 *, quiet: float = 10.0) -> None:
        super().__init__(name="camera", daemon=True)
        self.source, self.pipeline, self.put, self.stop, self.quiet = source, pipeline, put, stop, quiet
        self._told_skip = float("-inf")
        self.skipped = 0
        self.finished = False
        self.failure: str | None = None

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                got = self.source.read()
                if got is None:
                    self.finished = True
                    self.put(Notice("The camera stopped sending pictures", "camera"))
                    return
                frame, now = got
                self._process(frame, now)
        except Exception as err:  # the source broke: the supervisor starts the camera again
            log.exception("camera source failed")
            self.failure = _said(err)
        finally:
            self.source.close()

    def _process(self, frame, now: float) -> None:
        try:
            inputs = self.pipeline.process(frame, now)
        except Exception as err:  # one bad picture never ends the camera
            log.exception("a camera picture could not be read")
            self.skipped += 1
            if now - self._told_skip >= self.quiet:
                self._told_skip = now
                self.put(Notice(f"A camera picture could not be read ({_said(err)}): it was skipped", "camera"))
            return
        for item in inputs:
            self.put(item)

    def started(self) -> CameraThread:
        """Start the thread and return it (what :meth:`Supervisor.watch` wants)."""
        self.start()
        return self

    def close(self) -> None:
        """Stop the thread (it closes its source)."""
        self.stop.set()
        if self.is_alive() and self is not threading.current_thread():
            self.join(timeout=2)


class InputFailed(CardtableError, RuntimeError):
    """An input kept failing: the table stops so that the service manager starts it again."""


class Running(Protocol):
    """A started input: a camera thread, a bridge to the reader board."""

    def is_alive(self) -> bool: ...
    def close(self) -> None: ...


@dataclass
class _Watched:
    name: str
    start: Callable[[], Running]
    running: Running | None = None
    ends: list[float] = field(default_factory=list)


class Supervisor:
    """Keeps the input threads running. An input that ends (except one whose source has no more
    frames, ``finished``) is started again with a sentence on the display; one that ends more than
    ``most`` times within ``within`` seconds raises :class:`InputFailed` from :meth:`check`."""

    def __init__(self, put: Callable[[TableInput], None], *, most: int = 5, within: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.put, self.most, self.within, self.clock = put, most, within, clock
        self._inputs: list[_Watched] = []

    def watch(self, name: str, start: Callable[[], Running]) -> None:
        """Start an input with ``start()`` (which returns it running) and keep it running.

        :raises Exception: whatever ``start`` raises the first time (a device that cannot open).
        """
        self._inputs.append(_Watched(name, start, start()))

    def check(self) -> None:
        """Start again every input that ended since the last check.

        :raises InputFailed: when one ended too often.
        """
        for watched in self._inputs:
            running = watched.running
            if running is not None and (running.is_alive() or getattr(running, "finished", False)):
                continue
            why = getattr(running, "failure", None) or "it ended"
            now = self.clock()
            watched.ends = [end for end in watched.ends if now - end < self.within] + [now]
            if len(watched.ends) > self.most:
                raise InputFailed(f"the {watched.name} failed {len(watched.ends)} times in "
                                  f"{'a minute' if self.within == 60 else f'{self.within:g} s'} "
                                  f"(last: {why}): stopping so that the table starts again")
            log.warning("%s ended (%s): starting it again", watched.name, why)
            self.put(Notice(f"The {watched.name} stopped ({why}): starting it again", watched.name))
            try:
                watched.running = watched.start()
            except Exception as err:  # it could not start: counted, tried again at the next check
                log.exception("%s could not start again", watched.name)
                watched.running = _NotStarted(_said(err))

    def close(self) -> None:
        """Stop every input."""
        for watched in self._inputs:
            if watched.running is not None:
                watched.running.close()


@dataclass
class _NotStarted:
    failure: str

    def is_alive(self) -> bool:
        return False

    def close(self) -> None:
        pass


def run_loop(table: Handler, items: queue.Queue, stop: threading.Event, *,
             idle: float = 0.2, supervisor: Supervisor | None = None) -> None:
    """Hand every queued input to the table until ``stop`` is set, starting again (through
    ``supervisor``) any input that ended.

    :raises InputFailed: when an input keeps failing; the display says so first.
    """
    while not stop.is_set():
        if supervisor is not None:
            try:
                supervisor.check()
            except InputFailed as err:
                table.handle(Notice(_sentence(str(err)), "table"))
                raise
        try:
            item = items.get(timeout=idle)
        except queue.Empty:
            continue
        table.handle(item)
