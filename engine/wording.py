"""Words for the display: numbers as a player says them, lists joined the English way.

>>> number_words(21)
'twenty-one'
>>> join_words(["fifteen two", "fifteen four", "a pair is six"])
'fifteen two, fifteen four, and a pair is six'
"""

from __future__ import annotations

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
    """"Seat 1", "Seat 1 and Seat 3"."""
    return " and ".join(f"Seat {seat + 1}" for seat in seats)


def won(winners, score: int, others, margin: str = "") -> str:
    """The end of a game won on points: "Seat 1 wins 121 to 87: a skunk", "Seat 1 and Seat 3 win 11 to 9".

    ``others`` are the scores beside the winner's that the sentence names.
    """
    verb = "wins" if len(winners) == 1 else "win"
    end = f": {margin}" if margin else ""
    return f"{seat_names(winners)} {verb} {score} to {', '.join(map(str, others))}{end}"


def won_with(winners, points: int) -> str:
    """The end of a game won by the most points: "Seat 2 wins with 9 points",
    "Seats 1 and 3 share the win with 7 points"."""
    if len(winners) == 1:
        return f"Seat {winners[0] + 1} wins with {plural(points, 'point')}"
    return f"Seats {join_words([str(s + 1) for s in winners])} share the win with {plural(points, 'point')}"
