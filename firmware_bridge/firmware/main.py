"""Boot entry on the Pico (MicroPython): wire the readers and run the board loop forever.

Wiring (see docs/firmware_bridge.md): SPI0 SCK=GP2, MOSI=GP3, MISO=GP4 shared by every reader;
one chip-select per reader on GP5, GP6, GP7, GP8, GP9, GP10, GP11, GP12 (reader 0 to 7); RST of all
readers on GP13; 3.3 V and GND from a separate regulator for more than four readers.
"""

import sys

import machine

from board import Board
from mfrc522 import MFRC522

SCK, MOSI, MISO = 2, 3, 4
CS_PINS = (5, 6, 7, 8, 9, 10, 11, 12)
RST_PIN = 13
SPI_HZ = 1_000_000  # low enough for 30-100 cm of ribbon cable to each seat
READERS = 4


def build(readers=READERS):
    """The readers on their pins, after a hardware reset of all of them."""
    reset = machine.Pin(RST_PIN, machine.Pin.OUT)
    reset.value(0)
    reset.value(1)
    spi = machine.SPI(0, baudrate=SPI_HZ, sck=machine.Pin(SCK), mosi=machine.Pin(MOSI), miso=machine.Pin(MISO))
    return [MFRC522(spi, machine.Pin(pin, machine.Pin.OUT)) for pin in CS_PINS[:readers]]


def run(board, poll_input):
    """Forever: answer the host, poll the readers."""
    while True:
        data = poll_input()
        if data:
            board.heard(data)
        board.step()


def _usb_io():
    import select
    import time
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else sys.stdout

    def read():
        data = b""
        while poller.poll(0):
            data += sys.stdin.buffer.read(1) if hasattr(sys.stdin, "buffer") else sys.stdin.read(1).encode()
        return data

    return out.write, read, uptime_ms(time.ticks_ms, time.ticks_diff)


def uptime_ms(ticks_ms, ticks_diff):
    """A millisecond clock that never wraps: ``time.ticks_ms`` wraps (after about 12 days on
    the Pico) and must only be compared through ``ticks_diff``; this adds up those differences."""
    state = [ticks_ms(), 0]

    def now():
        current = ticks_ms()
        state[1] += ticks_diff(current, state[0])
        state[0] = current
        return state[1]

    return now


if __name__ == "__main__":
    write, read, ticks_ms = _usb_io()
    board = Board(build(), write, ticks_ms, board_id="pico-rc522")
    board.start()
    run(board, read)
