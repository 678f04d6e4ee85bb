"""Decoders behind one interface: a grey image in, the markers found in it out.

``zxing`` (zxing-cpp, the default for QR decks: the fastest and most accurate in DESIGN.md's
measurements), ``pyzbar`` (needs the system library libzbar0), ``opencv`` (OpenCV's QR detector,
no extra library) and ``aruco`` (OpenCV ArUco, for ArUco decks and the calibration mat).
Libraries are imported when a decoder is made, so the package imports without them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from engine.errors import InvalidInput

DECODER_NAMES = ("zxing", "pyzbar", "opencv", "aruco")


@dataclass(frozen=True, eq=False)
class Detection:
    """One marker found in an image: its ``value`` (QR text, or ArUco id) and its four
    ``corners`` in image pixels (top-left, top-right, bottom-right, bottom-left of the symbol)."""

    value: str | int
    corners: np.ndarray

    @property
    def center(self) -> tuple[float, float]:
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)

    def shifted(self, dx: float, dy: float, scale: float = 1.0) -> "Detection":
        """The same detection in the coordinates of a larger image: corners divided by ``scale``
        (for a region that was enlarged before decoding) then moved by (dx, dy)."""
        return Detection(self.value, self.corners / scale + np.array([dx, dy], dtype=np.float32))


class Decoder(Protocol):
    """Finds markers in a grey (single-channel uint8) image."""

    name: str

    def decode(self, gray: np.ndarray) -> list[Detection]: ...


class ZxingDecoder:
    """QR codes with zxing-cpp (``try_invert`` off: printed cards are dark on light)."""

    name = "zxing"

    def __init__(self) -> None:
        import zxingcpp

        self._zx = zxingcpp
        self._format = zxingcpp.BarcodeFormat.QRCode

    def decode(self, gray: np.ndarray) -> list[Detection]:
        found = []
        for result in self._zx.read_barcodes(gray, formats=self._format, try_invert=False):
            if not result.valid:
                continue
            p = result.position
            corners = np.array([(q.x, q.y) for q in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)],
                               dtype=np.float32)
            found.append(Detection(result.text, corners))
        return found


class PyzbarDecoder:
    """QR codes with pyzbar (the zbar library).

    :raises OSError: when the zbar system library is missing, saying how to install it.
    """

    name = "pyzbar"

    def __init__(self) -> None:
        try:
            from pyzbar import pyzbar
        except ImportError as err:  # pyzbar raises ImportError when libzbar0 is missing
            raise OSError(f"the pyzbar decoder needs the zbar library: sudo apt-get install libzbar0 ({err})") from None
        self._pyzbar = pyzbar
        self._symbols = [pyzbar.ZBarSymbol.QRCODE]

    def decode(self, gray: np.ndarray) -> list[Detection]:
        found = []
        for result in self._pyzbar.decode(gray, symbols=self._symbols):
            points = np.array([(p.x, p.y) for p in result.polygon], dtype=np.float32)
            if len(points) != 4:
                points = _box_corners(points)
            found.append(Detection(result.data.decode("utf-8", "replace"), points))
        return found


class OpenCvQrDecoder:
    """QR codes with OpenCV's ``QRCodeDetector`` (slow and weak on small codes; no extra library)."""

    name = "opencv"

    def __init__(self) -> None:
        import cv2

        self._detector = cv2.QRCodeDetector()

    def decode(self, gray: np.ndarray) -> list[Detection]:
        ok, texts, points, _ = self._detector.detectAndDecodeMulti(gray)
        if not ok or points is None:
            return []
        return [Detection(text, np.asarray(quad, dtype=np.float32)) for text, quad in zip(texts, points) if text]


class ArucoDecoder:
    """ArUco markers of the cardtable dictionary (``DICT_4X4_100``)."""

    name = "aruco"

    def __init__(self) -> None:
        import cv2

        from vision.markers import aruco_dictionary

        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._detector = cv2.aruco.ArucoDetector(aruco_dictionary(), params)

    def decode(self, gray: np.ndarray) -> list[Detection]:
        corners, ids, _ = self._detector.detectMarkers(gray)
        if ids is None:
            return []
        return [Detection(int(i), np.asarray(c, dtype=np.float32).reshape(4, 2)) for c, i in zip(corners, ids.ravel())]


def _box_corners(points: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.boxPoints(cv2.minAreaRect(points)).astype(np.float32)


_DECODERS = {"zxing": ZxingDecoder, "pyzbar": PyzbarDecoder, "opencv": OpenCvQrDecoder, "aruco": ArucoDecoder}


def make_decoder(name: str) -> Decoder:
    """The decoder called ``name`` (zxing, pyzbar, opencv, aruco).

    :raises InvalidInput: for an unknown name, listing the choices.
    :raises OSError: when the decoder's library is not installed.
    """
    try:
        cls = _DECODERS[name]
    except KeyError:
        raise InvalidInput(f"no decoder called {name!r}: choose one of {', '.join(DECODER_NAMES)}") from None
    return cls()
