"""What a card moved at the table means now: submit an action, refuse the card, or wait.

One pure function, :func:`answer`, reads a card event (which card, laid in or taken from which
zone) against what the table wants (:class:`Wants`: the engine's prompt, the game's card slots,
the seat zones, the cards collected so far) and answers :class:`Submit`, :class:`Refuse` or
:class:`Wait`. It changes nothing and shows nothing: :class:`cardtable.table.table.Table`
carries the answer out (journals, shows, buzzes).

What the table holds between two inputs, beside the game, is one value, :class:`Held` (the
cards collected, taken, refused and accepted, the choice pointed at, the face-down cards, the
sentence said); each input makes a new one from the old, through its methods, and nothing else
changes it.

* A card laid in the zone a prompted kind of action takes (the acting seat's own zone, or a shared
  zone such as the crib; any seat's zone when the table deals) is collected for that kind; once
  the kind has all the cards it needs, they are submitted.
* A capture is named by the cards that leave the table: once those taken off make one of the
  prompt's choices, that is the action.
* A card laid while earlier refused cards are still out, in a zone where no card is wanted, or
  after the game is over, is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from engine.decks import PhysicalCard
from engine.game import CardSlot, Prompt
from engine.table_events import MOVED, REMOVED
from engine.wording import compose
from cardtable.table.face_down import FaceDownCards

Cards = tuple[PhysicalCard, ...]


@dataclass(frozen=True)
class Submit:
    """``cards`` make the action ``kind`` of ``seat``; ``taken`` when they left the table (a capture)."""

    kind: str
    seat: int | None
    cards: Cards
    taken: bool = False


@dataclass(frozen=True)
class Refuse:
    """The card is refused and must be taken back; ``blocked`` when only because earlier refused
    cards are still out; ``seat`` is whose refusal it is (``None``: nobody's in particular)."""

    reason: str
    seat: int | None
    blocked: bool = False


@dataclass(frozen=True)
class Wait:
    """Not an action yet. ``pending`` (cards collected per kind) and ``taking`` (cards taken off
    for a capture) are the new collections, ``None`` where nothing changed; ``note`` a sentence
    for the table."""

    pending: Mapping[str, Cards] | None = None
    taking: Cards | None = None
    note: str = ""


Answer = Submit | Refuse | Wait


@dataclass(frozen=True)
class Wants:
    """What the table wants now, and what it holds so far.

    :param needed: how many cards an action of a kind takes now (asked only for prompted kinds).
    :param settled: ids of the cards already part of an accepted action or refused.
    :param blocked: refused cards are still out: play waits for them.
    :param swipe: readers see cards swiped past: a card taken off takes nothing back.
    """

    prompt: Prompt
    slots: Mapping[str, CardSlot]
    seat_zones: tuple[str, ...]
    needed: Callable[[str], int]
    pending: Mapping[str, Cards] = field(default_factory=dict)
    taking: Cards = ()
    settled: Container[str] = frozenset()
    blocked: bool = False
    finished: bool = False
    swipe: bool = False


@dataclass(frozen=True)
class Held:
    """What the table holds between two inputs, beside the game: a value, each input makes a new one.

    :param pending: the cards collected so far per action kind (an action that takes several).
    :param taking: the cards taken off the table so far for a capture.
    :param refused: the cards refused, by id: play waits until they are taken back.
    :param secret: ids of the cards laid for an action dealt face down: never named.
    :param accepted: ids of the physical cards that made accepted actions.
    :param choice: which of the prompt's choices the left and right buttons point at.
    :param face_down: the cards lying back up, counted where they lie, never played.
    :param warning: the sentence the table says now.
    """

    pending: Mapping[str, Cards] = field(default_factory=dict)
    taking: Cards = ()
    refused: Mapping[str, PhysicalCard] = field(default_factory=dict)
    secret: frozenset[str] = frozenset()
    accepted: frozenset[str] = frozenset()
    choice: int | None = None
    face_down: FaceDownCards = FaceDownCards()
    warning: str = ""

    def __post_init__(self) -> None:
        for name in ("pending", "refused"):               # read-only views: a value never changes
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))

    @property
    def settled(self) -> frozenset[str]:
        """The ids of the cards already part of an accepted action or refused."""
        return self.accepted | self.refused.keys()

    def waiting(self, wait: Wait) -> Held:
        """After a :class:`Wait`: its new collections where it has them."""
        return replace(self, pending=self.pending if wait.pending is None else wait.pending,
                       taking=self.taking if wait.taking is None else wait.taking)

    def refusing(self, cards: Iterable[PhysicalCard]) -> Held:
        """``cards`` refused: to be taken back."""
        return replace(self, refused={**self.refused, **{c.id: c for c in cards}})

    def taken_back(self, card: PhysicalCard) -> Held:
        """A refused ``card`` taken back."""
        return replace(self, refused={k: c for k, c in self.refused.items() if k != card.id},
                       secret=self.secret - {card.id})

    def hiding(self, card: PhysicalCard) -> Held:
        """``card`` laid for an action dealt face down: never named."""
        return replace(self, secret=self.secret | {card.id})

    def submitting(self, answer: Submit) -> Held:
        """The cards of ``answer`` go to the rules: out of the collection they made."""
        if answer.taken:
            return replace(self, taking=())
        return replace(self, pending={k: c for k, c in self.pending.items() if k != answer.kind})

    def accepting(self, cards: Cards) -> Held:
        """``cards`` made an accepted action."""
        ids = {c.id for c in cards}
        return replace(self, accepted=self.accepted | ids, secret=self.secret - ids)

    def applied(self) -> Held:
        """An action was accepted: no choice pointed at, no capture under way."""
        return replace(self, choice=None, taking=())

    def cleared(self) -> Held:
        """A new game, or the last action undone: nothing collected, taken or refused."""
        return replace(self, pending={}, taking=(), refused={}, secret=frozenset())

    def pointing(self, step: int, choices: int) -> Held:
        """The left (``step`` -1) or right (+1) button moved along the prompt's ``choices``."""
        return replace(self, choice=((self.choice if self.choice is not None else -step) + step) % choices)

    def saying(self, warning: str | None) -> Held:
        """The table says ``warning`` now (``None``: it keeps what it says)."""
        return self if warning is None else replace(self, warning=warning)


def answer(kind: str, card: PhysicalCard, zone: str, wants: Wants) -> Answer:
    """What the table event ``kind`` (placed, moved or removed) of ``card`` in ``zone`` means."""
    if kind == REMOVED:
        return _removed(card, wants)
    if _holds(wants.taking, card):                        # a card taken off is put back
        return Wait(taking=_without(wants.taking, card))
    if kind == MOVED and card.id in wants.settled:
        return Wait()                                     # a card slid aside is not a new play
    if wants.finished:
        return Refuse("the game is over", None)
    if wants.blocked:
        return Refuse("play waits", None, blocked=True)
    return _laid(card, zone, wants)


def seat_of(zone: str, seat_zones: tuple[str, ...]) -> int | None:
    """The seat whose zone ``zone`` is, or ``None``."""
    return seat_zones.index(zone) if zone in seat_zones else None


def _laid(card: PhysicalCard, zone: str, wants: Wants) -> Answer:
    kind, seat = _kind_for(zone, wants)
    if kind is None:
        return Refuse(_misplaced(zone, wants), seat_of(zone, wants.seat_zones))
    cards = wants.pending.get(kind, ())
    if _holds(cards, card):
        return Wait()                                     # seen again: nothing new
    cards += (card,)
    if len(cards) < wants.needed(kind):
        return Wait(pending={**wants.pending, kind: cards})
    return Submit(kind, seat, cards)


def _kind_for(zone: str, wants: Wants) -> tuple[str | None, int | None]:
    """The action kind a card laid in ``zone`` makes now, and whose it is: the prompted seat's, or,
    when the table deals (no seat prompted), the seat whose zone it is."""
    prompt, zones = wants.prompt, wants.seat_zones
    for kind in prompt.kinds:
        slot = wants.slots.get(kind)
        if slot is None or slot.taken:
            continue
        if slot.zone != "seat":
            if zone == slot.zone:
                return kind, prompt.seat
        elif prompt.seat is None:
            if zone in zones:
                return kind, seat_of(zone, zones)
        elif prompt.seat < len(zones) and zone == zones[prompt.seat]:
            return kind, prompt.seat
    return None, None


def _misplaced(zone: str, wants: Wants) -> str:
    seat, prompt = seat_of(zone, wants.seat_zones), wants.prompt
    if seat is not None and prompt.seat is not None and seat != prompt.seat:
        return compose("it is not your turn: ", prompt.text)
    return compose(f"no card is wanted in {zone} now: ", prompt.text)


def _removed(card: PhysicalCard, wants: Wants) -> Answer:
    capture = next((k for k in wants.prompt.kinds if k in wants.slots and wants.slots[k].taken), None)
    if capture is not None and not (wants.swipe or wants.blocked or wants.finished):
        return _taken(capture, card, wants)
    if wants.swipe or not any(_holds(cards, card) for cards in wants.pending.values()):
        return Wait()
    return Wait(pending={kind: _without(cards, card) for kind, cards in wants.pending.items()})


def _taken(kind: str, card: PhysicalCard, wants: Wants) -> Answer:
    """A capture is named by the cards that leave the table: once they make one of the prompt's
    choices, that is the action."""
    choices = [frozenset(choice.split()) for choice in wants.prompt.choices]
    if not any(str(card.face) in choice for choice in choices):
        return Wait()                                     # the played card itself, swept up with them
    cards = wants.taking + (card,)
    taken = frozenset(str(c.face) for c in cards)
    if taken in choices:
        return Submit(kind, wants.prompt.seat, cards, taken=True)
    if any(taken <= choice for choice in choices):
        return Wait(taking=cards)
    return Wait(taking=cards, note=f"{' '.join(sorted(taken))} is not one of the captures "
                                   f"({', '.join(wants.prompt.choices)}): put back what is not taken")


def _holds(cards: Cards, card: PhysicalCard) -> bool:
    return any(c.id == card.id for c in cards)


def _without(cards: Cards, card: PhysicalCard) -> Cards:
    return tuple(c for c in cards if c.id != card.id)
