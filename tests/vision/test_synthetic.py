"""The synthetic camera's geometry and its ground truth about hands over cards."""

import numpy as np
import pytest

from engine.errors import InvalidInput
from vision.script import parse_script
from vision.synthetic import SyntheticCamera


def px_per_mm(camera):
    a, b = camera.homography @ np.array([0.0, 0.0, 1.0]), camera.homography @ np.array([100.0, 0.0, 1.0])
    return np.linalg.norm(b[:2] / b[2] - a[:2] / a[2]) / 100


def test_a_higher_camera_sees_more_table_with_fewer_pixels_a_millimetre():
    near, high = SyntheticCamera("standard", "qr"), SyntheticCamera("standard", "qr", view=1.5)
    assert px_per_mm(high) == pytest.approx(px_per_mm(near) / 1.5, rel=0.02)
    with pytest.raises(InvalidInput, match="view"):
        SyntheticCamera("standard", "qr", view=5)


def test_a_card_is_in_clear_view_once_the_hands_have_left_it():
    script = parse_script("0.5 place 10H seat1\n1.5 hand 1.0 over 10H")
    camera = SyntheticCamera("standard", "qr", script, seed=1)
    assert camera.hidden("10H", 0.6)         # the hand laying it down
    assert camera.hidden("10H", 2.0)         # the hand hovering over it
    assert not camera.hidden("10H", 1.2) and not camera.hidden("10H", 3.0)
    assert 0.6 < camera.in_clear_view("10H", 0.5) < 1.0
    assert 2.3 <= camera.in_clear_view("10H", 1.5) <= 2.6  # the hand leaves by 2.5 s
    assert camera.in_clear_view("QS", 0.0) == float("inf")  # never on the table


def test_a_card_laid_again_lies_on_top_of_the_cards_laid_since():
    """A card picked up and laid back (a value card won and bet again) is drawn over the others."""
    import zxingcpp

    from vision.synthetic import Effects

    script = parse_script("0.1 place QS seat1 x=0 y=190\n0.5 remove QS\n1.0 place 7H seat1 x=0 y=190\n"
                          "1.5 place QS seat1 x=0 y=190\n")
    camera = SyntheticCamera("standard", "qr", script, resolution="1080p", effects=Effects(hands=False, jitter=False))

    def read(t):
        return {r.text for r in zxingcpp.read_barcodes(camera.frame_at(t))}

    assert len(read(1.2)) == 1
    on_top = read(2.0)
    assert len(on_top) == 1 and on_top != read(1.2)
