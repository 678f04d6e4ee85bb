"""The CT1 codec: CRC, framing, messages, sequence numbers, line splitting; fuzzed with hypothesis."""

import pytest
from hypothesis import given, strategies as st

from firmware_bridge.protocol import (
    MAX_LINE, FrameError, Heartbeat, Hello, LineSplitter, Log, McuError, ReaderHealth, Request, SeqWindow,
    State, Tag, crc16, decode_frame, decode_message, encode_frame, encode_message,
)

uids = st.binary(min_size=4, max_size=10).map(lambda b: b.hex().upper())
messages = st.one_of(
    st.builds(Tag, st.integers(0, 7), st.booleans(), uids),
    st.builds(State, st.integers(0, 7), st.lists(st.one_of(st.none(), uids), min_size=1, max_size=4).map(tuple)),
    st.builds(Heartbeat, st.integers(0, 2**32), st.one_of(st.none(), st.integers(0, 255))),
    st.builds(ReaderHealth, st.integers(0, 7), st.booleans(), st.sampled_from(["", "92", "00"])),
    st.builds(Hello, st.sampled_from(["1", "1.2"]), st.sampled_from(["1.0.0", "0.9"]),
              st.sampled_from(["pico", "twin"]), st.integers(1, 8)),
    st.builds(McuError, st.sampled_from(["BADCRC", "OVERFLOW"])),
    st.builds(Log, st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters=",*$"), max_size=40)),
)


def test_crc_check_value_and_documented_examples():
    assert crc16(b"123456789") == 0x29B1
    assert encode_frame(1, "HELLO", ["fw=1.2.0", "readers=4", "proto=1"]) == b"$CT1,1,HELLO,fw=1.2.0,readers=4,proto=1*93D7\n"
    assert encode_frame(2, "HB", ["12345"]) == b"$CT1,2,HB,12345*1BF6\n"
    assert encode_frame(3, "TAG", ["0", "REMOVED", "04A2B3C4"]) == b"$CT1,3,TAG,0,REMOVED,04A2B3C4*04EB\n"


def test_decoding_the_documented_examples():
    assert decode_message(b"$CT1,3,TAG,0,REMOVED,04A2B3C4*04EB\n") == Tag(0, False, "04A2B3C4")
    hello = decode_message(b"$CT1,1,HELLO,fw=1.2.0,readers=4,proto=1*93D7\r\n")
    assert (hello.proto, hello.fw, hello.readers, hello.major) == ("1", "1.2.0", 4, 1)
    assert decode_frame(b"$CT1,2,HB,12345*1BF6").seq == 2


@given(st.integers(0, 65535), messages)
def test_every_message_round_trips(seq, message):
    line = encode_message(seq, message)
    assert len(line) <= MAX_LINE and line.endswith(b"\n")
    assert decode_frame(line).seq == seq
    assert decode_message(line) == message


@pytest.mark.parametrize("line, reason", [
    (b"$CT1,3,TAG,0,REMOVED,04A2B3C4*04EC", "bad_crc"),
    (b"$CT1,3,TAG,0,REMOVED,04A2B3C4*04eb", "malformed"),
    (b"CT1,3,TAG,0,REMOVED,04A2B3C4*04EB", "malformed"),
    (b"$CT1,3,TAG,0,REMOVED,04A2B3C4", "malformed"),
    (b"$CT1,99999,HB,1*%04X" % crc16(b"CT1,99999,HB,1"), "malformed"),
    (b"$" + b"A" * 130, "too_long"),
])
def test_bad_lines_are_refused_with_a_reason(line, reason):
    with pytest.raises(FrameError) as caught:
        decode_message(line)
    assert caught.value.reason == reason


@pytest.mark.parametrize("fields", [["0", "PLACED", "04a2b3c4"], ["0", "PLACED", "04A2B3"], ["x", "PLACED", "04A2B3C4"],
                                    ["0", "LIFTED", "04A2B3C4"], ["0", "PLACED"]])
def test_a_tag_frame_with_bad_fields_is_malformed_even_with_a_good_crc(fields):
    with pytest.raises(FrameError, match="TAG frame") as caught:
        decode_message(encode_frame(5, "TAG", fields))
    assert caught.value.reason == "malformed"


def test_encoding_refuses_reserved_characters_and_long_lines():
    with pytest.raises(ValueError, match="reserved"):
        encode_frame(0, "LOG", ["a,b"])
    with pytest.raises(ValueError, match="128-byte"):
        encode_frame(0, "LOG", ["x" * 120])


@given(st.binary(max_size=200))
def test_random_bytes_never_crash_the_decoder(data):
    try:
        decode_message(data)
    except FrameError:
        pass


@given(messages, st.data())
def test_a_damaged_frame_never_decodes(message, data):
    line = encode_message(7, message).rstrip(b"\n")
    where = data.draw(st.integers(0, len(line) - 1))
    kind = data.draw(st.sampled_from(["flip", "cut", "drop"]))
    if kind == "flip":
        damaged = line[:where] + bytes([line[where] ^ (1 << data.draw(st.integers(0, 7)))]) + line[where + 1:]
    elif kind == "cut":
        damaged = line[:where]
    else:
        damaged = line[:where] + line[where + 1:]
    with pytest.raises(FrameError):
        decode_message(damaged)


def test_sequence_numbers_wrap_and_count_gaps_repeats_and_lines_out_of_step():
    window = SeqWindow()
    frames = [(65533, 1), (65534, 2), (65535, 3), (0, 4), (1, 5), (4, 6), (4, 6), (3, 7), (5, 8)]
    verdicts = [window.check(seq, crc) for seq, crc in frames]
    assert verdicts == ["ok", "ok", "ok", "ok", "ok", "gap", "repeat", "out_of_step", "ok"]
    assert (window.lost, window.gaps, window.repeats, window.out_of_step) == (2, 1, 1, 1)


def test_a_line_seen_before_is_a_repeat_however_late_and_a_far_jump_is_not_believed():
    window = SeqWindow()
    for seq in range(3000):
        window.check(seq, seq % 997)
    assert [window.check(seq, seq % 997) for seq in (2999 - 32, 2999 - 1000, 0)] == ["repeat"] * 3
    assert window.check(10, 5) == "out_of_step"              # behind, never seen: an old number
    assert window.check(2999 + 5000, 5) == "out_of_step"     # too far ahead to be lost frames
    assert window.check(2999 + 500, 5) == "gap"


def test_the_splitter_never_waits_on_partial_lines_and_drops_overlong_ones():
    splitter = LineSplitter()
    assert splitter.feed(b"$CT1,1") == []
    assert splitter.feed(b",HB,1*ABCD\nnext") == [b"$CT1,1,HB,1*ABCD"]
    assert splitter.feed(b"x" * 300) == []
    assert splitter.feed(b"y" * 10 + b"\nok\n") == [b"ok"]
    assert splitter.overlong == 1
    assert splitter.feed(b"z" * 127 + b"\n") == [b"z" * 127]
    assert splitter.feed(b"z" * 128 + b"\n") == [] and splitter.overlong == 2


@given(st.lists(st.binary(max_size=60), max_size=20))
def test_the_splitter_gives_the_same_lines_whatever_the_chunking(chunks):
    whole = b"".join(chunks)
    one, many = LineSplitter(), LineSplitter()
    assert one.feed(whole) == [line for chunk in chunks for line in many.feed(chunk)]


def test_host_requests_parse():
    assert decode_message(encode_frame(0, "SYNC?")) == Request("SYNC?")
