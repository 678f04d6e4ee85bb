"""Decks as sets of physical cards: the standard 52, the French 40 and the It's 15 set.

A physical card has an ``id`` unique within its deck and shows a ``face``. In the standard and
French packs the id is the face text ("10H"); the It's 15 set has value cards whose faces repeat
(every player holds several "1" cards of their colour), so those ids carry a copy number
("V1R-3" is the third red value-1 card). Trackers and readers follow ids; rules follow faces.

>>> get_deck("standard").card("10H").face
Card('10H')
>>> len(get_deck("its15").cards)
54
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card, french_40, parse_card, standard_52
from engine.errors import InvalidInput

ITS15_COLOURS = {"R": "red", "B": "blue", "Y": "yellow", "P": "purple", "O": "orange"}
ITS15_KIND_NAMES = {"B": "brown", "G": "green", "V": "value"}
#: Value cards each player owns in the default It's 15 set (RULES.md I1: a documented default).
ITS15_VALUE_CARDS = {1: 5, 2: 2}


@dataclass(frozen=True, order=True)
class ItsFace:
    """A face of the It's 15 set: a brown number 1-10, a green number 1-9, or a value card
    worth 1 or 2 in one player colour.  Text: "B7", "G3", "V2R" (value 2, red)."""

    kind: str
    value: int
    colour: str = ""

    def __post_init__(self) -> None:
        ok = (
            (self.kind == "B" and 1 <= self.value <= 10 and not self.colour)
            or (self.kind == "G" and 1 <= self.value <= 9 and not self.colour)
            or (self.kind == "V" and self.value in (1, 2) and self.colour in ITS15_COLOURS)
        )
        if not ok:
            raise InvalidInput(f"no such It's 15 card: {self.kind}{self.value}{self.colour}")

    def __str__(self) -> str:
        return f"{self.kind}{self.value}{self.colour}"

    def __repr__(self) -> str:
        return f"ItsFace({str(self)!r})"

    @property
    def name(self) -> str:
        if self.kind == "V":
            return f"{ITS15_COLOURS[self.colour]} value card {self.value}"
        return f"{ITS15_KIND_NAMES[self.kind]} {self.value}"


def parse_its_face(text: str | ItsFace) -> ItsFace:
    """Read It's 15 card text: "B10", "G3", "V2R".

    :raises InvalidInput: when the text names no card of the set.
    """
    if isinstance(text, ItsFace):
        return text
    raw = str(text).strip().upper()
    kind, rest = raw[:1], raw[1:]
    colour = ""
    if kind == "V" and rest[-1:].isalpha():
        rest, colour = rest[:-1], rest[-1]
    if kind not in ITS15_KIND_NAMES or not rest.isdigit():
        raise InvalidInput(
            f"card text {text!r} is not an It's 15 card: write B1-B10, G1-G9 or V1/V2 plus a colour letter"
        )
    return ItsFace(kind, int(rest), colour)


@dataclass(frozen=True)
class PhysicalCard:
    """One card you can hold: a deck-unique ``id`` and the ``face`` it shows."""

    id: str
    face: Card | ItsFace

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True)
class Deck:
    """A named set of physical cards and the parser for its faces."""

    name: str
    title: str
    cards: tuple[PhysicalCard, ...]
    parse_face: object = field(repr=False, compare=False)
    _by_id: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {card.id: card for card in self.cards})

    def card(self, card_id: str) -> PhysicalCard:
        """The physical card with this id.

        :raises InvalidInput: when the deck has no such card.
        """
        try:
            return self._by_id[card_id]
        except KeyError:
            raise InvalidInput(f"the {self.title} has no card {card_id!r}") from None

    def __contains__(self, card_id: str) -> bool:
        return card_id in self._by_id

    @property
    def faces(self) -> tuple:
        return tuple(card.face for card in self.cards)


def _faces_as_cards(faces) -> tuple[PhysicalCard, ...]:
    return tuple(PhysicalCard(str(face), face) for face in faces)


def its15_value_cards(colour: str, value_cards: dict[int, int] | None = None) -> tuple[PhysicalCard, ...]:
    """One colour's value cards, ones first, each copy numbered from 1: "V1R-1" ... "V2R-2".

    >>> [card.id for card in its15_value_cards("R", {1: 2, 2: 1})]
    ['V1R-1', 'V1R-2', 'V2R-1']
    """
    counts = ITS15_VALUE_CARDS if value_cards is None else value_cards
    cards = []
    for value, count in sorted(counts.items()):
        face = ItsFace("V", value, colour)
        cards += [PhysicalCard(f"{face}-{n}", face) for n in range(1, count + 1)]
    return tuple(cards)


def its15_cards(value_cards: dict[int, int] | None = None) -> tuple[PhysicalCard, ...]:
    """The It's 15 set: brown 1-10, green 1-9 and, per colour, value cards as counted."""
    cards = [PhysicalCard(f"B{v}", ItsFace("B", v)) for v in range(1, 11)]
    cards += [PhysicalCard(f"G{v}", ItsFace("G", v)) for v in range(1, 10)]
    for colour in ITS15_COLOURS:
        cards += its15_value_cards(colour, value_cards)
    return tuple(cards)


DECKS: dict[str, Deck] = {
    "standard": Deck("standard", "standard 52-card pack", _faces_as_cards(standard_52()), parse_card),
    "french40": Deck("french40", "French 40-card pack", _faces_as_cards(french_40()), parse_card),
    "its15": Deck("its15", "It's 15 card set", its15_cards(), parse_its_face),
}


def get_deck(name: str) -> Deck:
    """The deck called ``name`` (standard, french40, its15).

    :raises InvalidInput: naming the decks there are.
    """
    try:
        return DECKS[name]
    except KeyError:
        raise InvalidInput(f"no deck called {name!r}: choose one of {', '.join(DECKS)}") from None
