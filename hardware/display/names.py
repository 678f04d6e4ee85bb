"""Seat names short enough for a small panel that still tell the seats apart.

A name that does not fit is not simply cut ("Seat 1" and "Seat 2" would both become "Se…"): it
is written in the longest form that fits and that no other seat's name could also give, from:
the whole name; its first word; a start of it with "…" that no other name starts with; its
initials with any number kept whole ("Seat 10" → "S10", "Ann Lee" → "AL"); its number alone;
last, the seat's number.

>>> name_forms(["Seat 1", "Seat 2", "Seat 10"], 2)
['Seat 10', 'S10', '10']
>>> name_forms(["Alexandra", "Alice", "Bob"], 0)[-4:]
['Alexa…', 'Alex…', 'Ale…', '1']
"""

from __future__ import annotations

from collections.abc import Sequence

from hardware.display.text import ELLIPSIS


def _plain_forms(name: str) -> list[str]:
    """The forms of ``name`` that are not a start of it: whole, first word, initials, number."""
    words = name.split()
    forms = [name]
    if len(words) > 1 and not words[0].isdigit():
        forms.append(words[0])
    forms.append("".join(word if word.isdigit() else word[:1].upper() for word in words))
    if words and words[-1].isdigit():
        forms.append(words[-1])
    return forms


def name_forms(names: Sequence[str], seat: int) -> list[str]:
    """The forms of seat ``seat``'s name (``names`` are the table's seats, from 0) that tell it
    from every other seat, longest first; for a name without a number of its own, the seat's
    number (from 1) is the last resort, also for two seats with the same name."""
    name = names[seat]
    others = [other for n, other in enumerate(names) if n != seat]
    taken = {form.casefold() for other in others for form in _plain_forms(other)}
    forms = [name]
    if name.casefold() not in (other.casefold() for other in others):
        forms += [form for form in _plain_forms(name)[1:] if form.casefold() not in taken]
        for cut in range(len(name) - 1, 0, -1):
            start = name[:cut].rstrip()
            if name[cut - 1:cut + 1].isdigit():
                continue                                  # never cut a number: "Seat 1…" of "Seat 12"
            if start not in forms and not any(o.casefold().startswith(start.casefold()) for o in others):
                forms.append(start + ELLIPSIS)
    words = name.split()
    if not (words and words[-1].isdigit()) and str(seat + 1) not in taken:
        forms.append(str(seat + 1))
    unique = list(dict.fromkeys(forms))
    return sorted(unique, key=len, reverse=True)          # stable: a plain form before a cut one
