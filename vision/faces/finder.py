"""Card outlines in a changed region of a frame.

What is there now and was not on the empty table (:class:`Backdrop`: the first frame the
pipeline saw, before any card), limited to the cells the change map found dirty (changed since
they were last explained), is what just arrived: a card laid on the table, or on top of cards
already there (the newest card lies on top, so it shows whole). Each such patch that is shaped
like a card (a rectangle of a card's proportions, filling its outline) is one card. Patches of
another shape (a hand, two cards arriving together as one blob) are left for a later frame.
"""

from __future__ import annotations

import cv2
import numpy as np

Box = tuple[int, int, int, int]

#: Grey levels a pixel must differ from the empty table by to be part of something new.
DIFFERENCE = 28
#: Long side over short side of a card outline: poker 88/63 = 1.40, bridge 88/57 = 1.54.
ASPECT = (1.2, 1.75)
#: Share of its outline rectangle a card's patch fills (rounded corners, a little blur).
FILL = 0.88
#: Smallest card, in pixels of the frame.
MIN_AREA = 1500


class Backdrop:
    """The empty table at full resolution (grey), taken from the first frame."""

    def __init__(self) -> None:
        self.grey: np.ndarray | None = None

    def ready(self, grey: np.ndarray) -> bool:
        """Take ``grey`` as the empty table if there is none of its size yet; True when one
        was already there (so this frame can be compared with it)."""
        if self.grey is not None and self.grey.shape == grey.shape:
            return True
        self.grey = cv2.GaussianBlur(grey, (3, 3), 0)
        return False


def new_patches(grey: np.ndarray, empty: np.ndarray, dirty: np.ndarray) -> np.ndarray:
    """The mask of pixels of crop ``grey`` that differ from the ``empty`` table crop and lie in
    ``dirty`` (a mask of the same size)."""
    diff = cv2.absdiff(cv2.GaussianBlur(grey, (3, 3), 0), empty) > DIFFERENCE
    mask = (diff & dirty).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def card_outlines(mask: np.ndarray, *, min_area: float = MIN_AREA) -> list[np.ndarray]:
    """The card-shaped patches of ``mask``, each as four corner points (crop pixels)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quads = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area:
            continue
        quad = _quad(contour)
        sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
        short, long = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
        if min(short, long) < 1:
            continue
        if ASPECT[0] <= max(short, long) / min(short, long) <= ASPECT[1] and \
                area >= FILL * cv2.contourArea(quad):
            quads.append(quad)
    return quads


def _quad(contour: np.ndarray) -> np.ndarray:
    """The four corners of a card's patch: its hull simplified to four points when it has four
    clear corners (the outline in perspective), else its smallest enclosing rectangle."""
    hull = cv2.convexHull(contour)
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
    if len(approx) == 4:
        return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)


def refine_quad(grey: np.ndarray, quad: np.ndarray, reach: int = 8) -> np.ndarray:
    """``quad`` moved onto the card's real edges in ``grey`` (same coordinates): each side is
    sampled across, up to ``reach`` px either way, for where the brightness steps most, and
    moved by the median of those steps (a side with no clear step stays); the four sides meet
    at the new corners. The patch a change map
    gives is a few pixels off where a card lies on a card of the same white."""
    quad = np.asarray(quad, np.float32)
    centre = quad.mean(axis=0)
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        along = b - a
        normal = np.float32([along[1], -along[0]]) / max(float(np.linalg.norm(along)), 1e-6)
        if np.dot(normal, (a + b) / 2 - centre) < 0:
            normal = -normal  # pointing out of the card
        ts = np.linspace(0.15, 0.85, 14, dtype=np.float32)
        points = a[None, :] + ts[:, None] * along[None, :]
        xs = points[:, 0:1] + offsets[None, :] * normal[0]
        ys = points[:, 1:2] + offsets[None, :] * normal[1]
        profile = cv2.remap(grey, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        step = np.abs(np.diff(cv2.GaussianBlur(profile, (3, 1), 0), axis=1))
        best = step.argmax(axis=1)
        strong = step.max(axis=1) >= 12
        if strong.sum() < 5:  # no clear edge (white on white): keep this side where it was
            lines.append((a, along / max(float(np.linalg.norm(along)), 1e-6)))
            continue
        shift = float(np.median(offsets[best[strong]])) + 0.5
        lines.append((a + shift * normal, along / max(float(np.linalg.norm(along)), 1e-6)))
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        matrix = np.array([d1, -d2]).T
        if abs(np.linalg.det(matrix)) < 1e-3:
            return quad
        s = np.linalg.solve(matrix, p2 - p1)[0]
        corners.append(p1 + s * d1)
    refined = np.float32(corners)
    if np.abs(refined - quad).max() > 2 * reach:
        return quad
    return refined
