"""Camera frames decoded only as far as the pipeline asks: grey where grey serves, colour on demand.

A 1080p MJPG frame costs several times more to decode in colour than in grey, and a JPEG decoded
at an eighth of its size (libjpeg's DCT scaling) costs a fraction of either; the change map only
needs that eighth. So a :class:`Frame` holds what the source gave (JPEG bytes, a grey array, a
BGR array, or a Pi camera's YUV buffer) and decodes lazily, caching each result:

- :meth:`Frame.small` the frame shrunk by a cell size (for :mod:`vision.changes`);
- :meth:`Frame.grey` the whole frame in grey, :meth:`Frame.grey_region` one region of it (decoders);
- :meth:`Frame.colour` one region in colour (BGR), for whatever needs colour (face recognition).

A JPEG's declared size is read from its header first, so a file that claims 60000 x 60000
pixels, an empty file or bytes that are not a JPEG are refused with :class:`BadFrame` before any
decode.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from engine.errors import InvalidInput

Box = tuple[int, int, int, int]

#: The largest frame accepted (pixels): far above any camera's, far below what exhausts memory.
MAX_PIXELS = 40_000_000
#: libjpeg scales a decode by these factors for free (the IMREAD_REDUCED_* flags).
_REDUCED = {2: cv2.IMREAD_REDUCED_GRAYSCALE_2, 4: cv2.IMREAD_REDUCED_GRAYSCALE_4,
            8: cv2.IMREAD_REDUCED_GRAYSCALE_8}


class BadFrame(InvalidInput):
    """A frame that cannot be used (not an image, empty, absurdly large, another size): the
    caller counts it and goes on with the next one."""


def jpeg_size(data: bytes) -> tuple[int, int]:
    """(width, height) declared by a JPEG's start-of-frame header.

    :raises BadFrame: when the bytes are not a JPEG or declare no usable size.
    """
    if len(data) < 4 or data[:2] != b"\xff\xd8":
        raise BadFrame("not a JPEG image" if data else "an empty file")
    i = 2
    while i + 9 <= len(data):
        if data[i] != 0xFF:
            raise BadFrame("a damaged JPEG image")
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = int.from_bytes(data[i + 5:i + 7], "big"), int.from_bytes(data[i + 7:i + 9], "big")
            return check_size(width, height)
        i += 2 + length
    raise BadFrame("a JPEG image without a size (cut short?)")


def check_size(width: int, height: int) -> tuple[int, int]:
    """The size, when it is one a camera could give.

    :raises BadFrame: for an empty or absurdly large image.
    """
    if width <= 0 or height <= 0 or width * height > MAX_PIXELS:
        raise BadFrame(f"an image of {width}x{height} pixels, which no camera gives")
    return width, height


class Frame:
    """One camera frame; give exactly one of ``jpeg`` (bytes), ``grey`` (2-D uint8), ``bgr``
    (3-D uint8). ``colour`` optionally gives the BGR frame on demand (a Pi camera's YUV buffer
    converted only when asked).

    :raises BadFrame: for an array that is not an image, or JPEG bytes that are not a usable JPEG.
    """

    def __init__(self, *, jpeg: bytes | None = None, grey: np.ndarray | None = None,
                 bgr: np.ndarray | None = None, colour: Callable[[], np.ndarray] | None = None) -> None:
        self._jpeg, self._grey, self._bgr, self._colour = jpeg, grey, bgr, colour
        self._small: dict[int, np.ndarray] = {}
        #: Passes of libjpeg over the JPEG so far (at any scale).
        self.decodes = 0
        if jpeg is not None:
            self.size = jpeg_size(jpeg)
            return
        array = grey if grey is not None else bgr
        shape = (2,) if grey is not None else (3, 3)
        if not isinstance(array, np.ndarray) or array.dtype != np.uint8 or (array.ndim, *array.shape[2:]) != shape:
            raise BadFrame("a frame that is not an 8-bit grey or colour image")
        self.size = check_size(array.shape[1], array.shape[0])

    @classmethod
    def of(cls, frame: "Frame | np.ndarray") -> "Frame":
        """``frame`` itself, or a BGR or grey array wrapped as a frame."""
        if isinstance(frame, Frame):
            return frame
        if isinstance(frame, np.ndarray) and frame.ndim == 2:
            return cls(grey=frame)
        return cls(bgr=frame)

    @property
    def shape(self) -> tuple[int, int]:
        """(height, width), as a numpy array's shape begins."""
        return self.size[1], self.size[0]

    @property
    def whole(self) -> bool:
        """The whole frame has been decoded (or converted) in grey, or was given so."""
        return self._grey is not None

    def grey(self) -> np.ndarray:
        """The whole frame in grey (decoded or converted once).

        :raises BadFrame: when the JPEG cannot be decoded.
        """
        if self._grey is None:
            if self._jpeg is not None:
                self._grey = self._decode(cv2.IMREAD_GRAYSCALE, self.size)
            else:
                self._grey = cv2.cvtColor(self._bgr, cv2.COLOR_BGR2GRAY)
        return self._grey

    def grey_region(self, box: Box) -> np.ndarray:
        """The region ``box`` (x0, y0, x1, y1) in grey: a colour array converts only the region."""
        x0, y0, x1, y1 = box
        if self._grey is None and self._bgr is not None:
            return cv2.cvtColor(self._bgr[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        return self.grey()[y0:y1, x0:x1]

    def colour(self, box: Box | None = None) -> np.ndarray:
        """The region ``box`` (or the whole frame) in colour, BGR; a grey-only frame gives grey
        as three equal channels.

        :raises BadFrame: when the JPEG cannot be decoded.
        """
        if self._bgr is None:
            if self._colour is not None:
                self._bgr = self._colour()
            elif self._jpeg is not None:
                self._bgr = self._decode(cv2.IMREAD_COLOR, self.size)
            else:
                self._bgr = cv2.cvtColor(self._grey, cv2.COLOR_GRAY2BGR)
        if box is None:
            return self._bgr
        x0, y0, x1, y1 = box
        return self._bgr[y0:y1, x0:x1]

    def small(self, cell: int) -> np.ndarray:
        """The frame in grey shrunk ``cell`` times (``size // cell``). A JPEG that libjpeg can
        shrink that much gives each cell's mean: decoded straight at that scale (its DCT blocks'
        means) unless it was decoded whole already, then averaged cell by cell, the same values
        within a grey level (the change map must not see a difference in how a frame was shrunk).
        Otherwise four pixels a cell are averaged (a nearest pick on twice the cell grid, then an
        area average): they keep some of a fine pattern's contrast that a cell's mean evens out
        (parts of a patterned card back that average to nearly the felt's grey)."""
        if cell not in self._small:
            w, h = self.size[0] // cell, self.size[1] // cell
            if self._jpeg is not None and cell in _REDUCED:
                if self._grey is None:
                    small = self._decode(_REDUCED[cell], (-(-self.size[0] // cell), -(-self.size[1] // cell)))[:h, :w]
                else:
                    small = cv2.resize(self._grey[:h * cell, :w * cell], (w, h), interpolation=cv2.INTER_AREA)
            else:
                # From the colour when there is one, whether or not grey was asked for first:
                # the change map sees one value for one picture.
                source = self._bgr if self._bgr is not None else self.grey()
                half = cv2.resize(source, (2 * w, 2 * h), interpolation=cv2.INTER_NEAREST)
                small = cv2.resize(half, (w, h), interpolation=cv2.INTER_AREA)
                if small.ndim == 3:
                    small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
            self._small[cell] = np.ascontiguousarray(small)
        return self._small[cell]

    def encoded(self) -> bytes:
        """The frame as JPEG bytes: the very bytes the camera sent when it sent a JPEG (so a
        recording replays exactly), else the colour (or grey) frame encoded."""
        if self._jpeg is not None:
            return self._jpeg
        image = self._grey if self._bgr is None and self._colour is None else self.colour()
        return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()

    def _decode(self, flags: int, size: tuple[int, int]) -> np.ndarray:
        self.decodes += 1
        try:
            image = cv2.imdecode(np.frombuffer(self._jpeg, np.uint8), flags)
        except cv2.error:
            image = None
        if image is None or image.shape[1] < size[0] or image.shape[0] < size[1]:
            raise BadFrame("a damaged JPEG image")
        return image
