"""A simulated ``machine`` module for the reference firmware: pins, a shared SPI bus and RC522
chips with cards in their field. Plain MicroPython (and CPython), so the firmware's own
``main.py`` runs on the real MicroPython interpreter against it, as it runs on the Pico.

Under MicroPython the table comes from two environment variables: ``CARDTABLE_SIM_READERS``, the
chip-select pin of each reader in reader order (``5,6,7,8``), and ``CARDTABLE_SIM_TABLE``, a JSON
file the tests rewrite as cards come and go: ``{"uids": {"0": "04A23B1C"}, "broken": [2]}`` (a
broken reader reads version 0x00, as a reader with a loose wire does).
"""

import json
import os
import time

from mfrc522 import crc_a  # the CRC_A of ISO 14443-3, checked against its check value in the tests

# RC522 registers and ISO 14443 commands, from the datasheet (not from the driver under test)
COMMAND, COM_IRQ, ERROR_REG, FIFO_DATA, FIFO_LEVEL = 0x01, 0x04, 0x06, 0x09, 0x0A
BIT_FRAMING, TX_CONTROL, VERSION = 0x0D, 0x14, 0x37
WUPA, CL1, CL2, HALT, SELECT = 0x52, 0x93, 0x95, 0x50, 0x70
TIMEOUT_MS = 2                 # what an exchange with no card costs on the chip's timer

_sleep_ms = getattr(time, "sleep_ms", lambda ms: time.sleep(ms / 1000))
_pins = {}                     # pin number -> Pin
_chips = {}                    # chip-select pin number -> Chip


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, number, mode=None):
        self.number, self.level = number, 1
        _pins[number] = self

    def value(self, level=None):
        if level is not None:
            self.level = level
        return self.level


class Chip:
    """An RC522 as seen through its SPI registers, with at most one card (4- or 7-byte UID) in
    its field; ``table`` and ``reader``, when given, say which card that is."""

    def __init__(self, uid=None, version=0x92, table=None, reader=0):
        self.registers = {VERSION: version, TX_CONTROL: 0x80}
        self.fifo_in, self.fifo_out = [], []
        self.uid, self.version, self.halted, self.garble = uid, version, False, False
        self.table, self.reader = table, reader
        self.pending_read = None

    def field_on(self):
        return self.registers[TX_CONTROL] & 0x03 == 0x03

    def write(self, data):
        address = data[0]
        register = (address >> 1) & 0x3F
        if address & 0x80:
            self.pending_read = register
            return
        value = data[1]
        if register == FIFO_DATA:
            self.fifo_in.append(value)
        elif register == FIFO_LEVEL and value & 0x80:
            self.fifo_in, self.fifo_out = [], []
        elif register == TX_CONTROL:
            if value & 0x03 == 0:
                self.halted = False  # a field cycle resets the card
            self.registers[register] = value
        elif register == BIT_FRAMING and value & 0x80:
            self._exchange(bytes(self.fifo_in))
        else:
            self.registers[register] = value

    def read(self, count):
        register = self.pending_read
        if register == FIFO_DATA:
            return bytes([self.fifo_out.pop(0)])
        if register == FIFO_LEVEL:
            return bytes([len(self.fifo_out)])
        if register == VERSION and self.table is not None:
            return bytes([0x00 if self.reader in self.table.broken() else self.version])
        return bytes([self.registers.get(register, 0)])

    def _answer(self, reply):
        self.fifo_out = list(reply)
        self.registers[COM_IRQ] = 0x30
        self.registers[ERROR_REG] = 0x02 if self.garble else 0

    def _exchange(self, command):
        self.fifo_in = []
        self.registers[COM_IRQ] = 0x01
        self.registers[ERROR_REG] = 0
        if self.table is not None and command == bytes([WUPA]):
            self.uid = self.table.uid(self.reader)
        if self.uid is None or not self.field_on():
            _sleep_ms(TIMEOUT_MS)
            return
        uid = bytes.fromhex(self.uid)
        levels = [uid] if len(uid) == 4 else [bytes([0x88]) + uid[:3], uid[3:]]
        if command == bytes([WUPA]):
            self._answer(b"\x44\x00")
        elif command[:2] in (bytes([CL1, 0x20]), bytes([CL2, 0x20])):
            part = levels[command[0] == CL2]
            self._answer(part + bytes([part[0] ^ part[1] ^ part[2] ^ part[3]]))
        elif command[1:2] == bytes([SELECT]) and command[-2:] == crc_a(command[:-2]):
            self._answer(b"\x08" + crc_a(b"\x08"))
        elif command[0] == HALT:
            self.halted = True


class SPI:
    """The shared bus: bytes go to the one chip whose chip-select pin is low."""

    def __init__(self, bus=0, **settings):
        self.bus, self.settings = bus, settings

    def _selected(self):
        low = [number for number in _chips if _pins.get(number) is not None and _pins[number].level == 0]
        if len(low) != 1:
            raise OSError("%d readers selected on the shared bus, not one" % len(low))
        return _chips[low[0]]

    def write(self, data):
        self._selected().write(data)

    def read(self, count):
        return self._selected().read(count)


class Table:
    """The cards on the readers, read again from ``path`` at every wake-up of a reader."""

    def __init__(self, path):
        self.path = path
        self._data = {}

    def _load(self):
        try:
            with open(self.path) as file:
                self._data = json.loads(file.read())
        except (OSError, ValueError):
            pass  # being rewritten: keep what was read last

    def uid(self, reader):
        self._load()
        return self._data.get("uids", {}).get(str(reader))

    def broken(self):
        return self._data.get("broken", [])


def fit(pin, chip):
    """Put ``chip`` on the bus behind chip-select ``pin``."""
    _chips[pin] = chip


def unplug_all():
    """Take every chip off the bus and forget every pin."""
    _chips.clear()
    _pins.clear()


_table_path = os.getenv("CARDTABLE_SIM_TABLE")
if _table_path:
    _table = Table(_table_path)
    for _reader, _pin in enumerate(os.getenv("CARDTABLE_SIM_READERS", "5,6,7,8").split(",")):
        fit(int(_pin), Chip(table=_table, reader=_reader))
