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

A decoded cell is explained when a marker accounts for it (the pipeline calls :meth:`explain`
with the card's outline), and cells nobody explains are given up after ``attempts`` tries
(:meth:`failed`), so an empty patch of felt where a card was, or a resting hand, costs a few
decodes and then nothing.
"""

from __future__ import annotations

import cv2
import numpy as np


class ChangeMap:
    """Tracks which cells of the frame changed since they were last explained.

    :param cell: side of a cell in pixels.
    :param threshold: grey-level change of a cell's mean that counts as a change.
    :param settle: seconds a cell must be still (and at least one frame) before it is decoded.
    :param attempts: decodes of an unexplained cell before it is accepted as background.
    """

    #: Decodes of an unexplained cell before it is accepted as background, by default.
    ATTEMPTS = 8

    def __init__(self, *, cell: int = 8, threshold: int = 10, settle: float = 0.05, attempts: int = ATTEMPTS) -> None:
        self.cell, self.threshold, self.settle, self.attempts = cell, threshold, settle, attempts
        self.small: np.ndarray | None = None
        self._prev: np.ndarray | None = None
        self._ref: np.ndarray | None = None
        self._moved_at: np.ndarray | None = None
        self._ref_before: np.ndarray | None = None
        self.still: np.ndarray | None = None
        self.gain = 1.0
        self._tries: np.ndarray | None = None
        self.dirty: np.ndarray | None = None
        self._kernel = np.ones((3, 3), np.uint8)
        self._pair = np.ones((2, 2), np.uint8)

    def observe(self, small: np.ndarray, now: float) -> None:
        """Take the next frame, already shrunk to cells (grey), taken at ``now`` seconds, and
        update the moving, still and dirty maps."""
        if self._ref is None or self._ref.shape != small.shape:
            # First frame: it becomes the reference, and is decoded whole once.
            self._prev, self._ref, self.small = small, small.copy(), small
            self._ref_before = small
            self._moved_at = np.full(small.shape, -np.inf, np.float32)
            self.still = np.ones(small.shape, bool)
            self._tries = np.zeros(small.shape, np.uint8)
            self.changed = np.ones(small.shape, bool)
            self.dirty = self.changed.copy()
            self.moving = np.zeros(small.shape, bool)
            return
        small = self._level(small)
        # Opening drops lone noisy cells; a hand moves whole blocks of cells.
        raw = (cv2.absdiff(small, self._prev) > self.threshold).view(np.uint8)
        moving = cv2.dilate(cv2.morphologyEx(raw, cv2.MORPH_OPEN, self._pair), self._kernel)
        self.moving = moving.view(bool)
        self._moved_at[self.moving] = now
        self.still = ~self.moving & (now - self._moved_at >= self.settle - 1e-6)
        # The same opening keeps sensor noise from making lone cells dirty on a quiet frame.
        differs = (cv2.absdiff(small, self._ref) > self.threshold).view(np.uint8)
        self.changed = cv2.morphologyEx(differs, cv2.MORPH_OPEN, self._pair).view(bool)
        self.dirty = self.changed & self.still
        self._prev, self.small = small, small
        self._ref_before = self._ref.copy()

    def _level(self, small: np.ndarray) -> np.ndarray:
        """``small`` scaled to the reference's brightness: the median ratio over a sample of
        cells (most of a frame is unchanged table, so a hand or a card does not sway it)."""
        sample, ref = small[::3, ::3], self._ref[::3, ::3]
        lit = sample > 24
        if lit.sum() < 50:
            self.gain = 1.0
            return small
        self.gain = float(np.median(ref[lit].astype(np.float32) / sample[lit]))
        if abs(self.gain - 1.0) < 0.015:
            return small
        return cv2.convertScaleAbs(small, alpha=self.gain)

    def regions(self, margin: int = 4) -> list[tuple[tuple[int, int, int, int], bool]]:
        """Boxes (x0, y0, x1, y1) in frame pixels around each patch of dirty cells, grown by
        ``margin`` cells so a marker at the edge of a patch is decoded whole, each with whether
        the patch is *busy*: something in it still moves (a hand beside a card just laid down,
        a card being slid). A busy patch is decoded too, but only markers whose cells are all
        still count (:meth:`is_still`), and a failure there is not a try (:meth:`failed`)."""
        if not self.dirty.any():
            return []
        grown = cv2.dilate(self.dirty.view(np.uint8), np.ones((2 * margin + 1, 2 * margin + 1), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
        busy = set(np.unique(labels[~self.still]).tolist())
        h, w = self.dirty.shape
        boxes = []
        for label in sorted(set(np.unique(labels[self.dirty]).tolist()) - {0}):
            x, y, bw, bh, _ = stats[label]
            boxes.append(((int(x) * self.cell, int(y) * self.cell,
                           int(min(x + bw, w)) * self.cell, int(min(y + bh, h)) * self.cell), label in busy))
        return boxes

    def cells(self, polygon: np.ndarray) -> np.ndarray:
        """A boolean cell mask of an image-pixel polygon."""
        mask = np.zeros(self.small.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(np.asarray(polygon) / self.cell).astype(np.int32), 1)
        return mask.view(bool)

    def reference(self, cells: np.ndarray) -> np.ndarray:
        """What the cells (flat indices) showed when they were last explained before this frame
        (a card read this frame explains its surroundings, which may hold a neighbour just laid)."""
        return self._ref_before.ravel()[cells]

    def is_clean(self, mask: np.ndarray) -> bool:
        """True when no cell of ``mask`` (a boolean mask or flat cell indices) changed since it
        was explained."""
        return not self.changed.ravel()[mask.ravel() if mask.dtype == bool else mask].any()

    def is_still(self, mask: np.ndarray) -> bool:
        """True when no cell of ``mask`` (a boolean mask or flat cell indices) moved in the last
        ``settle`` seconds."""
        return bool(self.still.ravel()[mask.ravel() if mask.dtype == bool else mask].all())

    def has_dirty(self, box: tuple[int, int, int, int]) -> bool:
        """True while some cell of ``box`` (frame pixels) is dirty (changed, still, unexplained)."""
        x0, y0, x1, y1 = (v // self.cell for v in box)
        return bool(self.dirty[y0:y1, x0:x1].any())

    def explain(self, mask: np.ndarray) -> None:
        """The cells of ``mask`` are accounted for: what they show now is the reference."""
        self._ref[mask] = self.small[mask]
        self._tries[mask] = 0
        self.changed[mask] = False
        self.dirty[mask] = False

    def failed(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """A decode of ``box`` (frame pixels) left its dirty cells unexplained: count a try, and
        accept cells tried ``attempts`` times as background. Returns the mask of cells given up."""
        x0, y0, x1, y1 = (v // self.cell for v in box)
        sub = np.zeros(self.dirty.shape, bool)
        sub[y0:y1, x0:x1] = self.dirty[y0:y1, x0:x1]
        self._tries[sub] += 1
        given_up = sub & (self._tries >= self.attempts)
        self.explain(given_up)
        return given_up
