"""Reading the cards a player asks advice about: clear words for text that is not a card, a card
given twice, or the wrong number of cards.

>>> read_cards("5H 5D 5S JC 6H 4C", sizes=(5, 6))
(Card('5H'), Card('5D'), Card('5S'), Card('JC'), Card('6H'), Card('4C'))
>>> read_cards("7X 5H", sizes=(2,))
Traceback (most recent call last):
...
engine.errors.InvalidInput: 7X is not a card: card text '7X' has no suit: end it with S, H, D or C
"""

from __future__ import annotations

from engine.cards import Card, parse_card
from engine.errors import InvalidInput


def read_cards(items, *, sizes: tuple[int, ...] | None = None, what: str = "hand",
               deck: tuple[Card, ...] | None = None) -> tuple[Card, ...]:
    """Parse ``items`` (a space- or comma-separated string, or card texts/cards) into cards.

    ``sizes`` are the allowed numbers of cards (``None``: any); ``deck`` the pack the cards must
    come from (Le Quinze has no 8, 9 or 10). ``what`` names the cards in messages ("hand").

    :raises InvalidInput: "7X is not a card: ...", "5H is in the hand twice",
        "a hand here has 5 or 6 cards, not 4".
    """
    texts = items.replace(",", " ").split() if isinstance(items, str) else list(items)
    cards = []
    for text in texts:
        try:
            card = parse_card(text)
        except InvalidInput as err:
            raise InvalidInput(f"{text} is not a card: {err}") from None
        if card in cards:
            raise InvalidInput(f"{card} is in the {what} twice")
        if deck is not None and card not in deck:
            raise InvalidInput(f"{card} is not in the pack for this game")
        cards.append(card)
    if sizes is not None and len(cards) not in sizes:
        allowed = " or ".join(str(n) for n in sizes)
        raise InvalidInput(f"the {what} here has {allowed} card{'s' * (sizes != (1,))}, not {len(cards)}")
    return tuple(cards)


def check_apart(*groups: tuple[tuple[Card, ...], str]) -> None:
    """Refuse a card that is in two of the named groups at once ("5H is both in the hand and in the count").

    :raises InvalidInput: naming the card and both places.
    """
    where: dict[Card, str] = {}
    for cards, name in groups:
        for card in cards:
            if card in where:
                raise InvalidInput(f"{card} is both in the {where[card]} and in the {name}")
            where[card] = name
