"""What the pipeline says lies where, frame by frame, with faces: a sighting names a card lying
there (within a third of a card's side), never a card that has left the place."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import faces_bench
from vision.calibration import Calibration
from vision.config import VisionConfig
from vision.faces.recogniser import FaceRecogniser
from vision.faces.designs import DesignArt
from vision.frames import Frame
from vision.pipeline import Pipeline
from vision.sim.script import Hand, Place, Remove, Slide
from vision.sim.synthetic import DEFAULT_ZONES, Effects, SyntheticCamera

pytestmark = pytest.mark.slow


def stale_sightings(enrolment, design: str, script, seconds: float, effects: Effects, view: float) -> list[str]:
    """The scene through the pipeline, as the camera's JPEG; each sighting naming a card farther
    than a third of a card from where the card lies (or a card not on the table), with its time."""
    camera = SyntheticCamera("standard", "qr", script, resolution="1080p", effects=effects, seed=5,
                             card_image=DesignArt(design), view=view)
    pipeline = Pipeline(VisionConfig(zones=DEFAULT_ZONES), recogniser=FaceRecogniser(enrolment),
                        calibration=Calibration(np.linalg.inv(camera.homography), camera.resolution, 0.0))
    stale = []
    for i in range(int(seconds * 10)):
        now = i / 10
        pipeline.process(Frame(jpeg=cv2.imencode(".jpg", camera.frame_at(now), [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()), now)
        for sighting in pipeline.sightings:
            pose = camera.pose_at(sighting.card.id, now)
            at = None if pose is None else cv2.perspectiveTransform(np.float32([[[pose.x, pose.y]]]), camera.homography).ravel()
            if at is None or np.hypot(*(at - sighting.center)) > 60:
                stale.append(f"{sighting.card.id} at {now:.1f} s")
    return stale


@pytest.mark.parametrize("design", ["tigullio-international", "standard"])
def test_a_card_slid_off_a_card_is_not_seen_where_it_lay(enrolments, design):
    """A white card slid along its length off the white card it lay partly on: halfway off, its
    old place still shows white where it lay (the card below, the card's own other half), but
    the card is no longer there (faces_bench's seed 5 named the 4H where it had left, twice)."""
    script = [Place(0.3, "AC", "seat1", x=-60, y=189, angle=3.4), Place(1.0, "4H", "seat1", x=-12.5, y=178, angle=-5.5),
              Hand(2.0, 2.0, "4H", still=True), Slide(4.5, "4H", "centre", 0.5)]
    effects = Effects(lighting=0.35, glare=70, noise=4, blur=0.8, motion=0.02, flicker=0.03)
    assert stale_sightings(enrolments[design], design, script, 6.5, effects, view=1.06) == []


def _events(enrolment, design: str, script, seconds: float, effects: Effects, view: float = 1.0):
    """The scene through the pipeline, as the camera's JPEG: the table events and the sentences."""
    from vision.pipeline import table_events

    camera = SyntheticCamera("standard", "qr", script, resolution="1080p", effects=effects, seed=5,
                             card_image=DesignArt(design), view=view)
    recogniser = FaceRecogniser(enrolment)
    pipeline = Pipeline(VisionConfig(zones=DEFAULT_ZONES), recogniser=recogniser,
                        calibration=Calibration(np.linalg.inv(camera.homography), camera.resolution, 0.0))
    events = []
    for i in range(int(seconds * 10)):
        frame = Frame(jpeg=cv2.imencode(".jpg", camera.frame_at(i / 10), [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes())
        events += table_events(pipeline.process(frame, i / 10))
    return events, recogniser.refusals


@pytest.mark.parametrize("design", ["standard", "nicu-white"])
@pytest.mark.parametrize("offset", [(2.0, 1.0, 2.0), (12.0, 2.0, -5.0)])
def test_a_card_laid_on_a_pile_is_named(enrolments, design, offset):
    """The defect (issue 22, faces_bench seeds 912646 and 912655): a card laid squarely on a
    card named there (a discard pile) showed nothing new but its print, since its white lies
    on the white of the card below: its corners were taken as hidden ("every corner is
    hidden"), or read in part, and the card was refused ("I can't read the card") instead of
    named. The card below, wholly covered, may be said gone (as any card covered is,
    vision.footprints)."""
    dx, dy, turn = offset
    script = [Place(0.3, "5C", "centre", x=0, y=0, angle=1.0), Place(1.5, "2H", "centre", x=dx, y=dy, angle=1.0 + turn)]
    effects = Effects(lighting=0.3, glare=50, noise=3, blur=0.8, motion=0.02, flicker=0.03)
    events, refusals = _events(enrolments[design], design, script, 3.5, effects)
    assert [(e.kind, e.card.id) for e in events if e.kind == "placed"] == [("placed", "5C"), ("placed", "2H")]
    assert refusals == 0


@pytest.mark.parametrize("design", ["standard", "tigullio-international"])
def test_a_card_on_a_light_coloured_cloth_is_named(enrolments, design):
    """The defect (issue 22, faces_bench seed 912651): a card laid partly on another, on a woven
    cloth whose light checks are as light as the card in grey, was never named: where it lay
    on the cloth nothing was new in grey, what was new (its part on the dark checks, its
    print) was no card's shape, and no card was fitted there. In colour the checks are not
    the card's white."""
    from vision.pipeline import table_events

    script = [Place(0.3, "6D", "centre", x=-60.0, y=0.0, angle=3.0), Place(0.87, "10C", "centre", x=-13.2, y=11.5, angle=-2.0)]
    effects = Effects(lighting=0.314, glare=133.9, noise=5.8, blur=0.9, motion=0.031, flicker=0.024, surface="cloth", drift=0.031)
    camera = SyntheticCamera("standard", "qr", script, resolution="1080p", effects=effects, seed=912651, view=0.84, tilt=25.7,
                             card_image=DesignArt(design))
    pipeline = Pipeline(VisionConfig(zones=DEFAULT_ZONES), recogniser=FaceRecogniser(enrolments[design]),
                        calibration=Calibration(np.linalg.inv(camera.homography), camera.resolution, 0.0))
    events = []
    for i in range(30):
        frame = Frame(jpeg=cv2.imencode(".jpg", camera.frame_at(i / 10), [cv2.IMWRITE_JPEG_QUALITY, 77])[1].tobytes())
        events += table_events(pipeline.process(frame, i / 10))
    assert [(e.kind, e.card.id) for e in events] == [("placed", "6D"), ("placed", "10C")]


def test_the_colour_look_names_no_card_by_one_corner():
    """The defect (issue 22, faces_bench seed 121568, oxygen-white on a woven cloth): the look
    again in colour at a region where grey found no card also guessed cards showing one corner
    alone in what it found, and the cloth's checks gave straight stretches to guess from: one
    guess named a 7H that was not there, 83 wrong sightings. In colour only whole cards are
    looked for."""
    result = faces_bench.run_scene((121568, "oxygen-white", 10.0, False, "clean", False))
    assert result["seen"]["pipeline"][1] == 0


@pytest.mark.parametrize("design", ["standard"])
def test_a_card_laid_on_an_evenly_lit_empty_table_is_named(enrolments, design):
    """The faces recogniser keeps the first frame it is handed as the empty table. The first
    frame is read whole, whatever stands out in it: a lamp's glare no longer counts as something
    lying there, and when nothing else did, the first frame handed over was a hand laying the
    first card (the glare tests' faces scenes named nothing, before this rule)."""
    script = [Place(0.3, "5C", "centre"), Place(1.5, "2H", "seat1")]
    effects = Effects(lighting=0.0, glare=0.0, noise=3, blur=0.8, motion=0.02, flicker=0.0)
    events, refusals = _events(enrolments[design], design, script, 3.0, effects)
    assert [(e.kind, e.card.id) for e in events] == [("placed", "5C"), ("placed", "2H")]
    assert refusals == 0


@pytest.mark.parametrize("design", ["standard"])
def test_a_card_picked_up_in_frames_the_pipeline_skips_is_not_counted_as_seen_there(enrolments, design):
    """The defect (issue 22, faces_bench seed 676034: every one of the run's 10 wrong sightings):
    on a quiet table the pipeline skips the next frames (:meth:`Pipeline.process`), and its
    sightings stay the last look's. The benchmark counted them as the skipped frames' own, so
    a card picked up by a hand that came in from the edge of the view in those frames was a
    wrong sighting. Only the frames looked at give sightings (``faces_bench.frame_sightings``);
    the first frame looked at after the pickup does not see the card."""
    script = [Place(0.5, "2D", "seat4", x=330, y=-150), Remove(3.37, "2D")]
    camera = SyntheticCamera("standard", "qr", script, resolution="1080p", effects=Effects(motion=0.026, noise=3),
                             seed=5, view=0.84, card_image=DesignArt(design))
    pipeline = Pipeline(VisionConfig(zones=DEFAULT_ZONES), recogniser=FaceRecogniser(enrolments[design]),
                        calibration=Calibration(np.linalg.inv(camera.homography), camera.resolution, 0.0))
    last_looks, wrong, seen = [], 0, 0   # (last_looks: skipped frames whose sightings name the card picked up)
    for i in range(40):
        now = i / 10
        before = faces_bench.skipped_frames(pipeline)
        pipeline.process(Frame(jpeg=cv2.imencode(".jpg", camera.frame_at(now), [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()), now)
        count, missed = faces_bench.frame_sightings(pipeline, camera, now, before)
        seen, wrong = seen + count, wrong + missed
        if faces_bench.skipped_frames(pipeline) > before and camera.pose_at("2D", now) is None \
                and [s.card.id for s in pipeline.sightings] == ["2D"]:
            last_looks.append(now)
    assert last_looks == [pytest.approx(3.4)]    # the scene does what it is for
    assert wrong == 0 and seen > 0


@pytest.mark.parametrize("seed, design", [(757735, "ancient-egyptians"), (757717, "nicu-ornamental")])
def test_a_card_sliding_along_its_length_is_not_seen_where_it_lay(seed, design):
    """The defect (issue 22, faces_bench seeds 757712: every one of the run's 4 wrong sightings):
    the top card of a pair slid off the card below along its length, on a camera tilted 28-29
    degrees. Its middle, plain paper on plain paper, did not change between frames, so its
    footprint still showed it lying still, and the card was seen where it had lain for one or
    two frames while it was 80-155 px on its way (the 2S of scene 757735, the 4S of 757717).
    A card not read in a frame is seen only while nothing moves inside its outline."""
    result = faces_bench.run_scene((seed, design, 10.0, False, "clean", False))
    assert result["seen"]["pipeline"][1] == 0
