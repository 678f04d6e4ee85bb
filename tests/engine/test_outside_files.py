"""The one safe way to read a file from outside: any bytes, any kind of file, any size, any
nesting give the document or an :class:`UnreadableFile` sentence (or the system's OSError for a
missing file), never another exception, never a wait."""

import doctest
import os

from hypothesis import given, settings, strategies as st

import config_kit.reads
import engine.outside_files
from engine.outside_files import MAX_DEPTH, UnreadableFile, depth, read_json, read_toml


def test_the_examples_hold():
    for module in (engine.outside_files, config_kit.reads):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed


@settings(max_examples=150, deadline=None)
@given(raw=st.one_of(st.binary(max_size=400), st.text(max_size=200).map(lambda t: t.encode("utf-16")),
                     st.integers(1, 5000).map(lambda n: b"[" * n + b"]" * n)))
def test_any_bytes_are_a_document_or_a_sentence(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("raw") / "file"
    path.write_bytes(raw)
    for read in (read_json, read_toml):
        try:
            document = read(path, "test")
        except UnreadableFile as err:
            assert str(err).startswith(str(path)) and err.reason
        else:
            assert depth(document) <= MAX_DEPTH


def test_nesting_just_within_the_bound_is_read_and_one_more_is_refused(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert depth(read_json(path, "test")) == MAX_DEPTH
    path.write_text("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    try:
        read_json(path, "test")
    except UnreadableFile as err:
        assert "nested too deeply (at most 32)" in str(err)
    else:
        raise AssertionError("nesting beyond the bound was read")


def test_a_fifo_is_refused_by_what_it_is_without_waiting(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    try:
        read_json(path, "calibration")
    except UnreadableFile as err:
        assert err.reason == "is not a regular file (a FIFO): name the calibration file itself"
    else:
        raise AssertionError("a FIFO was read")
