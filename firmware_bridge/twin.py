"""The microcontroller twin: a simulated reader board on a pseudo-terminal, faults on demand.

The twin owns the master end of a pty pair and publishes the slave end under a stable symlink
(:attr:`Twin.port`), which the host opens like any ``/dev/ttyACM0``. It speaks real CT1: HELLO (with a new
boot id at every boot) at boot and on ``HELLO?``, TAG edges, STATE snapshots after HELLO, on ``SYNC?`` and every
``state_every`` seconds, HB every ``heartbeat`` seconds and on ``PING``, RDR health.

Faults: :meth:`~Twin.inject_garbage`, :meth:`~Twin.drop_lines`, :meth:`~Twin.truncate_lines`,
:meth:`~Twin.corrupt_lines`, :meth:`~Twin.set_noise` (random loss and garbage),
:meth:`~Twin.go_silent`/:meth:`~Twin.speak`, :meth:`~Twin.unplug`/:meth:`~Twin.replug` and
:meth:`~Twin.reboot`.

>>> with Twin(readers=2) as twin:  # doctest: +SKIP
...     twin.place(0, "04A23B1C")
"""

from __future__ import annotations

import errno
import os
import random
import select
import shutil
import tempfile
import threading
import time
import tty

from engine.errors import InvalidInput
from firmware_bridge.compat import normalise_uid
from firmware_bridge.protocol import (
    FrameError, Heartbeat, Hello, LineSplitter, McuError, ReaderHealth, Request, State, Tag,
    decode_message, encode_message,
)

#: Readers per STATE frame, so that even 10-byte UIDs keep a frame under 128 bytes.
STATE_CHUNK = 4


class Twin:
    """A reader board on a pty. Thread-safe: call its methods from any thread.

    :param readers: how many readers the board has.
    :param heartbeat: seconds between HB frames.
    :param state_every: seconds between unprompted STATE snapshots.
    :param proto: the protocol version it announces (set "2" to see the host refuse it).
    :param seed: seeds the random faults of :meth:`set_noise`.
    """

    def __init__(self, readers: int = 4, *, fw: str = "1.0.0", board: str = "twin", proto: str = "1",
                 heartbeat: float = 1.0, state_every: float = 2.0, seed: int | None = None) -> None:
        self.readers = readers
        self.fw, self.board, self.proto = fw, board, proto
        self.heartbeat, self.state_every = heartbeat, state_every
        self.uids: list[str | None] = [None] * readers
        self.reader_ok = [True] * readers
        self.received: list = []
        self.sent = 0
        self.dropped = 0
        #: STATE snapshots sent so far (a test waits on it, not on the clock)
        self.snapshots = 0
        self._rng = random.Random(seed)
        self._lock = threading.RLock()
        self._dir = tempfile.mkdtemp(prefix="cardtable-twin-")
        self.port = os.path.join(self._dir, "ttyCT1")
        self._master: int | None = None
        self._slave: int | None = None
        self._splitter = LineSplitter()
        self._seq = 0
        self._boot = time.monotonic()
        self._last_hb = self._last_state = 0.0
        self._drop = self._truncate = self._corrupt = 0
        self._loss = self._garbage = 0.0
        self._silent = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"<Twin {self.port} readers={self.readers}{' closed' if self._closed else ''}>"

    # --- lifecycle ---

    def start(self) -> Twin:
        """Plug in, boot and start answering the host."""
        with self._lock:
            if self._thread is None and not self._closed:
                self._plug()
                self._boot_up()
                self._thread = threading.Thread(target=self._run, name="twin", daemon=True)
                self._thread.start()
        return self

    def close(self) -> None:
        """Stop and remove the pty. Safe to call more than once."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        with self._lock:
            self._unplug()
            self._closed = True
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> Twin:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    # --- the table ---

    def place(self, reader: int, uid: str) -> None:
        """A card with tag ``uid`` is laid on ``reader`` (a card already there is taken off first).

        :raises InvalidInput: for a reader the board does not have or a malformed UID.
        """
        self._check_reader(reader)
        tag = normalise_uid(uid)
        if tag is None:
            raise InvalidInput(f"{uid!r} is not a tag UID")
        with self._lock:
            if self.uids[reader] == tag:
                return
            self.remove(reader)
            self.uids[reader] = tag
            self._emit(Tag(reader, True, tag))

    def remove(self, reader: int) -> None:
        """Whatever lies on ``reader`` is taken off."""
        self._check_reader(reader)
        with self._lock:
            uid, self.uids[reader] = self.uids[reader], None
            if uid is not None:
                self._emit(Tag(reader, False, uid))

    def set_reader_ok(self, reader: int, ok: bool) -> None:
        """A reader stops (or starts again) answering on the bus; reported with RDR."""
        self._check_reader(reader)
        with self._lock:
            self.reader_ok[reader] = ok
            self._emit(ReaderHealth(reader, ok, "92" if ok else "00"))

    def _check_reader(self, reader: int) -> None:
        if not 0 <= reader < self.readers:
            raise InvalidInput(f"the twin has readers 0 to {self.readers - 1}, not {reader}")

    # --- faults ---

    def inject_garbage(self, data: bytes | None = None) -> None:
        """Write ``data`` (or 1-40 random bytes) onto the line now."""
        with self._lock:
            self._write(data if data is not None else self._random_bytes())

    def drop_lines(self, count: int = 1) -> None:
        """Lose the next ``count`` lines (their sequence numbers are spent, as on a real wire)."""
        with self._lock:
            self._drop += count

    def truncate_lines(self, count: int = 1) -> None:
        """Cut the next ``count`` lines in half, newline included."""
        with self._lock:
            self._truncate += count

    def corrupt_lines(self, count: int = 1) -> None:
        """Change one character in each of the next ``count`` lines, so their CRC fails."""
        with self._lock:
            self._corrupt += count

    def set_noise(self, loss: float = 0.0, garbage: float = 0.0) -> None:
        """From now on lose each line with probability ``loss`` and put random bytes before it
        with probability ``garbage``."""
        with self._lock:
            self._loss, self._garbage = loss, garbage

    def go_silent(self) -> None:
        """Stop sending anything (a hung board with the cable still in)."""
        with self._lock:
            self._silent = True

    def speak(self) -> None:
        """End :meth:`go_silent`."""
        with self._lock:
            self._silent = False

    def unplug(self) -> None:
        """Pull the USB cable: the pty disappears and the host's reads fail."""
        with self._lock:
            self._unplug()

    def replug(self) -> None:
        """Plug back in under the same path; the board boots again, cards still on the readers."""
        with self._lock:
            if self._master is None and not self._closed:
                self._plug()
                self._boot_up()

    def reboot(self) -> None:
        """Restart the board (a brown-out, a watchdog): sequence numbers start again at 0."""
        with self._lock:
            self._boot_up()

    # --- inside ---

    def _plug(self) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        link = self.port + ".new"
        os.symlink(os.ttyname(self._slave), link)
        os.replace(link, self.port)

    def _unplug(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        if os.path.lexists(self.port):
            os.unlink(self.port)

    def _boot_up(self) -> None:
        self._boot_id = f"{self._rng.getrandbits(32):08X}"
        self._seq = 0
        self._boot = time.monotonic()
        self._splitter = LineSplitter()
        self._hello()

    def _hello(self) -> None:
        self._emit(Hello(self.proto, self.fw, self.board, self.readers, (("boot", self._boot_id),)))
        self._snapshot()
        for reader, ok in enumerate(self.reader_ok):
            if not ok:
                self._emit(ReaderHealth(reader, False, "00"))

    def _snapshot(self) -> None:
        self._last_state = time.monotonic()
        for first in range(0, self.readers, STATE_CHUNK):
            self._emit(State(first, tuple(self.uids[first:first + STATE_CHUNK])))
        self.snapshots += 1

    def _beat(self) -> None:
        self._last_hb = time.monotonic()
        mask = sum(1 << reader for reader, ok in enumerate(self.reader_ok) if ok)
        self._emit(Heartbeat(int((self._last_hb - self._boot) * 1000), mask))

    def _emit(self, message) -> None:
        line = encode_message(self._seq, message, major=int(self.proto.split(".")[0]))
        self._seq = (self._seq + 1) % 65536
        if self._silent:
            return
        if self._drop or self._rng.random() < self._loss:
            self._drop = max(0, self._drop - 1)
            self.dropped += 1
            return
        if self._garbage and self._rng.random() < self._garbage:
            self._write(self._random_bytes())
        if self._corrupt:
            self._corrupt -= 1
            where = self._rng.randrange(1, len(line) - 6)
            line = line[:where] + bytes([line[where] ^ 0x01]) + line[where + 1:]
        if self._truncate:
            self._truncate -= 1
            line = line[: len(line) // 2]
        self._write(line)

    def _random_bytes(self) -> bytes:
        return bytes(self._rng.randrange(256) for _ in range(self._rng.randrange(1, 41)))

    def _write(self, data: bytes) -> None:
        if self._master is None:
            return
        try:
            os.write(self._master, data)
            self.sent += 1
        except BlockingIOError:
            pass  # nobody reading and the buffer is full: a real board's bytes are lost too
        except OSError as err:
            if err.errno not in (errno.EIO, errno.EBADF):
                raise

    def _run(self) -> None:
        while not self._stop.is_set():
            master = self._master
            if master is None:
                self._stop.wait(0.02)
                continue
            try:
                ready, _, _ = select.select([master], [], [], 0.02)
                data = os.read(master, 4096) if ready else b""
            except OSError:
                data = b""  # unplugged between the check and the read
            with self._lock:
                for line in self._splitter.feed(data):
                    self._answer(line)
                now = time.monotonic()
                if now - self._last_hb >= self.heartbeat:
                    self._beat()
                if now - self._last_state >= self.state_every:
                    self._snapshot()

    def _answer(self, line: bytes) -> None:
        try:
            message = decode_message(line)
        except FrameError:
            self._emit(McuError("BADCRC"))
            return
        self.received.append(message)
        if isinstance(message, Request):
            if message.type == "HELLO?":
                self._hello()
            elif message.type == "SYNC?":
                self._snapshot()
            elif message.type == "PING":
                self._beat()
