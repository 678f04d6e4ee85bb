"""CT1 framing on the board: CRC-16/CCITT-FALSE, frames out, host requests in (MicroPython)."""

MAX_LINE = 128

_TABLE = []
for _byte in range(256):
    _crc = _byte << 8
    for _ in range(8):
        _crc = ((_crc << 1) ^ 0x1021) if _crc & 0x8000 else (_crc << 1)
    _TABLE.append(_crc & 0xFFFF)


def crc16(data):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of bytes ``data``."""
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[(crc >> 8) ^ byte]
    return crc


def frame(seq, kind, fields=()):
    """The bytes of one frame: ``$CT1,<seq>,<kind>,<fields>*<CRC>\\n``."""
    body = ",".join(["CT1", str(seq & 0xFFFF), kind] + [str(item) for item in fields]).encode()
    return b"$" + body + b"*" + ("%04X" % crc16(body)).encode() + b"\n"


def parse_request(line):
    """The request type (``HELLO?``, ``SYNC?``, ``PING``) of a host line, ``"BAD"`` for a line
    whose checksum fails, or None for anything else (blank lines, echoes)."""
    line = line.strip()
    start = line.rfind(b"$")
    star = line.rfind(b"*")
    if start < 0 or star < start or len(line) - star != 5:
        return None
    body = line[start + 1:star]
    try:
        if crc16(body) != int(line[star + 1:], 16):
            return "BAD"
    except ValueError:
        return "BAD"
    parts = body.decode().split(",")
    if len(parts) < 3 or parts[0] != "CT1":
        return "BAD"
    return parts[2]


class LineBuffer:
    """Collects host bytes into lines of at most 128 bytes."""

    def __init__(self):
        self._buffer = b""

    def feed(self, data):
        self._buffer += data
        lines = self._buffer.split(b"\n")
        self._buffer = lines.pop()
        if len(self._buffer) >= MAX_LINE:
            self._buffer = b""
        return [line for line in lines if 0 < len(line) < MAX_LINE]
