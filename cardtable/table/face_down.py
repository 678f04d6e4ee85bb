"""The face-down cards lying at the table, counted per zone and said in plain words.

A face-down card (:class:`engine.table_events.FaceDown`: the camera saw its back) has no face,
so it is never an action: a crib laid away, a hand put down, are counted where they lie ("The
crib: 4 cards face down") and the count is shown beside the prompt. The rules never hear of
them; a card turned face up is a card like any other.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.table_events import REMOVED, TableEvent
from engine.wording import capitalized, compose, plural, who


@dataclass(frozen=True)
class FaceDownCards:
    """Which face-down cards lie in which zone (a value: each event makes a new one)."""

    lying: tuple[tuple[str, str], ...] = ()   # (placeholder id, zone), in the order they came

    def after(self, event: TableEvent) -> FaceDownCards:
        """The cards after a face-down card's event (placed, moved or removed)."""
        others = tuple((card, zone) for card, zone in self.lying if card != event.card.id)
        return FaceDownCards(others if event.kind == REMOVED else others + ((event.card.id, event.zone),))

    def count(self, zone: str) -> int:
        """How many face-down cards lie in ``zone``."""
        return sum(1 for _, where in self.lying if where == zone)

    def sentence(self, zone: str, seat_zones: tuple[str, ...]) -> str:
        """The count of ``zone`` as the table says it: "The crib: 4 cards face down", "Seat 2:
        1 card face down" (said with the player's name), "The crib: no cards face down"."""
        n = self.count(zone)
        return capitalized(compose(_zone_title(zone, seat_zones), f": {plural(n, 'card') if n else 'no cards'} face down"))

    def summary(self, seat_zones: tuple[str, ...]) -> str:
        """Every zone where face-down cards lie, for the display: "the crib: 4 cards face down",
        zones in the order their first card came; empty when none lies face down."""
        counts = Counter(zone for _, zone in self.lying)
        return compose(*(part for i, (zone, n) in enumerate(counts.items())
                         for part in ((", " if i else ""), _zone_title(zone, seat_zones),
                                      f": {plural(n, 'card')} face down")))


def _zone_title(zone: str, seat_zones: tuple[str, ...]) -> str:
    """A zone as the start of a sentence names it: a seat's zone by its seat, "the crib"."""
    return who(seat_zones.index(zone)) if zone in seat_zones else f"the {zone}"
