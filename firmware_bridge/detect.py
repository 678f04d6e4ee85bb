"""Finding the reader board: USB ids pick candidate ports, the CT1 handshake confirms one.

USB-serial chips (CH340, CP210x, FTDI) sit on many unrelated gadgets, so a VID:PID match only
makes a port a candidate; it is used once it answers ``HELLO?`` with a valid ``HELLO``. An explicit
port always works without any of this (pseudo-terminals are never listed by the system).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import serial
from serial.tools import list_ports

from engine.errors import CardtableError
from firmware_bridge.link import open_port
from firmware_bridge.protocol import FrameError, Hello, LineSplitter, decode_message, encode_frame

#: USB ids of boards that may run the reader firmware.
KNOWN_BOARDS: dict[tuple[int, int], str] = {
    (0x2E8A, 0x0005): "Raspberry Pi Pico (MicroPython)",
    (0x2E8A, 0x000A): "Raspberry Pi Pico (Pico SDK)",
    (0x2E8A, 0x0009): "Raspberry Pi Pico 2 (Pico SDK)",
    (0x2E8A, 0x000B): "Raspberry Pi Pico 2 (CircuitPython)",
    (0x239A, 0x80F4): "Raspberry Pi Pico (CircuitPython)",
    (0x2341, 0x0043): "Arduino Uno",
    (0x2341, 0x0001): "Arduino Uno",
    (0x2341, 0x0042): "Arduino Mega 2560",
    (0x2341, 0x8036): "Arduino Leonardo",
    (0x1A86, 0x7523): "CH340 USB-serial (Arduino Nano clone, ESP32/ESP8266 board)",
    (0x1A86, 0x55D4): "CH9102 USB-serial (ESP32 board)",
    (0x10C4, 0xEA60): "CP210x USB-serial (ESP32 board)",
    (0x0403, 0x6001): "FTDI FT232 USB-serial",
    (0x303A, 0x1001): "ESP32-S3/C3 native USB",
}


class BoardNotFound(CardtableError, OSError):
    """No port answered the handshake."""


@dataclass(frozen=True)
class Candidate:
    """A serial port whose USB ids match a known board."""

    device: str
    board: str


def candidates(ports: Iterable | None = None) -> list[Candidate]:
    """The ports (``serial.tools.list_ports.comports()`` by default) that look like a known board."""
    found = []
    for info in list_ports.comports() if ports is None else ports:
        board = KNOWN_BOARDS.get((info.vid, info.pid))
        if board is not None:
            found.append(Candidate(info.device, board))
    return found


def probe(port: str, *, timeout: float = 3.0, opener: Callable[[str], serial.SerialBase] = open_port,
          clock: Callable[[], float] = time.monotonic) -> Hello | None:
    """Ask ``port`` ``HELLO?`` (again every second) and return the board's HELLO, or None if no
    valid HELLO comes within ``timeout`` seconds (boards that reset on open need about 2 s).

    :raises serial.SerialException: when the port cannot be opened.
    """
    splitter = LineSplitter()
    with opener(port) as link:
        deadline, asked = clock() + timeout, None
        while clock() < deadline:
            if asked is None or clock() - asked >= 1.0:
                link.write(encode_frame(0, "HELLO?"))
                asked = clock()
            for line in splitter.feed(link.read(link.in_waiting or 1)):
                try:
                    message = decode_message(line[line.rfind(b"$"):])
                except FrameError:
                    continue
                if isinstance(message, Hello):
                    return message
    return None


#: Where udev keeps names for serial devices that stay the same when a board is plugged in again.
BY_ID = Path("/dev/serial/by-id")


def stable_path(device: str, by_id: Path = BY_ID) -> str:
    """The ``/dev/serial/by-id/...`` name of ``device`` when there is one, else ``device``.

    ``/dev/ttyACM0`` may come back as ``/dev/ttyACM1`` after an unplug; the by-id link follows the
    board, so the link reopens the right port without detecting it again.
    """
    try:
        target = Path(device).resolve()
        for link in sorted(by_id.iterdir()):
            if link.resolve() == target:
                return str(link)
    except OSError:
        pass
    return device


def find_board(ports: Iterable | None = None, *, timeout: float = 3.0,
               opener: Callable[[str], serial.SerialBase] = open_port) -> tuple[str, Hello]:
    """The first candidate port that answers the handshake, with its HELLO.

    :raises BoardNotFound: listing what was tried and why it failed.
    """
    tried = []
    for candidate in candidates(ports):
        try:
            hello = probe(candidate.device, timeout=timeout, opener=opener)
        except (serial.SerialException, OSError) as err:
            tried.append(f"{candidate.device} ({candidate.board}): {err}")
            continue
        if hello is not None:
            return stable_path(candidate.device), hello
        tried.append(f"{candidate.device} ({candidate.board}): no answer to HELLO?")
    if not tried:
        raise BoardNotFound("no reader board found: no Pico, Arduino or ESP32 is plugged in; "
                            "plug it in or name the port with --port")
    raise BoardNotFound("no reader board answered: " + "; ".join(tried)
                        + ". Flash the cardtable firmware, or name the port with --port")
