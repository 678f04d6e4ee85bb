"""A camera started on a table with cards on it (the Pi restarted mid-game) learns them as
``present`` (not ``placed``) and follows them from then on like any other card: removals by
evidence, moves as one event. Real rendering on wood and felt, webcam JPEG, real decoder."""

import pytest

from vision_scenes import HARD, Table, kinds
from vision.sim.script import Place, parse_script
from vision.sim.synthetic import Effects

LAID = [Place(-5.0, "10H", "seat1"), Place(-5.0, "QS", "centre"), Place(-5.0, "4C", "seat3"),
        Place(-4.0, "7D", "centre", x=44, y=8, angle=7)]       # 7D laid partly over QS


@pytest.mark.parametrize("effects", [HARD, Effects(motion=0.02, flicker=0.04)], ids=["wood", "felt"])
def test_cards_on_the_table_when_the_camera_starts_are_present_not_placed(effects):
    # (Before: four `placed` events, which the controller refused on resume.)
    table = Table(LAID, effects=effects)
    events = kinds(table.run(1.5))
    assert sorted(events) == [("present", c, z, None) for c, z in
                              (("10H", "seat1"), ("4C", "seat3"), ("7D", "centre"), ("QS", "centre"))]


@pytest.mark.slow
def test_a_card_present_at_start_is_removed_on_evidence_and_moved_as_one_event():
    # (Before: the pickup was reported only after remove_after, 30 s.)
    table = Table(LAID + parse_script("2.0 remove 10H\n3.0 slide 4C seat4 1.2 covered"))
    events = table.run(6.0)
    assert kinds(events[4:]) == [("removed", "10H", "seat1", None), ("moved", "4C", "seat4", "seat3")]
    assert events[4][4] <= 2.25 + 0.5      # the hand that took it is clear 0.25 s after 2.0 s


@pytest.mark.slow
def test_a_hand_resting_on_a_card_present_at_start_does_not_remove_it():
    table = Table(LAID + parse_script("1.0 hand 6 over 10H still"), view=1.0)
    assert [e[0] for e in table.run(8.0)] == ["present"] * 4
