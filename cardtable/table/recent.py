"""What the table has just seen, kept from the engine's public events: the last move (who played
or took what, and what it scored), the hands counted in the show (kept in view until a card of the
next hand is turned or played), and each side's pegs (its score and the score before its last
change: the back peg of a cribbage board).

Like the scoring log (:mod:`cardtable.table.score_log`) it is fed the events of each accepted action and
rebuilt from a replay's events after an undo or a resume; it never holds anything the events did
not say to the whole table. Sentences keep their seats (:mod:`engine.wording`): the view says them
with the players' names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.game import Event, ScoreItem
from engine.wording import compose, join_words, who

#: Events that change a score, with the sign of the change: points scored (penalties are
#: negative scores), a pot won, and, in It's 15, value cards bet (the scores are the cards held).
SCORE_CHANGES = {"score": 1, "round_won": 1, "bid": -1, "match": -1, "raise": -1}


@dataclass(frozen=True)
class Counted:
    """A hand or crib laid face up in the show and what it scored."""

    seat: int
    whose: str                      # "hand" or "crib"
    cards: tuple
    starter: object = None
    items: tuple[ScoreItem, ...] = ()

    @property
    def points(self) -> int:
        return sum(item.points for item in self.items)


def side_scores(game, state) -> tuple[int, ...]:
    """The scores the state keeps: one per side (partners share one), else one per seat."""
    kept = getattr(state, "scores", None)
    return tuple(kept) if kept is not None else tuple(game.scores(state))


def change(event: Event) -> int | None:
    """How much ``event`` changes its seat's score (``None``: it changes none)."""
    sign = SCORE_CHANGES.get(event.kind)
    return None if sign is None else sign * event.points


def move_sentence(events: Sequence[Event]) -> str:
    """What one accepted action did, in one sentence: its first event (a card played, a capture, a
    hand shown) and the points that came with it, "Bob plays 5S: 15 (+2 fifteen)". A show that
    follows in the same action has a place of its own on the displays and is left out."""
    said = [e for e in events if e.text]
    if not said:
        return ""
    head, points = said[0], []
    for event in said[1:]:
        if event.kind == "show":
            break
        points_made = change(event)
        if points_made is None:
            continue
        labels = _labels(event.breakdown)
        if not labels:
            points.append(compose(f"{points_made:+d} ", event.text))
        elif event.seat == head.seat:
            points.append(f"{points_made:+d} {labels}")
        else:
            points.append(compose(f"{points_made:+d} ", who(event.seat), ": ", labels))
    return compose(head.text, " (", *_commas(points), ")") if points else head.text


def _whose(events: Sequence[Event], show: Event, seat_has_shown: bool) -> str:
    """Whether ``show`` lays out a hand or a crib: the score that follows says so ("hand",
    "crib"); a show that scored nothing is the crib of a seat that has shown its hand."""
    after = events[events.index(show) + 1:]
    for event in after:
        if event.kind == "show":
            break
        if event.fact("reason") in ("hand", "crib"):
            return event.fact("reason")
    return "crib" if seat_has_shown else "hand"


def _labels(items: Sequence[ScoreItem]) -> str:
    """What made the points, each kind once: "fifteen ×2, a pair, and one for his nob"."""
    counts: dict[str, int] = {}
    for item in items:
        label = item.label or item.category
        counts[label] = counts.get(label, 0) + 1
    return join_words([label if n == 1 else f"{label} \u00d7{n}" for label, n in counts.items()])


def _commas(parts: list[str]) -> list[str]:
    return [piece for n, part in enumerate(parts) for piece in ((", ", part) if n else (part,))]


class Recent:
    """The last move, the show in view and the pegs of ``start`` (each side's score at the start,
    partners sharing a side: a seat's side is its number modulo the number of sides)."""

    def __init__(self, start: Sequence[int] = ()) -> None:
        self.restart(start)

    def restart(self, start: Sequence[int], steps: Iterable[Sequence[Event]] = ()) -> None:
        """Start again from the scores ``start`` and each accepted action's events in ``steps``."""
        self.move = ""
        self.shows: list[Counted] = []
        self.starter = None
        self.front = list(start)
        self.back = list(start)
        for events in steps:
            self.add(events)

    def add(self, events: Sequence[Event]) -> None:
        """Take in the events of one accepted action."""
        if any(e.cards and e.kind != "show" for e in events):
            self.shows = []                      # a card of the next hand: the last show is put away
        self.move = move_sentence(events) or self.move
        for event in events:
            if event.kind == "starter" and event.cards:
                self.starter = event.cards[0]
            if event.kind == "show":           # a hand, or the crib of a seat that showed its hand
                whose = _whose(events, event, any(shown.seat == event.seat for shown in self.shows))
                self.shows.append(Counted(event.seat, whose, tuple(event.cards), self.starter))
            points = change(event)
            if points is None or event.seat is None or not self.front:
                continue
            side = event.seat % len(self.front)
            if points:                          # nothing scored moves no peg
                self.back[side] = self.front[side]
                self.front[side] += points
            if self.shows and event.fact("reason") in ("hand", "crib", "muggins"):
                last = self.shows[-1]
                items = event.breakdown or (ScoreItem(event.fact("reason"), points),)
                self.shows[-1] = Counted(last.seat, last.whose, last.cards, last.starter, last.items + items)
