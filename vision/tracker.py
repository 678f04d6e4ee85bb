"""The tracker: sightings of cards, frame after frame, become placed / removed / moved events.

Rules (times are the ``now`` values given to :meth:`Tracker.update`, in seconds):

- a card becomes ``placed`` in a zone once it has been seen there steadily (no gap longer than
  ``gap``) for ``place_after`` (by default at once: the pipeline only reports a card lying still);
- a placed card seen steadily in another zone for ``place_after`` is one ``moved`` event;
- a placed card is ``removed`` as soon as the pipeline has evidence that it is gone (its place
  shows the table it hid, or another card: the ``gone`` of :meth:`Tracker.update`); a card
  nobody sees and nothing shows gone is covered (a hand resting on it), and is removed only after
  ``remove_after``, the last resort;
- a card seen outside every zone counts as not seen;
- a card the pipeline says was already lying there when it started (``present`` of
  :meth:`Tracker.update`) is ``present``, not ``placed``: the table it saw at start, followed from
  then on like any other card.

Events carry the time they were decided (``now``). Sightings are already one per card: the
pipeline resolves duplicated cards before it calls the tracker. A face-down card
(:class:`engine.table_events.FaceDown`, its placeholder id given by the pipeline) is followed
by the same rules as any card.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from engine.decks import PhysicalCard
from engine.table_events import MOVED, PLACED, PRESENT, REMOVED, FaceDown, TableEvent


@dataclass(frozen=True)
class Sighting:
    """``card`` (or a face-down card) seen in ``zone`` (None: outside every zone) at image point ``center``."""

    card: PhysicalCard | FaceDown
    zone: str | None
    center: tuple[float, float] = (0.0, 0.0)


@dataclass
class _Track:
    card: PhysicalCard | FaceDown
    zone: str | None = None
    last_seen: float = 0.0
    candidate: str | None = None
    candidate_since: float = 0.0
    candidate_last: float = 0.0


class Tracker:
    """Turns sightings into :class:`TableEvent` values (see the module docstring).

    :param place_after: seconds of steady sighting before placed or moved.
    :param remove_after: seconds of absence without evidence before removed (the last resort).
    :param gap: the longest gap between sightings that still counts as steady.
    :param source: the ``source`` of the events.
    """

    def __init__(self, *, place_after: float = 0.0, remove_after: float = 30.0, gap: float = 0.3,
                 source: str = "camera") -> None:
        self.place_after, self.remove_after, self.gap, self.source = place_after, remove_after, gap, source
        self._tracks: dict[str, _Track] = {}

    @property
    def on_table(self) -> dict[str, str]:
        """Card id to zone for every card placed and not removed."""
        return {cid: t.zone for cid, t in self._tracks.items() if t.zone is not None}

    @property
    def settled(self) -> bool:
        """No card is waiting to be placed or moved (seen in a new zone, not long enough yet)."""
        return all(t.candidate is None for t in self._tracks.values())

    def update(self, sightings: list[Sighting], now: float, gone: Collection[str] = (),
               present: Collection[str] = ()) -> list[TableEvent]:
        """Take this frame's sightings (at most one per card), the ids of the cards shown to
        be ``gone`` and of those that lay there since the start (``present``), and return the
        events they decide."""
        events: list[TableEvent] = []
        seen = {s.card.id: s for s in sightings if s.zone is not None}
        for cid, sighting in seen.items():
            track = self._tracks.setdefault(cid, _Track(sighting.card))
            events += self._seen(track, sighting.zone, now, cid in present)
        for cid, track in self._tracks.items():
            if cid in seen:
                continue
            if track.candidate is not None and now - track.candidate_last > self.gap:
                track.candidate = None
            if track.zone is not None and (cid in gone or now - track.last_seen >= self.remove_after):
                events.append(TableEvent(REMOVED, track.card, track.zone, now, self.source))
                track.zone = None
        return events

    def _seen(self, track: _Track, zone: str, now: float, present: bool = False) -> list[TableEvent]:
        track.last_seen = now
        if zone == track.zone:
            track.candidate = None
            return []
        if track.candidate != zone or now - track.candidate_last > self.gap:
            track.candidate, track.candidate_since = zone, now
        track.candidate_last = now
        if now - track.candidate_since < self.place_after:
            return []
        old, track.zone, track.candidate = track.zone, zone, None
        if old is None:
            return [TableEvent(PRESENT if present else PLACED, track.card, zone, now, self.source)]
        return [TableEvent(MOVED, track.card, zone, now, self.source, from_zone=old)]
