"""Card outlines in a changed region of a frame.

What differs from the table as explained (:class:`Backdrop`: the empty table, the first frame
the pipeline saw, with every card named since laid on it) and from the empty table, limited to
the cells the change map found dirty (changed since they were last explained), is what just
arrived (:func:`arrivals`): a card laid on the table, or on top of cards already there (the
newest card lies on top, so it shows whole). Each such patch that is shaped like a card (a
rectangle of a card's proportions, filling its outline) is one card (:func:`card_outlines`).
A patch of another shape may be several cards: laid partly on each other before the lower one
was read, or touching. Knowing a card's size on the table (a calibration), :func:`fit_cards`
finds each card by the corners it shows: two straight sides meeting square, from which a card
of a card's size reaches into the patch; the patch must be those cards and nothing else (a
hand is left for a later frame). Outlines are then moved onto
the card's edges (:func:`refine_quad`) and made the card size of the deck on the table
(:func:`true_to_size`, :class:`DeckSize`).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.faces.features import CORNER_SHARE, HIDDEN_MOST

Box = tuple[int, int, int, int]

#: Grey levels a pixel must differ from the empty table by to be part of something new.
DIFFERENCE = 28
#: A card laid still shows as it was laid where its pixels lie within SHOWS_LEVELS grey levels of
#: how they were (less their median difference, the light), for SHOWS_SHARE of them.
SHOWS_LEVELS, SHOWS_SHARE = 16, 0.7
#: A card named by its corner lies under a card laid before it that shows as laid where they
#: overlap, over this share of that card at least (less says nothing).
OVERLAP_LEAST = 0.05
#: A card dealt on a card named lies on it where the frame shows less than SHOWS_SHARE of that
#: card's print as laid there, its print (SHOWS_LEVELS off its paper) a PRINT_LEAST share of
#: where the two overlap at least (white on white says nothing).
PRINT_LEAST = 0.03
#: ... and where its print was, the frame shows paper as light as the card's own over this
#: share at least (the new card's own print covers the rest: 0.34-0.59 in fans of white cards
#: dealt one by one, 0.18 of a dark card whose big light print lies over a dark card's light
#: pips; a hand resting on it, 0.02 at most, or shading all of it).
PAPER_SHARE = 0.1
#: ... and the light there is at most this many times brighter or darker than when it was laid
#: (flicker, daylight, a camera's exposure): a place that went from a card's white to the
#: felt's dark is uniform too, but it is no change of light.
SHOWS_LIGHT = 1.5
#: How many times coarser than the frame the table under a card lying when the camera started
#: is guessed (:func:`painted_in`), and compared with (:func:`arrivals`).
COARSE = 8
#: Long side over short side of a card outline: poker 88/63 = 1.40, bridge 88/57 = 1.54.
ASPECT = (1.2, 1.75)
#: Share of its outline rectangle a card's patch fills (rounded corners, a little blur).
FILL = 0.88
#: Smallest card, in pixels of the frame.
MIN_AREA = 1500
#: Card sizes on the table, (short, long) millimetres: poker and bridge cards, and the share by
#: which an outline may differ from a size.
CARD_SIZES_MM, SAME_SIZE = ((63.0, 88.0), (57.0, 88.0)), 0.04
#: An outline this share of a card's size off (either side) is made that card's size.
TRUE_TO = 0.1
#: Cards named by their whole outline, of one size, before the deck is taken to be of that size.
SIZE_VOTES = 1
#: The shape of a deck's cards (short side over long side, as enrolled) names the card size whose
#: shape it is within SHAPE_WITHIN of, and nearer than any other's by SHAPE_NEARER times: the
#: median of a deck's phone photos, scans or crops lies within 0.01 of its clean pictures'; a
#: shape farther from every size's is no real card's outline (a design's art drawn wider than
#: the card it is printed on) and names none.
SHAPE_WITHIN, SHAPE_NEARER = 0.02, 2.0
#: Cards of one size fitted at two corners of a card are one when no corner is farther apart
#: than SAME_CARD_MM (the sides of a patch are a little ragged where a card lies on another).
SAME_CARD_MM = 8.0
#: A card outline and a card fitted at most this far apart at every corner (mm) are one.
SAME_PLACE_MM = 2.5
#: Two outlines whose corners (or centres) lie within this share of a card's short side (5 mm
#: on a poker card; an outline read again lies a few pixels off) are one card's.
SAME_OUTLINE = 0.08
#: A side of a patch this long (mm) is a card's side; a rounded corner's chamfer is shorter
#: than :data:`CHAMFER`.
SIDE_MM, CHAMFER = 12.0, 7.0
#: A step of brightness across a card's side this share of the strongest is clear: the
#: outermost clear step is the card's edge (see :func:`refine_quad`).
CLEAR_STEP = 0.5
#: In a still picture, where the background beyond a card is in view, a step also clears when
#: the brightness a few pixels either side of it differs STANDS_OUT times as much as nearly all
#: of the background's own do there (the BACKGROUND_STEPS percentile along the side), by
#: STEP_LEAST grey levels at least, and the step is FAINT_STEP of the strongest: a card's pale
#: paper against a tan desk steps a third as much as its border against a dark face printed
#: inside it, and the edge is still the outermost step; a thin line beyond it (a plank's
#: joint) is alike either side, and on a checked cloth no step stands clear (see
#: :func:`refine_quad`, :func:`_levels_apart`).
STANDS_OUT, BACKGROUND_STEPS, STEP_LEAST, FAINT_STEP = 2.0, 90, 16.0, 0.2
#: In a still picture, a side's edge found on a pattern beyond the card (see
#: :func:`_background_between`) gives way to the next straight edge inside, PATTERN_TRIES times at
#: most; what lies between changes along the side by PATTERN_LEAST grey levels at least.
PATTERN_TRIES, PATTERN_LEAST = 3, 15.0
#: What the arrivals' closing filled this wide (px) and more is a card's print, not a gap
#: between cards (:func:`fine_arrivals`).
THICK = 5
#: Pixels outside the patch's edge a card's edge may lie (a neighbour's edge lies farther).
OUTSIDE = 3
#: Two sides meet square within this many degrees.
SQUARE = 12.0
#: A card fitted at a corner whose side is shorter by more than this (mm) than the straight side
#: of the patch it lies along is contradicted by it, where the card turned the other way round
#: is not: the edge runs on past the card's corner.
OUTRUN_MM = 5.0
#: A card fitted at a corner where both sides of the patch run along its own for this share of
#: their length lies there, however much of its far end was lost against a light table (glare,
#: a pale cloth): it need not lie :data:`INSIDE` what is new.
SIDES_SHOWN = 0.85
#: A card fitted at a corner lies inside the patch by this share at least, and the cards fitted
#: cover this share of the patch (a card lying on another may lose a strip of its white border
#: against the white below).
INSIDE, COVERED = 0.9, 0.92
#: The two ends of a fan overlapping by more than half (a tight fan) lie within this many
#: degrees of one way round (:func:`fit_cards`).
FAN_SPREAD = 45.0
#: A card showing one corner only (:func:`shown_corners`): the shortest stretch of its end side
#: that shows (mm; a fanned hand's cards lie 7 mm apart or more, a rounded corner takes 2-3),
#: and how closely the patch's outline is followed (mm).
SHOWN_SIDE_MM, SHOWN_TRUE_MM = 4.0, 0.5
#: A side showing one corner is followed from CORNER_ROUND_MM to SHOWN_NEAR_MM from the corner
#: (a card's rounded corner reaches CORNER_ROUND_MM along each side).
CORNER_ROUND_MM, SHOWN_NEAR_MM = 3.5, 12.0
#: A side shows as far as the outline follows its line within SHOWN_OFF_MM, with no gap in it
#: longer than SHOWN_GAP_MM (:func:`_shown_for`).
SHOWN_OFF_MM, SHOWN_GAP_MM = 1.0, 2.0
#: An edge inside a patch of cards at least SIDE_SEEN_MM long may be a card's side (a fanned
#: card's long side shows whole, its short side a few millimetres); its corner lies where its
#: line leaves the patch, within LEAVES_MM of the edge's end (the rounding of a corner, a white
#: card on a white card, where nothing shows the edge).
SIDE_SEEN_MM, LEAVES_MM = 25.0, 12.0
#: A card lies on a card it overlaps when its sides step in brightness all round, and where
#: they cross that card (its edge over the other's print), by EDGE_SHOWS grey levels at least,
#: and ON_TOP times as much as the other's sides do where they cross it (an edge under a card
#: shows nothing); only sides running INSET_PX inside the other card, for MIN_CROSSING
#: stretches in all, say it.
EDGE_SHOWS, ON_TOP, INSET_PX, MIN_CROSSING = 12.0, 2.0, 3.0, 1
#: Sides are followed by stretches this long (px): a fitted side is parallel to the card's edge
#: within a degree or two, so the edge stays at one offset across it along a stretch.
EDGE_STRETCH = 40


def size_of_shape(shape: float | None, sizes=CARD_SIZES_MM) -> tuple[float, float] | None:
    """The card size (of ``sizes``, mm) a deck's cards of ``shape`` (short side over long side)
    have: the size whose shape is nearest, when within :data:`SHAPE_WITHIN` of it and
    :data:`SHAPE_NEARER` times nearer than any other's; None when none is (or the shape is
    unknown)."""
    if shape is None:
        return None
    apart = sorted((abs(shape - short / long), (short, long)) for short, long in sizes)
    if apart[0][0] > SHAPE_WITHIN or (len(apart) > 1 and SHAPE_NEARER * apart[0][0] >= apart[1][0]):
        return None
    return apart[0][1]


class DeckSize:
    """Which of the card ``sizes`` (mm) the deck on the table has, learnt from the whole outlines
    of the cards named (:meth:`note`): a table plays one deck, and a card whose patch lost a
    strip fits a bridge card as well as a poker card. Until :data:`SIZE_VOTES` outlines agree
    (and outnumber the others threefold), any size; but before any card is measured, the size
    the ``shape`` of the deck's cards as enrolled names (:func:`size_of_shape`), when it names
    one: a fan laid at once measures no card whole."""

    def __init__(self, sizes=CARD_SIZES_MM, shape: float | None = None) -> None:
        self.votes = dict.fromkeys(sizes, 0)
        self.enrolled = size_of_shape(shape, sizes)

    def note(self, quad: np.ndarray, image_to_table: np.ndarray) -> None:
        """A card was named in ``quad`` (frame px): its size on the table votes."""
        short, long = _short_long(_on_table(quad, image_to_table))
        for size in self.votes:
            if _of_size(short, long, (size,)):
                self.votes[size] += 1

    @property
    def sizes(self) -> tuple[tuple[float, float], ...]:
        if self.enrolled is not None and not any(self.votes.values()):
            return (self.enrolled,)
        best = max(self.votes, key=self.votes.get)
        rest = sum(self.votes.values()) - self.votes[best]
        return (best,) if self.votes[best] >= SIZE_VOTES and self.votes[best] >= 3 * rest else tuple(self.votes)


class Backdrop:
    """The table as it looks with everything on it explained, at full resolution (grey): the
    empty table (the first frame) with each card named since laid on it (:meth:`lay`) until it
    leaves (:meth:`keep_only`). Against it a card laid on a known card stands out by itself,
    to the pixel, not as one patch with the card below. Under a card already lying when the camera
    started the empty table is a guess (:meth:`guess_under`) until the card leaves and shows it."""

    def __init__(self) -> None:
        self.empty: np.ndarray | None = None
        self.grey: np.ndarray | None = None
        self._laid: dict[str, tuple[tuple[int, int, int, int], np.ndarray, np.ndarray]] = {}
        self._quads: dict[str, np.ndarray] = {}   # what of each card lies on what it overlaps
        self._outlines: dict[str, np.ndarray] = {}   # each card's whole outline
        self._under: dict[str, set[str]] = {}   # the cards laid before each card named by its corner that lie on it
        self._unknown: np.ndarray | None = None  # where the empty table is a guess
        #: The first frame in colour, blurred as the grey (see :meth:`colour_apart`), and where
        #: it showed the table: nothing lying there when the camera started.
        self._colour: np.ndarray | None = None
        self._coloured: np.ndarray | None = None

    def ready(self, grey: np.ndarray) -> bool:
        """Take ``grey`` as the empty table if there is none of its size yet; True when one
        was already there (so this frame can be compared with it)."""
        if self.grey is not None and self.grey.shape == grey.shape:
            return True
        self.empty = cv2.GaussianBlur(grey, (3, 3), 0)
        self.grey, self._laid, self._quads, self._outlines, self._under = self.empty.copy(), {}, {}, {}, {}
        self._unknown = np.zeros(grey.shape, bool)
        self._colour = self._coloured = None
        return False

    def keep_colour(self, colour: np.ndarray) -> None:
        """Keep the first frame (the empty table, ``colour``: BGR) in colour too, for
        :meth:`colour_apart`."""
        self._colour = cv2.GaussianBlur(colour, (3, 3), 0)
        self._coloured = np.ones(colour.shape[:2], bool)

    def colour_apart(self, colour: np.ndarray, grey: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray | None:
        """The mask of region ``box`` (``colour``: its BGR pixels, ``grey``: its grey) that
        differs in colour from the empty table by :data:`DIFFERENCE` in some channel and is no
        darker in grey than half that, where the first frame showed the table and no card
        named lies: a card's white on a light, coloured cloth is as light as the cloth in grey,
        not in colour (a card's shadow is darker). None when the first frame was not kept in
        colour."""
        if self._colour is None:
            return None
        x0, y0, x1, y1 = box
        apart = cv2.absdiff(cv2.GaussianBlur(colour, (3, 3), 0), self._colour[y0:y1, x0:x1]).max(axis=2) > DIFFERENCE
        lighter = cv2.GaussianBlur(grey, (3, 3), 0).astype(np.int16) >= self.empty[y0:y1, x0:x1].astype(np.int16) - DIFFERENCE // 2
        return apart & lighter & self._coloured[y0:y1, x0:x1] & ~self.laid(box)

    def guess_under(self, quad: np.ndarray) -> None:
        """A card lay in ``quad`` when the camera started: the table under it and its shadow is
        guessed (:meth:`guess`)."""
        self.guess(*self._around(quad))

    def guess(self, box: tuple[int, int, int, int], mask: np.ndarray) -> None:
        """What lies where ``mask`` (a boolean array of region ``box``) lay there when the camera
        started: the empty table under it is painted in from around it, coarsely
        (:func:`painted_in`), until what lies there leaves (:meth:`keep_only`) and the frame shows
        the table. Until a card is laid there (:meth:`lay`), what lies there is new."""
        h, w = self.empty.shape
        x0, y0, x1, y1 = box
        px0, py0 = max(x0 - 3 * COARSE, 0), max(y0 - 3 * COARSE, 0)   # table around it to paint from
        px1, py1 = min(x1 + 3 * COARSE, w), min(y1 + 3 * COARSE, h)
        hole = np.zeros((py1 - py0, px1 - px0), bool)
        hole[y0 - py0:y1 - py0, x0 - px0:x1 - px0] = mask
        self.empty[py0:py1, px0:px1][hole] = painted_in(self.empty[py0:py1, px0:px1], hole)[hole]
        self.grey[py0:py1, px0:px1][hole] = self.empty[py0:py1, px0:px1][hole]
        self._unknown[py0:py1, px0:px1] |= hole
        if self._coloured is not None:
            self._coloured[py0:py1, px0:px1] &= ~hole

    def restore(self, guessed: np.ndarray, grey: np.ndarray) -> None:
        """Where the table was guessed under ``guessed`` (a mask of the frame) and no card named
        lies, frame ``grey`` (the first frame) showed the table after all: in colour too, as
        kept (:meth:`keep_colour`; a pale checked cloth's squares in glare stand out from a
        first frame as cards might, and a card laid on them later is as light as they are in
        grey, not in colour)."""
        mask = guessed & self._unknown
        for quad in self._quads.values():
            (x0, y0), (x1, y1) = np.floor(quad.min(axis=0)).astype(int), np.ceil(quad.max(axis=0)).astype(int) + 1
            x0, y0 = max(x0, 0), max(y0, 0)
            mask[y0:y1, x0:x1] &= ~quad_mask(mask[y0:y1, x0:x1].shape, quad - (x0, y0))
        soft = cv2.GaussianBlur(grey, (3, 3), 0)
        self.empty[mask] = self.grey[mask] = soft[mask]
        self._unknown &= ~mask
        if self._coloured is not None:
            self._coloured |= mask

    def _around(self, quad: np.ndarray) -> tuple[tuple[int, int, int, int], np.ndarray]:
        """The box of ``quad`` with its shadow's reach, and the mask of the quad grown by it."""
        h, w = self.empty.shape
        margin = max(2, round(0.06 * float(np.linalg.norm(quad[1] - quad[0]))))
        x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - margin, 0)
        x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + margin + 1, (w, h))
        mask = quad_mask((max(y1 - y0, 0), max(x1 - x0, 0)), quad - (x0, y0)).view(np.uint8)
        return (int(x0), int(y0), int(x1), int(y1)), cv2.dilate(mask, np.ones((2 * margin + 1,) * 2, np.uint8)).view(bool)

    def lay(self, key: str, grey: np.ndarray, quad: np.ndarray, others: list[np.ndarray] = (),
            shown: np.ndarray | None = None) -> None:
        """Card ``key`` lies in ``quad`` of frame ``grey``: what the frame shows there becomes
        the table, except where the ``others`` (cards that may lie on it, still to be read)
        reach. ``shown``: the part of it known to lie on top of what it overlaps (four corners;
        default all of it): a card named by the one corner it shows lies under the rest, and
        under each card laid before it that still shows as laid where the two overlap (a card of
        a fan named late, by its corner, after the card dealt on it)."""
        left = self._quads.get(key)
        # A card read again where it lay keeps its place in the order the cards were laid: it
        # lies under those laid on it since, as it did (a card taken up and laid again lies on all).
        place = list(self._outlines).index(key) if key in self._outlines and _same_place(self._outlines[key], quad) else None
        self._lift(key)
        if shown is not None:
            self._under[key] = {k for k, outline in self._outlines.items()
                                if _boxes_meet(outline, quad) and self._shows_over(k, grey, quad)}
        h, w = self.grey.shape
        x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 1, 0)
        x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 2, (w, h))
        if x1 > x0 and y1 > y0:
            mask = quad_mask((y1 - y0, x1 - x0), quad - (x0, y0))
            for other in others:
                mask &= ~quad_mask(mask.shape, other - (x0, y0))
            pixels = cv2.GaussianBlur(grey[y0:y1, x0:x1], (3, 3), 0)
            self._laid[key] = ((x0, y0, x1, y1), mask, pixels)
            self._quads[key] = np.asarray(quad if shown is None else shown, np.float32)
            self._outlines[key] = np.asarray(quad, np.float32)
            if place is not None:
                order = list(self._outlines)
                order.insert(place, order.pop())
                self._outlines = {k: self._outlines[k] for k in order}
            self._paint(key)
        if left is not None:
            self._learn(left, grey)

    def _learn(self, quad: np.ndarray, grey: np.ndarray) -> None:
        """A card has left ``quad``: where the empty table there was a guess (:meth:`guess`),
        frame ``grey`` shows it, but where a card laid lies (the card itself, moved a little, or
        one it lay on)."""
        (x0, y0, x1, y1), mask = self._around(quad)
        mask &= self._unknown[y0:y1, x0:x1]
        if not mask.any():
            return
        for other in self._quads.values():   # whole, the parts another card lay on included
            mask &= ~quad_mask(mask.shape, other - (x0, y0))
        soft = cv2.GaussianBlur(grey[y0:y1, x0:x1], (3, 3), 0)
        self.empty[y0:y1, x0:x1][mask] = self.grey[y0:y1, x0:x1][mask] = soft[mask]
        self._unknown[y0:y1, x0:x1] &= ~mask

    def neighbours(self, quad: np.ndarray, grey: np.ndarray) -> list[tuple[np.ndarray, list[np.ndarray], bool, bool]]:
        """The cards named that overlap ``quad`` (not the card lying there itself, whose outline
        is the same but for :data:`SAME_OUTLINE` of its side at each corner): one of them may lie
        on the card in ``quad``, or under it (the cards of a fan lie a few millimetres apart).
        Each as its outline, the outlines of the cards laid on it since that still show as
        laid (it covers nothing there; where one has left, what shows there is this card again),
        and whether the card in ``quad`` lies on it: frame ``grey`` no longer shows its
        print as laid where the two overlap, the card lying undisturbed (:meth:`_print_gone`: a
        card named and lying undisturbed does not come to lie on a card that came after it;
        white on white, the edge between them hardly shows). A card named by the one corner it
        showed is a neighbour by its whole outline: it lies somewhere under it (the bottom card
        of a fan laid at once, read whole, has the cards named by their corners lying on it,
        which of the two lies on the other being for their edges to say, :func:`lies_on`); the
        last of each is whether it was so named, not by its whole outline."""
        found = []
        for key, outline in self._outlines.items():
            if not _same_place(outline, quad) and _boxes_meet(outline, quad):
                on_top = self.laid_on(key)
                found.append((outline, self._still_on(on_top, grey, quad), self._print_gone(key, grey, quad, list(on_top.values())),
                              key in self._under))
        return found

    def _still_on(self, on_top: dict[str, np.ndarray], grey: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
        """Of the cards ``on_top`` (laid on a card since, by key), the outlines of those frame
        ``grey`` still shows as laid where neither ``quad`` nor the cards laid on them in turn
        reach, but the card that lay where ``quad`` lies (it is the card there, or it has left)."""
        return [q for k, q in on_top.items()
                if not _same_place(q, quad) and self.shows(k, grey, [*self.laid_on(k).values(), quad], OVERLAP_LEAST)]

    def _print_gone(self, key: str, grey: np.ndarray, quad: np.ndarray, on_top: list[np.ndarray]) -> bool:
        """Whether frame ``grey`` no longer shows card ``key``'s print as laid where ``quad``
        overlaps it and no card laid on it since reaches (over :data:`OVERLAP_LEAST` of the card
        at least: a sliver where two outlines fitted a pixel apart says nothing; its print there
        :data:`PRINT_LEAST` of that at least: white on white says nothing), but paper as light
        as its own on :data:`PAPER_SHARE` of its print's place at least, while it still shows as
        laid where neither reaches (a card nudged or taken up shows its print nowhere as laid),
        in a light changed :data:`SHOWS_LIGHT` times at most there: a hand resting over it
        hides its print under another grey, and shades the rest of it. ``on_top``: the outlines
        of the cards laid on it since (:meth:`laid_on`)."""
        (x0, y0, x1, y1), mask, pixels = self._laid[key]
        under = quad_mask(mask.shape, quad - (x0, y0))
        part, rest = (_clear_of(mask & m, (x0, y0), on_top) for m in (under, ~under))
        then, paper = pixels[part].astype(np.int16), float(np.median(pixels[mask]))
        ink = np.abs(then - paper) > SHOWS_LEVELS
        if len(then) < OVERLAP_LEAST * np.count_nonzero(mask) or np.count_nonzero(ink) < PRINT_LEAST * len(then) or \
                not self.shows(key, grey, [*on_top, quad], OVERLAP_LEAST):
            return False
        soft = cv2.GaussianBlur(grey[y0:y1, x0:x1], (3, 3), 0).astype(np.int16)
        now, light = soft[part], float(np.median(soft[rest] - pixels[rest]))
        diff = now - then
        return bool(np.mean(np.abs(diff[ink] - np.median(diff)) <= SHOWS_LEVELS) < SHOWS_SHARE) and \
            1 / SHOWS_LIGHT <= (paper + light + 1) / (paper + 1) <= SHOWS_LIGHT and \
            bool(np.mean(np.abs(now[ink] - paper - light) <= SHOWS_LEVELS) >= PAPER_SHARE)

    def laid_on(self, key: str) -> dict[str, np.ndarray]:
        """The cards named after card ``key`` that overlap it, laid on it, by key: their whole
        outlines (the cards are kept in the order they were laid; a card named by the one corner
        it shows, the top card of a fan named before it was seen whole, covers all it reaches,
        unless card ``key`` showed as laid where they overlap when it was named, :meth:`lay`)."""
        quad = self._outlines.get(key)
        if quad is None:
            return {}
        later = list(self._outlines)[list(self._outlines).index(key) + 1:]
        return {k: self._outlines[k] for k in later if _boxes_meet(self._outlines[k], quad) and key not in self._under.get(k, ())}

    def shows(self, key: str, grey: np.ndarray, on_top: list[np.ndarray], least: float) -> bool:
        """Whether frame ``grey`` still shows card ``key`` as it was laid where none of the
        cards ``on_top`` (outlines) reach: over ``least`` of the card at least, its pixels within
        :data:`SHOWS_LEVELS` grey levels of how it was laid (less their median difference,
        the light of the frame, which may have changed :data:`SHOWS_LIGHT` times at most) for
        :data:`SHOWS_SHARE` of them."""
        if key not in self._laid:
            return False
        (x0, y0, x1, y1), mask, pixels = self._laid[key]
        part = _clear_of(mask, (x0, y0), on_top)
        return np.count_nonzero(part) >= least * np.count_nonzero(mask) and self._as_laid(key, grey, part)

    def _shows_over(self, key: str, grey: np.ndarray, quad: np.ndarray) -> bool:
        """Whether frame ``grey`` shows card ``key`` as it was laid where ``quad`` overlaps it
        and no card laid on it since reaches (over :data:`OVERLAP_LEAST` of the card at least):
        the card in ``quad`` does not lie on it there."""
        (x0, y0, _, _), mask, _ = self._laid[key]
        part = _clear_of(mask & quad_mask(mask.shape, quad - (x0, y0)), (x0, y0), self.laid_on(key).values())
        return np.count_nonzero(part) >= OVERLAP_LEAST * np.count_nonzero(mask) and self._as_laid(key, grey, part)

    def _as_laid(self, key: str, grey: np.ndarray, part: np.ndarray) -> bool:
        """Whether frame ``grey`` shows card ``key`` as it was laid over ``part`` (a mask of its
        box): see :meth:`shows`."""
        (x0, y0, x1, y1), _, pixels = self._laid[key]
        now, then = cv2.GaussianBlur(grey[y0:y1, x0:x1], (3, 3), 0)[part].astype(np.int16), pixels[part].astype(np.int16)
        light = (float(np.median(now)) + 1) / (float(np.median(then)) + 1)
        if not 1 / SHOWS_LIGHT <= light <= SHOWS_LIGHT:
            return False
        diff = now - then
        return bool(np.mean(np.abs(diff - np.median(diff)) <= SHOWS_LEVELS) >= SHOWS_SHARE)

    def laid(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """The mask of region ``box`` (x0, y0, x1, y1) where a card named lies."""
        x0, y0, x1, y1 = box
        mask = np.zeros((y1 - y0, x1 - x0), bool)
        for (lx0, ly0, lx1, ly1), shape, _ in self._laid.values():
            ix0, iy0, ix1, iy1 = max(x0, lx0), max(y0, ly0), min(x1, lx1), min(y1, ly1)
            if ix0 < ix1 and iy0 < iy1:
                mask[iy0 - y0:iy1 - y0, ix0 - x0:ix1 - x0] |= shape[iy0 - ly0:iy1 - ly0, ix0 - lx0:ix1 - lx0]
        return mask

    def guessed(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """The mask of region ``box`` where the empty table is a guess (:meth:`guess_under`)."""
        x0, y0, x1, y1 = box
        return self._unknown[y0:y1, x0:x1]

    def keep_only(self, keys, grey: np.ndarray) -> None:
        """Take off the table every card laid that is not among ``keys`` (it has left); where
        the empty table under one was a guess, frame ``grey`` shows it now."""
        for key in [k for k in self._laid if k not in keys]:
            quad = self._quads[key]
            self._lift(key)
            self._learn(quad, grey)

    def _lift(self, key: str) -> None:
        self._quads.pop(key, None)
        self._under.pop(key, None)
        self._outlines.pop(key, None)
        laid = self._laid.pop(key, None)
        if laid is None:
            return
        x0, y0, x1, y1 = laid[0]
        self.grey[y0:y1, x0:x1] = self.empty[y0:y1, x0:x1]
        for other, ((ox0, oy0, ox1, oy1), _, _) in self._laid.items():
            if ox0 < x1 and ox1 > x0 and oy0 < y1 and oy1 > y0:
                self._paint(other)

    def _paint(self, key: str) -> None:
        (x0, y0, x1, y1), mask, pixels = self._laid[key]
        self.grey[y0:y1, x0:x1][mask] = pixels[mask]


def painted_in(image: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``image`` (grey) with what lies under ``mask`` painted in from around it, at
    :data:`COARSE` times less resolution (a guess of the table under a card, cheap enough for a
    whole table)."""
    h, w = image.shape
    size = (max(w // COARSE, 1), max(h // COARSE, 1))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    hole = cv2.resize(mask.view(np.uint8), size, interpolation=cv2.INTER_AREA)
    hole = cv2.dilate((hole > 0).view(np.uint8), np.ones((3, 3), np.uint8))
    return cv2.resize(cv2.inpaint(small, hole, 3, cv2.INPAINT_TELEA), (w, h), interpolation=cv2.INTER_LINEAR)


def new_patches(grey: np.ndarray, table: np.ndarray, dirty: np.ndarray) -> np.ndarray:
    """The mask of pixels of crop ``grey`` that differ from the ``table`` crop and lie in
    ``dirty`` (a mask of the same size)."""
    return cleaned((cv2.absdiff(cv2.GaussianBlur(grey, (3, 3), 0), table) > DIFFERENCE) & dirty)


def arrivals(grey: np.ndarray, table: np.ndarray, empty: np.ndarray, dirty: np.ndarray,
             guessed: np.ndarray | None = None, close: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """Two masks of the pixels of crop ``grey`` in ``dirty`` (a mask of the same size): what is
    new, differing from the ``table`` as explained (:class:`Backdrop`) and from the ``empty``
    table (a place a card has left is not new); and everything that differs from the empty
    table, which a card just laid may reach (the cards it lies on included). Where the empty
    table is a coarse guess (``guessed``, :meth:`Backdrop.guess_under`), the frame is compared
    with it as coarsely: the table's grain is not new, a card is. Gaps narrower than ``close`` px
    are closed (a card's pale print on a pale table); a fanned hand's staircase of card ends, a
    millimetre or two high, needs them kept (:func:`shown_corners`)."""
    soft = cv2.GaussianBlur(grey, (3, 3), 0)
    not_empty = cv2.absdiff(soft, empty) > DIFFERENCE
    if guessed is not None and guessed.any():
        not_empty[guessed] = (cv2.absdiff(cv2.blur(soft, (2 * COARSE + 1,) * 2), empty) > DIFFERENCE)[guessed]
    not_empty &= dirty
    return cleaned(not_empty & (cv2.absdiff(soft, table) > DIFFERENCE), close), cleaned(not_empty, close)


def fine_arrivals(fine: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The arrivals ``fine`` (their small gaps kept, :func:`arrivals` with a small ``close``)
    with what the closing of ``mask`` (the same arrivals, gaps closed) filled where it is
    :data:`THICK` px across at least: a fanned card's index printed as dark as the table beside
    its edge (a thin printed frame between) is the card, and left out it cut the card's corner
    off the patch; the step between two fanned cards' ends, a few pixels high, is thin and
    stays out."""
    filled = (mask.view(bool) & ~fine.view(bool)).view(np.uint8)
    return fine | cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((THICK, THICK), np.uint8))


def _same_place(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether outlines ``a`` and ``b`` are one card's, read twice: each corner of ``a`` lies
    within :data:`SAME_OUTLINE` of ``b``'s side of one of ``b``'s."""
    side = float(np.linalg.norm(b[1] - b[0]))
    return bool(np.linalg.norm(a[:, None] - b[None], axis=2).min(axis=1).max() <= SAME_OUTLINE * side)


def _clear_of(part: np.ndarray, origin: tuple[int, int], quads) -> np.ndarray:
    """``part`` (a mask whose first pixel lies at frame px ``origin``) where none of the
    outlines ``quads`` (frame px) reaches."""
    part = part.copy()
    for quad in quads:
        part &= ~quad_mask(part.shape, quad - np.float32(origin))
    return part


def _boxes_meet(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether the boxes of quads ``a`` and ``b`` overlap."""
    return bool(a[:, 0].min() < b[:, 0].max() and a[:, 0].max() > b[:, 0].min()
                and a[:, 1].min() < b[:, 1].max() and a[:, 1].max() > b[:, 1].min())


def quad_mask(shape: tuple[int, int], quad: np.ndarray) -> np.ndarray:
    """A boolean mask of ``shape`` (rows, columns), true inside the four-cornered ``quad`` (px)."""
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(np.asarray(quad, np.float32).reshape(-1, 2)).astype(np.int32), 1)
    return mask.view(bool)


def cleaned(mask: np.ndarray, close: int = 9) -> np.ndarray:
    """``mask`` (0/1) with gaps narrower than ``close`` px closed and specks opened away."""
    mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((close, close), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def card_patches(mask: np.ndarray, *, min_area: float = MIN_AREA) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """Each patch of ``mask`` big enough to be a card: its contour and, when it is shaped like
    one card, its four corner points (crop pixels), else None."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    patches = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area:
            continue
        quad = _quad(contour)
        short, long = _short_long(quad)
        shaped = short >= 1 and ASPECT[0] <= long / short <= ASPECT[1] and area >= FILL * cv2.contourArea(quad)
        patches.append((contour, quad if shaped else None))
    return patches


def card_outlines(mask: np.ndarray, *, min_area: float = MIN_AREA) -> list[np.ndarray]:
    """The card-shaped patches of ``mask``, each as four corner points (crop pixels)."""
    return [quad for _, quad in card_patches(mask, min_area=min_area) if quad is not None]


def shape_of(quad: np.ndarray) -> float:
    """A four-cornered outline's short side over its long side (each the mean of two opposite sides)."""
    short, long = _short_long(quad)
    return short / max(long, 1e-6)


def _short_long(quad: np.ndarray) -> tuple[float, float]:
    """The mean lengths of a four-cornered outline's opposite sides, shorter first."""
    sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
    short, long = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
    return float(short), float(long)


def cards_of_patch(contour: np.ndarray, quad: np.ndarray | None, image_to_table: np.ndarray | None,
                   sizes=CARD_SIZES_MM, support=None, *, ends: bool = False) -> list[np.ndarray]:
    """The cards a patch holds (frame px). Without a calibration (``image_to_table``) a
    card-shaped patch is one card and any other patch none. With one, the patch is fitted
    (:func:`fit_cards`: cards overlapping or touching, or a card whose patch lost a strip where
    it lies on another, or gained one of the card below); a card-shaped outline where the fit finds one card (within
    :data:`SAME_PLACE_MM`) of one of the ``sizes`` (mm, within :data:`SAME_SIZE`) is kept as
    measured. A card-shaped outline of a card of another size (:data:`CARD_SIZES_MM`) where
    the fit finds none is a card too: of another deck, to be read (and refused), not passed
    over in silence. ``support``, ``ends``: see :func:`fit_cards`."""
    if image_to_table is None:
        return [] if quad is None else [quad]
    cards = fit_cards(contour, image_to_table, sizes, support, ends=ends)
    if quad is not None and len(cards) <= 1:
        outline = _on_table(quad, image_to_table)
        short, long = _short_long(outline)
        if cards:
            if _apart(outline, _on_table(cards[0], image_to_table)) <= SAME_PLACE_MM and _of_size(short, long, sizes):
                return [quad]
        elif _of_size(short, long, CARD_SIZES_MM):
            return [quad]
    return cards


def _of_size(short: float, long: float, sizes) -> bool:
    """True when a card ``short`` by ``long`` (mm) is of one of the card ``sizes``."""
    return any(abs(long - lo) <= SAME_SIZE * lo and abs(short - sh) <= SAME_SIZE * sh for sh, lo in sizes)


def _on_table(quad: np.ndarray, image_to_table: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(quad, np.float32).reshape(-1, 1, 2), image_to_table).reshape(-1, 2)


def _quad(contour: np.ndarray) -> np.ndarray:
    """The four corners of a card's patch: its hull simplified to four points when it has four
    clear corners (the outline in perspective), else its smallest enclosing rectangle."""
    hull = cv2.convexHull(contour)
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
    if len(approx) == 4:
        return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)


def outward_sides(quad: np.ndarray):
    """Each side of a four-cornered outline as (its first corner, the vector along it, its unit
    normal pointing out of the outline)."""
    quad = np.asarray(quad, np.float32)
    centre = quad.mean(axis=0)
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        along = b - a
        normal = np.float32([along[1], -along[0]]) / max(float(np.linalg.norm(along)), 1e-6)
        yield a, along, (normal if np.dot(normal, (a + b) / 2 - centre) >= 0 else -normal)


def lies_on(grey: np.ndarray, quad: np.ndarray, others: list[np.ndarray]) -> list[bool]:
    """For each of the cards in ``others``, whether the card in ``quad`` clearly lies on it where
    they overlap (frame px of ``grey``): each of its sides shows as an edge (an outline a little
    off the card, its ends on no edge, is no card lying anywhere), across the other card too,
    and the other's sides do not show across it (:data:`ON_TOP`). Cards fitted in one patch, or
    laid beside a card named, are otherwise in no known order."""
    if any(not len(side) or np.median(side) < EDGE_SHOWS for side in _edge_across(grey, quad)):
        return [False] * len(others)
    return [_edge_over(grey, quad, other) for other in others]


def _edge_over(grey: np.ndarray, quad: np.ndarray, other: np.ndarray) -> bool:
    """The sides of ``quad`` show across the card in ``other``, and its sides do not across it."""
    mine, theirs = (np.concatenate(_edge_across(grey, a, b)) for a, b in ((quad, other), (other, quad)))
    if len(mine) < MIN_CROSSING or np.median(mine) < EDGE_SHOWS:
        return False
    return len(theirs) < MIN_CROSSING or np.median(mine) >= ON_TOP * np.median(theirs)


def _edge_across(grey: np.ndarray, quad: np.ndarray, within: np.ndarray | None = None) -> list[np.ndarray]:
    """How clearly each side of ``quad`` shows as an edge (:func:`_edge_in`), stretch by stretch
    (:data:`EDGE_STRETCH` px, sampled a pixel apart between the corners; frame px of ``grey``);
    with the outline ``within``, only where the side runs inside it, :data:`INSET_PX` from its
    edge at least."""
    across = np.arange(-5, 6, dtype=np.float32)  # a fitted side may lie a few pixels off the edge
    sides = []
    for a, along, normal in outward_sides(quad):
        ts = np.linspace(0.1, 0.9, max(int(np.linalg.norm(along) * 0.8), 2), dtype=np.float32)
        points = a[None, :] + ts[:, None] * along[None, :]
        if within is not None:
            points = points[_depth_in(points, within) >= INSET_PX]
        xs, ys = (points[:, k:k + 1] + across[None, :] * normal[k] for k in (0, 1))
        shown = []
        for i in range(0, len(points) - EDGE_STRETCH // 2 + 1, EDGE_STRETCH):
            profile = cv2.remap(grey, xs[i:i + EDGE_STRETCH], ys[i:i + EDGE_STRETCH], cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
            shown.append(_edge_in(np.abs(profile[:, 2:] - profile[:, :-2])))
        sides.append(np.float32(shown))
    return sides


def _depth_in(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """How far inside the four-cornered outline ``quad`` each of ``points`` lies (px; below 0: outside)."""
    return np.min([(points - a) @ -normal for a, _, normal in outward_sides(quad)], axis=0)


def _edge_in(steps: np.ndarray) -> float:
    """How much a stretch of side (``steps`` of brightness: points along it by offsets across
    it) steps at one offset over the print beside it: the greatest median step at one offset,
    less the median of those at the offsets not next to it. An edge runs straight along the
    stretch; a card's edge lying across it at an angle, or print, does not."""
    medians = np.median(steps, axis=0)
    best = int(np.argmax(medians))
    rest = np.delete(medians, np.arange(max(best - 2, 0), min(best + 3, len(medians))))
    return float(medians[best] - (np.median(rest) if len(rest) else 0.0))


def refine_quad(grey: np.ndarray, quad: np.ndarray, reach: int = 8, *, turn: bool = False,
                outside: int = OUTSIDE, still: bool = False) -> np.ndarray:
    """``quad`` moved onto the card's real edges in ``grey`` (same coordinates): each side is
    sampled across, from ``reach`` px inside to ``outside`` px outside, for the outermost
    clear step of brightness (:data:`CLEAR_STEP`), and moved by the median of those steps when
    most of them lie on one straight line (a side with no clear edge, or with the print of a
    card below it, stays); the four sides meet at the new corners. The patch a change map gives
    is a few pixels off where a card lies on a card of the same white. A dark line drawn along
    a card's edge can still hold a side a pixel or two inside: :func:`true_to_size` follows.
    With ``turn``, a side may also turn onto the edge (the steps fitted by a straight line, not
    only moved by their median): an outline of a still picture may run from the card's corner
    to its shadow's; and ``outside`` grows with the card's size in a still picture (a dark
    line printed along a card's edge is several pixels wide in a scan). With ``still`` (a still
    picture: what lies beyond ``outside`` is the background), a step standing clear of the
    background's own steps there is clear too (:data:`STANDS_OUT`)."""
    quad = np.asarray(quad, np.float32)
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)
    lines = []
    for a, along, normal in outward_sides(quad):
        ts = np.linspace(0.15, 0.85, 14, dtype=np.float32)
        points = a[None, :] + ts[:, None] * along[None, :]
        xs = points[:, 0:1] + offsets[None, :] * normal[0]
        ys = points[:, 1:2] + offsets[None, :] * normal[1]
        profile = cv2.remap(grey, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        step = np.abs(np.diff(cv2.GaussianBlur(profile, (3, 1), 0), axis=1))
        # The card's edge is the outermost clear step not far outside the patch's: a design's
        # border line printed a millimetre or two inside it, or the edge of a card beside it,
        # can step more.
        strongest = step.max(axis=1, keepdims=True)
        clear = step >= CLEAR_STEP * strongest
        beyond = offsets[:-1] >= outside
        if still and beyond.sum() >= 3:
            apart = _levels_apart(profile)
            texture = np.percentile(apart[:, beyond], BACKGROUND_STEPS)
            clear |= (apart >= np.maximum(STANDS_OUT * texture, STEP_LEAST)) & (step >= FAINT_STEP * strongest)
        clear &= ~beyond[None, :]
        strong = step.max(axis=1) >= 12
        line = _step_line(clear, strong, offsets, ts, turn)
        if line is None:
            # No straight edge (white on white, or the print of a card below): the side stays.
            lines.append((a, along / max(float(np.linalg.norm(along)), 1e-6)))
            continue
        for _ in range(PATTERN_TRIES if still else 0):
            # The line may be a pattern's beyond the card (a checked cloth's, its lines along
            # the card's side): what lies between it and the next straight edge inside is then
            # the background's, changing along the side as the background does beyond it.
            outer = line[0] + line[1] * (ts - 0.5)
            inside = clear & (offsets[None, :-1] < outer[:, None] - 2)
            inner = _step_line(inside, strong & inside.any(axis=1), offsets, ts, turn)
            if inner is None or not _background_between(profile, offsets, inner[0] + inner[1] * (ts - 0.5), outer):
                break
            line = inner
        shift, tilt = line
        start, end = a + (shift + 0.5 - tilt / 2) * normal, a + along + (shift + 0.5 + tilt / 2) * normal
        lines.append((start, (end - start) / max(float(np.linalg.norm(end - start)), 1e-6)))
    refined = sides_meet(lines)
    if refined is None or np.abs(refined - quad).max() > 2 * reach:
        return quad
    return refined


def _step_line(clear: np.ndarray, rows: np.ndarray, offsets: np.ndarray, ts: np.ndarray, turn: bool) -> tuple[float, float] | None:
    """The straight line through the outermost ``clear`` step of each of the ``rows`` of a
    side's samples (``offsets`` across, at shares ``ts`` along; a row with none, at the last
    offset): its offset at the side's middle and its tilt (turned only with ``turn``, see
    :func:`_tilt`); None when fewer than 8 steps lie within 2 px of it."""
    best = clear.shape[1] - 1 - np.argmax(clear[rows][:, ::-1], axis=1)
    found, at = offsets[best], ts[rows]
    shift = float(np.median(found)) if len(found) else 0.0
    shift, tilt = _tilt(at, found, shift) if turn else (shift, 0.0)
    return (shift, tilt) if (np.abs(found - shift - tilt * (at - 0.5)) <= 2).sum() >= 8 else None


def _background_between(profile: np.ndarray, offsets: np.ndarray, inner: np.ndarray, outer: np.ndarray) -> bool:
    """Whether what lies between two lines across a side (``inner`` and ``outer``: offsets,
    one per row of ``profile``, brightness across the side at ``offsets``) is the background,
    a pattern's: at each offset between them, it changes along the side by
    :data:`PATTERN_LEAST` at least (its spread over the rows; the median over the offsets), half as much as what lies just beyond ``outer`` at least, and twice as much
    as what lies just inside ``inner`` (the card's paper) at least. A line printed along a
    card's edge is alike all along it."""

    def spread(start: float, stop: float) -> float:
        columns = profile[:, (offsets >= start) & (offsets <= stop)]
        if not columns.shape[1]:
            return float("nan")
        return float(np.median(columns.std(axis=0)))

    band = spread(float(inner.max()) + 1.5, float(outer.min()) - 0.5)
    beyond = spread(float(outer.max()) + 1.5, float(outer.max()) + 6.5)
    inside = spread(float(inner.min()) - 5.5, float(inner.min()) - 0.5)
    return bool(band >= max(PATTERN_LEAST, beyond / 2, 2 * inside))


def _levels_apart(profile: np.ndarray) -> np.ndarray:
    """For each step between two neighbouring samples of ``profile`` (rows of brightness
    across a side), how far the brightness 1-3 px before it lies from that 2-4 px after it: an
    edge's two sides differ; a thin line's (a plank's joint, a pen's stroke) are alike."""
    box = cv2.blur(profile, (3, 1), borderType=cv2.BORDER_REPLICATE)
    at = np.arange(profile.shape[1] - 1)
    last = profile.shape[1] - 1
    return np.abs(box[:, np.minimum(at + 3, last)] - box[:, np.maximum(at - 1, 0)])


def _tilt(at: np.ndarray, found: np.ndarray, shift: float) -> tuple[float, float]:
    """The straight line through the edge steps ``found`` at ``at`` (shares along a side):
    its offset at the side's middle and how far it moves from one end of the side to the
    other (px), first the median of the slopes between every two steps (a step or two on
    something else beside the card, a thing lying against its side, do not turn it), then
    fitted twice to the steps within 2 px of the line; the median ``shift`` and no tilt when
    there are too few."""
    if len(found) < 8 or np.ptp(at) < 0.3:
        return shift, 0.0
    i, j = np.triu_indices(len(found), 1)
    apart = at[j] - at[i]
    tilt = float(np.median((found[j] - found[i])[apart > 0.1] / apart[apart > 0.1]))
    middle = float(np.median(found - tilt * (at - 0.5)))
    for _ in range(2):
        near = np.abs(found - middle - tilt * (at - 0.5)) <= 2
        if near.sum() < 8 or np.ptp(at[near]) < 0.3:
            return shift, 0.0
        tilt, middle = (float(v) for v in np.polyfit(at[near] - 0.5, found[near], 1))
    return middle, tilt


def sides_meet(lines) -> np.ndarray | None:
    """The four corners where four sides meet, each side a (point, direction) pair, in order
    round the outline (corner ``i`` is where side ``i - 1`` meets side ``i``); None when two
    neighbouring sides are parallel."""
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        matrix = np.array([d1, -d2]).T
        if abs(np.linalg.det(matrix)) < 1e-3:
            return None
        corners.append(p1 + np.linalg.solve(matrix, p2 - p1)[0] * d1)
    return np.float32(corners)


def true_to_size(quad: np.ndarray, image_to_table: np.ndarray, sizes=CARD_SIZES_MM) -> np.ndarray:
    """``quad`` (frame px) made a card of the nearest of the card ``sizes`` (mm) on the table,
    about the same centre and along the same long axis: an outline found a pixel or two
    inside the card all round (a dark line printed along its edge) or outside it is as
    far off on either side, and the card's size is known. An outline no card's size within
    :data:`TRUE_TO` stays as it is."""
    table = _on_table(quad, image_to_table)
    sides = np.roll(table, -1, axis=0) - table
    lengths = np.linalg.norm(sides, axis=1)
    first = int(lengths[1] + lengths[3] > lengths[0] + lengths[2])  # 0: sides 0 and 2 are the long ones
    along = sides[first] - sides[first + 2]
    along /= max(float(np.linalg.norm(along)), 1e-6)
    across = _quarter(along)
    short, long = _short_long(table)
    size = min(sizes, key=lambda s: abs(s[0] - short) + abs(s[1] - long))
    if abs(size[0] - short) > TRUE_TO * size[0] or abs(size[1] - long) > TRUE_TO * size[1]:
        return quad
    half_long, half_short = along * size[1] / 2, across * size[0] / 2
    centre = table.mean(axis=0)
    card = np.float32([centre - half_long - half_short, centre + half_long - half_short,
                       centre + half_long + half_short, centre - half_long + half_short])
    return cv2.perspectiveTransform(card.reshape(-1, 1, 2), np.linalg.inv(image_to_table)).reshape(4, 2)


def fit_cards(contour: np.ndarray, image_to_table: np.ndarray, sizes=CARD_SIZES_MM,
              support: tuple[np.ndarray, tuple[int, int]] | None = None, *, ends: bool = False) -> list[np.ndarray]:
    """The cards making up a patch (``contour``, frame px), each as four corners in the frame;
    [] when the patch is not made of whole cards.

    On the table (``image_to_table``: frame px to mm) the patch's outline is simplified to
    straight sides. Where two long sides meet square (a rounded corner's short chamfer between
    them allowed), a card may lie with that corner: each of the card ``sizes`` (mm), either way
    round, along the two sides. A card that lies inside the ``support`` (a mask of everything
    new and of the cards already read, and its top-left corner in the frame; default the patch
    itself) is a candidate: where a card lies on a card already read, its white on the white
    below is not in the patch, but the card below is in the support. Candidates of one size
    found at two corners of one card are one card, named by more corners and placed by their
    mean. The best candidates (most corners, then covering most of the patch, then the larger
    size) are taken while they overlap little, until they cover the patch. With ``ends``, what
    lies between the cards taken counts as covered: a fanned hand laid at once is fitted at its
    two ends alone (the cards between show a strip each, and no two square corners), and the
    card on top is one of them (for a deck whose corners name no card alone, the one card of
    such a hand that can be named)."""
    table = _on_table(contour, image_to_table)
    polygon = cv2.approxPolyDP(table.reshape(-1, 1, 2), 2.5, True).reshape(-1, 2)
    if len(polygon) < 4:
        return []
    if _signed_area(polygon) < 0:
        polygon = polygon[::-1]
    origin, patch, room = _patch_and_room(table, image_to_table, sizes, support)
    candidates: list[list] = []  # [card, size, corners naming it, share of the patch it covers]
    squares = list(_square_corners(polygon))
    for corner, along, across, far in squares:
        # How far the patch's two sides run from the corner, and whether it turns square where
        # each ends (a card reaching past that lies partly outside it: a card of another size).
        runs = [float(np.linalg.norm(end - corner)) for end in far]
        shut = [any(np.linalg.norm(other[0] - end) <= CHAMFER for other in squares) for end in far]
        for short, long in sizes:
            ways = []
            for a, b in ((short, long), (long, short)):
                card = np.float32([corner, corner + a * along, corner + a * along + b * across, corner + b * across])
                shown = all(run >= SIDES_SHOWN * side and not (closed and side > run + OUTRUN_MM)
                            for run, side, closed in zip(runs, (a, b), shut))
                if share_inside(card - origin, room) < INSIDE and not shown:
                    continue
                ways.append((card, runs[0] > a + OUTRUN_MM or runs[1] > b + OUTRUN_MM))
            if len(ways) == 2 and ways[0][1] != ways[1][1]:
                # A straight side of the patch running on past the card's corner one way round
                # and not the other: the far end of a card lost against a light table, another
                # card's print making up the share of the way round it runs past.
                ways = [way for way in ways if not way[1]]
            for card, _ in ways:
                same = next((c for c in candidates if c[1] == (short, long) and _apart(c[0], card) < SAME_CARD_MM), None)
                if same is None:
                    candidates.append([card, (short, long), 1, 0.0])
                    continue
                # Placed by all its corners: the mean of the cards fitted at each.
                matched = card[[int(np.argmin(np.linalg.norm(card - v, axis=1))) for v in same[0]]]
                same[0] = (same[0] * same[2] + matched) / (same[2] + 1)
                same[2] += 1
    for candidate in candidates:
        candidate[3] = _share(patch, quad_mask(patch.shape, candidate[0] - origin))
    candidates.sort(key=lambda c: (-c[2], -c[3], -c[1][0]))
    chosen: list[np.ndarray] = []
    covered = np.zeros_like(patch)
    for card, size, *_ in candidates:
        mask = quad_mask(patch.shape, card - origin)
        if (mask & covered).sum() > 0.5 * mask.sum() and not (
                ends and len(chosen) == 1 and size == candidates[0][1] and _fan_ends(chosen[0], card, origin, patch)):
            continue  # (a card of another size at a corner of one taken is another fit of it)
        chosen.append(card)
        covered |= mask
    if ends and chosen:
        covered |= _hull(chosen, origin, patch.shape)
    if not chosen or (covered & patch).sum() < COVERED * patch.sum():
        return []
    to_image = np.linalg.inv(image_to_table)
    return [cv2.perspectiveTransform(card.reshape(-1, 1, 2), to_image).reshape(4, 2) for card in chosen]


def _fan_ends(one: np.ndarray, other: np.ndarray, origin: np.ndarray, patch: np.ndarray) -> bool:
    """Whether two cards (mm) overlapping by more than half are the two ends of a tight fan: they
    lie nearly the same way round (within :data:`FAN_SPREAD` degrees; the other way round at one
    corner is another fit of one card), together cover the ``patch`` (its canvas's ``origin``),
    what lies between them counted (see :func:`fit_cards`), and one of them has a corner in
    view beside the other (:func:`_corner_beside`): the card below shows its index there. Two
    fits of one card, a few millimetres and degrees apart, each hide every corner of the other,
    and two cards cannot each lie on the other."""
    long_sides = [card[2] - card[1] if np.linalg.norm(card[2] - card[1]) > np.linalg.norm(card[1] - card[0])
                  else card[1] - card[0] for card in (one, other)]
    cosine = abs(float(np.dot(*long_sides))) / float(np.prod([np.linalg.norm(side) for side in long_sides]))
    return cosine >= np.cos(np.radians(FAN_SPREAD)) and \
        (_hull([one, other], origin, patch.shape) & patch).sum() >= COVERED * patch.sum() and \
        (_corner_beside(one, other, origin, patch.shape) or _corner_beside(other, one, origin, patch.shape))


def _corner_beside(card: np.ndarray, other: np.ndarray, origin: np.ndarray, shape: tuple[int, int]) -> bool:
    """Whether a corner patch of ``card`` (mm; :data:`vision.faces.features.CORNER_SHARE` of its
    sides from the corner) lies beside ``other`` (mm) enough to be in view with ``other`` on it
    (hidden by under :data:`vision.faces.features.HIDDEN_MOST`), on a canvas of ``shape`` whose
    top left lies at ``origin``."""
    under = quad_mask(shape, other - origin)
    for k in range(4):
        corner, after, before = card[k], card[(k + 1) % 4] - card[k], card[(k - 1) % 4] - card[k]
        short, long = (after, before) if np.linalg.norm(after) < np.linalg.norm(before) else (before, after)
        short, long = CORNER_SHARE[0] * short, CORNER_SHARE[1] * long
        patch = np.float32([corner, corner + short, corner + short + long, corner + long])
        if share_inside(patch - origin, under) < HIDDEN_MOST:
            return True
    return False


def _hull(cards: list[np.ndarray], origin: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """The convex hull of ``cards`` (mm) filled on a canvas of ``shape`` whose top left lies at ``origin``."""
    hull = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(hull, np.round(cv2.convexHull(np.concatenate(cards) - origin)).astype(np.int32), 1)
    return hull.view(bool)


def _patch_and_room(table: np.ndarray, image_to_table: np.ndarray, sizes,
                    support: tuple[np.ndarray, tuple[int, int]] | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A patch's outline ``table`` (mm) drawn on a canvas of mm reaching a card's length beyond
    it every way (a card fitted or guessed at a corner stays on it): the canvas's origin (mm),
    the patch filled, and the room a card found there may lie in, the patch and the
    ``support`` (a mask in the frame and its top-left corner, see :func:`fit_cards`) filled."""
    reach = max(max(size) for size in sizes) + 2
    origin = table.min(axis=0) - reach
    canvas = tuple(int(v) for v in np.ceil(table.max(axis=0) - origin + reach))
    patch = np.zeros((canvas[1], canvas[0]), np.uint8)
    cv2.fillPoly(patch, [np.round(table - origin).astype(np.int32)], 1)
    patch = patch.view(bool)
    if support is None:
        return origin, patch, patch
    mask, (x0, y0) = support
    shift = np.array([[1, 0, -origin[0]], [0, 1, -origin[1]], [0, 0, 1]]) @ image_to_table @ \
        np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]])
    return origin, patch, filled(cv2.warpPerspective(mask.astype(np.uint8), shift, canvas, flags=cv2.INTER_NEAREST).view(bool) | patch)


def shown_corners(contour: np.ndarray, image_to_table: np.ndarray, sizes=CARD_SIZES_MM,
                  support: tuple[np.ndarray, tuple[int, int]] | None = None,
                  edges: list[np.ndarray] = ()) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, bool]]:
    """The cards of a patch (``contour``, frame px) that show one corner only, each as its four
    corners in the frame, the one that shows, how far the side running from it shows
    (:func:`_shown_for`; a fanned hand: of each card but the top one, a strip by one side
    shows, with a short stretch of its end side, up to the next card's edge; a card
    overlapped by another), and whether it was guessed at a side's edge (see below: its
    direction is then known to a degree, not by a few millimetres of outline).

    On the table (``image_to_table``: frame px to mm) the patch's outline is simplified finely
    (a fan's staircase of card ends is a few millimetres high); each straight stretch of it at
    least :data:`SHOWN_SIDE_MM` long may be a card's side running from a corner at either of its
    ends, the card lying on the patch's side of it: each of the card ``sizes`` (mm), with the
    stretch as its short side or its long side, is a candidate when it lies inside the
    ``support`` (see :func:`fit_cards`). Cards whose ends lie in line leave one straight
    stretch along them all: the straight ``edges`` inside the patch (frame px,
    :func:`vision.faces.edges_inside.straight_edges`) at least :data:`SIDE_SEEN_MM` long are
    cards' sides too, each running from a corner where its line leaves the patch, the card on
    either side of it, the side from that corner showing up to the next edge across it at most.
    Which of them is a card is for the corner's print to say (:mod:`vision.faces.matcher`):
    these are guesses, many of them no card at all."""
    table = _on_table(contour, image_to_table)
    polygon = cv2.approxPolyDP(table.reshape(-1, 1, 2), SHOWN_TRUE_MM, True).reshape(-1, 2)
    if len(polygon) < 4:
        return []
    if _signed_area(polygon) < 0:
        polygon = polygon[::-1]
    origin, patch, room = _patch_and_room(table, image_to_table, sizes, support)
    to_image = np.linalg.inv(image_to_table)
    found = []

    def guess(corner: np.ndarray, along: np.ndarray, across: np.ndarray, shows: float, sided: bool) -> None:
        """Each card of the ``sizes``, either way round, at ``corner``, its side showing
        ``shows`` mm ``along`` from there, lying ``across`` from that side, that lies in the room
        (``sided``: guessed at a side's edge)."""
        for short, long in sizes:
            for w, h in ((short, long), (long, short)):
                card = np.float32([corner, corner + w * along, corner + w * along + h * across, corner + h * across])
                if share_inside(card - origin, room) < INSIDE:
                    continue
                shown = corner + shows * along
                found.append((cv2.perspectiveTransform(card.reshape(-1, 1, 2), to_image).reshape(4, 2),
                              *cv2.perspectiveTransform(np.float32([corner, shown]).reshape(2, 1, 2), to_image).reshape(2, 2),
                              sided))

    for i in range(len(polygon)):
        a, b = polygon[i], polygon[(i + 1) % len(polygon)]
        length = float(np.linalg.norm(b - a))
        if length < SHOWN_SIDE_MM:
            continue
        inward = _quarter((b - a) / length)  # the patch lies on this side of a counter-clockwise outline
        for end, other in ((a, b), (b, a)):
            corner, along = _side_from(table, end, other, inward)
            guess(corner, along, inward if np.dot(_quarter(along), inward) >= 0 else -_quarter(along),
                  _shown_for(table, corner, along), False)
    lines = [line for line in (_on_table(edge, image_to_table) for edge in edges)
             if np.linalg.norm(line[1] - line[0]) >= SIDE_SEEN_MM and
             abs(cv2.pointPolygonTest(polygon.reshape(-1, 1, 2), tuple(float(v) for v in line.mean(axis=0)), True)) > SHOWN_OFF_MM]
    for k, (p, q) in enumerate(lines):
        down = (q - p) / np.linalg.norm(q - p)
        for start, into in ((p, down), (q, -down)):
            corner = _leaves(patch, origin, start, -into)
            if corner is None:
                continue
            # The edge stops where the corner's rounding starts: a patch cut short of the card's
            # end (its top as light as a pale cloth) leaves the corner farther on.
            rounded = (start - CORNER_ROUND_MM * into).astype(np.float32)
            for at in [corner] + ([rounded] if float(np.dot(corner - rounded, into)) > SHOWN_OFF_MM else []):
                for along in (_quarter(into), -_quarter(into)):
                    shows = min([_shown_for(table, at, along),
                                 *(t for t in (_crossing(at, along, other) for other in lines[:k] + lines[k + 1:]) if t is not None)])
                    guess(at, along, into, shows, True)
    return found


def _leaves(patch: np.ndarray, origin: np.ndarray, start: np.ndarray, out: np.ndarray) -> np.ndarray | None:
    """Where the line from ``start`` (mm, inside the patch) running ``out`` leaves the ``patch``
    (a mask of mm from ``origin``), within :data:`LEAVES_MM`: a card's corner, its side's edge
    having stopped short of it where it is rounded, or where the card below is as white."""
    steps = start + np.arange(-1.0, LEAVES_MM, 0.25)[:, None] * out
    cells = np.round(steps - origin).astype(int)
    h, w = patch.shape
    inside = (cells[:, 0] >= 0) & (cells[:, 0] < w) & (cells[:, 1] >= 0) & (cells[:, 1] < h)
    inside[inside] = patch[cells[inside, 1], cells[inside, 0]]
    if not inside[0] or inside.all():
        return None   # not from inside, or the patch goes on: no corner here
    return steps[int(np.argmin(inside)) - 1].astype(np.float32)


def _crossing(corner: np.ndarray, along: np.ndarray, edge: np.ndarray) -> float | None:
    """How far (mm) from ``corner`` along ``along`` the line of ``edge`` (two ends, mm) crosses,
    when it does so ahead, within :data:`LEAVES_MM` of the edge's ends: the side of the next
    card of a fan lying on this one."""
    length = float(np.linalg.norm(edge[1] - edge[0]))
    down = (edge[1] - edge[0]) / length
    facing = float(np.dot(_quarter(down), along))
    if abs(facing) < 1e-6:
        return None
    t = float(np.dot(_quarter(down), edge[0] - corner)) / facing      # along the side to the edge's line
    s = float(np.dot(corner + t * along - edge[0], down))             # and along the edge there
    return t if t > 0 and -LEAVES_MM <= s <= length + LEAVES_MM else None


def _side_from(table: np.ndarray, corner: np.ndarray, other: np.ndarray, inward: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where a card's corner lies, and the unit direction of its side, for a straight stretch
    of outline ``table`` (mm) running from near ``corner`` towards ``other``, the card lying
    ``inward`` of it. The side's line is fitted to the outline's points along the stretch
    near the corner alone (past the corner's rounding, before :data:`SHOWN_NEAR_MM`: farther
    on, a card lying on it may continue the outline almost in line); the corner is where the
    outline leaves that line, its rounding taken in: the point of the outline farthest back
    along the side among those just inside it (:data:`CORNER_ROUND_MM`)."""
    along = (other - corner) / np.linalg.norm(other - corner)
    t = (table - corner) @ along
    off = (table - corner) @ _quarter(along)
    near = min(SHOWN_NEAR_MM, float(np.linalg.norm(other - corner)))
    points = table[(np.abs(off) <= SHOWN_TRUE_MM) & (t >= CORNER_ROUND_MM) & (t <= near)]
    origin = corner.astype(np.float32)
    if len(points) >= 3:
        vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        fitted = np.float32([vx, vy])
        along = fitted if np.dot(fitted, along) >= 0 else -fitted
        origin = np.float32([x0, y0])
    t = (table - origin) @ along
    depth = (table - origin) @ (inward if np.dot(inward, _quarter(along)) >= 0 else -inward)
    start = float((corner - origin) @ along)
    rounding = (np.abs(t - start) <= CORNER_ROUND_MM) & (depth >= -SHOWN_TRUE_MM) & (depth <= CORNER_ROUND_MM)
    if rounding.any():
        start = float(t[rounding].min())
    return (origin + start * along).astype(np.float32), along.astype(np.float32)


def _shown_for(table: np.ndarray, corner: np.ndarray, along: np.ndarray) -> float:
    """How far (mm) the side running from ``corner`` along ``along`` shows: as far as the
    outline ``table`` (mm) follows its line (within :data:`SHOWN_OFF_MM`) with no gap longer than
    :data:`SHOWN_GAP_MM` from the corner on; past there it turns away, onto the card lying on it."""
    t = (table - corner) @ along
    off = np.abs((table - corner) @ _quarter(along))
    near = np.sort(t[(off <= SHOWN_OFF_MM) & (t >= 0)])
    if len(near) == 0:
        return 0.0
    gaps = np.flatnonzero(np.diff(near) > SHOWN_GAP_MM)
    return float(near[gaps[0]] if len(gaps) else near[-1])


def filled(mask: np.ndarray) -> np.ndarray:
    """``mask`` with its holes filled: the middle of a court card laid on a card, or a column of
    red pips on green felt, can look like the felt in grey, but lies within what arrived."""
    contours, _ = cv2.findContours(mask.view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    whole = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(whole, contours, -1, 1, cv2.FILLED)
    return whole.view(bool)


def _signed_area(polygon: np.ndarray) -> float:
    x, y = polygon[:, 0], polygon[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) / 2


def _apart(card: np.ndarray, other: np.ndarray) -> float:
    """How far apart two outlines of a card are: the largest difference along either axis
    between a corner of ``card`` and the corner of ``other`` nearest it. Their corners may be
    listed in any order (sorted by their coordinates, a card lying square to the axes swaps
    two of them for a tenth of a millimetre)."""
    card, other = np.asarray(card, np.float32), np.asarray(other, np.float32)
    nearest = np.linalg.norm(card[:, None] - other[None], axis=2).argmin(axis=1)
    return float(np.abs(card - other[nearest]).max())


def _square_corners(polygon: np.ndarray):
    """Each place where two long sides of ``polygon`` (counter-clockwise on the table) meet
    square and the patch lies between them: the corner (the two sides' lines crossing), the
    unit vectors along each side into the card, and the far ends of the two sides."""
    sides = [(polygon[i], polygon[(i + 1) % len(polygon)]) for i in range(len(polygon))]
    long = [i for i, (a, b) in enumerate(sides) if np.linalg.norm(b - a) >= SIDE_MM]
    for n, i in enumerate(long):
        j = long[(n + 1) % len(long)]
        between = [(k % len(sides)) for k in range(i + 1, j if j > i else j + len(sides))]
        if sum(np.linalg.norm(sides[k][1] - sides[k][0]) for k in between) > CHAMFER:
            continue
        (a1, b1), (a2, b2) = sides[i], sides[j]
        d1, d2 = (b1 - a1) / np.linalg.norm(b1 - a1), (b2 - a2) / np.linalg.norm(b2 - a2)
        turn = float(d1[0] * d2[1] - d1[1] * d2[0])
        if turn < np.cos(np.radians(SQUARE)):
            continue  # not square, or turning inwards (where one card meets another)
        corner = a1 + np.linalg.solve(np.array([d1, -d2]).T, a2 - a1)[0] * d1
        # The card reaches back along side 1 and on along side 2; the two made square.
        across = _quarter(d1) + d2
        across /= np.linalg.norm(across)
        along = _quarter(across)
        yield corner.astype(np.float32), along.astype(np.float32), across.astype(np.float32), (a1, b2)


def _quarter(vector: np.ndarray) -> np.ndarray:
    """``vector`` turned a quarter, the way a counter-clockwise outline turns at a corner."""
    return np.float32([-vector[1], vector[0]])


def share_inside(quad: np.ndarray, within: np.ndarray) -> float:
    """The share of the pixels inside ``quad`` (as :func:`quad_mask` draws it in a mask of
    ``within``'s shape) that are true in mask ``within``: drawn and counted in the quad's own
    box only (a patch's room is a card's length beyond it on every side, and a fan's corners
    are guessed by the hundred)."""
    points = np.round(np.asarray(quad, np.float32).reshape(-1, 2)).astype(np.int32)
    h, w = within.shape
    x0, y0 = np.clip(points.min(axis=0), 0, (w, h))
    x1, y1 = np.clip(points.max(axis=0) + 1, 0, (w, h))
    if x1 <= x0 or y1 <= y0:
        return 0.0
    part = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(part, points - np.int32([x0, y0]), 1)
    return _share(part.view(bool), within[y0:y1, x0:x1])


def _share(part: np.ndarray, within: np.ndarray) -> float:
    """The share of the true pixels of mask ``part`` that are true in ``within`` too."""
    return float((part & within).sum()) / max(float(part.sum()), 1.0)
