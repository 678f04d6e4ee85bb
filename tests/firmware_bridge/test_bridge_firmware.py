"""The reference MicroPython firmware, run on CPython against the simulated ``machine`` module
and RC522 chips of ``mcu/machine.py`` (the same simulation its MicroPython run uses); its output is
checked by the host's own host."""

import binascii
import importlib
import sys
from pathlib import Path

import pytest

import firmware_bridge.firmware as firmware_package
from firmware_bridge.protocol import decode_message, encode_frame, Tag
from firmware_bridge.readers import ReaderChange
from firmware_bridge.host import Ct1Host, LinkChange

sys.path[:0] = [str(Path(firmware_package.__file__).parent), str(Path(__file__).parent / "mcu")]
import board as fw_board  # noqa: E402
import ct1  # noqa: E402
import machine  # noqa: E402  (the simulation)
import mfrc522  # noqa: E402
from machine import Chip  # noqa: E402
from presence import ERROR, OK, TIMEOUT, Presence  # noqa: E402


@pytest.fixture(autouse=True)
def empty_bus():
    yield
    machine.unplug_all()


def reader(chip, number=5):
    machine.fit(number, chip)
    return mfrc522.MFRC522(machine.SPI(0), machine.Pin(number, machine.Pin.OUT))


def test_framing_matches_the_host_codec():
    assert ct1.crc16(b"123456789") == binascii.crc_hqx(b"123456789", 0xFFFF) == 0x29B1
    line = ct1.frame(65537, "TAG", [2, "PLACED", "04A23B1C"])
    assert line == encode_frame(1, "TAG", ["2", "PLACED", "04A23B1C"])
    assert decode_message(line) == Tag(2, True, "04A23B1C")


def test_host_requests_are_read_and_bad_ones_flagged():
    assert ct1.parse_request(encode_frame(3, "SYNC?").rstrip(b"\n") + b"\r") == "SYNC?"
    assert ct1.parse_request(b"$CT1,3,SYNC?*0000") == "BAD"
    assert ct1.parse_request(b"hello") is None
    buffer = ct1.LineBuffer()
    assert buffer.feed(b"a" * 200) == [] and buffer.feed(b"\nok\n") == [b"ok"]


def test_crc_a_check_value():
    assert mfrc522.crc_a(b"123456789") == bytes([0x05, 0xBF])


def test_removal_needs_two_clean_misses_and_cycles_the_field():
    presence = Presence()
    assert presence.update(OK, "04A23B1C", 0) == ([("PLACED", "04A23B1C")], False)
    assert presence.update(TIMEOUT, None, 30) == ([], False)
    assert presence.update(OK, "04A23B1C", 60) == ([], False)
    assert presence.update(TIMEOUT, None, 90) == ([], False)
    assert presence.update(TIMEOUT, None, 120) == ([("REMOVED", "04A23B1C")], True)


def test_garbled_answers_are_not_misses_but_a_backstop_ends_them():
    presence = Presence()
    presence.update(OK, "04A23B1C", 0)
    assert all(presence.update(ERROR, None, t) == ([], False) for t in range(100, 1500, 100))
    assert presence.update(ERROR, None, 1500) == ([("REMOVED", "04A23B1C")], True)


def test_a_different_uid_must_be_read_twice_to_replace_a_card():
    presence = Presence()
    presence.update(OK, "04A23B1C", 0)
    assert presence.update(OK, "0A0B0C0D", 30) == ([], False)
    assert presence.update(OK, "04A23B1C", 60) == ([], False)
    presence.update(OK, "0A0B0C0D", 90)
    assert presence.update(OK, "0A0B0C0D", 120) == ([("REMOVED", "04A23B1C"), ("PLACED", "0A0B0C0D")], False)


def test_the_driver_reads_4_and_7_byte_uids_and_tells_timeouts_from_errors():
    chip = Chip()
    rc522 = reader(chip)
    assert rc522.version() == 0x92
    assert chip.registers[mfrc522.T_RELOAD_L] == mfrc522.TIMEOUT_TICKS and chip.field_on()
    assert rc522.poll() == (TIMEOUT, None)
    chip.uid = "04A23B1C"
    assert rc522.poll() == (OK, "04A23B1C") and chip.halted
    assert rc522.poll() == (OK, "04A23B1C")  # WUPA wakes a halted card
    chip.uid = "04A23B1C556677"
    assert rc522.poll() == (OK, "04A23B1C556677")
    chip.garble = True
    assert rc522.poll() == (ERROR, None)
    rc522.cycle_field()
    assert not chip.halted and chip.field_on()


class Clock:
    def __init__(self):
        self.ms = 0

    def __call__(self):
        return self.ms


def run_board(chips, clock):
    readers = [reader(chip, number) for number, chip in chips.items()]
    out = []
    return fw_board.Board(readers, out.append, clock), out


def host_view(lines):
    host = Ct1Host()
    host.opened(0.0)
    outputs = host.feed(b"".join(lines), 0.1)
    return ([(c.kind, c.reader, c.uid) for c in outputs if isinstance(c, ReaderChange)],
            [c.state for c in outputs if isinstance(c, LinkChange)], host)


def test_the_board_speaks_ct1_that_the_host_accepts():
    chips = {5: Chip(), 6: Chip(), 7: Chip(version=0x00)}
    clock = Clock()
    board, out = run_board(chips, clock)
    board.hello()
    chips[6].uid = "04A23B1C"
    for _ in range(3):
        clock.ms += 30
        board.step()
    chips[6].uid = None
    for _ in range(3):
        clock.ms += 30
        board.step()
    clock.ms = 2100
    board.step()
    changes, links, host = host_view(out)
    assert links == ["up", "resynced"]
    assert changes == [("placed", 1, "04A23B1C"), ("removed", 1, "04A23B1C")]
    assert host.counters.bad_crc == 0 and host.counters.malformed == 0
    kinds = [decode_message(line) for line in out]
    assert any(getattr(m, "reader", None) == 2 and m.ok is False for m in kinds)  # RDR 2 FAIL
    assert [type(m).__name__ for m in kinds].count("Heartbeat") == 1


def test_a_board_powered_on_under_a_card_says_it_lies_there_in_its_first_snapshot():
    chips = {5: Chip(uid="04A23B1C"), 6: Chip()}
    board, out = run_board(chips, Clock())
    board.start()
    kinds = [type(decode_message(line)).__name__ for line in out]
    assert "Tag" not in kinds                                # no edge: the card was already there
    states = [m for m in map(decode_message, out) if type(m).__name__ == "State"]
    assert states[0].uids[:2] == ("04A23B1C", None)


def test_the_board_answers_host_requests():
    board, out = run_board({5: Chip()}, Clock())
    board.heard(encode_frame(0, "SYNC?") + encode_frame(1, "PING") + b"$CT1,2,PING*0000\n")
    assert [type(decode_message(line)).__name__ for line in out] == ["State", "Heartbeat", "McuError"]


def test_main_wires_readers_to_their_chip_select_pins():
    for number in (5, 6, 7, 8):
        machine.fit(number, Chip())
    main = importlib.import_module("main")
    readers = main.build(4)
    assert [r.cs.number for r in readers] == [5, 6, 7, 8]
    assert all(r.version() == 0x92 for r in readers)


def test_the_board_clock_keeps_counting_when_ticks_ms_wraps():
    """MicroPython's ticks_ms wraps at 2**30 ms on the Pico; the board's clock must not."""
    main = importlib.import_module("main")
    period = 1 << 30
    ticks = [period - 5]

    def ticks_ms():
        return ticks[0] % period

    def ticks_diff(a, b):                    # MicroPython's definition
        return ((a - b + period // 2) % period) - period // 2

    clock = main.uptime_ms(ticks_ms, ticks_diff)
    readings = []
    for step in (3, 4, 1000):
        ticks[0] += step
        readings.append(clock())
    assert readings == [3, 7, 1007]
