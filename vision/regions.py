"""Reading one changed region of a frame harder than a full-frame decode can afford to.

Because the pipeline decodes only the small regions that changed, it can spend on each of them
what a decode of every full frame cannot: the views of a region, tried in order until the
region is explained (:meth:`RegionReader.views`), are

1. the crop itself;
2. the crop enlarged twice (QR decoders only): zxing-cpp misses codes with fewer than about
   3 pixels a module (DESIGN.md), and a camera that sees a whole table gives a card's code
   barely that; enlarging with cubic interpolation gives the decoder clean module edges;
3. the average of the crop over the frames it has stayed still (temporal integration: sensor
   noise falls with the square root of the frames), enlarged three times for QR decoders.

A region where something still moves (a hand beside a card just laid down) gets only the first
two views: averaging a moving picture would smear it.
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

Box = tuple[int, int, int, int]

#: Regions larger than this (pixels) are not enlarged: that is a whole frame, not a card.
ENLARGE_MAX_PIXELS = 400_000
#: Frames of a still region kept for the average.
STACK_DEPTH = 6


class RegionReader:
    """The views of a region to decode, and the running average of still regions.

    :param enlarge: enlarge crops (worth it for QR codes; ArUco cells are large already).
    """

    def __init__(self, *, enlarge: bool) -> None:
        self.enlarge = enlarge
        self._stacks: dict[Box, tuple[np.ndarray, int]] = {}
        self._used: set[Box] = set()

    def views(self, gray: np.ndarray, box: Box, *, still: bool) -> Iterator[tuple[np.ndarray, float]]:
        """The images to decode for the crop ``gray`` of region ``box``, best value first, each
        with the factor it was enlarged by. Lazy: stop iterating once the region is explained."""
        yield gray, 1.0
        enlarge = self.enlarge and gray.size <= ENLARGE_MAX_PIXELS
        if enlarge:
            yield cv2.resize(gray, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC), 2.0
        if not still:
            return
        total, count = self._stacks.get(box, (None, 0))
        if total is None or count >= STACK_DEPTH:
            total, count = np.zeros(gray.shape, np.float32), 0
        total += gray
        count += 1
        self._stacks[box] = (total, count)
        self._used.add(box)
        if count < 2:
            return
        mean = cv2.convertScaleAbs(total, alpha=1.0 / count)
        if enlarge:
            yield cv2.resize(mean, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC), 3.0
        else:
            yield mean, 1.0

    def end_frame(self) -> None:
        """Forget the averages of regions not read this frame (explained, or changed shape)."""
        for box in self._stacks.keys() - self._used:
            del self._stacks[box]
        self._used.clear()
