"""Typed reads of one config value, for every package's section: each checks the TOML value's
type and range, appends "section.key: what is wrong" to the problems list when it is wrong, and
returns the value (or ``None``). A section parser (:class:`config_kit.section.Section`) is a row
of these calls; they never raise for a bad value, whatever TOML gave (a text where a list belongs,
``nan``, a whole number no float holds).
"""

from __future__ import annotations

import difflib
import math
import os
import tempfile
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path

from engine.outside_files import special_kind

#: Longest text a config may put on a display or in a path.
MAX_TEXT = 40
#: The largest whole number a float holds exactly.
MAX_EXACT = 2**53


def shown(value: object) -> str:
    """A value as a person reads it in a problem: text is called text, long values are cut."""
    text = f"the text {value!r}" if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> bool:
    """A finite number that a float holds (TOML's whole numbers may be far larger, its floats nan).

    >>> is_number(2.5), is_number(float("nan")), is_number(10**400), is_number(True)
    (True, False, False, False)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return abs(value) <= MAX_EXACT if isinstance(value, int) else math.isfinite(value)


def table(value: object, key: str, problems: list[str]) -> Mapping:
    """A ``[key]`` table (anything else is said, and read as an empty table)."""
    if not isinstance(value, Mapping):
        problems.append(f"{key}: expected a [{key}] table, got {shown(value)}")
        return {}
    return value


def unknown_keys(section: Mapping, known: Iterable[str], key: str, problems: list[str]) -> None:
    """Name every key of ``section`` that is not ``known``, with the closest known one."""
    known = sorted(known)
    for name in sorted(set(section) - set(known)):
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else f"; expected one of {', '.join(known)}"
        problems.append(f"{key}.{name}: unknown key{hint}")


def close_hint(name: str, choices: Iterable[str]) -> str:
    """" (did you mean 'x'?)" for the closest of ``choices``, or nothing."""
    close = difflib.get_close_matches(name, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def whole(value: object, key: str, problems: list[str], low: int, high: int) -> int | None:
    if isinstance(value, str):
        problems.append(f"{key}: expected a whole number, got {shown(value)} (write it without quotes)")
    elif not is_whole(value) or not low <= value <= high:
        problems.append(f"{key}: expected a whole number from {low} to {high}, got {shown(value)}")
    else:
        return value
    return None


def seconds(value: object, key: str, problems: list[str], low: float, high: float) -> float | None:
    """Seconds greater than ``low``, at most ``high`` (finite: TOML has nan and inf)."""
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or (isinstance(value, float) and not math.isfinite(value)) or not low < value <= high):
        problems.append(f"{key}: expected seconds from more than {low:g} to {high:g}, got {shown(value)}")
        return None
    return float(value)


def flag(value: object, key: str, problems: list[str]) -> bool | None:
    if not isinstance(value, bool):
        problems.append(f"{key}: expected true or false, got {shown(value)}")
        return None
    return value


def choice(value: object, key: str, problems: list[str], choices: Iterable[str]) -> str | None:
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        hint = close_hint(value, choices) if isinstance(value, str) else ""
        problems.append(f"{key}: expected one of {', '.join(choices)}, got {shown(value)}{hint}")
        return None
    return value


def text(value: object, key: str, problems: list[str], what: str = "text", *, longest: int = MAX_TEXT) -> str | None:
    """Printable text, not empty, at most ``longest`` characters."""
    if not isinstance(value, str):
        problems.append(f"{key}: expected {what}, got {shown(value)}")
    elif not value.strip():
        problems.append(f"{key}: {what} cannot be empty")
    elif not value.isprintable():
        problems.append(f"{key}: {value!r} holds a control character")
    elif len(value) > longest:
        problems.append(f"{key}: {what} of at most {longest} characters, got {len(value)}")
    else:
        return value
    return None


def spoken(value: str) -> str:
    """A text as a person reads it aloud: case, spacing and look-alike letters (full-width, ligatures)
    do not count, so "Ann", "ann" and "Ann " are one name.

    >>> spoken(" Ann  Lee ") == spoken("ANN LEE") == spoken("Ａｎｎ Lee")
    True
    """
    return " ".join(unicodedata.normalize("NFKC", value).casefold().split())


def text_list(value: object, key: str, problems: list[str], what: str, *, longest: int = MAX_TEXT,
              count: int | None = None, alike=spoken) -> tuple[str, ...] | None:
    """A list of distinct texts (``count`` of them when given), each checked by :func:`text`; two
    texts are the same when ``alike`` makes them equal (by default as :func:`spoken`; ``str`` for
    exact names such as serial ports)."""
    if not isinstance(value, list):
        problems.append(f"{key}: expected a list of {what}s, e.g. [\"a\", \"b\"], got {shown(value)}")
        return None
    if count is not None and len(value) != count:
        problems.append(f"{key}: {len(value)} {what}s for {count} players")
        return None
    before = len(problems)
    items = tuple(text(v, f"{key}[{i}]", problems, f"a {what}", longest=longest) for i, v in enumerate(value))
    if len(problems) > before:
        return None
    first: dict[str, int] = {}
    for n, item in enumerate(items):
        same = items[first.setdefault(alike(item), n)]
        if first[alike(item)] != n:
            problems.append(f"{key}: two {what}s are both {item!r}" if same == item
                            else f"{key}: {same!r} and {item!r} are the same {what} to a person at the table")
    return None if len(problems) > before else items


def file_path(value: object, key: str, problems: list[str], base: Path) -> Path | None:
    """A file path as the config writes it: ``~`` is the home folder, relative to ``base``."""
    if text(value, key, problems, "a file path", longest=4096) is None:
        return None
    try:
        found = Path(value).expanduser()
    except RuntimeError:
        user = value[1:].split("/", 1)[0]
        problems.append(f"{key}: there is no user {user!r} on this machine, so {value!r} has no home folder")
        return None
    return found if found.is_absolute() else base / found


def writable_file(target: Path, key: str, problems: list[str]) -> None:
    """Say why ``target`` could not be created or written (its folder is made when missing)."""
    kind = special_kind(target)
    if kind == "a folder":
        problems.append(f"{key}: {target} is a folder; name a file in it")
        return
    if kind is not None:
        problems.append(f"{key}: {target} is not a regular file ({kind}); name a file the table may write")
        return
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        problems.append(f"{key}: {folder} is a file, not a folder, so {target} cannot be made")
    elif not _can_write_in(folder) or (target.exists() and not os.access(target, os.W_OK)):
        problems.append(f"{key}: {target if target.exists() else folder} cannot be written by this user")


def _can_write_in(folder: Path) -> bool:
    """Whether a file can be made in ``folder``: tried, since permissions, read-only mounts and
    special file systems all have their say (a permission check alone is always yes for root)."""
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".cardtable-probe-")
    except OSError:
        return False
    os.close(fd)
    os.unlink(name)
    return True


def writable_folder(target: Path, key: str, problems: list[str]) -> None:
    """Say why the folder ``target`` could not be made or written into."""
    if target.exists() and not target.is_dir():
        problems.append(f"{key}: {target} is a file, not a folder")
    else:
        writable_file(target / "probe", key, problems)
