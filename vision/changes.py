"""Change detection: which parts of a frame need decoding, so the pipeline never decodes the
whole frame every frame.

Frames arrive shrunk by ``cell`` (8: a 1080p frame becomes 240 x 135 cells, see
:meth:`vision.frames.Frame.small`), first scaled to the reference's brightness (a camera's
exposure flickers; a whole frame one tenth brighter is not a change). Two comparisons per frame,
both on the small image:

- against the previous frame: cells that *move* (a hand passing) are not decoded yet;
- against the *reference*, the picture as it was when each cell was last explained: cells that
  differ and have been still for ``settle`` seconds (and at least one frame) are *dirty* and get
  decoded.

The first frame has no reference to compare with: the table under whatever lies on it is
estimated (:meth:`ChangeMap._table_estimate`: what stands out from a wide median of the frame is
painted over from its surroundings), so the cards already lying there are dirty at once and
decoded region by region as hard as any card laid later, and what they hide is known well enough
to tell, later, that one was taken away.

A decoded cell is explained when a marker accounts for it (the pipeline calls :meth:`explain`
with the card's outline), or, with ``backoff`` (markers), as soon as it lies still showing the
bare table as the first frame showed it (the place a card was pushed from: nothing to read
there, :meth:`_bare_again`), and cells nobody explains are given up after ``attempts`` tries
(:meth:`failed`), so an empty patch of felt where a card was, or a resting hand, costs a few
decodes and then nothing. A still patch read in vain that still shows what it showed then is
read again only after as many frames as it has been read (``backoff``: after the first, second,
third read, one, two, three frames later), and given up when it would be if it were read in
every frame: what it shows has not changed, only the running mean of its frames
(:mod:`vision.regions`) improves, and it improves with the frames it has, not with the reads.
"""

from __future__ import annotations

import math

import cv2
import numpy as np


#: A cell of the first frame this many times ``threshold`` from the table around it is not table.
STANDS_OUT = 2
#: A patch of the first frame that stands out is something lying there only when, somewhere in it,
#: the cell means change by this many times ``threshold`` within three cells (a card's outline,
#: its print, a hand's edge: 168-235 grey levels measured on the benchmark's first frames); light
#: falling on the table (a lamp's glare) fades smoothly (17-48 there, felt and wood).
OUTLINE = 6
#: A cell this bright may be clipped by the sensor: its level says little about a change.
SATURATED = 250
#: Every this many cells across and down are sampled to level a frame to the reference's light.
LEVEL_STEP = 3
#: Frames between two fits of the light's slopes across the table (they change slowly).
REFIT_EVERY = 8
#: Cells whose light ratio is this far (in log) from the fit are a change, not light.
LEVEL_SPREAD = 0.1
#: Cells of a patch that must show something new (never read, or changed by twice the threshold
#: since it was read in vain) for it to be read again at once: a third of the smallest marker's
#: (6 x 6 cells at 2.5 pixels a module). A resting hand settling, a trembling edge, light creeping
#: change fewer; a card coming to rest, or the last of a marker coming out from under a hand, more.
NEW_CELLS = 12
#: Standard deviation (grey levels) of the cell means around a cell, at least, for the cell to
#: count as something new to read with ``backoff``: a marker's cells at rest measured 17-20 at the
#: 10th percentile (30 median) in the benchmark's 1080p scenes, felt and sensor noise 1-4, the
#: still interior of hands pushing a pile 1-3 (a tenth above 6: fingers' edges).
TEXTURE = 8


class ChangeMap:
    """Tracks which cells of the frame changed since they were last explained.

    :param cell: side of a cell in pixels.
    :param threshold: grey-level change of a cell's mean that counts as a change.
    :param settle: seconds a cell must be still (and at least one frame) before it is decoded.
    :param attempts: decodes of an unexplained cell before it is accepted as background.
    :param backoff: read a patch again only for a marker's worth of cells that show something
        new (:data:`NEW_CELLS` in blocks of 3 x 3, with a marker's texture, :data:`TEXTURE`), and
        a still patch read in vain that shows the same only after as many frames as it has been
        read (off for a recogniser whose reads must agree frame after frame: every dirty patch is
        read in every frame, as ``attempts`` allows).
    """

    #: Decodes of an unexplained cell before it is accepted as background, by default.
    ATTEMPTS = 8

    def __init__(self, *, cell: int = 8, threshold: int = 10, settle: float = 0.05, attempts: int = ATTEMPTS,
                 backoff: bool = True) -> None:
        self.cell, self.threshold, self.settle, self.attempts = cell, threshold, settle, attempts
        self.backoff = backoff
        self._frame = 0
        self.small: np.ndarray | None = None
        self._prev: np.ndarray | None = None
        self._ref: np.ndarray | None = None
        self._moved_at: np.ndarray | None = None
        self._ref_before: np.ndarray | None = None
        #: The table when the camera started: the first frame's estimate of it bare, and the first frame.
        self.start: np.ndarray | None = None
        self._painted_before: np.ndarray | None = None
        self.still: np.ndarray | None = None
        self.gain = 1.0
        self._terms: np.ndarray | None = None
        self._slopes: tuple[np.ndarray, np.ndarray] | None = None
        self._flat = True
        self._frames_levelled = 0
        self._painted: np.ndarray | None = None
        self._tries: np.ndarray | None = None
        self.dirty: np.ndarray | None = None
        self._kernel = np.ones((3, 3), np.uint8)
        self._texture: np.ndarray | None = None
        self._pair = np.ones((2, 2), np.uint8)

    def observe(self, small: np.ndarray, now: float) -> None:
        """Take the next frame, already shrunk to cells (grey), taken at ``now`` seconds, and
        update the moving, still and dirty maps."""
        if self._ref is None or self._ref.shape != small.shape:
            # First frame: the reference is the table as it would be bare; what lies on it is dirty.
            self._painted = np.zeros(small.shape, bool)
            self._prev, self._ref, self.small, self._texture = small, self._table_estimate(small), small, None
            self._ref_before = self._ref.copy()
            self._painted_before = self._painted.copy()
            self.start = np.stack([self._ref_before, small])
            self._bare = ~self._painted
            self._moved_at = np.full(small.shape, -np.inf, np.float32)
            self.still = np.ones(small.shape, bool)
            self._tries = np.zeros(small.shape, np.int32)
            self._tried, self._tried_ok = np.zeros(small.shape, np.uint8), np.zeros(small.shape, bool)
            self._tried_at = np.zeros(small.shape, np.int32)
            self._reads = np.zeros(small.shape, np.uint8)
            self._vacated = np.zeros(small.shape, bool)
            self.changed = self._differs(small)
            self.dirty = self.changed.copy()
            self.moving = np.zeros(small.shape, bool)
            self._busy = np.zeros(small.shape, bool)
            return
        self._frame += 1
        small = self._level(small)
        # Opening drops lone noisy cells; a hand moves whole blocks of cells.
        raw = self._unlike(small, self._prev)
        # (OpenCV's MORPH_OPEN with an even kernel keeps each block one cell down and to the
        # right of where it changed; the faces recogniser's reads are tuned on these cells.)
        self.moving = cv2.dilate(cv2.morphologyEx(raw, cv2.MORPH_OPEN, self._pair), self._kernel).view(bool)
        self._moved_at[self.moving] = now
        self.still = ~self.moving & (now - self._moved_at >= self.settle - 1e-6)
        self._prev, self.small, self._texture = small, small, None
        ready = self._vacated & self.still
        if ready.any():                   # a place a card left, still again: the table, or what it lay on
            self.explain(ready)
            self._vacated &= ~ready
        self.changed = self._differs(small)
        if self.backoff:
            self._bare_again()
        self.dirty = self.changed & self.still
        self._ref_before = self._ref.copy()
        self._painted_before = self._painted.copy()

    def _bare_again(self) -> None:
        """Changed cells lying still that show the bare table as the first frame showed it
        (nothing stood out there) are explained at once: the place a card was slid or lifted
        from, a resting hand's place once it has gone. No marker is there to read, and the
        pipeline follows the card that left on its own footprint."""
        candidates = self.changed & self.still & self._bare
        if candidates.any():
            self.explain(candidates & ~self._unlike(self.small, self.start[0]).view(bool))

    def _differs(self, small: np.ndarray) -> np.ndarray:
        """Cells that differ from the reference; the same opening as for motion keeps sensor
        noise from making lone cells dirty on a quiet frame."""
        return cv2.morphologyEx(self._unlike(small, self._ref), cv2.MORPH_OPEN, self._pair).view(bool)

    def denoise(self, mask: np.ndarray) -> np.ndarray:
        """The cells of ``mask`` (boolean or 0/1) in a block of 2 x 2 of them, where they are:
        lone cells that differ are sensor noise, compression or a grey level of light left over,
        not a change."""
        # An opening whose dilation mirrors its erosion (MORPH_OPEN would shift the blocks).
        blocks = cv2.erode(mask.view(np.uint8), self._pair, anchor=(0, 0), borderType=cv2.BORDER_CONSTANT, borderValue=0)
        return cv2.dilate(blocks, self._pair, anchor=(1, 1)).view(bool)

    def _unlike(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Cells (uint8 0/1) where ``a`` and ``b`` differ by more than ``threshold``, except
        where one is at the sensor's ceiling and the other nearly so: a white card in a glare
        that clips at 255 in a bright frame is no change when the exposure swings."""
        differs = cv2.absdiff(a, b) > self.threshold
        clipped = (np.maximum(a, b) >= SATURATED) & (np.minimum(a, b) >= SATURATED - 4 * self.threshold)
        return (differs & ~clipped).view(np.uint8)

    def _table_estimate(self, small: np.ndarray) -> np.ndarray:
        """The bare table under the first frame: cells that stand out from a median over a
        window several cards wide (cards, a hand) are painted over from the table around them."""
        side = 2 * (max(small.shape) // 8) + 1
        background = cv2.medianBlur(small, min(side, 255))
        standing = cv2.dilate((cv2.absdiff(small, background) > STANDS_OUT * self.threshold).view(np.uint8), self._kernel)
        # Light falling on the table (a lamp's glare) stands out as well, but it fades smoothly:
        # only a patch with an edge in it (a card's outline, a hand's) is something lying there.
        count, labels = cv2.connectedComponents(standing, connectivity=8)
        sharp = cv2.morphologyEx(small, cv2.MORPH_GRADIENT, self._kernel) > OUTLINE * self.threshold
        edged = np.zeros(count, bool)
        edged[labels[sharp & standing.view(bool)]] = True
        edged[0] = False
        standing = edged[labels].view(np.uint8)
        if not standing.any():
            return small.copy()
        self._painted = standing.view(bool)
        return cv2.inpaint(small, standing, 3, cv2.INPAINT_TELEA)

    def unmoved(self, cells: np.ndarray) -> bool:
        """True when no cell of ``cells`` (flat indices) has moved since the first frame."""
        return bool(np.isneginf(self._moved_at.ravel()[cells]).all())

    def _level(self, small: np.ndarray) -> np.ndarray:
        """``small`` scaled to the reference's light, cell by cell: the log of the ratio of the
        reference to the frame over a sample of cells is a smooth surface (a quadratic in x and
        y: an exposure that flickers is its constant, daylight moving across the room its
        slopes). The slopes change slowly and are fitted every :data:`REFIT_EVERY` frames,
        robustly (cells far from the first estimate, a hand or a card that came, are left out,
        so they stay a change); the constant is each frame's median of what the slopes leave."""
        sample, ref = small[::LEVEL_STEP, ::LEVEL_STEP], self._ref[::LEVEL_STEP, ::LEVEL_STEP]
        lit = ((sample > 24) & (ref > 24)).ravel()
        if lit.sum() < 50:
            self.gain = 1.0
            return small
        ratio = np.log(ref.ravel()[lit].astype(np.float32) / sample.ravel()[lit])
        self._frames_levelled += 1
        if self._slopes is None or self._slopes[0].shape != sample.shape or self._frames_levelled % REFIT_EVERY == 0:
            self._fit_slopes(ratio, lit, sample.shape, small.shape)
        slopes, field = self._slopes
        constant = _median(ratio - slopes.ravel()[lit])
        self.gain = math.exp(constant)
        if abs(constant) < 0.015 and self._flat:
            return small
        return cv2.convertScaleAbs(cv2.multiply(small, field, scale=self.gain, dtype=cv2.CV_32F))

    def _fit_slopes(self, ratio: np.ndarray, lit: np.ndarray, sample_shape: tuple[int, int],
                    shape: tuple[int, int]) -> None:
        """Fit the light's surface to ``ratio`` (the lit sampled cells'), keep its slopes: on
        the sample (log) and spread over every cell (as a gain)."""
        terms = self._basis(sample_shape)
        coarse = terms[lit]
        keep = np.abs(ratio - np.median(ratio)) < LEVEL_SPREAD
        fit = np.zeros(terms.shape[1], np.float32)
        for spread in (LEVEL_SPREAD, LEVEL_SPREAD / 2):
            if keep.sum() < 2 * coarse.shape[1]:
                break
            # Normal equations through OpenCV (one thread, 6 x 6): numpy's least squares costs
            # tens of milliseconds on a busy machine.
            fit = cv2.solve(coarse[keep], ratio[keep].reshape(-1, 1), flags=cv2.DECOMP_CHOLESKY | cv2.DECOMP_NORMAL)[1].ravel()
            keep = np.abs(coarse @ fit - ratio) < spread
        fit[0] = 0.0
        slopes = (terms @ fit).reshape(sample_shape)
        self._flat = float(np.abs(slopes).max()) < 0.015
        field = cv2.resize(np.exp(slopes), (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
        self._slopes = (slopes, field)

    def _basis(self, shape: tuple[int, int]) -> np.ndarray:
        """The quadratic surface's terms at each sampled cell (``shape``: the sample's)."""
        if self._terms is None or self._terms.shape[0] != shape[0] * shape[1]:
            yy, xx = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32)
            x, y = xx / shape[1] - 0.5, yy / shape[0] - 0.5
            self._terms = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1).reshape(-1, 6)
        return self._terms

    def regions(self, margin: int = 4) -> list[tuple[tuple[int, int, int, int], bool]]:
        """Boxes (x0, y0, x1, y1) in frame pixels around each patch of dirty cells, grown by
        ``margin`` cells so a marker at the edge of a patch is decoded whole, each with whether
        the patch is *busy*: something in it still moves (a hand beside a card just laid down,
        a card being slid). A busy patch is decoded too, but only markers whose cells are all
        still count (:meth:`is_still`), and a failure there is not a try (:meth:`failed`); a busy
        patch whose still cells show what they showed when it was last read in vain
        (:meth:`tried`) is left alone until something new comes to rest in it (the place a card
        was slid from, while the hand that slides it is still beside it). A still patch read in vain
        (:meth:`failed`) that shows the same is left alone for as many frames as it has been read
        (``backoff``)."""
        self._busy = np.zeros(self.dirty.shape, bool)
        if not self.dirty.any():
            return []
        grown = cv2.dilate(self.dirty.view(np.uint8), np.ones((2 * margin + 1, 2 * margin + 1), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
        # Each patch's facts as tables indexed by its label (label 0 is no patch).
        busy = self._labelled(labels, ~self.still, count)
        self._busy = busy[labels]
        solid = self._solid(self.dirty) if self.backoff else self.dirty
        spread, least = (2, NEW_CELLS) if self.backoff else (1, 1)
        fresh = solid & ~(self._tried_ok & (cv2.absdiff(self.small, self._tried) <= spread * self.threshold))
        whole = self._labelled(labels, solid, count)
        if self.backoff:
            textured = self._textured()
            fresh &= textured
            # A still patch read in vain is read again only where a marker's texture shows: the
            # rim of a card just read, a shadow, light on the felt are given up without decodes.
            whole &= self._labelled(labels, textured, count) | ~self._labelled(labels, self._reads > 0, count)
        worth = np.bincount(labels[fresh], minlength=count) >= least
        h, w = self.dirty.shape
        boxes = []
        for label in np.flatnonzero(self._labelled(labels, self.dirty, count)).tolist():
            if not worth[label] and (busy[label] or not self._due(labels == label)):
                continue
            x, y, bw, bh, _ = stats[label]
            box = (int(x) * self.cell, int(y) * self.cell, int(min(x + bw, w)) * self.cell, int(min(y + bh, h)) * self.cell)
            if not whole[label] and not busy[label]:
                self.failed(box)  # nothing a marker could be read in: a try without a read
                continue
            boxes.append((box, bool(busy[label])))
        return boxes

    @staticmethod
    def _labelled(labels: np.ndarray, mask: np.ndarray, count: int) -> np.ndarray:
        """Which of ``count`` patches (``labels``) have a cell in ``mask``, indexed by label;
        label 0, outside every patch, never."""
        has = np.zeros(count, bool)
        has[labels[mask]] = True
        has[0] = False
        return has

    def _due(self, patch: np.ndarray, ahead: int = 0) -> bool:
        """True when a still patch (a boolean cell mask), read in vain as it shows now, is due
        to be read again ``ahead`` frames from now: as many frames after its last try as it has
        been tried (always, without ``backoff``)."""
        if not self.backoff:
            return True
        cells = patch & self.dirty
        reads = int(self._reads[cells].max(initial=0))
        waited = self._frame + ahead - int(self._tried_at[cells].max(initial=0))
        # Read on the frame its tries reach ``attempts`` too, so it is given up when it would be
        # if it were read in every frame.
        return reads == 0 or waited >= reads or int(self._tries[cells].max(initial=0)) + waited >= self.attempts

    def pending(self, *, busy: bool = True) -> bool:
        """True when some dirty patch is likely to be read in the next frame (some of it never
        tried, or its back-off ends): the next frame will most likely read a region. Without
        ``busy``, only the patches where nothing moved in this frame's :meth:`regions` count."""
        dirty = self.dirty if busy else self.dirty & ~self._busy
        solid = self._solid(dirty)
        if not solid.any():
            return False
        # (A cell a busy read left, never a still read's try, is read when something new rests:
        # with ``backoff``, something with a marker's texture.)
        untried = solid & ~self._tried_ok
        tried = dirty & (self._reads > 0)
        if self.backoff:
            textured = self._textured()
            untried &= ~self._busy | textured
            tried &= textured
        # (As many new cells as make a patch worth reading at once: fewer wait, see :meth:`regions`.)
        return np.count_nonzero(untried) >= (NEW_CELLS if self.backoff else 1) or (tried.any() and self._due(tried, ahead=1))

    def _textured(self) -> np.ndarray:
        """The dirty cells whose 3 x 3 neighbourhood varies as a marker's does (:data:`TEXTURE`),
        across a block of 3 x 3 of them: a marker's modules make neighbouring cells' means differ
        by tens of grey levels all over its face; a palm resting or pushing a card, a card's
        plain face, felt differ by a few (the interior of a flat hand moving slowly lies still,
        unlike the table, frame after frame), and only along their edges by more."""
        if self._texture is None:
            cells = self.small.astype(np.float32)
            mean = cv2.blur(cells, (3, 3))
            self._texture = cv2.blur(cells * cells, (3, 3)) - mean * mean >= TEXTURE * TEXTURE
        # Dirty too, in blocks of 3 x 3: the edge of a plain thing (a hand's outline on the felt
        # or on a card) varies in a band two cells wide, half of it not dirty; a marker come to
        # rest varies across its whole face.
        return self._solid(self._texture & self.dirty)

    @property
    def quiet(self) -> bool:
        """Nothing moves, no cell is unlike its reference, no place a card left waits to be
        still: the frame showed the table as it was."""
        return not (self.moving.any() or self.changed.any() or self._vacated.any())

    def cells(self, polygon: np.ndarray) -> np.ndarray:
        """A boolean cell mask of an image-pixel polygon."""
        mask = np.zeros(self.small.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(np.asarray(polygon) / self.cell).astype(np.int32), 1)
        return mask.view(bool)

    def reference(self, cells: np.ndarray) -> np.ndarray:
        """What the cells (flat indices) showed when they were last explained before this frame
        (a card read this frame explains its surroundings, which may hold a neighbour just laid),
        as two rows, either of which may be what a card laid there since hid: the reference and,
        where that is still the first frame's estimate of the bare table (what stood out painted
        over, and nothing explained since), what the first frame showed there (a glare spot is
        the table, though it stands out; a card lying there at the start is not)."""
        before = self._ref_before.ravel()[cells]
        # Where the reference is still the first frame's estimate, the first frame itself may be
        # the table: a glare spot the estimate painted over, not yet given up.
        return np.stack([before, np.where(self._painted_before.ravel()[cells], self.start[1].ravel()[cells], before)])

    def is_clean(self, mask: np.ndarray) -> bool:
        """True when no cell of ``mask`` (a boolean mask or flat cell indices) changed since it
        was explained."""
        return not self.changed.ravel()[mask.ravel() if mask.dtype == bool else mask].any()

    def is_still(self, mask: np.ndarray) -> bool:
        """True when no cell of ``mask`` (a boolean mask or flat cell indices) moved in the last
        ``settle`` seconds."""
        return bool(self.still.ravel()[mask.ravel() if mask.dtype == bool else mask].all())

    def has_dirty(self, box: tuple[int, int, int, int], *, solid: bool = False) -> bool:
        """True while some cell of ``box`` (frame pixels) is dirty (changed, still, unexplained);
        with ``solid``, only dirty cells in a block of 3 x 3 count (a marker is larger)."""
        x0, y0, x1, y1 = (v // self.cell for v in box)
        dirty = self.dirty[y0:y1, x0:x1]
        return bool((self._solid(dirty) if solid else dirty).any())

    def _solid(self, mask: np.ndarray) -> np.ndarray:
        """The cells of ``mask`` in a block of 3 x 3 of them: a strip a cell or two wide (the
        trembling edge of a resting hand, the rim of a card just read) could hold no marker."""
        return cv2.morphologyEx(mask.view(np.uint8), cv2.MORPH_OPEN, self._kernel).view(bool)

    def explain(self, mask: np.ndarray) -> None:
        """The cells of ``mask`` are accounted for: what they show now is the reference."""
        self._ref[mask] = self.small[mask]
        self._painted[mask] = False
        self._tried_ok[mask] = False
        self._tries[mask] = 0
        self._reads[mask] = 0
        self.changed[mask] = False
        self.dirty[mask] = False

    def vacate(self, mask: np.ndarray) -> None:
        """A card left the cells of ``mask`` (it was read elsewhere): each becomes the reference
        as soon as it is still (the hand that slid the card may still pass over its old place)."""
        self._vacated |= mask

    def tried(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """A decode of ``box`` (frame pixels) left its dirty cells unexplained: remember what
        they showed (and when), so the patch is read again only when something new comes to rest
        in it, or (still) when its back-off has passed. Returns the mask of those cells."""
        sub = self._record_try(box)
        self._tried_ok |= sub
        return sub

    def _record_try(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """Remember what the dirty cells of ``box`` (frame pixels) showed when read in vain, and
        when; returns their mask."""
        sub = self._dirty_in(box)
        self._tried[sub] = self.small[sub]
        self._tried_at[sub] = self._frame
        return sub

    def _dirty_in(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """The dirty cells of ``box`` (frame pixels), as a mask of the whole map."""
        x0, y0, x1, y1 = (v // self.cell for v in box)
        sub = np.zeros(self.dirty.shape, bool)
        sub[y0:y1, x0:x1] = self.dirty[y0:y1, x0:x1]
        return sub

    def failed(self, box: tuple[int, int, int, int], held: np.ndarray | None = None) -> np.ndarray:
        """A decode of ``box`` (frame pixels) left its dirty cells unexplained: count a try (and
        the frames the back-off left it unread since the last: a patch is given up as soon as
        if it were read in every frame), and accept cells tried ``attempts`` times as
        background. A try counts for what a cell shows: a cell that shows something else than
        at its last try (by twice the threshold: a card come to rest where a glare spot or a
        printed line was read in vain) counts afresh, or the card would be given up with the
        table it hides. The cells ``held`` (a mask, or None) were not read in vain: a card was
        read there that waits for its reads to agree (a white card on white cards, its outline
        found at the last try, was given up with the table). Returns the mask of cells given up."""
        x0, y0, x1, y1 = (v // self.cell for v in box)
        afresh = self._dirty_in(box) & (self._tries > 0) & (cv2.absdiff(self.small, self._tried) > 2 * self.threshold)
        self._tries[afresh] = 0
        self._reads[afresh] = 0
        elapsed = np.where((self._reads > 0) & self.backoff, np.maximum(self._frame - self._tried_at, 1), 1)
        sub = self.tried(box) if self.backoff else self._record_try(box)
        if held is not None:
            sub &= ~held
        self._tries[sub] += elapsed[sub]
        self._reads[sub] = np.minimum(self._reads[sub] + 1, 255)
        given_up = sub & (self._tries >= self.attempts)
        if given_up.any():
            # What the first frame's estimate painted there and no card explained is the table
            # too, also the lone cells the opening kept from ever being dirty long enough, as
            # long as they show what they showed then (a card laid on a printed line since is
            # not the table, though the opening keeps its edge's cells from being dirty).
            still_so = ~self._unlike(self.small[y0:y1, x0:x1], self.start[1, y0:y1, x0:x1]).view(bool)
            given_up[y0:y1, x0:x1] |= self._painted[y0:y1, x0:x1] & ~self.dirty[y0:y1, x0:x1] & still_so
        self.explain(given_up)
        return given_up


def _median(values: np.ndarray) -> float:
    """The median of a 1-D array, as :func:`numpy.median` gives it, at a quarter of its cost
    (a partial sort of the middle two; numpy's checks and copies cost more on each frame)."""
    middle = len(values) // 2
    if len(values) % 2:
        return float(np.partition(values, middle)[middle])
    low, high = np.partition(values, (middle - 1, middle))[middle - 1:middle + 1]
    return float((low + high) / 2)
