"""The straight edges inside a patch of cards: where a card lying on others shows its side.

A fanned hand, or a row of cards dealt each on the one before, is one patch of what is new; its
outline gives the corners of the cards only where their ends step (:func:`vision.faces.finder.shown_corners`).
Cards whose ends lie in line (a row squared up, a fan turned by a degree a card) leave one
straight outline along their ends, and where each card starts along it is told by its long side
alone: an edge across the patch, the card's border or print over the card below. Those edges are
found here (OpenCV's line segment detector, the pieces of one edge, and the two sides of a
printed line, taken together) for the finder to guess corners at their ends.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Pieces of one edge: turned from each other by at most SAME_TURN degrees, their ends at most
#: SAME_LINE_PX off each other's line (the two sides of a printed line along a card's edge lie a
#: line's width apart).
SAME_TURN, SAME_LINE_PX = 2.0, 2.5
#: Pieces shorter than this (px) are left out: a digit's stroke, a pip's side.
PIECE_PX = 12.0


def straight_edges(grey: np.ndarray, contour: np.ndarray) -> list[np.ndarray]:
    """The straight edges inside the patch of ``contour`` (frame px) in frame ``grey``, each as
    its two ends (frame px, float32): the pieces the detector finds along one line, taken
    together from the first to the last (how long a card's side is, is the finder's to say)."""
    points = contour.reshape(-1, 2)
    h, w = grey.shape[:2]
    x0, y0 = np.maximum(np.floor(points.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(points.max(axis=0)).astype(int) + 3, (w, h))
    if x1 - x0 < 3 or y1 - y0 < 3:
        return []
    found = cv2.createLineSegmentDetector().detect(np.ascontiguousarray(grey[y0:y1, x0:x1]))[0]
    if found is None:
        return []
    pieces = found.reshape(-1, 2, 2) + np.float32([x0, y0])
    lengths = np.linalg.norm(pieces[:, 1] - pieces[:, 0], axis=1)
    outline = points.reshape(-1, 1, 2).astype(np.float32)
    edges: list[list] = []  # [a point on the line, its unit direction, first, last (along it)]
    for k in np.argsort(-lengths):
        if lengths[k] < PIECE_PX:
            break
        a, b = pieces[k]
        middle = (a + b) / 2
        if cv2.pointPolygonTest(outline, (float(middle[0]), float(middle[1])), False) < 0:
            continue
        direction = (b - a) / lengths[k]
        for edge in edges:
            origin, along = edge[0], edge[1]
            if abs(float(np.dot(direction, along))) >= np.cos(np.radians(SAME_TURN)) and \
                    all(abs(float(along[0] * (p - origin)[1] - along[1] * (p - origin)[0])) <= SAME_LINE_PX for p in (a, b)):
                ts = [float(np.dot(p - origin, along)) for p in (a, b)]
                edge[2], edge[3] = min(edge[2], *ts), max(edge[3], *ts)
                break
        else:
            edges.append([middle, direction, -lengths[k] / 2, lengths[k] / 2])
    return [np.float32([origin + first * along, origin + last * along]) for origin, along, first, last in edges]
