"""Compat mode: the lines stock reader sketches print, and removal by timeout."""

import random

import pytest
from hypothesis import example, given, settings, strategies as st

from firmware_bridge.compat import CompatHost, normalise_uid, parse_compat_line, parse_rdm6300


def rdm6300(tag_hex: str) -> bytes:
    values = bytes.fromhex(tag_hex)
    checksum = 0
    for value in values:
        checksum ^= value
    return b"\x02" + tag_hex.encode() + b"%02X" % checksum + b"\x03"


@pytest.mark.parametrize("line, uid, reader", [
    (b"Card UID: 04 A2 3B 1C\r", "04A23B1C", None),
    (b"Reader 2: Card UID: 04 A2 3B 1C 55 66 77", "04A23B1C556677", 2),
    (b"In hex:  04 a2 3b 1c", "04A23B1C", None),
    (b"  UID Value: 0x04 0xA2 0x3B 0x1C", "04A23B1C", None),
    (b"UID Value: 0x4 0xA2 0x3B 0x1C", "04A23B1C", None),
    (b"\x1b[0;36m[D][rc522:066]: Found new tag '74-10-37-94'\x1b[0m", "74103794", None),
    (b"[D][rdm6300:050]: Found new tag with ID 7616525", "0074380D", None),
    (b'19:31:13 MQT: tele/tasmota/SENSOR = {"Time":"2024-01-01T19:31:13","RC522":{"UID":"BA839D07","Data":"","Type":"MIFARE 1KB"}}',
     "BA839D07", None),
    (b'{"PN532":{"UID":"04A23B1C"}}', "04A23B1C", None),
    (b"UID: 04A2B3C4", "04A2B3C4", None),
    (b" - uid : 04a2b3c4", "04A2B3C4", None),
])
def test_stock_sketch_lines(line, uid, reader):
    sighting = parse_compat_line(line)
    assert (sighting.uid, sighting.reader) == (uid, reader)


@pytest.mark.parametrize("line", [b"Firmware Version: 0x92 = v2.0", b"PICC type: MIFARE 1KB", b"Card SAK: 08",
                                  b"Card UID: 4A 2", b"UID: 4A23B1C", b"{not json UID", b'{"RC522":{"UID":"xyz"}}', b""])
def test_other_lines_are_not_tags(line):
    assert parse_compat_line(line) is None


@pytest.mark.parametrize("line", [b"Reader 1: Card UID: 0A 0B 0C 0T", b"Reader 1: Card UID: 0A 0B 0C 0\xc4",
                                  b"Card UID: 04 A2 3B 1C 5D 6E 7T", b"Card UID: 04 A2 3B 1C 5D 6E TD",
                                  b"UID Value: 0x04 0xA2 0x3B 0x1C 0x5D 0x6E 0x7T",
                                  b"[D][rdm6300:050]: Found new tag with ID 761652%"])
def test_a_line_whose_last_byte_is_damaged_is_no_tag(line):
    """(Before: the bytes were read up to the damaged character, "0T" as "0", so two different
    damages of the 0A 0B 0C 0D made the same 0A0B0C00, believed on its second report: a tag
    nobody laid. Found by the stream property below, in CI.)"""
    assert parse_compat_line(line) is None


def test_a_reader_number_damaged_away_and_one_damaged_into_another_make_no_tag():
    """The first line lost its "Reader 1:" colon (read as a line naming no reader: the stock
    sketch's default reader 0); a later one had its 1 turned into a 0. (Before: the two were
    the same tag reported twice in a row on reader 0, and believed: a card on a reader nobody
    used. Found by the stream property below.) Two reports agree only in the same form."""
    host = CompatHost(removal_after=0.5)
    host.opened(0.0)
    changes = []
    for n, line in enumerate([b"Reader 18 Card UID: 0A 0B 0C 0D\r\n", b"Reader 1: Card UID: 04 A2 3B 1C\r\n",
                              b"Reader 0: Card UID: 0A 0B 0C 0D\r\n"]):
        changes += host.feed(line, n * 0.1)
    assert [(c.reader, c.uid) for c in changes if c.kind != "removed"] == []


def test_rdm6300_frames_are_checksummed():
    frame = rdm6300("0A00B1C2D3")
    assert parse_rdm6300(frame[:-1]) == "0A00B1C2D3"
    assert parse_rdm6300(frame[:-3] + b"00") is None


@given(st.binary(max_size=120))
def test_any_line_parses_or_is_ignored(line):
    sighting = parse_compat_line(line)
    assert sighting is None or 8 <= len(sighting.uid) <= 20


@given(st.text(max_size=40))
def test_normalised_uids_are_4_to_10_bytes_of_uppercase_hex(text):
    uid = normalise_uid(text)
    assert uid is None or (uid == uid.upper() and len(uid) % 2 == 0 and 8 <= len(uid) <= 20)


def test_repeats_keep_a_tag_and_silence_removes_it():
    host = CompatHost(reader=3, removal_after=1.0)
    assert [c.state for c in host.opened(0.0)] == ["up"]
    placed = host.feed(rdm6300("0A00B1C2D3") + rdm6300("0A00B1C2D3"), 0.1)
    assert [(c.kind, c.reader, c.uid) for c in placed] == [("placed", 3, "0A00B1C2D3")]
    assert host.feed(rdm6300("0A00B1C2D3"), 0.8) == []
    assert host.tick(1.5) == []
    assert [(c.kind, c.reader) for c in host.tick(1.8)] == [("removed", 3)]
    assert host.tick(5.0) == [] and not host.dead


def test_a_new_tag_on_the_same_reader_replaces_the_old_one():
    host = CompatHost()
    host.feed(b"Card UID: 04 A2 3B 1C\r\n" * 2, 0.0)
    out = host.feed(b"Card UID: 04 A2 3B 1D\r\n" * 2, 0.2)
    assert [(c.kind, c.uid) for c in out] == [("removed", "04A23B1C"), ("placed", "04A23B1D")]


def flip_one_bit(line: bytes, rng: random.Random) -> bytes:
    """``line`` with one bit of one character changed (the newline left alone)."""
    where = rng.randrange(len(line) - 1)
    return line[:where] + bytes([line[where] ^ (1 << rng.randrange(8))]) + line[where + 1:]


@pytest.mark.parametrize("line", [b"Card UID: 04 A2 3B 1C\r\n", b"Reader 1: Card UID: 04 A2 3B 1C\r\n",
                                  b"UID Value: 0x04 0xA2 0x3B 0x1C\n", b'{"RC522":{"UID":"04A23B1C"}}\n'])
def test_single_damaged_reports_never_become_tags(line):
    """320 reports of one card, every other one with one bit flipped: no tag but the card's comes
    of them (the same damage on two reports in a row is what compat mode cannot catch)."""
    rng = random.Random(10)
    host = CompatHost()
    host.opened(0.0)
    changes = []
    for n in range(320):
        report = flip_one_bit(line, rng) if n % 2 else line
        changes += host.feed(report, n * 0.1) + host.tick(n * 0.1)
    assert {(c.kind, c.uid) for c in changes} == {("placed", "04A23B1C")}


def test_a_tag_is_believed_when_read_twice_in_a_row():
    host = CompatHost()
    assert host.feed(b"Card UID: 04 A2 3B 1C\r\n", 0.0) == []
    assert [(c.kind, c.uid) for c in host.feed(b"Card UID: 04 A2 3B 1C\r\n", 0.1)] == [("placed", "04A23B1C")]


def test_an_enrolled_tag_is_believed_at_once_and_damage_to_it_still_needs_two_reports(registry):
    host = CompatHost(known=registry.knows)
    rng = random.Random(3)
    line = b"Card UID: 04 00 00 05\r\n"
    changes = host.feed(line, 0.0)
    for n in range(1, 200):
        changes += host.feed(flip_one_bit(line, rng) if n % 2 else line, n * 0.1)
    placed = {c.uid for c in changes if c.kind in ("placed", "moved")}
    assert "04000005" in placed and all(registry.card_for(uid) for uid in placed)


def spaced(uid: str) -> str:
    return " ".join(uid[i:i + 2] for i in range(0, len(uid), 2))


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["04A23B1C", "0A0B0C0D", "11223344"]), st.integers(0, 2),
                          st.booleans(), st.integers(0, 400), st.integers(0, 7), st.binary(max_size=8)),
                max_size=60))
@example(reports=[("04A23B1C", 0, False, 0, 0, b"")] * 2 + [("0A0B0C0D", 1, True, 23, 5, b""),
                  ("04A23B1C", 0, False, 0, 0, b""), ("0A0B0C0D", 1, True, 77, 1, b"")])  # "0T", then "0\xc4"
@example(reports=[("0A0B0C0D", 1, True, 0, 1, b""), ("04A23B1C", 1, False, 0, 0, b""),
                  ("0A0B0C0D", 1, True, 127, 4, b"")])  # "Reader 18 Card UID", then "Reader 0:"
def test_a_stock_sketch_stream_with_damage_reports_only_tags_sent(reports):
    """Damaged lines (never two in a row, never the same damage twice: that is a tag) and noise
    among the reports of three readers: every tag reported was sent on that reader."""
    host = CompatHost(removal_after=0.5)
    host.opened(0.0)
    sent, damage_seen, damaged_before, changes = set(), set(), False, []
    for n, (uid, reader, damage, where, bit, noise) in enumerate(reports):
        line = f"Reader {reader}: Card UID: {spaced(uid)}\r\n".encode()
        sent.add((reader, uid))
        damaged = flip_one_bit(line, random.Random(where * 8 + bit))
        damaged_before = damage and not damaged_before and damaged not in damage_seen
        if damaged_before:
            damage_seen.add(damaged)
            line = noise + damaged
        changes += host.feed(line, n * 0.1) + host.tick(n * 0.1)
    assert {(c.reader, c.uid) for c in changes if c.kind != "removed"} <= sent
