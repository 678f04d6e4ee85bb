"""The serial link: a reader thread that owns the port, feeds the protocol's host side and survives
unplugging.

The thread opens the port, hands every chunk it reads to the host side of the protocol, a pure
state machine (:class:`Ct1Host` for the CT1 firmware, :class:`~firmware_bridge.compat.CompatHost`
for stock sketches), writes back what the host side asks to send, and delivers the rest (reader
changes, link changes, board reports) to a callback or a queue. When the port breaks or the host side declares the board dead, it closes the
port and reopens the same path with a growing delay, so a replugged board comes back by itself
(use a stable path such as ``/dev/serial/by-id/...``). Nothing the board sends ends the thread:
should the host side ever raise, the link reports it as the link going down and starts again.
"""

from __future__ import annotations

import errno
import logging
import queue
import threading
import time
from collections.abc import Callable

import serial

from engine.errors import CardtableError
from firmware_bridge.host import RESYNCED, UP, Ct1Host, Send

logger = logging.getLogger(__name__)

BAUDRATE = 115200


class LinkClosed(CardtableError, OSError):
    """The link was used after :meth:`Link.close`."""


class PortUnavailable(CardtableError, OSError):
    """A serial port that cannot be opened; the message says why and what to do."""


def port_problem(port: str, err: Exception) -> str:
    """Why ``port`` could not be opened, in words for the person at the table."""
    code = getattr(err, "errno", None)
    if code == errno.ENOENT:
        return f"the serial port {port} does not exist: is the reader board plugged in? (ls /dev/serial/by-id/)"
    if code in (errno.EACCES, errno.EPERM):
        return (f"no permission to open {port}: add yourself to the dialout group "
                "(sudo usermod -aG dialout $USER) and log in again")
    if code in (errno.EAGAIN, errno.EBUSY) or "exclusively lock" in str(err):
        return f"{port} is in use by another program (a serial monitor, or cardtable run?)"
    return f"cannot open {port}: {err}"


def check_port(port: str) -> None:
    """Open ``port`` once and close it, to say at once what is wrong with it.

    :raises PortUnavailable: when it cannot be opened.
    """
    try:
        open_port(port).close()
    except (serial.SerialException, OSError) as err:
        raise PortUnavailable(port_problem(port, err)) from None


def open_port(port: str, *, timeout: float = 0.05) -> serial.SerialBase:
    """Open a device path (exclusively, so a second program cannot steal bytes) or a pyserial URL.

    :raises serial.SerialException: when the port cannot be opened.
    """
    if "://" in port:
        return serial.serial_for_url(port, baudrate=BAUDRATE, timeout=timeout)
    return serial.Serial(port, baudrate=BAUDRATE, timeout=timeout, exclusive=True)


class Backoff:
    """Delays between reconnection attempts, doubling from ``first`` up to ``most`` seconds.

    >>> backoff = Backoff(0.25, 1.0)
    >>> [backoff.next() for _ in range(4)]
    [0.25, 0.5, 1.0, 1.0]
    """

    def __init__(self, first: float = 0.25, most: float = 5.0) -> None:
        self.first, self.most = first, most
        self._next = first

    def next(self) -> float:
        delay = self._next
        self._next = min(self.most, delay * 2)
        return delay

    def reset(self) -> None:
        self._next = self.first


class Link:
    """Keeps one serial port talking to the protocol's host side, from :meth:`start` to :meth:`close`.

    :param port: device path or pyserial URL, reopened by name after every failure.
    :param host: the host side of the protocol, a pure state machine (a :class:`Ct1Host` by default).
    :param on_output: called from the link's thread with each output; without it, outputs go to
        :attr:`outputs`, a :class:`queue.Queue`.
    :param opener: opens the port (injectable for tests).
    """

    def __init__(self, port: str, *, host=None, on_output: Callable[[object], None] | None = None,
                 opener: Callable[[str], serial.SerialBase] = open_port, backoff: Backoff | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.port = port
        self.host = host if host is not None else Ct1Host()
        self.outputs: queue.Queue = queue.Queue()
        self._deliver = on_output or self.outputs.put
        self._opener = opener
        self._backoff = backoff or Backoff()
        self._clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False
        self.reconnects = 0

    def __repr__(self) -> str:
        state = "closed" if self._closed else (self.host.reported or "starting")
        return f"<Link {self.port} {state}>"

    def is_alive(self) -> bool:
        """True while the reader thread runs (from :meth:`start` to :meth:`close`)."""
        return self._thread is not None and self._thread.is_alive()

    @property
    def is_up(self) -> bool:
        """True while a board (or compat reader) is answering."""
        return self.host.reported in (UP, RESYNCED)

    def start(self) -> Link:
        """Start the reader thread (once).

        :raises LinkClosed: after :meth:`close`.
        """
        if self._closed:
            raise LinkClosed(f"the link to {self.port} is closed")
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"link {self.port}", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread and close the port. Safe to call more than once."""
        self._closed = True
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self._thread = None

    def __enter__(self) -> Link:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    # --- the thread ---

    def _emit(self, outputs: list, port) -> None:
        for item in outputs:
            if isinstance(item, Send):
                logger.debug("%s <- %r", self.port, item.data)
                port.write(item.data)
                continue
            if self.is_up:
                self._backoff.reset()
            try:
                self._deliver(item)
            except Exception:  # a faulty consumer must not take the link down with it
                logger.exception("link output handler failed on %r", item)

    def _run(self) -> None:
        while not self._stop.is_set():
            reason = self._serve()
            if self._stop.is_set():
                break
            self._emit(self.host.failed(reason, self._clock()), None)
            self.reconnects += 1
            self._stop.wait(self._backoff.next())

    def _serve(self) -> str:
        try:
            port = self._opener(self.port)
        except (serial.SerialException, OSError) as err:
            return port_problem(self.port, err)
        try:
            self._emit(self.host.opened(self._clock()), port)
            while not self._stop.is_set():
                data = port.read(port.in_waiting or 1)
                now = self._clock()
                outputs = self.host.feed(data, now) if data else []
                self._emit(outputs + self.host.tick(now), port)
                if self.host.dead:
                    return "the board went silent"
            return "closed"
        except (serial.SerialException, OSError) as err:
            return f"{self.port} was disconnected ({err})"
        except Exception as err:  # input the host side was never written for: start again, never end
            logger.exception("the link to %s failed", self.port)
            return f"the link to {self.port} failed ({err}) and starts again"
        finally:
            port.close()
