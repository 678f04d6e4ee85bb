"""Whether a card the pipeline knows is still there, covered, or gone: evidence, not a timeout.

Every card read is remembered with its *footprint*: the change cells under its marker, what they
showed once the card lay there (``look``) and what they showed before it came (``under``: the
reference the change map kept for them, the table or the card it was laid on). Each frame, a card
not read again is

- **seen** while its footprint still shows it, counting only the cells that lie still;
- **gone** when its footprint lies still and shows what was there before the card came (or the
  table as it was when the camera started: a card dealt partly onto another hid that card, and
  a fan picked up whole takes both), or the marker of another card laid there since, what it
  leaves beside not showing the card (or, for a card that lay there when the camera started,
  whose table underneath is only estimated, anything that is not the card); and nothing that
  moved from the card's place is still moving in view (the hand that carries it away, the card
  itself sliding: once that motion ends, a card that went with it has been read where it
  landed, and its new place makes it one ``moved``);
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
comes to rest is then the same physical card (its marker's payload says so): one ``moved``. A hand
whose last motion did not move off from the card and left it lying on the card's place, inside
the view, holds the card as long as it rests there, whatever its colour: a hand that takes a card
away moves off it towards the edge of the view. Only
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
#: Share of a footprint's cells that must lie beside a card laid over it for what shows there
#: to tell whether it is still there (less is a sliver along the edge, as any card leaves).
SHOWS_BESIDE = 0.2
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
#: Seconds a hand hovering over a card stops moving at most (it wobbles, it trembles): a trail
#: last seen on the card's place that has been quiet this long has left it.
HOVER_PAUSE = 0.12
#: Cells a moving thing may be from where it was in the frame before and still be the same
#: hand, at least: its travel in a frame.
REACH = 5
#: ... and in sides of the card's marker: a hand's length, from the heel of the palm to the
#: fingertips (about 170 mm, four 42 mm markers). A palm of nearly the table's grey (over light
#: wood in a lamp's glare) shows only at its edges, and a flat palm pushing a card along hardly
#: changes from one frame to the next: only its fingertips move, up to a hand's length from the
#: card's old place, where the trail was.
HAND_REACH = 4.0
#: Cells around a card's outline that change as it comes or goes: the change map's motion is
#: grown a cell all round and an even opening keeps it a cell down and to the right, and a
#: cell on the card's edge is only partly covered by it.
CARD_FRINGE = 3
SEEN, COVERED, GONE = "seen", "covered", "gone"


def matches(values: np.ndarray, reference: np.ndarray | None, still: np.ndarray | None = None) -> bool:
    """True when most cells of ``values`` show what ``reference`` showed (of those ``still``,
    when given: a cell where something moves shows nothing for sure). ``reference`` may hold
    rows of what each cell may have shown (:meth:`ChangeMap.reference`): a cell matches either."""
    if reference is None or not len(values):
        return False
    close = (np.abs(values.astype(np.int16) - np.atleast_2d(reference).astype(np.int16)) <= MATCH_LEVELS).any(axis=0)
    return bool((close if still is None else close & still).mean() >= MATCH_SHARE)


@dataclass(eq=False)
class Footprint:
    """What a known card's marker cells (flat indices into the change map, ``cells``) showed
    with the card on them (``look``) and before it came (``under``: rows of what each cell may
    have shown, see :meth:`ChangeMap.reference`; None when the two cannot be told apart, as for
    a card already there in the first frame), the card's ``outline`` and its
    surroundings (``area``) where motion may carry it away (boolean cell masks)."""

    cells: np.ndarray
    look: np.ndarray
    under: np.ndarray | None
    outline: np.ndarray
    area: np.ndarray
    #: ``under`` is an estimate (the card lay there when the camera started): a still place
    #: that no longer shows the card is clear once nothing that moved is held there.
    guessed: bool = False
    #: The frame the card came to lie where it lies (read again in place, it keeps it).
    since: int = 0
    #: How far (cells) from the trail something moving is the same hand (:data:`HAND_REACH`).
    reach: int = REACH
    trail: np.ndarray | None = None
    #: Every cell the trail has covered, and what each showed before the trail came.
    path: np.ndarray | None = None
    path_under: np.ndarray | None = None
    #: The trail was last seen within a hand's length of the card's place (the hand may be over it).
    over: bool = False
    #: ... and touched the edge of the view (where a hand leaves the table).
    at_edge: bool = False
    #: ... and was centred on the card's surroundings (the hand stopped on the card).
    on: bool = False
    #: ... did not move off from the card, and left the hand centred on its surroundings, inside
    #: the view.
    landed: bool = False
    #: The trail has reached beyond the card's surroundings: something larger than the card
    #: moved there (a hand, its arm), not the card alone vanishing between two frames.
    beyond: bool = False
    #: The cells within a hand's length of the card's place (made when first needed).
    around: np.ndarray | None = field(default=None, repr=False)
    #: The card's outline a cell in from its edge, where a hand beside it does not reach (made
    #: when first needed).
    inside: np.ndarray | None = field(default=None, repr=False)
    #: The centre of the card's outline (row, column; made when first needed) and the distance
    #: from it to the centre of the trail's last motion.
    middle: np.ndarray | None = field(default=None, repr=False)
    distance: float | None = None
    quiet_since: float | None = None
    clear_since: float | None = None
    state: str = field(default=SEEN)

    @classmethod
    def lay(cls, changes: ChangeMap, cells: np.ndarray, outline: np.ndarray, area: np.ndarray,
            under: np.ndarray | None, guessed: bool = False, side: float = 0.0, since: int = 0) -> "Footprint":
        """The footprint of a card just read on ``cells``; ``under`` is what they showed before
        (``guessed``: an estimate of the table, for a card there when the camera started);
        ``side``: its marker's side in cells; ``since``: the frame it came to lie there."""
        look = changes.small.ravel()[cells].copy()
        # What looks like the card itself tells nothing (a card already there in the first frame).
        rows = [] if under is None else [row for row in np.atleast_2d(under) if not matches(look, row)]
        reach = max(REACH, round(HAND_REACH * side))
        return cls(cells, look, np.stack(rows) if rows else None, outline, area, guessed, since, reach=reach)

    def judge(self, changes: ChangeMap, now: float, labels: "MotionLabels", others: list["Footprint"],
              linger: float = 0.0, table: np.ndarray | None = None) -> str:
        """Decide this frame's state (see the module docstring) and return it. ``linger``: seconds
        a decoder takes, after the motion ends, to name a card where it landed (so a card slid
        away is one ``moved``, not gone then placed). ``table``: the cells where a card counts
        as on the table (inside a zone; None: everywhere)."""
        values = changes.small.ravel()[self.cells]
        # Only cells lying still show the card: a plain card slid along its length keeps its
        # old place white for a while (the card's other half, a white card below) as it goes.
        if matches(values, self.look, changes.still.ravel()[self.cells]):
            self.trail = self.path = self.path_under = self.quiet_since = self.clear_since = self.distance = None
            self.over = self.beyond = self.landed = False
            self.state = SEEN
            return SEEN
        self._follow_trail(changes, now, labels, others)
        clear = changes.is_still(self.cells) and (self.guessed or matches(values, self._hidden(changes))
                                                  or self._overlaid(others, values, changes.still.ravel()[self.cells]))
        if not clear:
            self.clear_since = None
            self.state = COVERED
            return COVERED
        self.clear_since = now if self.clear_since is None else self.clear_since
        if self.quiet_since is None:
            gone = now - self.clear_since >= TRAIL_LIMIT
        else:
            quiet = now - self.quiet_since
            # (A present card is held as long as something new rests where the trail stopped.)
            resting = (quiet < HELD_LIMIT or self.guessed) and self._held(changes, others, table)
            # A hand of the table's grey over the card makes its place look clear, and shows
            # only where it moves (its fingers, up to a hand's length away), not in every frame:
            # when the trail was last seen that near the card's place, the hand has left it
            # only once nothing moved for a hand's pause; a hand that stopped moving on the card
            # (its last motion centred on the card's surroundings), inside the view (a hand
            # leaves the table at its edge), rests on it: it is held as by a hand that shows.
            resting |= self.on and not self.at_edge and quiet < HELD_LIMIT
            # A hand whose last motion brought it onto the card, away from the edge of the view,
            # rests there until it is seen to move again (a hand that takes the card away moves
            # off it, towards the edge).
            resting |= self.landed
            hovering = self.over and quiet < HOVER_PAUSE
            gone = quiet >= changes.settle + linger and not (resting or hovering)
        self.state = GONE if gone else COVERED
        return self.state

    def stirred(self, changes: ChangeMap) -> bool:
        """True when something moves inside the card's outline this frame (a cell in from its
        edge, where a hand passing beside it does not reach): a hand over it, or the card
        itself sliding. A card slid along its length shows its old place unchanged in its middle
        (plain paper where plain paper was) for a frame or two after it has left: it is followed
        then, not seen lying there."""
        if self.inside is None:
            self.inside = cv2.erode(self.outline.view(np.uint8), np.ones((3, 3), np.uint8)).view(bool)
        return bool((changes.moving & self.inside).any())

    def _hidden(self, changes: ChangeMap) -> np.ndarray:
        """What the footprint's place may show once the card is gone, each cell either: what it
        hid, or the table as it was at the start (a card dealt partly onto another hid that card,
        and a fan picked up whole takes both)."""
        start = changes.start.reshape(2, -1)[:, self.cells]
        return start if self.under is None else np.vstack([self.under, start])

    def _follow_trail(self, changes: ChangeMap, now: float, labels: "MotionLabels", others: list["Footprint"]) -> None:
        near = self.area if self.trail is None else (self.area | labels.grow(self.trail, self.reach))
        moving = labels.touching(near)
        if moving.any():
            self.trail, self.quiet_since = moving, None
            if np.count_nonzero(moving & changes.moving) >= len(self.cells):
                self._locate_hand(moving, labels, others)
            if self.path is None:
                self.path, self.path_under = np.zeros(moving.shape, bool), np.zeros((2, *moving.shape), np.uint8)
            joined = np.flatnonzero(moving & ~self.path)
            self.path.ravel()[joined] = True
            self.path_under.reshape(2, -1)[:, joined] = changes.reference(joined)
        elif self.quiet_since is None:
            self.quiet_since = now
        # The trail stays where it stopped: the hand resting there, moving off again, takes it on.

    def _locate_hand(self, moving: np.ndarray, labels: "MotionLabels", others: list["Footprint"]) -> None:
        """Where the hand is, from the trail's patches ``moving``, when a hand's worth of their
        cells moved (at least the marker's): fewer are light flickering on the table's grain, a
        grey level of sensor noise, and say nothing of where the hand went (a flicker in the
        place a card was lifted from, the place itself unlike the reference, is no hand that
        stopped on the card). Motion on the places of the cards ``others`` is no larger thing:
        cards lying side by side, taken together between two frames, vanish there."""
        if self.around is None:
            self.around = labels.grow(self.outline, self.reach)
        self.over = bool((moving & self.around).any())
        self.at_edge = _at_edge(moving)
        self.beyond |= np.count_nonzero(moving & ~self.area & ~labels.places(others)) >= HELD_SHARE * len(self.cells)
        # How far the motion's centre is from the card's: a hand that takes the card away moves
        # off from it, one that comes to rest on it comes nearer.
        distance = float(np.hypot(*(_centre(moving) - self._middle())))
        receding = self.distance is not None and distance > self.distance
        self.distance = distance
        # (Motion that never left the card's surroundings is the card itself taken away
        # between two frames, with no hand in view: nothing rests on its place.)
        self.on = self.beyond and self._centred(moving)
        # Where the hand is now, not where it passed in this frame (the cells that moved this
        # frame and still differ from what the change map expects, and do not show the bare
        # table: the card's own place, left bare by a hand that took the card off the table
        # between two frames, differs from the card that lay there): a hand that came in from
        # the edge of the view and stopped on the card left the edge behind it.
        here = moving & labels.moving & labels.changed & ~labels.bare()
        self.landed = self.beyond and not receding and here.any() and self._centred(here) and not _at_edge(here)

    def _centred(self, mask: np.ndarray) -> bool:
        """True when the centre of ``mask`` lies in the card's surroundings."""
        y, x = _centre(mask).astype(int)
        return bool(self.area[y, x])

    def _middle(self) -> np.ndarray:
        """The centre of the card's outline (row, column), found once."""
        if self.middle is None:
            self.middle = _centre(self.outline)
        return self.middle

    def _held(self, changes: ChangeMap, footprints: list["Footprint"], table: np.ndarray | None) -> bool:
        """True while the place where the trail stopped (its path around where it was last)
        shows something new lying still (the hand that slid the card, resting on it): the card
        may be under it. The places of known cards do not count (cards taken together leave
        each other's places clear), nor what lies outside ``table``: a card there is off the
        table (the tracker counts it as not seen), so nothing there holds one (a sliver of a
        card swept off the table, left at the edge of the view)."""
        if self.path is None or self.trail is None:
            return False
        # Where the trail was last, on its path: not the far places the hand passed long ago.
        near = self.path & cv2.dilate(self.trail.view(np.uint8), np.ones((7, 7), np.uint8)).view(bool)
        # Lone cells unlike before are noise, as for the change map: a hand is a block of them.
        # New: unlike what the path showed before the trail came, and unlike the table at the start
        # (the place of a card nobody could read, taken away with the others, shows the table).
        candidates = np.flatnonzero(near & changes.still)
        if len(candidates) < HELD_SHARE * len(self.cells):
            return False
        before = np.vstack([self.path_under.reshape(2, -1)[:, candidates], changes.start.reshape(2, -1)[:, candidates]])
        new = np.zeros(near.shape, bool)
        new.ravel()[candidates] = (np.abs(changes.small.ravel()[candidates].astype(np.int16) - before) > MATCH_LEVELS).all(axis=0)
        new = changes.denoise(new)
        if np.count_nonzero(new) < HELD_SHARE * len(self.cells):
            return False
        for footprint in footprints:
            new &= ~footprint.outline
        if table is not None:
            new &= table
        return bool(np.count_nonzero(new) >= HELD_SHARE * len(self.cells))

    def _overlaid(self, others: list["Footprint"], values: np.ndarray, still: np.ndarray) -> bool:
        """True when another card's marker, lying where this card's was, covers most of it, and
        what it leaves of it (``values``, of those ``still``) does not show it. A card that lay
        there before this one came is under it, not in its place (a tight fan's card below
        shares most of the card dealt on it: covered by a card nobody read, that card is
        covered, not gone); a card dealt over most of it, its index still showing beside, is
        laid on it. What it leaves under the other card itself (beyond its marker: a fanned
        card's face) shows that card, and says nothing of this one: a card dealt a little
        onto the face of another covers the middle of it so."""
        for other in others:
            if other is self or other.state != SEEN or other.since < self.since:
                continue
            beside = ~np.isin(self.cells, other.cells, assume_unique=True)
            if np.count_nonzero(beside) > (1 - COVER_SHARE) * len(self.cells):
                continue
            if np.count_nonzero(beside) < SHOWS_BESIDE * len(self.cells):
                return True
            beside &= ~other.outline.ravel()[self.cells]
            if np.count_nonzero(beside) >= SHOWS_BESIDE * len(self.cells) and \
                    not matches(values[beside], self.look[beside], still[beside]):
                return True
        return False


def _at_edge(mask: np.ndarray) -> bool:
    """True when a boolean cell mask touches the edge of the view."""
    return bool(mask[0].any() or mask[-1].any() or mask[:, 0].any() or mask[:, -1].any())


def _centre(mask: np.ndarray) -> np.ndarray:
    """The centre (row, column) of the cells of a boolean mask with at least one cell."""
    m = cv2.moments(mask.view(np.uint8), binaryImage=True)
    return np.array([m["m01"] / m["m00"], m["m10"] / m["m00"]])


class MotionLabels:
    """The moving things of one frame, labelled once and only when a footprint asks: each is a
    patch of cells that differ from the reference (a hand and the card under it, whole) or
    moved since the last frame, with something in it moving. A hand that pushes a card slowly
    moves only at its edges; its body keeps the trail whole from frame to frame. A palm of
    nearly the grey of the table under it (a hand over light wood in a lamp's glare) shows only
    at its fingers and heel: what moves within a hand's length of the trail (:data:`HAND_REACH`)
    is the same hand."""

    def __init__(self, changes: ChangeMap) -> None:
        self.moving = changes.moving
        self.changed = changes.changed
        self._changes = changes
        self._bare: np.ndarray | None = None
        self._labels: np.ndarray | None = None
        self._live: np.ndarray | None = None
        self._kernels: dict[int, np.ndarray] = {}
        self._touched: dict[bytes, np.ndarray] = {}
        self._places: np.ndarray | None = None

    def touching(self, mask: np.ndarray) -> np.ndarray:
        """The moving patches that touch ``mask`` (a boolean cell mask)."""
        if not self.moving.any():
            return np.zeros(self.moving.shape, bool)
        if self._labels is None:
            count, self._labels = cv2.connectedComponents((self.moving | self.changed).view(np.uint8), connectivity=8)
            # Which labels hold something moving, as a table indexed by label (0, the rest, never).
            self._live = np.zeros(count, bool)
            self._live[self._labels[self.moving]] = True
            self._live[0] = False
        touched = np.zeros(len(self._live), bool)
        touched[self._labels[mask]] = True
        touched &= self._live
        if not touched.any():
            return np.zeros(self.moving.shape, bool)
        # Cards pushed by one hand touch the same patches: their mask is made once (and never
        # changed in place by a footprint, which keeps it as its trail).
        key = touched.tobytes()
        if key not in self._touched:
            self._touched[key] = touched[self._labels]
        return self._touched[key]

    def bare(self) -> np.ndarray:
        """The cells that show the table as it was when the camera started (its estimate bare,
        or the first frame), made once a frame."""
        if self._bare is None:
            small, start = self._changes.small.astype(np.int16), self._changes.start.astype(np.int16)
            self._bare = (np.abs(small - start) <= MATCH_LEVELS).any(axis=0)
        return self._bare

    def places(self, footprints: list[Footprint]) -> np.ndarray:
        """The cells of the cards of ``footprints`` and their fringes (:data:`CARD_FRINGE`), where
        a card taken away changes what moves, made once a frame."""
        if self._places is None:
            outlines = np.zeros(self.moving.shape, np.uint8)
            for footprint in footprints:
                outlines |= footprint.outline
            self._places = self.grow(outlines.view(bool), CARD_FRINGE)
        return self._places

    def grow(self, mask: np.ndarray, reach: int) -> np.ndarray:
        """``mask`` grown by ``reach`` cells (the same hand, see :data:`HAND_REACH`)."""
        if reach not in self._kernels:
            self._kernels[reach] = np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)
        return cv2.dilate(mask.view(np.uint8), self._kernels[reach]).view(bool)
