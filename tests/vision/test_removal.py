"""Removals by evidence, placements at once, moves as one event: the pipeline with the product's
default settings on scripted synthetic scenes (real rendering, real decoder)."""

import numpy as np
import pytest

from engine.table_events import TableEvent
from vision.calibration import Calibration
from vision.config import VisionConfig
from vision.pipeline import Pipeline
from vision.sim.script import parse_script
from vision.sim.synthetic import DEFAULT_ZONES, Effects, SyntheticCamera
from vision_scenes import Table

FPS = 15


def run(text, end, seed=3, fps=FPS):
    """The events of the scene, each as (kind, card, zone, from zone, time), with the camera."""
    camera = SyntheticCamera("standard", "qr", parse_script(text), seed=seed)
    calibration = Calibration(np.linalg.inv(camera.homography), camera.resolution, 0.0)
    pipeline = Pipeline(VisionConfig(zones=DEFAULT_ZONES), calibration=calibration)
    events = [e for i in range(int(end * fps)) for e in pipeline.process(camera.frame_at(i / fps), i / fps)]
    return [(e.kind, e.card.id, e.zone, e.from_zone, e.time) for e in events if isinstance(e, TableEvent)], camera


def kinds(events):
    return [e[:4] for e in events]


def clear_after(camera, card, pose_time, t):
    """When a hand last covers the place ``card`` had at ``pose_time``, from ``t`` on."""
    pose = camera.pose_at(card, pose_time)
    step = 0.01
    while camera.covers(pose, t):
        t += step
    return t


@pytest.mark.slow
def test_a_pickup_is_reported_at_once_even_when_the_recording_ends_a_second_later():
    # (Before: removed only after remove_after, 3 s, so a recording ending 1 s after the pickup
    # reported no removal at all.)
    events, camera = run("0.3 place 10H seat1\n1.5 remove 10H", end=2.5)
    assert kinds(events) == [("placed", "10H", "seat1", None), ("removed", "10H", "seat1", None)]
    assert events[1][4] - clear_after(camera, "10H", 1.4, 1.5) <= 0.5


def test_a_placement_is_reported_as_soon_as_the_card_lies_still():
    # (Before: place_after 0.25 s on top of the still frames, about 10 frames at 30 fps.)
    events, camera = run("0.3 place 10H seat1", end=1.5, fps=30)
    assert kinds(events) == [("placed", "10H", "seat1", None)]
    assert events[0][4] - camera.in_clear_view("10H", 0.3, hold=0.0) <= 0.15


@pytest.mark.slow
def test_a_hand_resting_ten_seconds_on_a_card_does_not_remove_it():
    events, _ = run("0.3 place 10H seat1\n0.3 place QS centre\n1.2 hand 10 over 10H still\n"
                    "1.5 hand 9 over QS", end=12.5, fps=8)
    assert sorted(kinds(events)) == [("placed", "10H", "seat1", None), ("placed", "QS", "centre", None)]


PLACED_10H = ("placed", "10H", "seat1", None)


@pytest.mark.parametrize("script, end, expected", [
    pytest.param("0.3 place 10H seat1\n1.3 slide 10H off 0.5", 3.0,
                 [PLACED_10H, ("removed", "10H", "seat1", None)], id="swept off the edge: removed"),
    pytest.param("0.3 place 10H seat1\n1.0 hand 3 over 10H still\n2.0 slide 10H seat3 0.6", 5.0,
                 [PLACED_10H, ("moved", "10H", "seat3", "seat1")], id="slid from under a resting hand: one move"),
    pytest.param("0.3 place 10H centre x=0 y=0\n1.0 place QS centre x=40 y=30 angle=8\n2.0 slide QS seat4 0.6", 4.0,
                 [("placed", "10H", "centre", None), ("placed", "QS", "centre", None),
                  ("moved", "QS", "seat4", "centre")], id="slid off an overlapping card: one move, the one below stays"),
    pytest.param("0.3 place 10H seat1 x=0 y=190\n1.0 place QS seat1 x=30 y=170 angle=5", 3.0,
                 [PLACED_10H, ("placed", "QS", "seat1", None)], id="laid on top of another: the one below stays"),
    pytest.param("0.3 place 10H seat2\n1.0 slide 10H seat4 1.2", 3.5,
                 [("placed", "10H", "seat2", None), ("moved", "10H", "seat4", "seat2")], id="across two zones: one move"),
])
@pytest.mark.slow
def test_moves_and_removals_are_one_event_each(script, end, expected):
    assert kinds(run(script, end)[0]) == expected


#: A mixed benchmark scene on wood (seed 632103 of the full run): cards laid, a hand hovering, the
#: cards slid away, 2S swept off the table's edge, then 10H, lying at the edge of the view, picked up.
EDGE_SCENE = """0.3 place 10H seat3 x=-60 y=-189 angle=-3.35
1.04 place 8H seat3 x=-12.78 y=-185.28 angle=-6.0
1.6 place 6H centre
2.32 place 2S seat2
2.81 place 6C seat4
3.6 hand 2.0 over 10H
6.0 slide 8H seat2 0.5
7.3 slide 6H seat2 0.5
8.6 slide 6H seat4 0.9
10.3 slide 2S off 0.5
11.7 remove 10H"""


@pytest.mark.slow
def test_a_card_picked_up_at_the_edge_of_the_view_is_removed_when_its_place_is_clear():
    # (Before: where the hand left the view, lone cells of the table edge unlike what they showed
    # before the hand came, a block of them together no larger than sensor noise makes, held the
    # card as if a hand rested there, for HELD_LIMIT (3 s), past the end of the recording.)
    effects = Effects(lighting=0.49, glare=56.8, noise=5.44, blur=0.66, motion=0.011, flicker=0.016, surface="wood",
                      drift=0.081)
    table = Table(parse_script(EDGE_SCENE), effects=effects, seed=632103, view=1.052)
    events = table.run(12.7)
    assert [e[:2] for e in events if e[0] == "removed"] == [("removed", "2S"), ("removed", "10H")]
    assert events[-1][-1] - clear_after(table.camera, "10H", 11.6, 11.7) <= 0.5


@pytest.mark.slow
def test_a_card_swept_off_the_table_with_a_sliver_left_in_view_is_removed_when_its_place_is_clear():
    # (Before: the sliver of card left at the edge of the view, outside every zone, held it as if
    # a hand rested on it, for HELD_LIMIT (3 s); the bench's wood-flicker scene 380100 and ArUco
    # scene 386102.)
    effects = Effects(lighting=0.31, glare=46.7, noise=3.2, blur=0.67, motion=0.029, flicker=0.109, surface="wood",
                      drift=0.195)
    table = Table(parse_script("0.3 place KH seat2\n1.3 slide KH off 0.5"), effects=effects, seed=2, view=1.131)
    events = table.run(3.3)
    assert kinds(events) == [("placed", "KH", "seat2", None), ("removed", "KH", "seat2", None)]
    assert events[1][4] - 1.8 <= 0.5      # the slide ends at 1.8 s, past the edge of the table


@pytest.mark.slow
def test_a_card_laid_on_a_glare_spot_as_the_camera_starts_is_removed_when_its_place_is_clear():
    # (Before: what the card hid was the first frame's estimate of the bare table, which paints
    # the glare spot over with the darker wood around it; its place, clear, never showed that,
    # so the card stayed "covered" until remove_after, 30 s; the bench's piles scene 251300.)
    effects = Effects(surface="wood", glare=120.0, lighting=0.42, noise=3.5, blur=0.96, motion=0.03, flicker=0.015,
                      drift=0.03)
    table = Table(parse_script("0.3 place 6C centre\n1.5 remove 6C"), effects=effects, seed=251300, view=1.39)
    events = table.run(3.0)
    assert kinds(events) == [("placed", "6C", "centre", None), ("removed", "6C", "centre", None)]
    assert events[1][4] - clear_after(table.camera, "6C", 1.4, 1.5) <= 0.5


@pytest.mark.slow
def test_a_hand_of_the_tables_grey_hovering_over_a_card_does_not_remove_it():
    # (Before: removed 1.3 s into the hover and placed again when the hand left; the bench's
    # ArUco scene 386104.) The palm over light wood has the wood's grey: over the card, the
    # card's place looks like the bare table, and only the wobbling fingers move, not in every frame.
    effects = Effects(lighting=0.436, glare=69.3, noise=3.3, blur=0.88, motion=0.025, flicker=0.018, surface="wood",
                      drift=0.01)
    table = Table(parse_script("0.3 place B2 centre\n1.0 hand 2.0 over B2"), effects=effects, seed=386104, view=1.138,
                  deck="its15", marker="aruco", resolution="720p", quality=75)
    assert kinds(table.run(3.6)) == [("placed", "B2", "centre", None)]


#: The bench's ArUco scene 990848: a hand of the wood's grey comes in from the edge of the view at
#: 7.11 s and rests on V2O-2 for seven seconds.
GREY_HAND_SCENE = """0.3 place V1R-4 seat3 x=-60 y=-189 angle=2.7
1.09 place G9 seat3 x=-8.7 y=-190 angle=-0.4
1.78 place V2O-2 centre
2.32 place V1O-3 centre
2.96 place V1B-5 centre
3.65 place V1B-4 seat4
4.71 hand 2.0 over V1B-5
7.11 hand 7.4 over V2O-2 still
15.01 slide G9 seat4 0.5
16.31 remove V1O-3"""


@pytest.mark.slow
def test_a_hand_of_the_tables_grey_that_came_in_from_the_edge_and_rests_on_a_card_for_seconds_does_not_remove_it():
    # (Before: removed 0.33 s after the hand stopped, placed again when it left: its last motion,
    # smeared from the edge of the view where it came in to the card, touched that edge and was
    # centred between the two, as a hand leaving the table is; the bench's ArUco scene 990848.)
    # The hand's cells that still differ from the change map's reference are where it is now:
    # on the card, inside the view; it came nearer the card, and rests there until it moves.
    effects = Effects(lighting=0.393, glare=88.5, noise=3.3, blur=1.03, motion=0.023, flicker=0.04, surface="wood",
                      drift=0.054)
    table = Table(parse_script(GREY_HAND_SCENE), effects=effects, seed=990848, view=1.06, deck="its15", marker="aruco",
                  resolution="720p", quality=79)
    events = table.run(17.3)
    assert kinds(events) == [("placed", card, zone, None) for card, zone in
                             (("V1R-4", "seat3"), ("G9", "seat3"), ("V2O-2", "centre"), ("V1O-3", "centre"),
                              ("V1B-5", "centre"), ("V1B-4", "seat4"))] + \
        [("moved", "G9", "seat4", "seat3"), ("removed", "V1O-3", "centre", None)]


@pytest.mark.slow
def test_a_fan_dealt_one_card_at_a_time_and_picked_up_whole_is_removed_when_its_place_is_clear():
    # Each card dealt partly onto the one before. (Before: only the first was removed; each of
    # the others had hidden part of the card below, which went with it, so its place never
    # showed what it hid and it stayed "covered" until remove_after, 30 s.)
    fan = ["4H", "9S", "KD", "2C"]
    script = [f"{0.3 + 0.7 * i:.2f} place {card} seat1 x={-60 + 30 * i} y=190 angle={-6 + 4 * i}" for i, card in enumerate(fan)]
    table = Table(parse_script("\n".join(script + [f"4.0 remove {card}" for card in fan])), seed=1)
    events = table.run(5.5)
    assert kinds(events) == [("placed", card, "seat1", None) for card in fan] + \
        [("removed", card, "seat1", None) for card in fan]
    assert max(e[4] for e in events[4:]) - clear_after(table.camera, "4H", 3.9, 4.0) <= 0.5


@pytest.mark.slow
def test_a_card_picked_up_at_the_side_of_a_wide_view_is_removed_when_its_place_is_clear():
    # The hand that takes the card leaves it sideways and is last seen inside the wide view, a
    # hand's length from the card's place: it moved away, it did not stop on the card. (Before,
    # with a hand that stopped over a card holding it: held for HELD_LIMIT; the bench's mixed
    # scene 299967, wood flicker 303968 and ArUco 309970.)
    effects = Effects(lighting=0.477, glare=100.9, noise=5.7, blur=0.9, motion=0.02, flicker=0.03, surface="wood")
    table = Table(parse_script("0.3 place 5C seat4\n1.5 remove 5C"), effects=effects, seed=299967, view=1.35)
    events = table.run(3.0)
    assert kinds(events) == [("placed", "5C", "seat4", None), ("removed", "5C", "seat4", None)]
    assert events[1][4] - clear_after(table.camera, "5C", 1.4, 1.5) <= 0.5



def test_a_card_gone_between_two_frames_with_no_hand_in_view_is_removed_at_once():
    # (Before: the card's own vanishing was the only motion, centred on its place, and was taken
    # for a hand of the table's grey resting on it: removed 3 s late, and the demo's cards,
    # gathered with no hand drawn, were not seen to go before the demo gave up on them.)
    table = Table(parse_script("0.3 place 10H seat1\n1.5 remove 10H"), effects=Effects(hands=False))
    events = table.run(2.5)
    assert kinds(events) == [PLACED_10H, ("removed", "10H", "seat1", None)]
    assert events[1][4] - 1.5 <= 0.5


@pytest.mark.slow
@pytest.mark.parametrize("count", [2, 4])
def test_cards_lying_side_by_side_gone_together_between_two_frames_are_removed_at_once(count):
    # (Before: the cards' vanishing, together, reached beyond each card's surroundings and was
    # centred near it, as a hand that came and rests on the card: each was held as long as
    # nothing moved. The demo's pegging cards, gathered with no hand drawn, waited 3 s each
    # gather and came back as late removals when the next card was laid there, which was then
    # refused: 8 cards laid again in a game of Cribbage, 1 before.)
    cards = ["10H", "QS", "4D", "7C"][:count]
    script = [f"{0.3 + 0.3 * i:.1f} place {card} seat1 x={-96 + 64 * i} y=190" for i, card in enumerate(cards)]
    table = Table(parse_script("\n".join(script + [f"1.5 remove {card}" for card in cards])), effects=Effects(hands=False))
    events = table.run(2.5)
    assert kinds(events) == [("placed", card, "seat1", None) for card in cards] + \
        [("removed", card, "seat1", None) for card in cards]
    assert max(e[4] for e in events[count:]) - 1.5 <= 0.5


@pytest.mark.slow
def test_a_card_picked_up_from_flickering_wood_is_removed_when_its_place_is_clear():
    # (Before: vision_bench's wood flicker scene 397947, 4H lifted from the centre. The place it
    # left, unlike the reference still showing the card, made one patch with a few cells of
    # wood flickering in it; that patch, centred on the card, was taken for a hand of the
    # table's grey that stopped on the card, and every flicker held the card again: removed
    # 1.2 s late. Only a hand's worth of moving cells says where a hand is now.)
    import vision_bench

    script, _ = vision_bench.scene_script("wood flicker", 397947, "standard", foreign=False)
    view, effects, quality = vision_bench.scene_conditions("wood flicker", 397947)
    table = Table(script, effects=effects, seed=397947, view=view, quality=quality)
    events = table.run(10.8)
    assert ("removed", "4H") in [e[:2] for e in events]
    removed = next(e for e in events if e[:2] == ("removed", "4H"))
    assert removed[4] - clear_after(table.camera, "4H", 9.5, 9.55) <= 0.5
