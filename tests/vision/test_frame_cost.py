"""What a frame costs does not depend on what the scene does: a frame that reads a region
decodes its JPEG once (not an eighth for the change map and then whole) unless the frame before
gave no sign that it would, a still patch nobody can read (a resting hand) is read again only as
it has been tried, not in every frame, and a quiet table is looked at every other frame.
Real rendering, webcam JPEG, real decoder."""

import cv2
import pytest

from vision_scenes import HARD, Table, recorded
from vision.frames import Frame
from vision.sim.script import parse_script


@pytest.mark.slow
def test_a_frame_that_reads_regions_decodes_its_jpeg_once():
    # (Before: every frame that read a region decoded the JPEG twice, an eighth and whole.) Only
    # the first of a run of reading frames, which the frame before did not announce, does.
    table = Table(parse_script("0.3 place 10H seat1\n1.2 slide 10H centre 1.0 covered\n3.0 remove 10H"))
    twice, reads = 0, 0
    while table.now < 4.2:
        frame = recorded(table.camera, table.now)
        before = table.pipeline.stats.decodes
        table.events += table.pipeline.process(frame, table.now)
        reads += table.pipeline.stats.decodes > before
        twice += frame.decodes > 1
        table.now += 1 / table.fps
    assert reads >= 10 and twice <= reads / 3
    assert ("placed", "10H", "seat1") in [(e.kind, e.card.id, e.zone) for e in table.events]


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


def test_a_quiet_table_is_looked_at_every_other_frame_and_a_card_laid_on_it_is_placed_on_time():
    # (Before: every frame of a quiet table was decoded, an eighth of it at least.) A frame
    # that is not looked at is not decoded at all; a hand that comes is seen a frame later at most.
    table = Table(parse_script("0.3 place 10H seat1\n4.0 place QS centre"), effects=HARD)
    table.run(3.5)
    skipped = table.pipeline.stats.skipped
    looked = []
    while table.now < 3.9:
        frame = recorded(table.camera, table.now)
        table.events += table.pipeline.process(frame, table.now)
        looked.append(frame.decodes)
        table.now += 1 / table.fps
    assert table.pipeline.stats.skipped - skipped == looked.count(0) == len(looked) // 2
    events = table.run(5.0)
    assert [(kind, card) for kind, card, *_ in events] == [("placed", "10H"), ("placed", "QS")]
    assert events[1][-1] - 4.0 <= 0.5
