"""The whole pipeline on real rendered frames of the synthetic camera, with the real decoders."""

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration
from vision.config import VisionConfig
from vision.decoders import make_decoder
from engine.table_events import Notice, TableEvent
from vision.pipeline import SAY_AGAIN_AFTER, Pipeline
from vision.sim.script import parse_script
from vision.sim.synthetic import DEFAULT_ZONES, Effects, SyntheticCamera, expected_events

SCRIPT = """
0.3 place 10H seat1
0.6 place QS centre
1.6 hand 2.0 over 10H
4.0 slide QS seat4 0.4
5.4 remove QS
"""


def replay(marker, resolution, script_text, fps=10, decoder=None, end=None, deck="standard"):
    script = parse_script(script_text)
    camera = SyntheticCamera(deck, marker, script, resolution=resolution, seed=3)
    calibration = Calibration(np.linalg.inv(camera.homography), camera.resolution, 0.0)
    config = VisionConfig(deck=deck, marker=marker, decoder=decoder or "zxing", zones=DEFAULT_ZONES)
    pipeline = Pipeline(config, calibration=calibration)
    end = end or max(m.t for m in script) + 3.6
    events = []
    for i in range(int(end * fps)):
        events += pipeline.process(camera.frame_at(i / fps), i / fps)
    return camera, script, pipeline, events


def as_expected(events):
    return [(e.kind, e.card.id, e.zone) for e in events if isinstance(e, TableEvent)]


def told(inputs):
    return [item.text for item in inputs if isinstance(item, Notice)]


@pytest.mark.slow
@pytest.mark.parametrize("marker, resolution", [("qr", "1080p"), ("aruco", "720p")])
def test_place_occlude_slide_remove_gives_exactly_the_right_events(marker, resolution):
    camera, script, pipeline, events = replay(marker, resolution, SCRIPT)
    # Per card, the events come in order; two cards placed close together may swap places.
    assert sorted(as_expected(events), key=lambda e: e[1]) == \
        sorted([(k, c, z) for k, c, z, _ in expected_events(camera, script)], key=lambda e: e[1])
    assert [e.from_zone for e in events if e.kind == "moved"] == ["centre"]
    assert all(e.source == "camera" for e in events)
    assert pipeline.stats.decodes < pipeline.stats.frames  # it does not decode every frame


@pytest.mark.slow
def test_pyzbar_decoder_works_behind_the_same_interface():
    _, _, _, events = replay("qr", "1080p", "0.3 place 7C seat3", decoder="pyzbar", end=1.5)
    assert as_expected(events) == [("placed", "7C", "seat3")]


def test_foreign_code_and_another_deck_are_counted_and_said_not_events():
    # A french40 QR card is another deck's card: counted as foreign and said once, never an event.
    camera = SyntheticCamera("french40", "qr", parse_script("0.2 place 7C seat1"), seed=1)
    calibration = Calibration(np.linalg.inv(camera.homography), camera.resolution, 0.0)
    pipeline = Pipeline(VisionConfig(deck="standard", zones=DEFAULT_ZONES), calibration=calibration)
    events = [e for i in range(15) for e in pipeline.process(camera.frame_at(i / 10), i / 10)]
    assert as_expected(events) == [] and pipeline.stats.foreign_codes >= 1
    assert told(events) == ["A code on the table is not one of this deck's cards: it is ignored"]


def test_a_duplicated_card_is_a_warning_not_two_cards():
    camera = SyntheticCamera("standard", "qr", parse_script("0.2 place 10H seat1"), seed=2)
    calibration = Calibration(np.linalg.inv(camera.homography), camera.resolution, 0.0)
    pipeline = Pipeline(VisionConfig(zones=DEFAULT_ZONES), calibration=calibration)
    events = [e for i in range(10) for e in pipeline.process(camera.frame_at(i / 10), i / 10)]
    # A second 10H appears in seat3 (pasted from the first): still one card, and a warning.
    frame = camera.frame_at(1.0)
    k = pipeline.known["10H"]
    (x0, y0), (x1, y1) = (k.corners.min(axis=0) - 60).astype(int), (k.corners.max(axis=0) + 60).astype(int)
    patch = frame[y0:y1, x0:x1].copy()
    for i in range(10, 20):
        f = camera.frame_at(i / 10)
        f[100:100 + patch.shape[0], 300:300 + patch.shape[1]] = patch
        events += pipeline.process(f, i / 10)
    assert as_expected(events) == [("placed", "10H", "seat1")]
    assert pipeline.stats.duplicates >= 1 and "10H" in told(events)[0]


def test_no_zones_means_the_whole_frame_is_one_zone_and_no_calibration_needed():
    camera = SyntheticCamera("standard", "qr", parse_script("0.2 place AS seat2"), seed=4)
    pipeline = Pipeline(VisionConfig())
    events = [e for i in range(12) for e in pipeline.process(camera.frame_at(i / 10), i / 10)]
    assert as_expected(events) == [("placed", "AS", "table")]


def test_the_pipeline_returns_its_sentences_with_its_events_and_says_one_again_only_after_a_while():
    """No queue of warnings polled from outside: a frame's sentences come back with its events,
    as notices, and the same sentence is said again once :data:`SAY_AGAIN_AFTER` has passed."""
    pipeline = Pipeline(VisionConfig(), calibration=Calibration(np.eye(3), (1280, 720), 0.0))
    frame = np.zeros((1080, 1920, 3), np.uint8)
    said = {now: pipeline.process(frame, now) for now in (0.0, 1.0, SAY_AGAIN_AFTER + 0.5)}
    assert [len(got) for got in said.values()] == [1, 0, 1]
    notice = said[0.0][0]
    assert isinstance(notice, Notice) and notice.source == "camera"
    assert notice.text.startswith("A camera frame could not be used: the calibration was made at 1280x720")
    assert not hasattr(pipeline, "warnings")


def test_frames_that_cannot_be_used_are_counted_and_skipped_never_raised():
    pipeline = Pipeline(VisionConfig(), calibration=Calibration(np.eye(3), (1280, 720), 0.0))
    got = pipeline.process(np.zeros((1080, 1920, 3), np.uint8), 0.0)
    assert "calibrate again" in pipeline.refusal and told(got) == [got[0].text] and "calibrate again" in got[0].text
    camera = SyntheticCamera("standard", "qr", parse_script("0.2 place AS seat2"), resolution="720p", seed=4)
    pipeline = Pipeline(VisionConfig())
    frames = [camera.frame_at(i / 10) for i in range(12)]
    # Another size ("operands could not be broadcast" before), not an image, not 8-bit.
    frames[4:4] = [np.zeros((100, 200, 3), np.uint8), np.zeros((5,), np.uint8), np.zeros((720, 1280), np.float32),
                   np.zeros((720, 1280, 4), np.uint8)]
    events = [e for i, f in enumerate(frames) for e in pipeline.process(f, i / 10)]
    assert as_expected(events) == [("placed", "AS", "table")] and pipeline.stats.bad_frames == 4


def calibrated(camera, **config):
    calibration = Calibration(np.linalg.inv(camera.homography), camera.resolution, 0.0)
    return Pipeline(VisionConfig(zones=DEFAULT_ZONES, **config), calibration=calibration)


def test_a_card_laid_beside_a_hand_that_keeps_moving_is_placed_on_time():
    # A hand hovers (and wobbles) over QS for two seconds; 10H lands just beside it meanwhile.
    # (Before regions beside a moving hand were decoded, 10H waited for the hand: placed at 3.1 s.)
    script = parse_script("0.2 place QS seat1 x=0 y=190\n0.6 hand 2.0 over QS\n0.9 place 10H seat1 x=88 y=190")
    camera = SyntheticCamera("standard", "qr", script, seed=5)
    pipeline = calibrated(camera)
    events = [e for i in range(30) for e in pipeline.process(camera.frame_at(i / 10), i / 10)]
    placed = {e.card.id: e.time for e in events if e.kind == "placed"}
    assert set(placed) == {"QS", "10H"}  # QS once the hand leaves it, at 2.6 s
    assert placed["10H"] <= 0.9 + 1.0  # while the hand still moves beside it
    assert [e.kind for e in events] == ["placed", "placed"]  # nothing removed under the hand


def test_a_small_blurred_code_no_full_frame_decode_reads_is_read_from_the_enlarged_region():
    # A high camera (1.35 m of table across at 1080p: about 2.6 px a module at the far seat),
    # defocus and noise: zxing-cpp on the full frame reads nothing, the enlarged region does.
    effects = Effects(noise=6, blur=1.2, glare=60, lighting=0.4)
    script = parse_script("0.2 place 7C seat3")
    camera = SyntheticCamera("standard", "qr", script, effects=effects, seed=1, view=1.5)
    full = make_decoder("zxing")
    assert not any(full.decode(cv2.cvtColor(camera.frame_at(1 + i / 10), cv2.COLOR_BGR2GRAY)) for i in range(5))
    camera = SyntheticCamera("standard", "qr", script, effects=effects, seed=1, view=1.5)
    pipeline = calibrated(camera)
    events = [e for i in range(15) for e in pipeline.process(camera.frame_at(i / 10), i / 10)]
    assert as_expected(events) == [("placed", "7C", "seat3")]
    assert pipeline.stats.views > pipeline.stats.decodes  # it took more than the plain crop


@pytest.mark.slow
def test_exposure_flicker_and_motion_blur_make_no_false_event_and_no_whole_frame_decodes():
    effects = Effects(flicker=0.15, motion=0.03)
    script = parse_script("0.3 place 10H seat1\n0.9 place QS centre\n1.8 hand 1.5 over QS\n3.8 remove 10H")
    camera = SyntheticCamera("standard", "qr", script, effects=effects, seed=6)
    pipeline = calibrated(camera)
    events = [e for i in range(75) for e in pipeline.process(camera.frame_at(i / 15), i / 15)]
    assert as_expected(events) == [("placed", "10H", "seat1"), ("placed", "QS", "centre"), ("removed", "10H", "seat1")]
    # Levelled to the reference's brightness, a brighter frame is not a change to decode
    # (without it: 95 regions, eight whole frames' worth of pixels).
    assert pipeline.stats.decodes < 40
    assert pipeline.stats.decoded_pixels < 3 * camera.resolution[0] * camera.resolution[1]
