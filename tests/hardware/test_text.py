"""Fitting text into pixels: wrapping, ellipses, card labels."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from hardware.display.fonts import font
from hardware.display.text import ELLIPSIS, card_label, fit_line, short_label, width, wrap
import pytest

F = font(12)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(codec="latin-1", exclude_categories=("Cc",)), max_size=120),
       st.integers(20, 300), st.integers(1, 5))
def test_wrapped_lines_fit_and_keep_every_word_unless_cut(text, max_width, max_lines):
    lines, cut = wrap(text, F, max_width, max_lines)
    assert len(lines) <= max_lines
    assert all(width(F, line) <= max_width for line in lines)
    if not cut:
        assert "".join(lines).replace(" ", "") == "".join(text.split())
    else:
        assert lines == [] or lines[-1].endswith(ELLIPSIS)


def test_long_prompt_wraps_at_word_boundaries():
    lines, cut = wrap("Seat 1, eldest hand: stand or beg the dealer for a new trump", F, 120)
    assert not cut and len(lines) >= 3
    assert all(not line.startswith(" ") for line in lines)


def test_fit_line_cuts_with_an_ellipsis():
    assert fit_line("Ann", F, 200) == ("Ann", False)
    line, cut = fit_line("partner of Bernadette", F, 60)
    assert cut and line.endswith(ELLIPSIS) and width(F, line) <= 60


def test_card_labels():
    assert card_label("10H", True) == ("10♥", True)
    assert card_label("qs", True) == ("Q♠", False)
    assert card_label("TD", False) == ("10D", True)
    assert card_label("V2R", True) == ("V2R", False)     # not a standard card: kept as it is


def test_short_label_keeps_the_numbers():
    assert short_label("Count 23") == "23:"
    assert short_label("Starter") == ""
