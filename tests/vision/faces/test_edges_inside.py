"""The straight edges inside a patch of cards (vision.faces.edges_inside): a card's side over the
card below is found as one edge, the two sides of its printed line and its pieces taken together;
whatever the picture and the patch, an edge lies in the patch's box."""

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.faces.edges_inside import straight_edges


def _card(image: np.ndarray, corners: np.ndarray) -> None:
    """A white card with a dark line printed along its edge, drawn over what lies there."""
    cv2.fillConvexPoly(image, np.round(corners).astype(np.int32), 235, cv2.LINE_AA)
    cv2.polylines(image, [np.round(corners).astype(np.int32)], True, 60, 2, cv2.LINE_AA)


def test_a_cards_side_over_the_card_below_is_one_edge_from_end_to_end():
    """Two cards on green felt, the second 30 px right of the first and turned a degree: its left
    side runs across the patch, a dark printed line with a step on either side of it. It is found
    once, along the whole of the side, within the printed line's width of where it lies."""
    grey = np.full((400, 400), 90, np.uint8)
    first = np.float32([(100, 80), (220, 80), (220, 250), (100, 250)])
    turn = cv2.getRotationMatrix2D((130.0, 80.0), -1.0, 1.0)
    second = (first + np.float32([30, 0])) @ turn[:, :2].T + turn[:, 2]
    _card(grey, first)
    _card(grey, second.astype(np.float32))
    grey = cv2.GaussianBlur(grey, (0, 0), 0.8)
    patch = (np.abs(grey.astype(int) - 90) > 28).astype(np.uint8)
    contour = max(cv2.findContours(patch, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    side = second[[0, 3]]
    along = (side[1] - side[0]) / np.linalg.norm(side[1] - side[0])
    across = np.float32([-along[1], along[0]])
    on_side = [edge for edge in straight_edges(grey, contour)   # the printed line's width off at most
               if all(abs(float(np.dot(across, end - side[0]))) <= 2.5 for end in edge)]
    assert len(on_side) == 1
    ends = sorted(float(np.dot(end - side[0], along)) for end in on_side[0])
    assert ends[0] <= 12 and ends[1] >= np.linalg.norm(side[1] - side[0]) - 12


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(1, 60), st.integers(1, 60), st.integers(-20, 300), st.integers(-20, 300))
def test_the_edges_of_any_picture_lie_in_the_patchs_box(seed, width, height, x, y):
    rng = np.random.default_rng(seed)
    grey = rng.integers(0, 256, (240, 320), np.uint8)
    for _ in range(int(rng.integers(0, 6))):
        a, b = rng.integers(0, 320, 2), rng.integers(0, 240, 2)
        cv2.line(grey, (int(a[0]), int(b[0])), (int(a[1]), int(b[1])), int(rng.integers(0, 256)), int(rng.integers(1, 4)))
    contour = np.int32([(x, y), (x + 3 * width, y), (x + 3 * width, y + 3 * height), (x, y + 3 * height)]).reshape(-1, 1, 2)
    low, high = contour.reshape(-1, 2).min(axis=0) - 3, contour.reshape(-1, 2).max(axis=0) + 3
    for edge in straight_edges(grey, contour):
        assert edge.shape == (2, 2) and edge.dtype == np.float32
        assert np.all(edge >= low - 1) and np.all(edge <= high + 1)
