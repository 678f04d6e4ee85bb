"""Scripts of moves for the synthetic camera: what happens on the table, and when.

One move a line, times in seconds from the start, ``#`` starts a comment::

    0.5 place 10H seat1              # optional: x=MM y=MM angle=DEG (table millimetres)
    2.0 hand 2.0 over 10H            # a hand hovers over a card (or a zone) for 2 s
    3.0 hand 10 over QS still        # a hand rests on a card, still, for 10 s
    4.5 slide 10H centre 0.6         # slide a card to another zone, taking 0.6 s (default 0.6)
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


#: The zone name of a slide that sweeps the card off the table.
OFF_TABLE = "off"


@dataclass(frozen=True)
class Slide:
    """Slide ``card`` to ``zone`` (or :data:`OFF_TABLE`), starting at ``t`` and taking
    ``duration`` seconds."""

    t: float
    card: str
    zone: str
    duration: float = 0.6


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


def parse_move(line: str) -> Move:
    """One script line as a move.

    :raises InvalidInput: saying what is wrong with the line.
    """
    words = line.split("#", 1)[0].split()
    if len(words) < 3:
        raise InvalidInput(f"script line {line!r} is too short: write TIME ACTION ...")
    t, action, rest = _number(words[0], "time", line), words[1].lower(), words[2:]
    if action == "place" and len(rest) >= 2:
        options = {}
        for word in rest[2:]:
            key, sep, value = word.partition("=")
            if not sep or key not in ("x", "y", "angle"):
                raise InvalidInput(f"unknown option {word!r} in script line {line!r}: use x=, y=, angle=")
            options[key] = _number(value, "position", line)
        return Place(t, rest[0].upper(), rest[1], **options)
    if action == "remove" and len(rest) == 1:
        return Remove(t, rest[0].upper())
    if action == "slide" and len(rest) in (2, 3):
        duration = _number(rest[2], "duration", line) if len(rest) == 3 else 0.6
        return Slide(t, rest[0].upper(), rest[1], duration)
    if action == "hand" and len(rest) in (3, 4) and rest[1].lower() == "over" and rest[3:] in ([], ["still"]):
        return Hand(t, _number(rest[0], "duration", line), rest[2], still=len(rest) == 4)
    raise InvalidInput(
        f"cannot read script line {line!r}: expected 'T place CARD ZONE', 'T remove CARD', "
        "'T slide CARD ZONE|off [SECONDS]' or 'T hand SECONDS over CARD|ZONE [still]'"
    )


def parse_script(text: str) -> list[Move]:
    """All moves of a script text, in time order (blank and comment lines skipped).

    :raises InvalidInput: for the first line that cannot be read.
    """
    moves = [parse_move(line) for line in text.splitlines() if line.split("#", 1)[0].strip()]
    return sorted(moves, key=lambda move: move.t)
