"""Which of two overlapping cards lies on the other (vision.faces.finder.lies_on): the one whose
edge shows all round it and across the other's print; and a patch that holds no card
(vision.faces.finder.fit_cards)."""

import cv2
import numpy as np

from vision.faces.finder import fit_cards, lies_on


def _card(frame: np.ndarray, centre: tuple[float, float], degrees: float, index: str) -> np.ndarray:
    """A white card 120 x 170 px, its edge a little darker (as a card's edge and shadow show),
    with a dark border line 8 px inside, an index and big pips, drawn on ``frame`` over what
    lies there; its four corners."""
    quad = cv2.boxPoints((centre, (120, 170), degrees)).astype(np.float32)
    cv2.fillConvexPoly(frame, quad.astype(np.int32), 225)
    cv2.polylines(frame, [quad.astype(np.int32)], True, 185, 1)
    inner = cv2.boxPoints((centre, (104, 154), degrees)).astype(np.int32)
    cv2.polylines(frame, [inner], True, 60, 2)
    x, y = quad.mean(axis=0)
    cv2.putText(frame, index, (int(x) - 45, int(y) - 50), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 30, 3)
    for dx, dy in ((-25, -20), (25, -20), (-25, 40), (25, 40)):
        cv2.circle(frame, (int(x) + dx, int(y) + dy), 11, 40, -1)
    return quad


def _fan(step: float, turn: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    frame = np.clip(70 + rng.normal(0, 5, (400, 480)), 0, 255).astype(np.uint8)
    under = _card(frame, (200, 200), -turn / 2, "7")
    over = _card(frame, (200 + step, 205), turn / 2, "K")
    return cv2.GaussianBlur(frame, (3, 3), 0.8), under, over


def test_the_card_whose_edge_shows_across_the_other_lies_on_it():
    for step, turn in ((40, 6), (25, 10), (70, 3)):
        frame, under, over = _fan(step, turn)
        assert lies_on(frame, over, [under]) == [True], (step, turn)
        assert lies_on(frame, under, [over]) == [False], (step, turn)


def test_cards_apart_or_on_plain_table_are_in_no_known_order():
    frame, under, over = _fan(40, 6)
    table = np.full_like(frame, 70)
    assert lies_on(table, over, [under]) == [False] and lies_on(table, under, [over]) == [False]


def test_a_patch_of_fewer_than_four_sides_holds_no_card():
    triangle = np.int32([[100, 100], [400, 120], [250, 380]]).reshape(-1, 1, 2)
    assert fit_cards(triangle, np.eye(3) / np.float64([3, 3, 1])[:, None], ((63.0, 88.0),)) == []
