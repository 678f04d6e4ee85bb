"""Words for the display: numbers as a player says them, lists joined the English way, seats by
number or by the players' names, and the sentences that end a game.

A sentence that names seats is written with :func:`who` (and :func:`everyone` for several): it
reads "Seat 2 plays the five of hearts" as plain text, and :func:`named` says the same sentence
with the players' names, "Bob plays the five of hearts". The engine's events, prompts, outcomes and
public views keep their sentences as :class:`Words`; nothing parses prose to find the seats.

>>> number_words(21)
'twenty-one'
>>> join_words(["fifteen two", "fifteen four", "a pair is six"])
'fifteen two, fifteen four, and a pair is six'
>>> text = words(f"{who(1)} to play; {who(0, 'seat')} said go")
>>> text, named(text, ["Ann", "Bob"])
('Seat 2 to play; seat 1 said go', 'Bob to play; Ann said go')
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """0-999 in words ("twenty-one", "one hundred and twenty-one"); larger numbers as digits."""
    if n < 0 or n > 999:
        return str(n)
    if n < 20:
        return _UNITS[n]
    if n < 100:
        tens, units = divmod(n, 10)
        return _TENS[tens - 2] + (f"-{_UNITS[units]}" if units else "")
    hundreds, rest = divmod(n, 100)
    return f"{_UNITS[hundreds]} hundred" + (f" and {number_words(rest)}" if rest else "")


def join_words(parts: list[str]) -> str:
    """"a", "a and b", "a, b, and c"."""
    if len(parts) <= 1:
        return "".join(parts)
    if len(parts) == 2:
        return f"{parts[0]} and {parts[1]}"
    return ", ".join(parts[:-1]) + f", and {parts[-1]}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def seat_names(seats) -> str:
    """"Seat 1", "Seat 1 and Seat 3" (with names: "Ann", "Ann and Cy")."""
    return " and ".join(who(seat) for seat in seats)


def won(winners, score: int, others, margin: str = "") -> str:
    """The end of a game won on points: "Seat 1 wins 121 to 87: a skunk", "Seat 1 and Seat 3 win 11 to 9",
    "Seat 1 wins 67 to 57 and 47".

    ``others`` are the scores beside the winner's that the sentence names, said runner-up first.
    """
    verb = "wins" if len(winners) == 1 else "win"
    end = f": {margin}" if margin else ""
    return f"{seat_names(winners)} {verb} {score} to {join_words([str(s) for s in sorted(others, reverse=True)])}{end}"


def won_with(winners, points: int) -> str:
    """The end of a game won by the most points: "Seat 2 wins with 9 points",
    "Seats 1 and 3 share the win with 7 points"."""
    if len(winners) == 1:
        return f"{who(winners[0])} wins with {plural(points, 'point')}"
    return f"{everyone(winners)} share the win with {plural(points, 'point')}"


# -- seats in sentences ---------------------------------------------------------------------------
# A seat is marked in a sentence by private-use characters, which no card, number or word uses.
_OPEN, _MID, _CLOSE = "\ue000", "\ue001", "\ue002"
_MARK = re.compile(f"{_OPEN}(Seat|seat|Seats){_MID}([0-9,]+){_CLOSE}")


def seat_name(seat: int) -> str:
    """The name of ``seat`` (counted from 0) when its player has none: "Seat 1", "Seat 2", ...

    >>> seat_name(1)
    'Seat 2'
    """
    return f"Seat {seat + 1}"


def default_names(players: int) -> tuple[str, ...]:
    """The seats' names when the players have none: ("Seat 1", "Seat 2", ...)."""
    return tuple(seat_name(seat) for seat in range(players))


def who(seat: int, word: str = "Seat") -> str:
    """``seat`` in a sentence: "Seat 2" (``word`` "seat": "seat 2"), or the player's name once the
    sentence is said with names. Pass the result to :func:`words` (the engine's value types do)."""
    return f"{_OPEN}{word}{_MID}{seat}{_CLOSE}"


def everyone(seats: Sequence[int]) -> str:
    """Several seats in a sentence: "Seats 1, 2, and 5", or "Ann, Bob, and Eve" with names."""
    return f"{_OPEN}Seats{_MID}{','.join(map(str, seats))}{_CLOSE}"


def _say(marked: str, names: Sequence[str] | None) -> str:
    def seat(match: re.Match) -> str:
        word, seats = match.group(1), [int(n) for n in match.group(2).split(",")]
        if names is not None and all(0 <= s < len(names) for s in seats):
            return join_words([names[s] for s in seats])
        if word == "Seats":
            return "Seats " + join_words([str(s + 1) for s in seats])
        return f"{word} {seats[0] + 1}"

    return _MARK.sub(seat, marked)


class Words(str):
    """A sentence that names seats: as text it reads with seat numbers ("Seat 2 deals");
    :meth:`named` says it with the players' names."""

    marked: str

    def __new__(cls, marked: str) -> Words:
        sentence = super().__new__(cls, _say(marked, None))
        sentence.marked = marked
        return sentence

    def __reduce__(self):
        return Words, (self.marked,)

    def named(self, names: Sequence[str]) -> str:
        return _say(self.marked, names)


def words(text: str) -> str:
    """``text`` as :class:`Words` when it names a seat with :func:`who`, else ``text`` itself."""
    return Words(text) if _OPEN in text and not isinstance(text, Words) else text


def named(text: str, names: Sequence[str]) -> str:
    """``text`` with the players' names for its seats (a seat beyond ``names`` keeps its number)."""
    return text.named(names) if isinstance(text, Words) else text


def capitalized(text: str) -> str:
    """``text`` with a capital first letter, still knowing its seats: "seat 2 cannot ..." → "Seat 2 cannot ..."."""
    if not isinstance(text, Words):
        return text[:1].upper() + text[1:]
    marked = text.marked
    if marked.startswith(f"{_OPEN}seat{_MID}"):
        return Words(f"{_OPEN}Seat{marked[len(_OPEN) + 4:]}")
    return Words(marked[:1].upper() + marked[1:])


def compose(*parts: str) -> str:
    """Sentences and text joined into one sentence that still knows its seats:
    ``compose("it is not your turn: ", prompt.text)``."""
    return words("".join(part.marked if isinstance(part, Words) else part for part in parts))
