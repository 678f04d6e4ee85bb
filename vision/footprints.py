"""Whether a card the pipeline knows is still there, covered, or gone: evidence, not a timeout.

Every card read is remembered with its *footprint*: the change cells under its marker, what they
showed once the card lay there (``look``) and what they showed before it came (``under``: the
reference the change map kept for them, the table or the card it was laid on). Each frame, a card
not read again is

- **seen** while its footprint still shows it, counting only the cells that lie still;
- **gone** when its footprint lies still and shows what was there before the card came, or the
  marker of another card (or, for a card that lay there when the camera started, whose table
  underneath is only estimated, anything that is not the card); and nothing that moved from the card's place is still moving in view
  (the hand that carries it away, the card itself sliding: once that motion ends, a card that
  went with it has been read where it landed, and its new place makes it one ``moved``);
- **covered** otherwise: something that is not the table sits over it, still or moving (a hand
  resting on it, an arm, a sleeve, a card in transit). Covered cards are left alone; only the
  tracker's long ``remove_after`` ends a cover that never lifts.

The motion that left a card's place is followed as a *trail*: the moving patches touching the
card's surroundings, then every moving patch touching the trail of the frame before. A card is
followed, not re-identified: while the trail moves, the card is in the hand that slides or carries
it, however far and however long; when the trail stops and something new lies still where it
passed (a hand resting on the card it pushed, a palm flat on a pile), the card is *held* under
it, and stays covered until the trail's path shows again what it showed before the hand came, for up to
:data:`HELD_LIMIT` seconds. The card read where it
comes to rest is then the same physical card (its marker's payload says so): one ``moved``. Only
when the trail ends on nothing new (the hand left the view, or lifted off the table empty) is a
card whose place is clear gone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.changes import ChangeMap

#: Grey levels within which a cell matches what it showed (noise, compression, leftover flicker).
MATCH_LEVELS = 16
#: Share of a footprint's cells that must match for it to show the card (or what it hid).
MATCH_SHARE = 0.7
#: Share of a footprint another card's marker must cover for the card to count as gone.
COVER_SHARE = 0.5
#: A trail that keeps moving this long (people moving around the table) stops holding a card
#: that is clearly gone from its place.
TRAIL_LIMIT = 10.0
#: Share of a footprint's cell count that must show something new where a trail stopped for
#: the card to be held there (a hand is much larger than a marker).
HELD_SHARE = 0.5
#: Seconds a card whose place is clear is held where its trail stopped, at most: a hand rests on
#: a card it pushed for a moment; what still lies there new after this (a card nobody can read
#: at the edge of the view) does not hold a card taken away. (A card present at start, whose
#: place is clear as soon as it does not show the card, is held as long as the hand rests.)
HELD_LIMIT = 3.0
#: Cells a moving thing may be from where it was in the frame before and still be the same
#: hand: its travel in a frame, or the gap of a palm that shows only at its edges (a palm of
#: nearly the table's grey) between its fingers and its heel.
REACH = 5
SEEN, COVERED, GONE = "seen", "covered", "gone"


def matches(values: np.ndarray, reference: np.ndarray | None, still: np.ndarray | None = None) -> bool:
    """True when most cells of ``values`` show what ``reference`` showed (of those ``still``,
    when given: a cell where something moves shows nothing for sure)."""
    if reference is None or not len(values):
        return False
    close = np.abs(values.astype(np.int16) - reference.astype(np.int16)) <= MATCH_LEVELS
    return bool((close if still is None else close & still).mean() >= MATCH_SHARE)


@dataclass(eq=False)
class Footprint:
    """What a known card's marker cells (flat indices into the change map, ``cells``) showed
    with the card on them (``look``) and before it came (``under``; None when the two cannot be
    told apart, as for a card already there in the first frame), the card's ``outline`` and its
    surroundings (``area``) where motion may carry it away (boolean cell masks)."""

    cells: np.ndarray
    look: np.ndarray
    under: np.ndarray | None
    outline: np.ndarray
    area: np.ndarray
    #: ``under`` is an estimate (the card lay there when the camera started): a still place
    #: that no longer shows the card is clear once nothing that moved is held there.
    guessed: bool = False
    trail: np.ndarray | None = None
    #: Every cell the trail has covered, and what each showed before the trail came.
    path: np.ndarray | None = None
    path_under: np.ndarray | None = None
    quiet_since: float | None = None
    clear_since: float | None = None
    state: str = field(default=SEEN)

    @classmethod
    def lay(cls, changes: ChangeMap, cells: np.ndarray, outline: np.ndarray, area: np.ndarray,
            under: np.ndarray | None, guessed: bool = False) -> "Footprint":
        """The footprint of a card just read on ``cells``; ``under`` is what they showed before
        (``guessed``: an estimate of the table, for a card there when the camera started)."""
        look = changes.small.ravel()[cells].copy()
        return cls(cells, look, None if matches(look, under) else under, outline, area, guessed)

    def judge(self, changes: ChangeMap, now: float, labels: "MotionLabels", others: list["Footprint"],
              linger: float = 0.0) -> str:
        """Decide this frame's state (see the module docstring) and return it. ``linger``: seconds
        a decoder takes, after the motion ends, to name a card where it landed (so a card slid
        away is one ``moved``, not gone then placed)."""
        values = changes.small.ravel()[self.cells]
        # Only cells lying still show the card: a plain card slid along its length keeps its
        # old place white for a while (the card's other half, a white card below) as it goes.
        if matches(values, self.look, changes.still.ravel()[self.cells]):
            self.trail = self.path = self.path_under = self.quiet_since = self.clear_since = None
            self.state = SEEN
            return SEEN
        self._follow_trail(changes, now, labels)
        clear = changes.is_still(self.cells) and (self.guessed or matches(values, self.under) or self._overlaid(others))
        if not clear:
            self.clear_since = None
            self.state = COVERED
            return COVERED
        self.clear_since = now if self.clear_since is None else self.clear_since
        if self.quiet_since is None:
            gone = now - self.clear_since >= TRAIL_LIMIT
        else:
            quiet = now - self.quiet_since
            expired = quiet >= HELD_LIMIT and not self.guessed   # a present card: only the hold guards it
            gone = quiet >= changes.settle + linger and (expired or not self._held(changes, others))
        self.state = GONE if gone else COVERED
        return self.state

    def _follow_trail(self, changes: ChangeMap, now: float, labels: "MotionLabels") -> None:
        near = self.area if self.trail is None else (self.area | labels.grow(self.trail))
        moving = labels.touching(near)
        if moving.any():
            self.trail, self.quiet_since = moving, None
            if self.path is None:
                self.path, self.path_under = np.zeros(moving.shape, bool), np.zeros(moving.shape, np.uint8)
            joined = np.flatnonzero(moving & ~self.path)
            self.path.ravel()[joined] = True
            self.path_under.ravel()[joined] = changes.reference(joined)
        elif self.quiet_since is None:
            self.quiet_since = now
        # The trail stays where it stopped: the hand resting there, moving off again, takes it on.

    def _held(self, changes: ChangeMap, footprints: list["Footprint"]) -> bool:
        """True while the place where the trail stopped (its path around where it was last)
        shows something new lying still (the hand that slid the card, resting on it): the card
        may be under it. The places of known
        cards do not count (cards taken together leave each other's places clear)."""
        if self.path is None or self.trail is None:
            return False
        # Where the trail was last, on its path: not the far places the hand passed long ago.
        cells = np.flatnonzero(self.path & cv2.dilate(self.trail.view(np.uint8), np.ones((7, 7), np.uint8)).view(bool))
        new = np.abs(changes.small.ravel()[cells].astype(np.int16) - self.path_under.ravel()[cells]) > MATCH_LEVELS
        new &= changes.still.ravel()[cells]
        if np.count_nonzero(new) < HELD_SHARE * len(self.cells):
            return False
        places = np.zeros(changes.small.size, bool)
        for footprint in footprints:
            places |= footprint.outline.ravel()
        return bool(np.count_nonzero(new & ~places[cells]) >= HELD_SHARE * len(self.cells))

    def _overlaid(self, others: list["Footprint"]) -> bool:
        """True when another card's marker, lying where this card's was, covers most of it."""
        for other in others:
            if other is not self and other.state == SEEN and \
                    len(np.intersect1d(other.cells, self.cells, assume_unique=True)) >= COVER_SHARE * len(self.cells):
                return True
        return False


class MotionLabels:
    """The moving things of one frame, labelled once and only when a footprint asks: each is a
    patch of cells that differ from the reference (a hand and the card under it, whole) or
    moved since the last frame, with something in it moving. A hand that pushes a card slowly
    moves only at its edges; its body keeps the trail whole from frame to frame. A palm of
    nearly the grey of the table under it (a hand over light wood in a lamp's glare) shows only
    at its fingers and heel: what moves within :data:`REACH` cells of the trail is the same hand."""

    def __init__(self, changes: ChangeMap) -> None:
        self._moving = changes.moving
        self._changed = changes.changed
        self._labels: np.ndarray | None = None
        self._live: np.ndarray | None = None
        self._kernel = np.ones((2 * REACH + 1, 2 * REACH + 1), np.uint8)

    def touching(self, mask: np.ndarray) -> np.ndarray:
        """The moving patches that touch ``mask`` (a boolean cell mask)."""
        if not self._moving.any():
            return np.zeros(self._moving.shape, bool)
        if self._labels is None:
            _, self._labels = cv2.connectedComponents((self._moving | self._changed).view(np.uint8), connectivity=8)
            self._live = np.unique(self._labels[self._moving])
        touched = np.intersect1d(np.unique(self._labels[mask]), self._live)
        touched = touched[touched != 0]
        return np.isin(self._labels, touched) if len(touched) else np.zeros(self._moving.shape, bool)

    def grow(self, mask: np.ndarray) -> np.ndarray:
        """``mask`` grown by :data:`REACH` cells: a hand moves a few cells between frames."""
        return cv2.dilate(mask.view(np.uint8), self._kernel).view(bool)
