"""Reading a file the table is given from outside (a config, a calibration, a tag registry): the one
safe way every reader of such a file takes.

Only a regular file is read: a FIFO, a device (``/dev/zero``), a socket or a folder is refused by
what it is, before anything waits on it or reads it without end (the file is opened without
blocking and checked again once open, so a file swapped in between is caught too). A file larger
than the reader's cap is refused by its size, before it is read. The bytes must be UTF-8 (a
leading byte-order mark is allowed), and a document's lists and tables may be nested
:data:`MAX_DEPTH` deep at most. Every refusal is an :class:`UnreadableFile`, a sentence naming
the file, what is wrong and what to do; a missing or forbidden file is the :class:`OSError` the
system gave, for the caller to say in its own words.

>>> read_json("/dev/null", "calibration")
Traceback (most recent call last):
...
engine.outside_files.UnreadableFile: /dev/null is not a regular file (a device): name the calibration file itself
"""

from __future__ import annotations

import json
import os
import stat
import tomllib
from collections.abc import Callable
from pathlib import Path

from engine.errors import InvalidInput

#: the largest file read unless a reader says otherwise (a config or calibration is a few KiB)
MAX_BYTES = 1 << 20
#: the deepest nesting of lists and tables a document may have
MAX_DEPTH = 32
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


class UnreadableFile(InvalidInput):
    """A file that is not what its reader takes (its kind, size, encoding or nesting)."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path, self.reason = Path(path), reason
        super().__init__(f"{path} {reason}")


def _kind(mode: int) -> str | None:
    """What a file of ``mode`` is, when it is not a regular file."""
    return next((kind for test, kind in _KINDS if test(mode)), None if stat.S_ISREG(mode) else "not a file")


def _refuse_kind(path: Path, mode: int, what: str) -> None:
    kind = _kind(mode)
    if kind == "a folder":
        raise UnreadableFile(path, f"is a folder, not a {what} file: name the file in it")
    if kind is not None:
        raise UnreadableFile(path, f"is not a regular file ({kind}): name the {what} file itself")


def _refuse_size(path: Path, size: int, limit: int, what: str) -> None:
    if size > limit:
        shown = f"{size / (1 << 20):.0f} MiB" if size >= 1 << 20 else f"{size} bytes"
        raise UnreadableFile(path, f"is {shown}, larger than any {what} file ({limit // 1024} KiB at most): "
                                   f"is it the right file?")


def special_kind(path: str | Path) -> str | None:
    """What ``path`` is when it exists and is not a regular file ("a FIFO", "a device", ...): a
    file the table will write must not be one."""
    try:
        return _kind(os.stat(path).st_mode)
    except OSError:
        return None


def read_bytes(path: str | Path, what: str, *, limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    :param what: what the file is, as the sentence names it ("calibration").
    :raises UnreadableFile: for a file that is no regular file, or larger than ``limit``.
    :raises OSError: when it is missing or may not be read.
    """
    path = Path(path)
    _refuse_kind(path, os.stat(path).st_mode, what)          # nothing is opened that could block
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        found = os.fstat(fd)
        _refuse_kind(path, found.st_mode, what)              # swapped in since
        _refuse_size(path, found.st_size, limit, what)
        with os.fdopen(os.dup(fd), "rb") as file:
            raw = file.read(limit + 1)
    finally:
        os.close(fd)
    _refuse_size(path, len(raw), limit, what)                # it grew while read
    return raw


def read_text(path: str | Path, what: str, *, limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of ``path`` (see :func:`read_bytes`); a leading byte-order mark is dropped.

    :raises UnreadableFile: also for bytes that are not UTF-8, naming the line.
    """
    raw = read_bytes(path, what, limit=limit)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw[:err.start].count(b"\n") + 1
        raise UnreadableFile(path, f"is not UTF-8 text (line {line} holds the byte {raw[err.start]:#04x}): "
                                   f"save it as UTF-8") from None


def depth(value: object) -> int:
    """How deeply lists and tables are nested in ``value`` (a scalar is 0), without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                todo.extend((child, level + 1) for child in children)
    return deepest


def parse_document(path: str | Path, text: str, parse: Callable[[str], object], language: str) -> object:
    """``parse(text)``, with a document nested more than :data:`MAX_DEPTH` deep refused.

    :raises UnreadableFile: for a document that does not parse (with the parser's reason: its
        errors are ValueErrors, as is a number of more than 4300 digits) or is nested too deeply.
    """
    too_deep = UnreadableFile(path, f"is not valid {language}: its lists or tables are nested too deeply "
                                    f"(at most {MAX_DEPTH})")
    try:
        document = parse(text)
    except RecursionError:
        raise too_deep from None
    except ValueError as err:
        raise UnreadableFile(path, f"is not valid {language}: {err}") from None
    if depth(document) > MAX_DEPTH:
        raise too_deep
    return document


def read_json(path: str | Path, what: str, *, limit: int = MAX_BYTES) -> object:
    """The JSON document of ``path`` (see :func:`read_text`).

    :raises UnreadableFile: for text that is not JSON, or is nested too deeply.
    """
    return parse_document(path, read_text(path, what, limit=limit), json.loads, "JSON")


def read_toml(path: str | Path, what: str, *, limit: int = MAX_BYTES) -> dict:
    """The TOML document of ``path`` (see :func:`read_text`).

    :raises UnreadableFile: for text that is not TOML, or is nested too deeply.
    """
    return parse_document(path, read_text(path, what, limit=limit), tomllib.loads, "TOML")


def read_key(path: str | Path, what: str, size: int, *, hint: str) -> bytes:
    """The secret key of ``size`` bytes kept as hex digits in the file ``path`` (see :func:`read_bytes`).

    :param hint: what to do about a file that holds no such key ("make one with ...").
    :raises UnreadableFile: for a file that is no regular file, or holds no key of that size.
    :raises OSError: when it is missing or may not be read.
    """
    raw = read_bytes(path, what, limit=4 * size)
    try:
        key = bytes.fromhex(raw.decode("ascii"))
    except ValueError:                                    # UnicodeDecodeError is one too
        key = b""
    if len(key) != size:
        raise UnreadableFile(path, f"is not a {what} ({size * 2} hex digits): {hint}")
    return key
