"""Reading one changed region of a frame harder than a full-frame decode can afford to.

Because the pipeline decodes only the small regions that changed, it can spend on each of them
what a decode of every full frame cannot: the views of a region, tried in order until the
region is explained (:meth:`RegionReader.views`), are

1. the crop itself;
2. the crop sharpened and enlarged twice (QR decoders only): zxing-cpp misses codes with fewer
   than about 3 pixels a module (DESIGN.md), and a camera that sees a whole table gives a
   card's code barely that; an unsharp mask (against defocus) and cubic enlargement give the
   decoder clean module edges;
3. the running mean of the crop over the frames each part of it has stayed still (temporal
   integration: sensor noise falls with the square root of the frames), sharpened, and
   enlarged three times for QR decoders. The mean is kept per change cell and restarts wherever something moves, so a
   card laid beside a moving hand is averaged while the hand is not.
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

Box = tuple[int, int, int, int]

#: Regions larger than this (pixels) are read as they are: that is a whole frame, not a card.
LARGE_PIXELS = 400_000
#: Frames in the running mean; beyond, it forgets old frames at this rate.
MEAN_DEPTH = 6


class RegionReader:
    """The views of a region to decode, and the running mean of the still parts of the frame.

    :param enlarge: enlarge crops (worth it for QR codes; ArUco cells are large already).
    :param cell: the side of a change cell in pixels (see :class:`vision.changes.ChangeMap`).
    """

    def __init__(self, *, enlarge: bool, cell: int = 8) -> None:
        self.enlarge, self.cell = enlarge, cell
        self._mean: np.ndarray | None = None
        self._count: np.ndarray | None = None
        self._fresh: np.ndarray | None = None

    def begin_frame(self, shape: tuple[int, int], moving: np.ndarray) -> None:
        """Start a frame of ``shape`` (height, width): the mean restarts in the ``moving`` cells."""
        if self._mean is None or self._mean.shape != shape or self._count.shape != moving.shape:
            self._mean = np.zeros(shape, np.float32)
            self._count = np.zeros(moving.shape, np.uint8)
        self._count[moving] = 0
        self._fresh = np.ones(moving.shape, bool)

    def views(self, gray: np.ndarray, box: Box, *, average: bool = True) -> Iterator[tuple[np.ndarray, float]]:
        """The images to decode for the crop ``gray`` of region ``box`` of this frame, best value
        first, each with the factor it was enlarged by; without ``average``, only the crop views
        (for a region where something moves, the cheap views only). Lazy: stop once the region
        is explained."""
        yield gray, 1.0
        if gray.size > LARGE_PIXELS:
            return
        if self.enlarge:
            # Sharpened before it is enlarged, as the mean is: the same edges for a quarter of
            # the pixels to blur (the blur of the enlarged crop was most of a region's read).
            yield cv2.resize(_sharpen(gray, 1.0), None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC), 2.0
        if not average:
            return
        mean, count = self._accumulate(gray, box)
        if count < 2:
            return
        image = _sharpen(cv2.convertScaleAbs(mean), 1.0)
        if self.enlarge:
            yield cv2.resize(image, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC), 3.0
        else:
            yield image, 1.0

    def _accumulate(self, gray: np.ndarray, box: Box) -> tuple[np.ndarray, int]:
        """Add this frame's crop to the running mean (once a frame per cell); return the mean of
        the box and the most frames any of its cells has."""
        x0, y0, x1, y1 = box
        c = self.cell
        cy0, cx0 = min(y0 // c, self._count.shape[0] - 1), min(x0 // c, self._count.shape[1] - 1)
        cy1, cx1 = max(cy0 + 1, min(-(-y1 // c), self._count.shape[0])), max(cx0 + 1, min(-(-x1 // c), self._count.shape[1]))
        count, fresh = self._count[cy0:cy1, cx0:cx1], self._fresh[cy0:cy1, cx0:cx1]
        count[fresh] = np.minimum(count[fresh] + 1, MEAN_DEPTH)
        weight = np.where(fresh, 1.0 / np.maximum(count, 1), 0.0).astype(np.float32)
        fresh[:] = False
        # Cell weights spread over the pixels of the box (which need not lie on the cell grid).
        pixels = np.repeat(np.repeat(weight, c, axis=0), c, axis=1)
        pixels = pixels[y0 - cy0 * c:y1 - cy0 * c, x0 - cx0 * c:x1 - cx0 * c]
        mean = self._mean[y0:y1, x0:x1]
        h, w = mean.shape
        if pixels.shape != (h, w):  # a box past the last whole cell: edge pixels take the edge weight
            pixels = cv2.copyMakeBorder(pixels, 0, h - pixels.shape[0], 0, w - pixels.shape[1], cv2.BORDER_REPLICATE)
        mean += (gray.astype(np.float32) - mean) * pixels
        return mean, int(count.max())


def _sharpen(image: np.ndarray, sigma: float) -> np.ndarray:
    """An unsharp mask: the image plus its difference from a blur of ``sigma`` pixels."""
    return cv2.addWeighted(image, 2.0, cv2.GaussianBlur(image, (0, 0), sigma), -1.0, 0)
