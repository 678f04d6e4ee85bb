"""Scripts of moves for the synthetic camera: what happens on the table, and when.

One move a line, times in seconds from the start, ``#`` starts a comment::

    before place 9C centre           # already lying there when the camera starts
    0.5 place 10H seat1              # optional: x=MM y=MM angle=DEG (table millimetres)
    2.0 hand 2.0 over 10H            # a hand hovers over a card (or a zone) for 2 s
    3.0 hand 10 over QS still        # a hand rests on a card, still, for 10 s
    4.5 slide 10H centre 0.6         # slide a card to another zone, taking 0.6 s (default 0.6)
    5.0 slide 10H seat4 1.5 covered  # the hand over the whole card as it slides (optional x=MM y=MM angle=DEG)
    5.5 slide QS off                 # sweep a card off the nearest edge of the table
    6.0 remove 10H                   # pick the card up

>>> parse_script("1 place QS seat1 angle=10")[0]
Place(t=1.0, card='QS', zone='seat1', x=None, y=None, angle=10.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.errors import InvalidInput


@dataclass(frozen=True)
class Place:
    """Put ``card`` (a physical id) down in ``zone``, at (x, y) mm and ``angle`` degrees if given."""

    t: float
    card: str
    zone: str
    x: float | None = None
    y: float | None = None
    angle: float | None = None


@dataclass(frozen=True)
class Remove:
    """Pick ``card`` up at time ``t``."""

    t: float
    card: str


#: The time of a card laid ``before`` the camera starts (its hand long gone).
BEFORE = -10.0

#: The zone name of a slide that sweeps the card off the table.
OFF_TABLE = "off"


@dataclass(frozen=True)
class Slide:
    """Slide ``card`` to ``zone`` (or :data:`OFF_TABLE`), starting at ``t`` and taking
    ``duration`` seconds, to (x, y) mm and ``angle`` degrees if given (a pile pushed together);
    a ``covered`` slide keeps the hand over the whole card (a card pushed along under a flat hand)."""

    t: float
    card: str
    zone: str
    duration: float = 0.6
    covered: bool = False
    x: float | None = None
    y: float | None = None
    angle: float | None = None


@dataclass(frozen=True)
class Hand:
    """A hand hovers over ``target`` (a card id or a zone name) from ``t`` for ``duration`` s;
    a ``still`` hand rests there without moving."""

    t: float
    duration: float
    target: str
    still: bool = False


Move = Place | Remove | Slide | Hand


def _number(text: str, what: str, line: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InvalidInput(f"{what} {text!r} is not a number in script line {line!r}") from None
    if not math.isfinite(value) or value < 0 and what != "position":
        raise InvalidInput(f"{what} {text!r} must be a finite non-negative number in script line {line!r}")
    return value


def _options(words: list[str], keys: tuple[str, ...], line: str) -> dict[str, float]:
    """The ``key=MM`` options of a script line."""
    options = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or key not in keys:
            raise InvalidInput(f"unknown option {word!r} in script line {line!r}: use {', '.join(k + '=' for k in keys)}")
        options[key] = _number(value, "position", line)
    return options


def parse_move(line: str) -> Move:
    """One script line as a move.

    :raises InvalidInput: saying what is wrong with the line.
    """
    words = line.split("#", 1)[0].split()
    if len(words) < 3:
        raise InvalidInput(f"script line {line!r} is too short: write TIME ACTION ...")
    action, rest = words[1].lower(), words[2:]
    if words[0].lower() == "before" and action != "place":
        raise InvalidInput(f"only a card can lie there before the camera starts: 'before place CARD ZONE', not {line!r}")
    t = BEFORE if words[0].lower() == "before" else _number(words[0], "time", line)
    if action == "place" and len(rest) >= 2:
        return Place(t, rest[0].upper(), rest[1], **_options(rest[2:], ("x", "y", "angle"), line))
    if action == "remove" and len(rest) == 1:
        return Remove(t, rest[0].upper())
    if action == "slide" and len(rest) >= 2:
        extra = rest[2:]
        duration = _number(extra.pop(0), "duration", line) if extra and "=" not in extra[0] and extra[0] != "covered" else 0.6
        covered = "covered" in extra
        options = _options([w for w in extra if w != "covered"], ("x", "y", "angle"), line)
        return Slide(t, rest[0].upper(), rest[1], duration, covered, **options)
    if action == "hand" and len(rest) in (3, 4) and rest[1].lower() == "over" and rest[3:] in ([], ["still"]):
        return Hand(t, _number(rest[0], "duration", line), rest[2], still=len(rest) == 4)
    raise InvalidInput(
        f"cannot read script line {line!r}: expected 'T place CARD ZONE', 'T remove CARD', "
        "'T slide CARD ZONE|off [SECONDS] [covered] [x=MM y=MM angle=DEG]' or 'T hand SECONDS over CARD|ZONE [still]'"
    )


def parse_script(text: str) -> list[Move]:
    """All moves of a script text, in time order (blank and comment lines skipped).

    :raises InvalidInput: for the first line that cannot be read.
    """
    moves = [parse_move(line) for line in text.splitlines() if line.split("#", 1)[0].strip()]
    return sorted(moves, key=lambda move: move.t)
