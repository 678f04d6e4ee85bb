"""The board's main logic, free of hardware (MicroPython): poll readers in turn, speak CT1.

``Board(readers, write, ticks_ms)`` takes reader drivers (each with ``poll() -> (status, uid)``,
``cycle_field()``, ``version()`` and ``antenna(on)``), a function writing bytes to USB and a
millisecond clock. ``step()`` polls every reader once (only the polled reader's antenna is on, so
neighbours cannot read each other's cards) and sends what changed; ``heard(data)`` answers host
requests. ``main.py`` wires it to the real pins.
"""

import os

import ct1
from presence import Presence

PROTO = "1"
FW = "1.0.0"
HEARTBEAT_MS = 1000
STATE_MS = 2000
STATE_CHUNK = 4
BAD_VERSIONS = (0x00, 0xFF)


class Board:
    def __init__(self, readers, write, ticks_ms, board_id="pico-rc522", boot=None):
        self.readers = readers
        # new at every start, so the host tells a restart from an answer to HELLO?
        self.boot = boot or "%08X" % int.from_bytes(os.urandom(4), "big")
        self.write = write
        self.ticks_ms = ticks_ms
        self.board_id = board_id
        self.presence = [Presence() for _ in readers]
        self.ok = [True] * len(readers)
        self.seq = 0
        self.cycle_ms = 0
        self._buffer = ct1.LineBuffer()
        self._boot = ticks_ms()
        self._last_hb = self._last_state = self._last_health = self._boot

    def send(self, kind, fields=()):
        self.write(ct1.frame(self.seq, kind, fields))
        self.seq = (self.seq + 1) & 0xFFFF

    def start(self):
        """At power-on: read every reader once, then say HELLO, so that the first snapshot holds
        the cards already lying there (a board that restarts under cards does not report them
        gone and then placed again)."""
        for index, reader in enumerate(self.readers):
            self._poll(index, reader)
        self.hello()

    def hello(self):
        self.send("HELLO", ["proto=" + PROTO, "fw=" + FW, "board=" + self.board_id,
                            "readers=%d" % len(self.readers), "boot=" + self.boot])
        self.check_health(report_all=True)
        self.state()

    def state(self):
        self._last_state = self.ticks_ms()
        for first in range(0, len(self.readers), STATE_CHUNK):
            uids = [p.uid or "-" for p in self.presence[first:first + STATE_CHUNK]]
            self.send("STATE", [first] + uids)

    def heartbeat(self):
        self._last_hb = self.ticks_ms()
        mask = 0
        for index, ok in enumerate(self.ok):
            mask |= (1 << index) if ok else 0
        self.send("HB", [self._last_hb - self._boot, "%X" % mask])

    def check_health(self, report_all=False):
        for index, reader in enumerate(self.readers):
            version = reader.version()
            ok = version not in BAD_VERSIONS
            if report_all or ok != self.ok[index]:
                self.send("RDR", [index, "OK" if ok else "FAIL", "%02X" % version])
            self.ok[index] = ok

    def heard(self, data):
        for line in self._buffer.feed(data):
            request = ct1.parse_request(line)
            if request == "HELLO?":
                self.hello()
            elif request == "SYNC?":
                self.state()
            elif request == "PING":
                self.heartbeat()
            elif request == "BAD":
                self.send("ERR", ["BADCRC"])

    def _poll(self, index, reader):
        """One poll of one reader (only its antenna on); the edges it makes."""
        reader.antenna(True)
        status, uid = reader.poll()
        edges, cycle = self.presence[index].update(status, uid, self.ticks_ms())
        if cycle:
            reader.cycle_field()
        reader.antenna(False)
        return edges

    def step(self):
        """Poll each reader once, then send heartbeat and snapshot when due."""
        start = self.ticks_ms()
        for index, reader in enumerate(self.readers):
            if self.ok[index]:
                for kind, tag in self._poll(index, reader):
                    self.send("TAG", [index, kind, tag])
        now = self.ticks_ms()
        self.cycle_ms = now - start
        if now - self._last_health >= HEARTBEAT_MS:  # on its own clock: a host's PINGs reset the heartbeat's
            self._last_health = now
            self.check_health()
        if now - self._last_hb >= HEARTBEAT_MS:
            self.heartbeat()
        if now - self._last_state >= STATE_MS:
            self.state()
