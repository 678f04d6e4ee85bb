"""Card faces of the standard packs: ranks, suits, canonical text ("10H") and parsing.

A :class:`Card` is a face (rank and suit); which physical card shows it is the business of
:mod:`engine.decks`. Text is canonical on output (``str(Card(10, "H")) == "10H"``) and forgiving on
input (``"TH"``, ``"10h"``, ``"10♥"`` all parse).

>>> parse_card("TH")
Card('10H')
>>> str(parse_card("qs"))
'QS'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidInput

SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}

RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_NAMES = {
    1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
    8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king",
}
_RANK_PARSE = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}


@dataclass(frozen=True, order=True)
class Card:
    """One face of the standard pack: ``rank`` 1 (ace) to 13 (king), ``suit`` one of S H D C."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 1 <= self.rank <= 13) or self.suit not in SUITS:
            raise InvalidInput(f"no such card: rank {self.rank!r}, suit {self.suit!r}")

    def __str__(self) -> str:
        return f"{RANK_TEXT.get(self.rank, str(self.rank))}{self.suit}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def name(self) -> str:
        """Words for the display: "seven of hearts"."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"


def parse_card(text: str | Card) -> Card:
    """Read card text such as ``"10H"``, ``"TH"``, ``"ah"`` or ``"K♣"``; a Card passes through.

    :raises InvalidInput: when the text names no card, saying what was wrong.
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise InvalidInput(f"expected card text such as '10H', got {text!r}")
    raw = text.strip().upper()
    if len(raw) < 2:
        raise InvalidInput(f"card text {text!r} is too short: write rank then suit, like '10H' or 'QS'")
    rank_text, suit = raw[:-1], _SUIT_SYMBOLS.get(raw[-1], raw[-1])
    if suit not in SUITS:
        raise InvalidInput(f"card text {text!r} has no suit: end it with S, H, D or C")
    if rank_text in _RANK_PARSE:
        rank = _RANK_PARSE[rank_text]
    elif rank_text.isdigit() and 2 <= int(rank_text) <= 10:
        rank = int(rank_text)
    else:
        raise InvalidInput(f"card text {text!r} has no rank: use A, 2-10 (or T), J, Q or K")
    return Card(rank, suit)


def parse_cards(items) -> tuple[Card, ...]:
    """Parse a space-separated string or an iterable of card texts/cards."""
    if isinstance(items, str):
        items = items.split()
    return tuple(parse_card(item) for item in items)


def standard_52() -> tuple[Card, ...]:
    """The standard pack, suit by suit, ace to king."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))


def french_40() -> tuple[Card, ...]:
    """The French 40-card pack of Le Quinze: A-7, J, Q, K in each suit."""
    return tuple(card for card in standard_52() if card.rank <= 7 or card.rank >= 11)
