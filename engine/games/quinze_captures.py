"""Le Quinze's capture rule (RULES.md Q2): what each card is worth for making 15, and the sets of
table cards a played card takes. Below both the game (:mod:`engine.games.quinze`) and its advice
(:mod:`engine.advice.quinze`), which the game asks for its strong choice.
"""

from __future__ import annotations

from engine.cards import Card, parse_card, parse_cards
from engine.errors import InvalidInput

SEVEN_OF_CLUBS = Card(7, "C")


def value(card: Card | str) -> int:
    """A card's value for making 15: A-7 their number, jack 8, queen 9, king 10 (Q2).

    :raises InvalidInput: for an 8, 9 or 10, which the French 40-card pack does not have.
    """
    card = parse_card(card)
    if 8 <= card.rank <= 10:
        raise InvalidInput(f"the {card.name} is not in the French 40-card pack")
    return card.rank if card.rank <= 7 else card.rank - 3


def captures(table, played) -> list[frozenset[Card]]:
    """Every set of ``table`` cards that ``played`` can take: values summing to 15 with it (Q2).

    ``table`` is an iterable of cards or card text, ``played`` a card or card text. The sets come
    smallest first, then in card order; the list is empty when nothing can be taken.

    >>> [sorted(map(str, s)) for s in captures(["KH", "5S", "5D"], "5C")]
    [['KH'], ['5D', '5S']]
    >>> captures("AH 2S", "3D")
    []

    :raises InvalidInput: for text that names no card, a card outside the 40-card pack, or a
        table that shows the same card twice or shows the played card.
    """
    cards = sorted(parse_cards(table))
    card = parse_card(played)
    if len(set(cards)) != len(cards) or card in cards:
        raise InvalidInput("a card cannot be on the table twice, nor on the table and in play")
    values = [value(c) for c in cards]
    found: list[frozenset[Card]] = []

    def search(start: int, need: int, chosen: tuple[Card, ...]) -> None:
        if need == 0:
            found.append(frozenset(chosen))
            return
        for i in range(start, len(cards)):
            if values[i] <= need:
                search(i + 1, need - values[i], chosen + (cards[i],))

    search(0, 15 - value(card), ())
    return sorted(found, key=lambda s: (len(s), sorted(s)))
