"""A card is followed, not re-identified: slid under a hand for 1-2 s, 300-1,200 px, across
zones, off another card or into a pile pushed together, it is one ``moved``; lifted, it is one
``removed`` within half a second of its place and the hand being clear. Real rendering on wood
with flicker and motion blur, webcam JPEG, real decoder, product defaults."""

import pytest

from vision_scenes import Table, kinds
from vision.sim.script import parse_script
from vision.sim.synthetic import Effects


@pytest.mark.slow
def test_a_long_slide_across_zones_under_a_covering_hand_is_one_move():
    # (Before: removed from seat2 two seconds into the slide, placed in seat4 when it landed.)
    table = Table(parse_script("0.3 place 10H seat2\n1.5 slide 10H seat4 2.4 covered"))
    assert kinds(table.run(6.0)) == [("placed", "10H", "seat2", None), ("moved", "10H", "seat4", "seat2")]


@pytest.mark.slow
def test_a_slide_off_another_card_across_the_table_under_the_hand_is_one_move():
    table = Table(parse_script("0.3 place 10H centre x=0 y=0\n1.0 place QS centre x=48 y=6 angle=6\n"
                               "2.2 slide QS seat1 1.4 covered x=-160 y=195\n3.6 hand 1.5 over QS still"))
    assert kinds(table.run(7.0)) == [("placed", "10H", "centre", None), ("placed", "QS", "centre", None),
                                     ("moved", "QS", "seat1", "centre")]


@pytest.mark.slow
def test_a_pile_pushed_together_is_one_move_for_each_card():
    # Three cards counted in the centre pushed over to seat3 together, overlapping as a fanned
    # pile (each marker still in view), under one sweep of hands.
    script = parse_script("0.3 place 10H centre x=-80 y=0\n0.9 place QS centre x=0 y=0\n1.5 place 4C centre x=80 y=0\n"
                          "2.6 slide 10H seat3 1.5 covered x=-60 y=-190\n2.6 slide QS seat3 1.5 covered x=-3 y=-188\n"
                          "2.6 slide 4C seat3 1.5 covered x=54 y=-190")
    table = Table(script, seed=4)
    events = kinds(table.run(6.5))
    assert sorted(events[:3]) == [("placed", c, "centre", None) for c in ("10H", "4C", "QS")]
    assert sorted(events[3:]) == [("moved", c, "seat3", "centre") for c in ("10H", "4C", "QS")]


@pytest.mark.slow
def test_a_card_lifted_after_a_long_slide_is_one_removal_soon_after_its_place_is_clear():
    table = Table(parse_script("0.3 place 10H seat2\n1.5 slide 10H seat4 1.5 covered\n4.5 remove 10H"))
    events = table.run(6.5)
    assert kinds(events) == [("placed", "10H", "seat2", None), ("moved", "10H", "seat4", "seat2"),
                             ("removed", "10H", "seat4", None)]
    # the hand that took it is gone 0.25 s after 4.5 s
    assert events[2][4] <= 4.75 + 0.5


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_long_slides_keep_working_whatever_the_seed(seed):
    table = Table(parse_script("0.3 place 7C seat1\n0.8 place 2D seat3\n1.8 slide 7C seat3 1.2 covered\n"
                               "1.8 slide 2D seat1 1.6 covered"), seed=seed)
    events = kinds(table.run(5.5))
    assert sorted(events) == sorted([("placed", "7C", "seat1", None), ("placed", "2D", "seat3", None),
                                     ("moved", "7C", "seat3", "seat1"), ("moved", "2D", "seat1", "seat3")])


@pytest.mark.slow
def test_a_card_pushed_under_a_palm_of_the_tables_grey_is_one_move():
    # (Before: removed from seat1 half way, placed in the centre.) The palm over light wood in the
    # lamp's glare differs from the wood by less than a change: only its fingers and its heel
    # show, cells apart, and the heel stops showing as the card comes out from under it.
    table = Table(parse_script("0.3 place 10H seat1\n1.2 slide 10H centre 1.0 covered\n3.0 remove 10H"), seed=3)
    assert kinds(table.run(4.2)) == [("placed", "10H", "seat1", None), ("moved", "10H", "centre", "seat1"),
                                     ("removed", "10H", "centre", None)]


@pytest.mark.slow
def test_a_card_slid_under_a_palm_that_shows_only_its_fingertips_is_one_move():
    # (Before: removed from seat1 0.6 s into the slide, placed in seat3 where it landed; the
    # bench's long-slides scene 377099.) The palm over light wood in the lamp's glare has the
    # wood's grey and hides the card under it: only the fingertips move, two marker sides ahead
    # of the card's old place, farther than the trail reached.
    effects = Effects(lighting=0.447, glare=77.4, noise=3.9, blur=0.74, motion=0.016, flicker=0.02, surface="wood",
                      drift=0.095)
    table = Table(parse_script("0.3 place 4H seat1\n1.0 slide 4H seat3 2.41 covered"), effects=effects, seed=377099,
                  view=1.362, quality=78)
    assert kinds(table.run(4.2)) == [("placed", "4H", "seat1", None), ("moved", "4H", "seat3", "seat1")]


#: The bench's piles scene 251300: three cards counted in the centre pushed together into a
#: fanned pile in seat1, then picked up at once. The first card's marker ends with the next card's
#: index in its quiet zone, and is not read there.
PILE_SCENE = """0.3 place 6C centre
1.08 place 10S centre
1.86 place 9C centre
2.81 slide 6C seat1 1.04 covered x=-54.7 y=187.3
2.81 slide 10S seat1 1.04 covered x=0.0 y=192.5
2.81 slide 9C seat1 1.04 covered x=54.5 y=194.1
5.05 remove 6C
5.05 remove 10S
5.05 remove 9C"""


@pytest.mark.slow
def test_a_pile_picked_up_whole_is_removed_when_its_place_is_clear_though_one_card_of_it_was_never_read():
    # (Before: 10S and 9C stayed "covered" after the pickup: the place of the card nobody read
    # there, showing the table again, was taken for something new lying where the hands stopped.)
    effects = Effects(lighting=0.42, glare=119.8, noise=3.5, blur=0.96, motion=0.03, flicker=0.015, surface="wood",
                      drift=0.03)
    table = Table(parse_script(PILE_SCENE), effects=effects, seed=251300, view=1.393, quality=76)
    events = table.run(6.3)
    removed = {e[1]: e for e in events if e[0] == "removed"}
    assert {("moved", c, "seat1", "centre") for c in ("10S", "9C")} <= set(kinds(events))
    assert removed["10S"][2] == removed["9C"][2] == "seat1"
    # the hands that took the pile are gone 0.25 s after 5.05 s
    assert max(removed["10S"][4], removed["9C"][4]) <= 5.3 + 0.5
    # The card never read in the pile cannot be told from a card taken away (docs/vision.md).
    assert [e[:3] for e in events if e[1] == "6C"] == [("placed", "6C", "centre"), ("removed", "6C", "centre")]


#: The bench's long-slides scene 830848: 4S pushed from seat3 to the centre under a flat hand, the
#: hand then resting on it for 0.9 s (its palm of the wood's grey in the lamp's glare, still).
RESTING_SCENE = """0.3 place 9S seat1
0.85 place 4S seat3
1.67 place KD seat4
2.22 place 4C seat1
3.15 slide 4C seat2 1.97 covered
5.22 hand 1.4 over 4C still
7.52 slide 9S seat2 2.33 covered
10.85 slide 4S centre 2.42 covered
13.37 hand 0.9 over 4S still"""


@pytest.mark.slow
def test_a_hand_of_the_tables_grey_resting_on_a_card_it_pushed_does_not_remove_it():
    # (Before: removed 0.3 s after the hand came to rest, placed again when it left: its place
    # looked like the bare table and nothing moved, as when a hand has taken the card away; but a
    # hand leaves the table at the edge of the view, and this one stopped over the card.)
    effects = Effects(lighting=0.356, glare=86.0, noise=4.6, blur=0.69, motion=0.012, flicker=0.054, surface="wood",
                      drift=0.036)
    table = Table(parse_script(RESTING_SCENE), effects=effects, seed=830848, view=1.099, quality=71)
    events = [e for e in kinds(table.run(14.6)) if e[1] == "4S"]
    assert events == [("placed", "4S", "seat3", None), ("moved", "4S", "centre", "seat3")]
