"""A faces camera started on a table with cards on it (the Pi restarted mid-game) learns them as
``present`` (not ``placed``), alone or partly on one another, and follows them from then on like
any card: a card lifted is removed on evidence, a card slid is one ``moved``, and the places they
leave show the table, not a card to refuse. Real designs rendered on felt, the real recogniser."""

from __future__ import annotations

import pytest

from test_recogniser import _scene
from vision.faces.designs import DesignArt
from vision.sim.script import Place, parse_script

pytestmark = pytest.mark.slow          # faces read from rendered frames

LAID = [Place(-5.0, "10H", "seat1"), Place(-5.0, "QS", "centre"), Place(-5.0, "4C", "seat3"),
        Place(-4.0, "7D", "centre", x=44, y=8, angle=7)]       # 7D laid partly over QS
PLAY = "2.0 remove 10H\n3.0 slide 4C seat4 1.2 covered\n5.0 place 9S seat1\n6.0 remove 7D\n8.0 remove QS"


@pytest.mark.parametrize("design", ["dondorf", "nicu-white"])
def test_cards_on_the_table_when_the_camera_starts_are_present_then_followed(enrolments, design):
    # (Before: the cards lying then were never read; the place of one lifted was "I can't read
    # the card in front of Seat 1", and a card slid away came out as a new placement.)
    camera, (_, _, events, said) = _scene(enrolments[design], LAID + parse_script(PLAY), DesignArt(design), 10.0)
    seen = [(e.kind, e.card.id, e.zone, e.from_zone) for e in events]
    assert sorted(seen[:4]) == [("present", c, z, None) for c, z in
                                (("10H", "seat1"), ("4C", "seat3"), ("7D", "centre"), ("QS", "centre"))]
    assert all(e.time <= 0.5 for e in events[:4])
    assert seen[4:] == [("removed", "10H", "seat1", None), ("moved", "4C", "seat4", "seat3"),
                        ("placed", "9S", "seat1", None), ("removed", "7D", "centre", None),
                        ("removed", "QS", "centre", None)]
    assert events[4].time <= 2.25 + 0.5          # the hand that took it is clear 0.25 s after 2.0 s
    assert said == []
