"""The synthetic camera's script language."""

import pytest
from hypothesis import given, strategies as st

from engine.errors import InvalidInput
from vision.sim.script import Hand, Place, Remove, Slide, parse_script


def test_a_script_reads_every_move_in_time_order():
    moves = parse_script("""
        # a trick
        2.0 hand 2 over 10H
        0.5 place 10h seat1 angle=5 x=10 y=-20
        4.5 slide 10H centre 0.4
        6 remove 10H
    """)
    assert moves == [Place(0.5, "10H", "seat1", 10.0, -20.0, 5.0), Hand(2.0, 2.0, "10H"),
                     Slide(4.5, "10H", "centre", 0.4), Remove(6.0, "10H")]


@pytest.mark.parametrize("line", ["place 10H seat1", "1 fly 10H", "x place 10H seat1", "1 place 10H seat1 z=3",
                                  "1 hand 2 under 10H", "-1 remove 10H", "nan remove 10H"])
def test_bad_lines_are_refused_naming_the_line(line):
    with pytest.raises(InvalidInput, match="script line|cannot read"):
        parse_script(line)


@given(st.text(max_size=80))
def test_any_text_parses_or_raises_invalid_input(text):
    try:
        parse_script(text)
    except InvalidInput:
        pass


def test_cards_lying_before_the_camera_starts_and_covered_slides_to_a_place():
    moves = parse_script("before place 9C centre x=5 y=6\n1 slide 9C seat4 1.5 covered x=300 y=10\n3 slide 9C seat1\n"
                         "4 slide 9C seat3 covered x=0 y=-190 angle=1.5")
    assert moves == [Place(-10.0, "9C", "centre", 5.0, 6.0), Slide(1.0, "9C", "seat4", 1.5, True, 300.0, 10.0),
                     Slide(3.0, "9C", "seat1", 0.6), Slide(4.0, "9C", "seat3", 0.6, True, 0.0, -190.0, 1.5)]


@pytest.mark.parametrize("line", ["before remove 9C", "1 slide 9C seat4 covered speed=3", "1 slide 9C seat4 x=oops"])
def test_bad_before_and_slide_lines_are_refused_naming_the_line(line):
    with pytest.raises(InvalidInput, match="script line|cannot read|before the camera"):
        parse_script(line)
