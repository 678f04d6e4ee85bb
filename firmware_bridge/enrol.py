"""Enrolment: walking through a deck card by card, pairing each card with the tag laid down.

Pure: the command feeds it the UIDs placed on any reader and shows what it answers. The registry
is the progress, so stopping and starting again resumes where it stopped.

>>> from engine.decks import get_deck
>>> walk = Enrolment(TagRegistry(get_deck("french40")))
>>> walk.prompt()
'place the ace of spades on any reader (1/40)'
>>> walk.offer("04A23B1C").status, walk.offer("04A23B1C").message
('enrolled', 'that tag is already the ace of spades: take it off and place the two of spades')
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.decks import PhysicalCard
from firmware_bridge.registry import TagAlreadyEnrolled, TagRegistry

ENROLLED, DUPLICATE, DONE = "enrolled", "duplicate", "done"


@dataclass(frozen=True)
class Outcome:
    """What laying a tag did: ``status`` (enrolled, duplicate, done), the ``card`` concerned and a
    ``message`` for the person enrolling."""

    status: str
    card: PhysicalCard | None
    message: str


class Enrolment:
    """The cards of ``registry``'s deck that still lack a tag, one at a time."""

    def __init__(self, registry: TagRegistry) -> None:
        self.registry = registry

    @property
    def current(self) -> PhysicalCard | None:
        """The card to enrol next, or None when the deck is complete."""
        missing = self.registry.missing()
        return missing[0] if missing else None

    @property
    def progress(self) -> tuple[int, int]:
        """(cards enrolled, cards in the deck)."""
        return len(self.registry), len(self.registry.deck.cards)

    def prompt(self) -> str:
        """What to do next, in words."""
        card = self.current
        done, total = self.progress
        if card is None:
            return f"all {total} cards of the {self.registry.deck.title} are enrolled"
        return f"place the {card.face.name} on any reader ({done + 1}/{total})"

    def offer(self, uid: str) -> Outcome:
        """A tag was laid on a reader: enrol it as the current card, or say why not.

        :raises InvalidInput: for a malformed UID.
        """
        card = self.current
        if card is None:
            return Outcome(DONE, None, self.prompt())
        try:
            self.registry.enrol(uid, card.id)
        except TagAlreadyEnrolled as err:
            message = f"that tag is already the {err.card.face.name}: take it off and place the {card.face.name}"
            return Outcome(DUPLICATE, err.card, message)
        return Outcome(ENROLLED, card, f"{card.face.name} enrolled ({self.progress[0]}/{self.progress[1]})")
