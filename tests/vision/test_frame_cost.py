"""What a frame costs does not depend on what the scene does: a frame that reads a region
decodes its JPEG once (not an eighth for the change map and then whole) unless the frame before
gave no sign that it would, a still patch nobody can read (a resting hand) is read again only as
it has been tried, not in every frame, and a quiet table is looked at every other frame.
Real rendering, webcam JPEG, real decoder."""

import dataclasses

import cv2
import pytest

from vision_scenes import HARD, Table, kinds, recorded
from vision.frames import Frame
from vision.pipeline import table_events
from vision.sim.script import Place, parse_script
from vision.sim.synthetic import Effects

#: Felt under a lamp, a webcam's noise and blur: a card's old place shows the bare felt again.
FELT = Effects(surface="felt", noise=5.0, blur=0.9, glare=90.0, lighting=0.4, motion=0.03)


@pytest.mark.slow
def test_a_frame_decodes_its_jpeg_whole_mostly_when_it_reads_and_once():
    # (Before: every frame that read a region decoded the JPEG twice, an eighth and whole; then
    # every frame with a patch of still cells decoded it whole, foreseeing a read that most
    # often did not come: 57 of 80 frames decoded whole read nothing in a bench scene of long
    # slides.) A frame is decoded whole when the frame before foresees a read (a still patch
    # due, or a marker's worth of new cells where a busy read comes next), and twice only when
    # it reads what nobody foresaw (a card come to rest the frame before).
    table = Table(parse_script("0.3 place 10H seat1\n1.2 slide 10H centre 1.0 covered\n3.0 remove 10H"))
    reading, twice, whole = [], [], []
    while table.now < 4.2:
        frame = recorded(table.camera, table.now)
        before = table.pipeline.stats.decodes
        table.events += table.pipeline.process(frame, table.now)
        reading.append(table.pipeline.stats.decodes > before)
        twice.append(frame.decodes > 1)
        whole.append(frame.whole)
        table.now += 1 / table.fps
    reads = sum(reading)
    assert reads >= 4
    assert sum(twice) <= reads / 2, (reading, twice)
    assert sum(w and not r for w, r in zip(whole, reading)) <= reads, (reading, whole)
    assert [(e.kind, e.card.id, e.zone) for e in table_events(table.events)] == \
        [("placed", "10H", "seat1"), ("moved", "10H", "centre"), ("removed", "10H", "centre")]


@pytest.mark.slow
def test_a_resting_hand_is_read_again_less_and_less_often_then_given_up():
    # (Before: a still patch nobody explained was read in each of 8 frames in a row.)
    table = Table(parse_script("0.3 place QS centre\n1.5 hand 6 over QS still"), effects=HARD)
    table.run(2.5)
    table.decodes.clear()
    table.run(6.0)
    reading = [i for i, n in enumerate(table.decodes) if n]
    assert len(reading) <= 6, reading
    assert [e.kind for e in table.events] == ["placed"]


def test_a_jpeg_frame_shrinks_to_the_same_cells_whether_it_was_decoded_whole_or_not():
    # The change map compares frames shrunk either way (whole when a region was foreseen): a
    # difference in how a frame was shrunk must not look like a change.
    table = Table(parse_script("0.3 place 10H seat1"), effects=HARD)
    jpeg = recorded(table.camera, 1.0).encoded()
    scaled, whole = Frame(jpeg=jpeg), Frame(jpeg=jpeg)
    whole.grey()
    difference = cv2.absdiff(scaled.small(8), whole.small(8))
    assert scaled.decodes == whole.decodes == 1 and difference.max() <= 2 and difference.mean() < 0.5


def test_a_colour_frame_shrinks_to_the_same_cells_whether_its_grey_was_asked_for_first_or_not():
    # (Before: shrunk from its grey when that was made first, from its colour otherwise, a grey
    # level apart here and there: enough to change which cells of a camera started on a table of
    # overlapping cards were dirty, and the card underneath was not read.)
    bgr = Table(parse_script("0.3 place 10H seat1"), effects=HARD).camera.frame_at(1.0)
    plain, greyed = Frame.of(bgr), Frame.of(bgr)
    greyed.grey()
    assert (plain.small(8) == greyed.small(8)).all()


def test_a_quiet_table_is_looked_at_every_other_frame_then_every_third_and_a_card_laid_on_it_is_placed_on_time():
    # (Before: every other frame of a quiet table, however long it stayed quiet.) A frame that
    # is not looked at is not decoded at all; a hand that comes is seen two frames later at most.
    table = Table(parse_script("0.3 place 10H seat1\n4.0 place QS centre"), effects=HARD)
    table.run(3.0)
    skipped = table.pipeline.stats.skipped
    looked = []
    while table.now < 3.9:
        frame = recorded(table.camera, table.now)
        table.events += table.pipeline.process(frame, table.now)
        looked.append(frame.decodes)
        table.now += 1 / table.fps
    assert table.pipeline.stats.skipped - skipped == looked.count(0) >= 2 * len(looked) // 3 - 1
    assert max(len(run) for run in "".join("x" if n else "." for n in looked).split("x")) <= 2
    events = table.run(5.0)
    assert [(kind, card) for kind, card, *_ in events] == [("placed", "10H"), ("placed", "QS")]
    assert events[1][-1] - 4.0 <= 0.5


def laying(until: float, **traits) -> tuple[Table, list[str]]:
    """A card laid by a hand at 3.0 s beside one lying there, played up to ``until``, and from
    2.6 s each frame marked: ``s`` not looked at, else what it did: ``W`` decoded whole, ``r`` a
    region read, ``m`` something moved (``.`` none of these). ``traits``: the recogniser's
    :class:`vision.recognisers.Traits` changed so."""
    table = Table(parse_script("0.3 place 10H seat1\n3.0 place QS seat3\n5.0 place 9C centre"), effects=HARD)
    table.pipeline.traits = dataclasses.replace(table.pipeline.traits, **traits)
    table.run(2.6)
    marks = []
    while table.now < until:
        frame = recorded(table.camera, table.now)
        skipped, reads = table.pipeline.stats.skipped, table.pipeline.stats.decodes
        table.events += table.pipeline.process(frame, table.now)
        did = ("W" if frame.whole else "") + ("r" if table.pipeline.stats.decodes > reads else "") + \
            ("m" if table.pipeline.changes.moving.any() else "")
        marks.append("s" if table.pipeline.stats.skipped > skipped else did or ".")
        table.now += 1 / table.fps
    return table, marks


def test_a_hand_laying_a_card_decodes_whole_only_frames_that_read_where_it_moves():
    # (Before: a frame was decoded whole whenever a patch where the hand moves waited to be
    # read, also on the frames between two reads of a busy patch, which do not read it: 7 of the
    # 9 frames around the card laid, 4 of them read.)
    table, marks = laying(3.7)
    assert sum("W" in mark and "r" not in mark for mark in marks) <= 1, marks
    assert [(e[0], e[1]) for e in table.run(4.0)] == [("placed", "10H"), ("placed", "QS")]
    assert table.events[-1].time - 3.0 <= 0.5


def test_a_hand_moving_over_the_table_touching_no_card_is_looked_at_every_other_frame():
    # (Before: every frame while something moved, however far from any card and with nothing
    # still to read.) The hand that laid the card leaves over the empty table.
    table, marks = laying(5.0)
    assert any("m" in mark and after == "s" for mark, after in zip(marks, marks[1:])), marks
    events = table.run(6.0)
    assert [(kind, card) for kind, card, *_ in events] == [("placed", "10H"), ("placed", "QS"), ("placed", "9C")]
    assert events[1][-1] - 3.0 <= 0.5 and events[2][-1] - 5.0 <= 0.5


def test_a_recogniser_that_reads_every_frame_something_moves_has_every_such_frame_looked_at():
    # Reads that must agree over frames (faces: ``busy_every`` 1) lost a card slid under a hand
    # when frames of a hand moving over the table were skipped: a slide read as removed + placed.
    table, marks = laying(5.0, busy_every=1)
    assert not any("m" in mark and after == "s" for mark, after in zip(marks, marks[1:])), marks


@pytest.mark.slow
def test_a_hand_resting_on_a_card_is_looked_at_every_third_frame_and_the_card_taken_from_under_it_is_removed():
    # (Before: every frame was looked at while a card was covered, however still what covered it.)
    table = Table(parse_script("0.3 place 10H seat1\n0.6 place QS centre\n1.5 hand 6 over QS still\n8.5 remove QS"),
                  effects=HARD)
    table.run(3.0)
    skipped = table.pipeline.stats.skipped
    table.run(7.5)
    assert table.pipeline.stats.skipped - skipped >= 4.5 * table.fps / 2
    events = table.run(10.0)
    assert [(kind, card) for kind, card, *_ in events] == [("placed", "10H"), ("placed", "QS"), ("removed", "QS")]
    assert events[-1][-1] - 8.5 <= 0.6


@pytest.mark.slow
def test_flat_hands_pushing_cards_together_are_not_read_every_other_frame():
    # (Before: 18 of the 37 frames of the push read the patch of the hands, in vain: the still
    # interior of a flat hand moving slowly is unlike the table, and as it moves on, its cells
    # change enough to look new.) What is new is a marker's texture come to rest, not a palm.
    table = Table(parse_script("0.3 place 10H centre\n0.9 place 9C centre\n"
                               "1.5 slide 10H seat1 2.0 covered\n1.5 slide 9C seat1 2.0 covered"))
    table.run(1.5)
    table.decodes.clear()
    table.run(4.0)
    assert sum(bool(n) for n in table.decodes) <= 12, table.decodes
    assert [(kind, card, zone) for kind, card, zone, *_ in table.run(5.0)][-2:] == \
        [("moved", "10H", "seat1"), ("moved", "9C", "seat1")]


@pytest.mark.slow
def test_the_place_a_card_was_pushed_from_showing_the_bare_table_is_not_read():
    # (Before: the place a card was slid from, the bare felt again, was read in vain in five
    # frames while the hand pushed the card on, as in a long-slides scene of the bench, 522948.)
    table = Table(parse_script("0.3 place 10H seat1\n1.2 slide 10H centre 2.0 covered"), effects=FELT)
    still_reads, read = [], table.pipeline.recogniser.read

    def counted(region):
        if not region.busy:
            still_reads.append(region.box)
        return read(region)

    table.pipeline.recogniser.read = counted
    table.run(1.2)
    still_reads.clear()
    table.run(3.3)       # the card under the hand all along: no still place holds a marker
    assert still_reads == []
    assert kinds(table.run(4.0)) == [("placed", "10H", "seat1", None), ("moved", "10H", "centre", "seat1")]


@pytest.mark.slow
def test_a_card_read_where_it_was_laid_is_not_read_again_for_the_plain_rim_around_it():
    # (Before: the cells around a card just read, its plain rim and shadow, no marker's texture,
    # were read again in the next frames, each read naming the same card.)
    table = Table(parse_script("0.3 place 10H seat1"), effects=FELT)
    events = table.run(0.7)
    assert kinds(events) == [("placed", "10H", "seat1", None)]
    table.decodes.clear()
    table.run(2.0)
    assert sum(table.decodes) == 0, table.decodes


@pytest.mark.slow
def test_a_hand_pushing_cards_along_is_looked_at_every_other_frame_and_the_moves_come_on_time():
    # (Before: every frame of a push was looked at, a third of a bench scene of piles, though
    # nothing can be read there: the cards lie under the hand.) Once a card's place is clear,
    # every frame is looked at again: when the trail ends tells a card taken from one pushed.
    table = Table(parse_script("0.3 place 10H seat1\n0.9 place 4C seat3\n"
                               "1.8 slide 10H centre 2.0 covered\n1.8 slide 4C centre 2.0 covered x=60"))
    table.run(1.8)
    skipped = table.pipeline.stats.skipped
    table.run(2.7)                     # both cards under the hand, neither place clear yet
    assert table.pipeline.stats.skipped - skipped >= 6      # of 14 frames
    events = table.run(5.0)
    assert sorted(kinds(events)[2:]) == [("moved", "10H", "centre", "seat1"), ("moved", "4C", "centre", "seat3")]
    rest = max(table.camera.in_clear_view(card, 3.8, hold=0.2) for card in ("10H", "4C"))
    assert max(e[4] for e in events[2:]) - rest <= 0.2, (events, rest)


@pytest.mark.slow
@pytest.mark.parametrize("surface", ["felt", "wood"])
def test_a_lamps_glare_on_the_table_when_the_camera_starts_is_not_taken_for_something_lying_there(surface):
    # (Before: the bright spot stood out from the table around it in the first frame, was taken
    # for something lying there, and every frame was looked at and its cells compared until the
    # spot was given up as background: the bench's piles scene 418272, 3.05 ms a frame, 2.05 after.)
    # Light fades smoothly; a card, even one lying there at start, has an outline and a print.
    effects = dataclasses.replace(FELT, surface=surface, glare=130.0)
    table = Table([Place(-1.0, "7S", "seat1"), Place(1.5, "QH", "centre")], effects=effects, seed=418272)
    assert kinds(table.run(0.1)) == [("present", "7S", "seat1", None)]
    assert table.pipeline.changes.dirty.sum() == 0
    skipped, decodes = table.pipeline.stats.skipped, table.pipeline.stats.decodes
    table.run(1.0)
    assert table.pipeline.stats.skipped - skipped >= 6            # a quiet table: 13 frames, every other one or fewer
    assert table.pipeline.stats.decodes == decodes
    assert kinds(table.run(2.5))[1:] == [("placed", "QH", "centre", None)]
