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
