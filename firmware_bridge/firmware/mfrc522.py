"""A small MFRC522 (RC522) driver over SPI for presence polling (MicroPython).

Each poll wakes any card (WUPA also wakes halted cards), reads its UID through anticollision and
select (4- and 7-byte UIDs), then halts it. The chip timer is set to 2.5 ms instead of the Arduino
library's 25 ms, because a card answers within a few hundred microseconds, so eight readers poll
in tens of milliseconds. Results use ``presence.OK``/``TIMEOUT``/``ERROR``.
"""

import time

from presence import ERROR, OK, TIMEOUT

COMMAND, COM_IRQ, ERROR_REG, FIFO_DATA, FIFO_LEVEL = 0x01, 0x04, 0x06, 0x09, 0x0A
BIT_FRAMING, MODE, TX_CONTROL, TX_ASK = 0x0D, 0x11, 0x14, 0x15
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, VERSION = 0x2A, 0x2B, 0x2C, 0x2D, 0x37
IDLE, TRANSCEIVE, SOFT_RESET = 0x00, 0x0C, 0x0F
WUPA, CL1, CL2, HALT = 0x52, 0x93, 0x95, 0x50
CASCADE_TAG = 0x88
#: Chip timer reload in 25 us ticks: 100 ticks = 2.5 ms per exchange.
TIMEOUT_TICKS = 100
FIELD_OFF_MS = 5

_sleep_ms = getattr(time, "sleep_ms", lambda ms: time.sleep(ms / 1000))


def crc_a(data):
    """ISO 14443-3 CRC_A (the check value of b"123456789" is 0xBF05), as two bytes LSB first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes([crc & 0xFF, crc >> 8])


class MFRC522:
    """One RC522 on a shared SPI bus with its own chip-select pin (idle high)."""

    def __init__(self, spi, cs):
        self.spi, self.cs = spi, cs
        self.cs.value(1)
        self.init()

    def _write(self, register, value):
        self.cs.value(0)
        self.spi.write(bytes([(register << 1) & 0x7E, value]))
        self.cs.value(1)

    def _read(self, register):
        self.cs.value(0)
        self.spi.write(bytes([((register << 1) & 0x7E) | 0x80]))
        value = self.spi.read(1)[0]
        self.cs.value(1)
        return value

    def init(self):
        self._write(COMMAND, SOFT_RESET)
        _sleep_ms(50)
        self._write(T_MODE, 0x80)
        self._write(T_PRESCALER, 0xA9)
        self._write(T_RELOAD_H, TIMEOUT_TICKS >> 8)
        self._write(T_RELOAD_L, TIMEOUT_TICKS & 0xFF)
        self._write(TX_ASK, 0x40)
        self._write(MODE, 0x3D)
        self.antenna(True)

    def version(self):
        """VersionReg: 0x91/0x92 genuine, 0x88/0x12 clones, 0x00/0xFF wiring failure."""
        return self._read(VERSION)

    def antenna(self, on):
        value = self._read(TX_CONTROL)
        self._write(TX_CONTROL, (value | 0x03) if on else (value & ~0x03))

    def cycle_field(self):
        """Field off and on: every card in it resets to IDLE."""
        self.antenna(False)
        _sleep_ms(FIELD_OFF_MS)
        self.antenna(True)

    def transceive(self, data, last_bits=0):
        """Send ``data``, return (status, reply bytes)."""
        self._write(COMMAND, IDLE)
        self._write(COM_IRQ, 0x7F)
        self._write(FIFO_LEVEL, 0x80)
        for byte in data:
            self._write(FIFO_DATA, byte)
        self._write(BIT_FRAMING, last_bits)
        self._write(COMMAND, TRANSCEIVE)
        self._write(BIT_FRAMING, 0x80 | last_bits)
        for _ in range(200):
            irq = self._read(COM_IRQ)
            if irq & 0x30:
                break
            if irq & 0x01:
                return TIMEOUT, b""
        else:
            return TIMEOUT, b""
        self._write(BIT_FRAMING, 0)
        if self._read(ERROR_REG) & 0x1B:
            return ERROR, b""
        count = self._read(FIFO_LEVEL)
        return OK, bytes(self._read(FIFO_DATA) for _ in range(count))

    def _select_level(self, level):
        status, reply = self.transceive(bytes([level, 0x20]))
        if status != OK:
            return status, b""
        if len(reply) != 5 or reply[0] ^ reply[1] ^ reply[2] ^ reply[3] != reply[4]:
            return ERROR, b""
        command = bytes([level, 0x70]) + reply
        status, sak = self.transceive(command + crc_a(command))
        if status != OK or len(sak) != 3:
            return ERROR if status == OK else status, b""
        return OK, reply[:4]

    def poll(self):
        """(OK, uid hex) when a card answers, (TIMEOUT, None) for an empty field, (ERROR, None)
        when something answered but garbled."""
        status, atqa = self.transceive(bytes([WUPA]), last_bits=7)
        if status != OK:
            return status, None
        status, part = self._select_level(CL1)
        uid = part
        if status == OK and part[:1] == bytes([CASCADE_TAG]):
            status, rest = self._select_level(CL2)
            uid = part[1:] + rest
        if status != OK:
            return status, None
        halt = bytes([HALT, 0x00])
        self.transceive(halt + crc_a(halt))
        return OK, "".join("%02X" % byte for byte in uid)
