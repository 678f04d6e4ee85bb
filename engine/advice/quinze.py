"""Le Quinze: every capture a played card allows, with what it takes towards the end-of-deal points.

For each card of the hand (or one played card), each set of table cards it can take
(:func:`engine.games.quinze.captures`), with the cards won (the played card goes to the pile too),
the sevens, the clubs, whether the seven of clubs is among them, and whether it clears the table (a
scopa, one point). Captures are ranked by ``worth``: a scopa 1, the seven of clubs 1, each seven
1/3 (most sevens is one point over four), each club 1/6 (most clubs over ten), each card 1/21 (most
cards over forty). A card that takes nothing stays on the table for the next player: its worth is
minus what that card would bring them, and minus a scopa when one card could then clear the table.

>>> best = capture_advice("6S 2H JD 4C", "7C")[0]
>>> sorted(map(str, best.taken)), best.sevens, best.clubs, best.seven_of_clubs, best.scopa
(['2H', '6S'], 1, 1, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.advice.hand_input import check_apart, read_cards
from engine.cards import Card, french_40
from engine.games.quinze_captures import SEVEN_OF_CLUBS, captures, value

WORTH = {"scopa": Fraction(1), "seven of clubs": Fraction(1), "seven": Fraction(1, 3),
         "club": Fraction(1, 6), "card": Fraction(1, 21)}


def _points(cards: int, sevens: int, clubs: int, seven_of_clubs: bool, scopa: bool) -> Fraction:
    return (WORTH["scopa"] * scopa + WORTH["seven of clubs"] * seven_of_clubs + WORTH["seven"] * sevens
            + WORTH["club"] * clubs + WORTH["card"] * cards)


@dataclass(frozen=True)
class Capture:
    """Playing ``card`` and taking ``taken`` (empty: the card stays on the table)."""

    card: Card
    taken: tuple[Card, ...]
    cards: int
    sevens: int
    clubs: int
    seven_of_clubs: bool
    scopa: bool

    #: a card left on the table: whether one card could then take the whole table
    sweepable: bool = False

    @property
    def worth(self) -> float:
        if not self.taken:
            card = self.card
            given = _points(1, card.rank == 7, card.suit == "C", card == SEVEN_OF_CLUBS, self.sweepable)
            return -float(given)
        return float(_points(self.cards, self.sevens, self.clubs, self.seven_of_clubs, self.scopa))

    def say(self) -> str:
        if not self.taken:
            risk = ": one card could then clear the table" if self.sweepable else ""
            return f"{self.card} takes nothing and stays on the table{risk}"
        parts = [f"{self.cards} cards", f"{self.sevens} seven{'s' * (self.sevens != 1)}",
                 f"{self.clubs} club{'s' * (self.clubs != 1)}"]
        parts += ["the seven of clubs"] * self.seven_of_clubs + ["a scopa"] * self.scopa
        return f"{self.card} takes {' '.join(map(str, self.taken))}: {', '.join(parts)}"

    def to_dict(self) -> dict:
        return {"card": str(self.card), "taken": [str(c) for c in self.taken], "cards": self.cards,
                "sevens": self.sevens, "clubs": self.clubs, "seven_of_clubs": self.seven_of_clubs,
                "scopa": self.scopa, "leaves_a_scopa": self.sweepable, "worth": round(self.worth, 4)}


def capture_advice(table, hand) -> list[Capture]:
    """Every capture each card of ``hand`` (one to three cards) allows on ``table``, best first;
    a card that can take nothing appears once with nothing taken.

    :raises InvalidInput: for bad card text, a card outside the 40-card pack, or a card in two places.
    """
    centre = read_cards(table, what="table", deck=french_40(), sizes=tuple(range(0, 37)))
    held = read_cards(hand, sizes=(1, 2, 3), deck=french_40())
    check_apart((centre, "table"), (held, "hand"))
    found = []
    on_table = sum(map(value, centre))
    for card in held:
        sweepable = 1 <= 15 - on_table - value(card) <= 10
        for taken in captures(centre, card) or [frozenset()]:
            pile = (card, *sorted(taken)) if taken else ()
            found.append(Capture(
                card, tuple(sorted(taken)), len(pile), sum(c.rank == 7 for c in pile),
                sum(c.suit == "C" for c in pile), SEVEN_OF_CLUBS in pile, bool(taken) and len(taken) == len(centre), not taken and sweepable,
            ))
    found.sort(key=lambda c: (-c.worth, c.card, c.taken))
    return found
