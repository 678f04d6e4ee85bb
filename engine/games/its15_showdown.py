"""It's 15's showdown (RULES.md I7, I8): which seat's number cards plus the centre card come
closest to 15. Below both the game (:mod:`engine.games.its15`) and its advice
(:mod:`engine.advice.its15`), which the game asks for its strong choice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.errors import InvalidInput

TARGET = 15


def showdown(number_cards: Mapping[int, Iterable[int]], center: int) -> int:
    """The seat that wins the reveal: its number cards plus ``center`` closest to 15, over or under
    (I7); a tie goes to the seat holding the highest single card (I8), then the next highest.

    >>> showdown({0: [8], 1: [3, 5], 2: [10]}, 7)
    0
    >>> showdown({0: [9], 1: [7]}, 7)
    0

    :raises InvalidInput: with no seats, a seat without number cards, a value that is not a whole
        number, or two seats whose cards cannot be told apart (brown cards are unique).
    """
    hands = {seat: sorted(values, reverse=True) for seat, values in number_cards.items()}
    if not hands:
        raise InvalidInput("a showdown needs at least one seat")
    for seat, values in hands.items():
        if not values or not all(isinstance(v, int) for v in values):
            raise InvalidInput(f"seat {seat + 1} must show whole-number cards, not {values!r}")

    def rank(seat: int) -> tuple:
        return abs(TARGET - center - sum(hands[seat])), [-v for v in hands[seat]]

    ranked = sorted(hands, key=rank)
    if len(ranked) > 1 and rank(ranked[0]) == rank(ranked[1]):
        raise InvalidInput(f"seats {ranked[0] + 1} and {ranked[1] + 1} show the same cards; brown cards are unique")
    return ranked[0]
