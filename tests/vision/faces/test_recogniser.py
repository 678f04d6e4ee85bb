"""Faces through the whole pipeline: the synthetic camera draws a real design, the face recogniser
finds and reads the cards, the tracker makes the events. A card that cannot be read, or a face
already lying elsewhere, becomes a sentence for the table, never a card."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.cards import parse_card
from engine.table_events import Notice
from vision.calibration import Calibration
from vision.changes import ChangeMap
from vision.config import VisionConfig
from vision.frames import Frame
from vision.faces.recogniser import FaceRecogniser, zone_words
from vision.faces.designs import DesignArt, element_id, render_card
from vision.faces.matcher import Reading
from vision.faces.store import Enrolment
from vision.pipeline import Pipeline, table_events
from vision.recognisers import Region
from vision.regions import RegionReader
from vision.sim.script import Hand, Place, Remove, Slide
from vision.sim.synthetic import DEFAULT_ZONES, Effects, SyntheticCamera

pytestmark = pytest.mark.slow          # faces read from rendered frames, a deck's features built first

CALM = Effects(lighting=0.3, glare=60, noise=3, blur=0.7, hands=True)
GLARE = Effects(lighting=0.39, glare=97, noise=6.5, blur=0.9, motion=0.015, hands=True)


def drawn_as(design: str, faces: dict[str, str]):
    """Card images of ``design``, except the cards of ``faces`` (card id -> SVG element)."""
    art = DesignArt(design)

    def card_image(card, px_per_mm):
        if card.id not in faces:
            return art(card, px_per_mm)
        size = (round(63 * px_per_mm), round(88 * px_per_mm))
        return cv2.resize(render_card(design, faces[card.id]), size, interpolation=cv2.INTER_AREA)

    return card_image


def _scene(enrolment: Enrolment, script, card_image, seconds: float, *, grey: bool = False, fps: int = 10,
           effects: Effects = CALM, seed: int = 3, view: float = 1.0, jpeg: int | None = None):
    """The camera of the scene, and its pipeline, recogniser, events and sentences for the table;
    frames sent as JPEG of quality ``jpeg`` when given, as a USB camera sends them."""
    camera = SyntheticCamera("standard", "qr", script, resolution="1080p", effects=effects, seed=seed,
                             card_image=card_image, view=view)
    calibration = Calibration(np.linalg.inv(camera.homography), camera.resolution, 0.0)
    recogniser = FaceRecogniser(enrolment)
    pipeline = Pipeline(VisionConfig(zones=DEFAULT_ZONES), calibration=calibration, recogniser=recogniser)
    events = []
    for i in range(int(seconds * fps)):
        bgr = camera.frame_at(i / fps)
        frame = Frame(grey=cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), colour=lambda bgr=bgr: bgr) if grey else bgr
        if jpeg is not None:
            frame = Frame(jpeg=cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, jpeg])[1].tobytes())
        events += pipeline.process(frame, i / fps)
    said = [item.text for item in events if isinstance(item, Notice)]
    return camera, (pipeline, recogniser, table_events(events), said)


def assert_named_by_half_a_second(camera, events, card: str, laid: float) -> None:
    """``card``, laid at ``laid`` s, was placed within 0.5 s of first lying in clear view (the
    issue's bar, as :mod:`benchmarks.faces_bench` measures it)."""
    clear = camera.in_clear_view(card, laid, hold=0.0)
    named = [e.time for e in events if (e.kind, e.card.id) == ("placed", card)]
    assert named and named[0] <= clear + 0.5, (clear, named)


def run(enrolment: Enrolment, script, card_image, seconds: float, *, grey: bool = False):
    return _scene(enrolment, script, card_image, seconds, grey=grey)[1]


@pytest.mark.parametrize("design", ["dondorf", "nicu-white"])
def test_cards_laid_are_placed_by_their_faces(enrolments, design):
    script = [Place(0.3, "KH", "seat1"), Place(1.0, "7C", "seat2"), Place(1.7, "QS", "centre"),
              Hand(2.4, 1.5, "QS")]
    pipeline, recogniser, events, said = run(enrolments[design], script, DesignArt(design), 5.0)
    assert [(e.kind, e.card.id, e.zone) for e in events] == [
        ("placed", "KH", "seat1"), ("placed", "7C", "seat2"), ("placed", "QS", "centre")]
    assert all(pipeline.confidence[card] >= 0.5 for card in ("KH", "7C", "QS"))
    assert said == []


def test_grey_frames_ask_for_colour_only_inside_a_card(enrolments):
    script = [Place(0.3, "9D", "seat3"), Place(1.0, "9S", "seat4")]
    _, _, events, said = run(enrolments["standard"], script, DesignArt("standard"), 2.5, grey=True)
    assert [(e.card.id, e.zone) for e in events] == [("9D", "seat3"), ("9S", "seat4")]


@pytest.mark.parametrize("stranger", [("nicu-white", "black_joker"), ("dondorf", "joker")])
def test_a_joker_is_told_at_the_table_and_never_becomes_a_card(enrolments, stranger):
    design, element = stranger
    script = [Place(0.3, "AS", "seat1"), Place(1.0, "2C", "seat2")]
    pipeline, _, events, said = run(enrolments[design], script, drawn_as(design, {"2C": element}), 3.0)
    assert [(e.card.id, e.zone) for e in events] == [("AS", "seat1")]
    assert said == ["I can't read the card in front of Seat 2: lift it and lay it again"]


def test_a_face_already_on_the_table_is_refused(enrolments):
    script = [Place(0.3, "KH", "seat1"), Place(1.0, "3D", "seat3")]
    card_image = drawn_as("nicu-white", {"3D": element_id(parse_card("KH"))})
    pipeline, _, events, said = run(enrolments["nicu-white"], script, card_image, 3.0)
    assert [(e.card.id, e.zone) for e in events] == [("KH", "seat1")]
    (warning,) = said
    assert warning.startswith("I can't read the card in front of Seat 3: the ")
    assert warning.endswith("already lies in front of Seat 1; lift it and lay it again")


def test_a_card_back_is_a_face_down_card_without_identity(images, deck, enrolments, tmp_path):
    enrolment = Enrolment(deck, "with back", dict(enrolments["nicu-white"].cards))
    from vision.faces.enrol import features_of_image

    enrolment.back = features_of_image(render_card("nicu-white", "back"))
    script = [Place(0.3, "4S", "centre"), Place(1.0, "5H", "seat1")]
    pipeline, recogniser, events, said = run(enrolment, script, drawn_as("nicu-white", {"4S": "back"}), 3.0)
    assert [(e.face_down, e.card.id, e.zone) for e in events] == [(True, "face-down-1", "centre"),
                                                                  (False, "5H", "seat1")]
    assert len(recogniser.face_down) == 1 and recogniser.face_down[0].card is None
    assert said == []


def test_zones_are_said_as_the_table_says_them():
    assert zone_words("seat2") == "in front of Seat 2"
    assert zone_words("crib") == "in the crib"
    assert zone_words(None) == "outside the play areas"


@pytest.mark.parametrize("card, effects", [("8H", CALM), ("QD", GLARE)])
def test_a_face_card_lifted_is_removed_at_once_by_its_footprint(enrolments, card, effects):
    # A pip card in calm light, and a court card (its middle as dark as the felt) under glare.
    script = [Place(0.3, card, "seat1"), Place(0.3, "JC", "centre"), Remove(1.5, card)]
    camera, (pipeline, _, events, said) = _scene(enrolments["standard"], script, DesignArt("standard"), 3.0, fps=15,
                                           effects=effects, seed=23)
    assert sorted((e.kind, e.card.id, e.zone) for e in events[:2]) == sorted([("placed", card, "seat1"), ("placed", "JC", "centre")])
    assert [(e.kind, e.card.id, e.zone) for e in events[2:]] == [("removed", card, "seat1")]
    pose = camera.pose_at(card, 1.4)
    clear = next(t / 100 for t in range(150, 300) if not camera.covers(pose, t / 100))
    assert events[2].time - clear <= 0.5  # by evidence, not after remove_after (30 s)


def test_a_hand_resting_on_a_face_card_is_not_a_removal(enrolments):
    script = [Place(0.3, "5D", "seat3"), Hand(1.2, 5.0, "5D", still=True)]
    _, (pipeline, _, events, said) = _scene(enrolments["dondorf"], script, DesignArt("dondorf"), 7.0)
    assert [(e.kind, e.card.id, e.zone) for e in events] == [("placed", "5D", "seat3")]
    assert said == []


def test_reads_of_one_card_agree_wherever_its_outline_falls_on_the_pixel_grid(enrolments, deck):
    # (Before: outlines were matched by their centre rounded to 16 px, so a card whose centre
    # wobbled across a multiple of 16 between frames started again at one read, every time.)
    recogniser = FaceRecogniser(enrolments["standard"])
    quad = np.float32([[100, 100], [230, 100], [230, 282], [100, 282]])
    card = deck.card("4S")
    first = recogniser._remember(quad + 3, Reading(card, 0.9))
    second = recogniser._remember(quad - 3, Reading(card, 0.9))
    far = recogniser._remember(quad + 200, Reading(card, 0.9))
    assert (first.count, second.count, far.count) == (1, 2, 1)


@pytest.mark.parametrize("design", ["dondorf", "tigullio-international"])
def test_a_card_laid_partly_on_another_before_that_one_is_read_names_both(enrolments, design):
    """The second card lands on the first one's corner half a second after it: the patch of new
    pixels is two cards overlapping, not card-shaped, and each is fitted by its visible corners."""
    script = [Place(0.3, "7H", "seat3", x=-60, y=-189, angle=-3.5),
              Place(0.82, "7S", "seat3", x=-11.6, y=-179, angle=4.8)]
    pipeline, recogniser, events, said = run(enrolments[design], script, DesignArt(design), 2.5)
    assert sorted((e.kind, e.card.id, e.zone) for e in events) == [("placed", "7H", "seat3"), ("placed", "7S", "seat3")]
    assert not said


def test_two_cards_overlapping_that_arrive_together_are_both_named(enrolments):
    script = [Place(0.3, "QD", "centre", x=-40, y=0, angle=2), Place(0.3, "4C", "centre", x=8, y=10, angle=-6)]
    pipeline, recogniser, events, said = run(enrolments["nicu-white"], script, DesignArt("nicu-white"), 2.0)
    assert sorted((e.kind, e.card.id) for e in events) == [("placed", "4C"), ("placed", "QD")]


def test_a_court_card_laid_on_a_card_already_named_is_named(enrolments):
    """Laid on the 6S once that is known, the JH's white border on the 6S's white is no change:
    the JH is fitted by its corners on the felt, and may reach over the card below."""
    script = [Place(0.3, "6S", "centre", x=-60, y=0, angle=3.5), Place(1.4, "JH", "centre", x=-12.7, y=-11.1, angle=2.9)]
    pipeline, recogniser, events, said = run(enrolments["nicu-white"], script, DesignArt("nicu-white"), 2.8)
    assert [(e.kind, e.card.id) for e in events] == [("placed", "6S"), ("placed", "JH")]
    assert not said


def test_a_red_card_laid_on_a_black_card_of_its_rank_is_named(enrolments):
    """Only the 6D's right corners show; they are red, so the black sixes are out of the running
    even after the rank's other suits are scored again corner by corner."""
    script = [Place(0.3, "6S", "seat1", x=-60, y=189, angle=1.6), Place(0.94, "6D", "seat1", x=-9.4, y=186, angle=4.3)]
    far = Effects(lighting=0.377, glare=40.7, noise=3.8, blur=0.67, hands=True, jitter=True, motion=0.022, flicker=0.045)
    _, (pipeline, recogniser, events, said) = _scene(enrolments["nicu-white"], script, DesignArt("nicu-white"), 2.5,
                                            effects=far, seed=6, view=1.361)
    assert sorted(e.card.id for e in events) == ["6D", "6S"]
    assert not said


def test_a_face_card_slid_to_another_zone_is_one_move(enrolments):
    """Slid off the AS it lay on: its old place must not count as gone before the card is named
    where it landed."""
    script = [Place(0.3, "AS", "seat1", x=-60, y=189, angle=4.1), Place(0.87, "8D", "seat1", x=-13.7, y=196.3, angle=-5.6),
              Slide(2.5, "8D", "seat4", 0.5)]
    effects = Effects(lighting=0.475, glare=55.2, noise=5.4, blur=0.7, hands=True, jitter=True, motion=0.024, flicker=0.041)
    _, (pipeline, recogniser, events, said) = _scene(enrolments["standard"], script, DesignArt("standard"), 4.5,
                                            effects=effects, seed=15, view=1.236)
    assert [(e.kind, e.card.id, e.zone) for e in events if e.card.id == "8D"] == [("placed", "8D", "seat1"),
                                                                                ("moved", "8D", "seat4")]


def test_a_spade_whose_small_pips_say_nothing_on_the_whole_face_is_named_by_its_corners(enrolments):
    """Dondorf's 3S: its corners tell it from the 3C clearly; its whole face, shrunk, hardly at
    all. A signal that hardly tells two cards apart abstains rather than vetoes."""
    effects = Effects(lighting=0.374, glare=65.5, noise=6.4, blur=1.06, hands=True, jitter=True, motion=0.02, flicker=0.052)
    script = [Place(0.3, "10C", "seat3", x=-60, y=-189, angle=-0.95), Place(1.04, "AD", "seat3", x=-12.18, y=-189.56, angle=1.33),
              Place(1.81, "3S", "seat2")]
    _, (pipeline, recogniser, events, said) = _scene(enrolments["dondorf"], script, DesignArt("dondorf"), 2.6,
                                            effects=effects, seed=0, view=1.054, jpeg=87)
    assert ("placed", "3S") in [(e.kind, e.card.id) for e in events]


def test_a_club_on_a_card_whose_corners_near_it_are_hidden_is_never_read_as_the_spade(enrolments):
    """The standard 9C laid on the 6S: its corners over the 6S are not read (either card may lie
    on top), and the small pip of its last index looked like a spade's. The rest of its face,
    shown, has a club's big pips: never the 9S."""
    effects = Effects(lighting=0.48, glare=104.1, noise=6.46, blur=0.69, hands=True, jitter=True, motion=0.013, flicker=0.071)
    script = [Place(0.3, "6S", "seat3", x=-60, y=-189, angle=2.92), Place(1.08, "9C", "seat3", x=-13.47, y=-180.31, angle=-7.87)]
    _, (pipeline, recogniser, events, said) = _scene(enrolments["standard"], script, DesignArt("standard"), 2.2,
                                            effects=effects, seed=183, view=1.284, jpeg=82)
    assert {e.card.id for e in events} <= {"6S", "9C"}


def test_a_card_laid_where_another_was_named_and_taken_away_is_read_afresh(enrolments):
    """Before: the outline's record kept the KC's name, and the 4H laid on its spot had 'named
    two cards', refused every time."""
    script = [Place(0.3, "KC", "seat1", x=0, y=180, angle=0), Remove(1.5, "KC"), Place(2.5, "4H", "seat1", x=0, y=180, angle=0)]
    pipeline, recogniser, events, said = run(enrolments["nicu-white"], script, DesignArt("nicu-white"), 3.6)
    assert [(e.kind, e.card.id) for e in events] == [("placed", "KC"), ("removed", "KC"), ("placed", "4H")]
    assert not said


def test_a_card_whose_face_once_vetoed_its_corners_is_never_named_by_its_corners_alone(enrolments):
    """Dondorf's 10S alone: its corners said 10C, its whole face 10S, so nothing was named. Once
    the AD covered its right corners, the face shown was too little to veto, and the corners
    named the 10C for the rest of the scene. The face's word stays with the outline: the card is
    refused in words, and the AD on it is still named."""
    effects = Effects(lighting=0.326, glare=91.6, noise=3.06, blur=0.713, hands=True, jitter=True, motion=0.029, flicker=0.063)
    script = [Place(0.3, "10S", "seat3", x=-60, y=-189, angle=-3.77), Place(1.03, "AD", "seat3", x=-9.24, y=-187.89, angle=-4.03)]
    _, (pipeline, recogniser, events, said) = _scene(enrolments["dondorf"], script, DesignArt("dondorf"), 2.2,
                                            effects=effects, seed=132, view=1.019, jpeg=87)
    assert "10C" not in {e.card.id for e in events}
    assert ("placed", "AD") in [(e.kind, e.card.id) for e in events]


def test_a_card_is_named_while_the_hand_bringing_the_next_passes_beside_it(enrolments):
    """The standard QH in clear view at 0.5 s, and the hand bringing the KS next to it already
    moving past its corner: the cells near that hand moved, so the QH's patch lost them and was
    no card's shape, and no outline with a moving cell was read. It was named at 1.3 s, once
    both cards lay still. The corners lying still name it; those the hand moves over are hidden."""
    effects = Effects(lighting=0.436, glare=96.4, noise=4.37, blur=1.09, hands=True, jitter=True, motion=0.032, flicker=0.02)
    script = [Place(0.3, "QH", "seat1", x=-60, y=189, angle=-3.67), Place(0.83, "KS", "seat1", x=-9.63, y=189.74, angle=3.21)]
    camera, (pipeline, recogniser, events, said) = _scene(enrolments["standard"], script, DesignArt("standard"), 1.5,
                                                 effects=effects, seed=99, view=1.087, jpeg=74)
    assert_named_by_half_a_second(camera, events, "QH", 0.3)


def test_a_card_with_a_border_line_is_outlined_at_its_edge_not_at_the_line(enrolments):
    """Dondorf prints a black line a millimetre or two inside each card's edge. The outline was
    moved onto that line (it steps more than the felt to the card's white), 2.4 mm inside the
    card: the 8S's corners, cut, read as the 8C and the 5S, and the card was refused."""
    effects = Effects(lighting=0.439, glare=60.2, noise=3.3, blur=0.635, hands=True, jitter=True, motion=0.026, flicker=0.044)
    script = [Place(0.3, "8S", "centre", x=-60, y=0, angle=-3.1)]
    _, (pipeline, recogniser, events, said) = _scene(enrolments["dondorf"], script, DesignArt("dondorf"), 1.5,
                                            effects=effects, seed=168, view=1.396, jpeg=82)
    assert [(e.kind, e.card.id) for e in events] == [("placed", "8S")]
    assert not said


def test_a_read_no_card_looks_like_names_no_card_for_its_outline(enrolments):
    """Tigullio's 9C laid on the 4H, read as the 9C, then once with the hand leaving over it as
    nothing like any card (best 0.82): that read's whole face still 'looked more like' another
    card, which was kept as a second name, and the 9C was refused when read again."""
    effects = Effects(lighting=0.345, glare=82.95, noise=6.2, blur=0.823, hands=True, jitter=True, motion=0.028, flicker=0.055)
    script = [Place(0.3, "4H", "centre", x=-60, y=0, angle=-4.71), Place(0.94, "9C", "centre", x=-8.34, y=3.58, angle=6.41)]
    _, (pipeline, recogniser, events, said) = _scene(enrolments["tigullio-international"], script, DesignArt("tigullio-international"),
                                            2.0, effects=effects, seed=5, view=1.165, jpeg=82)
    assert [(e.kind, e.card.id) for e in events] == [("placed", "4H"), ("placed", "9C")]
    assert not said



def test_a_face_seen_with_corners_hidden_names_no_card_for_its_outline(enrolments):
    """Tigullio's 7D laid on the 8S, its left corners over the 8S not read: from its two small
    indices the corners said 9D, and the face, half shown, 'looked more like' the 4D. That face
    was kept as a name for the outline, and the 7D, read right, was refused."""
    effects = Effects(lighting=0.491, glare=120.4, noise=3.43, blur=0.76, hands=True, jitter=True, motion=0.019, flicker=0.031)
    script = [Place(0.3, "8S", "seat3", x=-60, y=-189, angle=-2.02), Place(0.82, "7D", "seat3", x=-11.57, y=-188.99, angle=-0.79),
              Place(1.33, "5D", "centre")]
    _, (pipeline, recogniser, events, said) = _scene(enrolments["tigullio-international"], script, DesignArt("tigullio-international"),
                                            2.2, effects=effects, seed=73, view=1.36, jpeg=73)
    assert sorted((e.kind, e.card.id) for e in events) == [("placed", "5D"), ("placed", "7D"), ("placed", "8S")]
    assert not said


def test_a_misread_beside_a_moving_hand_does_not_make_the_card_a_contradiction(enrolments):
    """The standard 9C slid off the QS to Seat 3, where the QC and 4C lie: as it landed, with the
    hand still on it, two corners read it as the 9S. That read named the 9S for the outline, so
    the 9C, read right a frame later, was refused, and its old place counted as removed."""
    effects = Effects(lighting=0.329, glare=55.0, noise=3.21, blur=1.163, hands=True, jitter=True, motion=0.023, flicker=0.03)
    script = [Place(0.3, "QS", "centre", x=-60, y=0, angle=2.56), Place(0.83, "9C", "centre", x=-8.58, y=3.14, angle=-4.11),
              Place(1.39, "QC", "seat3"), Place(1.91, "9D", "seat1"), Place(2.5, "4C", "seat3"), Hand(3.56, 2.0, "QS"),
              Slide(5.96, "9C", "seat3", 0.5)]
    _, (pipeline, recogniser, events, said) = _scene(enrolments["standard"], script, DesignArt("standard"), 7.3,
                                            effects=effects, seed=119, view=1.2, jpeg=76)
    assert ("moved", "9C", "seat3") in [(e.kind, e.card.id, e.zone) for e in events]
    assert "9S" not in {e.card.id for e in events} and not said


def test_a_card_whose_patch_lost_a_strip_is_fitted_at_the_size_of_the_deck_on_the_table(enrolments):
    """Tigullio's 2C laid beside the 9C at Seat 1: its patch lost a strip along one side and
    fitted a bridge card (57 mm) as well as a poker card; the narrower outline read as the 2S
    by its corners and the 2C by its face, and the card was refused. Five poker cards were
    already named: the deck on the table is a poker deck."""
    effects = Effects(lighting=0.436, glare=50.3, noise=5.58, blur=0.756, hands=True, jitter=True, motion=0.023, flicker=0.024)
    script = [Place(0.3, "KD", "centre", x=-60, y=0, angle=-4.65), Place(1.1, "6S", "centre", x=-11.37, y=6.94, angle=7.72),
              Place(1.73, "AC", "seat3"), Place(2.51, "4C", "seat4"), Place(3.11, "9C", "seat1"), Place(3.59, "2C", "seat1")]
    _, (pipeline, recogniser, events, said) = _scene(enrolments["tigullio-international"], script, DesignArt("tigullio-international"),
                                            4.8, effects=effects, seed=37, view=1.205, jpeg=88)
    assert sorted(e.card.id for e in events) == ["2C", "4C", "6S", "9C", "AC", "KD"]
    assert not said


def test_a_card_whose_edge_is_a_dark_line_is_outlined_at_its_size_and_never_misread(enrolments):
    """Dondorf draws each card's edge as a dark line, on dark felt hardly a step: the 10S laid
    on the AH was outlined 1.2 to 1.8 mm inside all round, and its two corners in view named
    the 10C, surely, twice: a wrong card. The outline is made the deck's card size about its
    centre."""
    effects = Effects(lighting=0.463, glare=58.1, noise=3.41, blur=0.827, hands=True, jitter=True, motion=0.02, flicker=0.023)
    script = [Place(0.3, "AH", "seat1", x=-60, y=189, angle=-0.04), Place(1.02, "10S", "seat1", x=-13.4, y=189.21, angle=5.49),
              Place(1.67, "7H", "centre")]
    _, (pipeline, recogniser, events, said) = _scene(enrolments["dondorf"], script, DesignArt("dondorf"), 2.5,
                                            effects=effects, seed=32, view=1.13, jpeg=72)
    assert "10C" not in {e.card.id for e in events}
    assert ("placed", "10S") in [(e.kind, e.card.id) for e in events]


def test_a_card_named_in_one_region_of_a_frame_stays_on_the_table_read_in_the_next(enrolments):
    """Nicu-white's KC was named in one region of a frame while the hand that laid it left through
    another. Reading that second region took every card not yet known to the pipeline off the
    table as explained, the KC too (the pipeline learns the cards of a frame after all its
    regions): the 6H laid on it, its white on the KC's white, lost a strip that the KC no longer
    explained, was never fitted, and never named."""
    effects = Effects(lighting=0.466, glare=52.6, noise=6.9, blur=0.791, hands=True, jitter=True, motion=0.027, flicker=0.001)
    script = [Place(0.3, "KC", "seat1", x=-60, y=189, angle=4.77), Place(0.81, "6H", "seat1", x=-11.74, y=180.22, angle=-6.7)]
    _, (pipeline, recogniser, events, said) = _scene(enrolments["nicu-white"], script, DesignArt("nicu-white"), 2.0,
                                            effects=effects, seed=30, view=1.323, jpeg=90)
    assert [(e.kind, e.card.id) for e in events] == [("placed", "KC"), ("placed", "6H")]
    assert not said


def test_a_court_card_whose_middle_looks_like_the_felt_is_fitted_on_the_card_below(enrolments):
    """The standard KS laid on the 9C: its left strip, white on the 9C's white, and parts of its
    court art, grey as the felt, were not new; the card fitted at its corners lay only 84 % in
    what arrived or was named there, and it was never read. What arrived has no holes."""
    effects = Effects(lighting=0.335, glare=106.4, noise=5.32, blur=1.131, hands=True, jitter=True, motion=0.023, flicker=0.046)
    script = [Place(0.3, "9C", "seat3", x=-60, y=-189, angle=2.54), Place(0.99, "KS", "seat3", x=-9.77, y=-179.86, angle=6.53)]
    _, (pipeline, recogniser, events, said) = _scene(enrolments["standard"], script, DesignArt("standard"), 2.0,
                                            effects=effects, seed=87, view=1.213, jpeg=86)
    assert [(e.kind, e.card.id) for e in events] == [("placed", "9C"), ("placed", "KS")]
    assert not said


def test_a_card_read_once_is_read_again_while_the_next_hand_passes_over_part_of_it(enrolments):
    """Dondorf's AS on the 10D, read once, surely, at 1.1 s; the hand bringing the QS then moved
    over part of it, and an outline read once was read again only with every cell still. It was
    named at 1.7 s, 0.74 s after it lay in clear view."""
    effects = Effects(lighting=0.388, glare=61.2, noise=3.43, blur=0.779, hands=True, jitter=True, motion=0.022, flicker=0.047)
    script = [Place(0.3, "10D", "seat3", x=-60, y=-189, angle=2.88), Place(0.81, "AS", "seat3", x=-13.01, y=-177.77, angle=5.05),
              Place(1.32, "QS", "centre")]
    camera, (pipeline, recogniser, events, said) = _scene(enrolments["dondorf"], script, DesignArt("dondorf"), 2.0,
                                                 effects=effects, seed=124, view=1.068, jpeg=76)
    assert_named_by_half_a_second(camera, events, "AS", 0.81)


def test_a_face_clearly_for_one_suit_overrules_corners_hardly_for_the_other(enrolments):
    """Nicu-white's 2S beside the AC, one corner under it: its other corners leaned to the 2C
    (+0.33), its face, shown, was clearly the 2S (-0.8); the two disagreed, nothing was named
    until a hand came by and other corners were read, 0.57 s after clear view."""
    effects = Effects(lighting=0.466, glare=52.6, noise=6.9, blur=0.791, hands=True, jitter=True, motion=0.027, flicker=0.001)
    script = [Place(0.3, "KC", "seat1", x=-60, y=189, angle=4.77), Place(0.81, "6H", "seat1", x=-11.74, y=180.22, angle=-6.7),
              Place(1.32, "AC", "seat3"), Place(1.78, "2S", "seat3"), Place(2.54, "JC", "centre")]
    camera, (pipeline, recogniser, events, said) = _scene(enrolments["nicu-white"], script, DesignArt("nicu-white"), 2.6,
                                                 effects=effects, seed=30, view=1.323, jpeg=90)
    assert_named_by_half_a_second(camera, events, "2S", 1.78)
    assert "2C" not in {e.card.id for e in events}


def test_a_card_laid_against_a_known_card_keeps_the_strip_beside_it(enrolments):
    """Dondorf's AH laid against the 3C at Seat 1: the change cells on the 3C's edge, which the
    AH covers only partly, hardly changed, were not dirty, and were taken for the 3C; the AH's
    patch lost a strip beside it, the card fitted at its corners lay in too little of what
    arrived, and it was never named."""
    effects = Effects(lighting=0.478, glare=84.1, noise=6.07, blur=0.986, hands=True, jitter=True, motion=0.033, flicker=0.005)
    script = [Place(0.3, "7D", "seat3", x=-60, y=-189, angle=1.6), Place(0.89, "7C", "seat3", x=-13.53, y=-193.87, angle=6.6),
              Place(1.55, "3C", "seat1"), Place(2.34, "QC", "seat4"), Place(3.01, "2S", "seat4"), Place(3.66, "AH", "seat1")]
    _, (pipeline, recogniser, events, said) = _scene(enrolments["dondorf"], script, DesignArt("dondorf"), 4.8,
                                            effects=effects, seed=196, view=1.313, jpeg=73)
    assert ("placed", "AH") in [(e.kind, e.card.id) for e in events]


def _fan(cards: list[str], step: float, turn: float, t: float = 0.3, lift: float = 1.5, every: float = 0.001) -> list[Place]:
    """A hand fanned to the right in the centre, laid at once (or dealt a card ``every`` seconds):
    each card ``step`` mm right of the one below and ``turn`` degrees more turned, those away from
    the middle ``lift`` mm lower."""
    middle = (len(cards) - 1) / 2
    return [Place(round(t + every * k, 3), card, "centre", x=(k - middle) * step, y=lift * abs(k - middle) ** 2,
                  angle=(k - middle) * turn) for k, card in enumerate(cards)]


@pytest.mark.parametrize("design, cards, step, turn", [
    ("standard", ["JC", "6D", "7D", "6H", "2S"], 16.0, 5.0),
    ("dondorf", ["4D", "8C", "6C", "9C", "AH", "JC"], 14.0, 6.5),
    ("nicu-white", ["10S", "3H", "QC", "8D"], 19.0, 3.5)])
def test_a_fanned_hand_laid_at_once_is_named_card_by_card_from_the_corners_that_show(enrolments, design, cards, step, turn):
    """Of every card but the top one only a strip by its left edge shows, its top-left index
    whole: the patch is no card's shape, and no two long sides of it meet square but the top
    card's. Each card is found by the corner it shows and named by its index alone."""
    _, (pipeline, recogniser, events, said) = _scene(enrolments[design], _fan(cards, step, turn), DesignArt(design), 2.5,
                                                    jpeg=85)
    assert sorted(e.card.id for e in events if e.kind == "placed") == sorted(cards)
    assert {e.kind for e in events} == {"placed"}


@pytest.mark.parametrize("design, cards, step", [
    ("standard", ["JC", "6D", "7D", "6H", "2S"], 13.0),
    ("tigullio-international", ["5S", "JH", "2C", "7D"], 14.0),
    ("nicu-white", ["10S", "3H", "QC", "8D"], 15.0)])
def test_a_row_of_cards_whose_ends_lie_in_line_is_named_card_by_card(enrolments, design, cards, step):
    """The defect (issue 22, faces_bench fans 294038 and 294039, penguins and xskat-french, four
    cards of ten missed): a hand spread in a row, each card on the one before, their ends in
    line, leaves one straight outline along all their tops; the corners of the cards between
    were guessed only where the outline turns, and no guess lay at them. Each card's long side
    shows across the patch: its corner is where that side's line meets the row's end."""
    _, (pipeline, recogniser, events, said) = _scene(enrolments[design], _fan(cards, step, 0.0, lift=0.0),
                                                    DesignArt(design), 2.5, jpeg=85)
    assert sorted(e.card.id for e in events if e.kind == "placed") == sorted(cards)
    assert {e.kind for e in events} == {"placed"}


def test_a_card_whose_indices_are_mostly_covered_is_never_named(enrolments):
    """The 9C lies on the 9S, laid together, a few millimetres off it: of the 9S a strip along
    its top and one along its right side show, a sliver of each index. Guesses at its corners
    look like a nine's, and its twin lies on it: the 9S is named by nothing that shows, never
    as another card, and the 9C, whole on top, is."""
    script = [Place(0.3, "9S", "centre", x=0, y=0, angle=0), Place(0.301, "9C", "centre", x=-5, y=7, angle=2)]
    _, (pipeline, recogniser, events, said) = _scene(enrolments["standard"], script, DesignArt("standard"), 2.5, jpeg=85)
    assert [(e.kind, e.card.id) for e in events] == [("placed", "9C")]


@pytest.mark.parametrize("design, cards, step, turn", [
    ("dondorf", ["4D", "8C", "6C", "9C", "AH"], 20.0, 4.0),
    ("nicu-white", ["10S", "3H", "QC", "8D", "5S"], 19.0, 3.5)])
def test_a_fan_dealt_card_by_card_keeps_every_card_whose_index_shows(enrolments, design, cards, step, turn):
    """Each card is named whole as it lands; the next one, laid on it, covers half of it, its
    top-left index still showing. A card covered so by a card named on it is still there: no
    card of the hand is removed, and each is named once."""
    _, (pipeline, recogniser, events, said) = _scene(enrolments[design], _fan(cards, step, turn, every=0.7),
                                                    DesignArt(design), 0.3 + 0.7 * len(cards) + 2.5, jpeg=85)
    assert [(e.kind, e.card.id) for e in events] == [("placed", card) for card in cards]
    assert set(pipeline.known) == set(cards)


@pytest.mark.slow
def test_a_fanned_card_read_by_its_best_fitting_guess_is_named_though_a_worse_one_misreads_it():
    """The defect (issue 22, faces_bench fan 912679, xskat-french, a design nobody tuned to; no
    tuned design's fan showed it): the fan's 9D and AS were each read by two guesses at their
    corner, fitting 0.98 and 0.99, and by a guess 3 px off it that fitted 0.94 and read the 5H
    unsurely. Any other card read at a corner left it unnamed, so the two were never named.
    An unsure read at the corner whose fit is ``SHOWN_RIVAL`` worse than the named one's
    no longer does (another card *named* there still does)."""
    import faces_bench

    result = faces_bench.run_scene((912679, "xskat-french", 10.0, False, "clean", True))
    score = result["scores"]["pipeline"]
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 4
    assert result["seen"]["pipeline"][1] == 0 and score["false"] == 0


@pytest.mark.slow
def test_a_fan_of_a_design_with_no_index_at_the_top_left_expects_only_its_top_card(enrolments):
    """The defect (issue 22, faces_bench, 13 of the 36 fanned cards missed on seed 912664):
    oxygen's designs print the rank in the top-right corner and the suit at the top left, so a
    hand fanned to the right and laid at once shows no card's rank but the top one's; the
    benchmark asked each card whose top-left corner shows to be named. Such a card may be named
    or not; the top card, whole, must be; and each card of a fan dealt one by one, which lay
    whole before the next came."""
    import faces_bench

    script, _, shown = faces_bench.fan_script(912664, DEFAULT_ZONES)      # laid at once
    assert len(shown) > 1 and script[-1].t - script[0].t < 0.1
    oxygen, _ = faces_bench.enrolled("oxygen", "clean")
    assert faces_bench.named_by_what_shows(shown, script, oxygen) == [script[-1].card]
    assert faces_bench.named_by_what_shows(shown, script, enrolments["standard"]) == shown
    dealt, _, shown = faces_bench.fan_script(912667, DEFAULT_ZONES)       # dealt one by one
    assert dealt[-1].t - dealt[0].t > 1 and faces_bench.named_by_what_shows(shown, dealt, oxygen) == shown


@pytest.mark.slow
def test_a_card_of_a_dealt_fan_is_kept_when_the_card_dealt_on_it_was_named_by_its_corner():
    """The defect (issue 22, faces_bench's tuned fan 2013, tigullio-international, dealt one by
    one; and gm-paris's fan 676061): the 4S and the 5D dealt onto the AH were each named by a
    corner it showed, so the table kept of them only that corner as lying on what it overlaps;
    the part of the AH that still showed as laid was looked for outside those corners alone,
    did not match (the two cards lay there), and the AH was removed. What was laid on a card
    covers it by its whole outline (:meth:`vision.faces.finder.Backdrop.laid_on`)."""
    import faces_bench

    result = faces_bench.run_scene((2013, "tigullio-international", 10.0, False, "clean", True))
    score = result["scores"]["pipeline"]
    assert score["false"] == 0 and score["matched"].get("placed", 0) == score["expected"]["placed"]
    assert result["seen"]["pipeline"][1] == 0


@pytest.mark.slow
def test_a_card_named_in_the_read_that_refused_its_outline_is_not_said_unreadable():
    """The defect (issue 22, faces_bench scene 676053, nicu-ornamental: the run's one refusal of
    that design): the 8S's whole outline was read as the 8S, then as the 8C, and refused ("I
    can't read the card in the centre: lift it and lay it again"); in the same read the 8S was
    named by the corner it showed. The table heard that it could not read a card it was told
    of. A refusal is told once the region is read, unless a card was named there."""
    import faces_bench

    result = faces_bench.run_scene((676053, "nicu-ornamental", 10.0, False, "clean", False))
    score = result["scores"]["pipeline"]
    assert result["unknown"]["pipeline"] == 0
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] and score["false"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed, design", [(275149, "oxygen-air"), (275162, "penguins")])
def test_a_card_carried_off_by_a_hand_that_leaves_the_view_between_two_frames_is_removed(seed, design):
    """The defect (issue 22, faces_bench scenes 275149 and 275162, seeds drawn afresh): a hand
    took a card lying near the edge of the view and left the view between two frames. The
    card's place, left bare, still differed from the card the change map remembered there, and
    the few cells where the hand's last motion met that place were taken for the hand, come to
    rest on the card: the card was held under a hand that was gone, never removed (the JH of
    275149) or removed 1.6 s late (the JD of 275162). Cells that show the bare table are no
    hand (:meth:`vision.footprints.Footprint._locate_hand`)."""
    score, wrong, _ = _bench_run(seed, design, False)
    assert score["missed"] == [] and score["unexpected"] == [] and wrong == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed, design", [(275153, "xskat-german"), (275115, "oxygen")])
def test_a_card_whose_print_has_the_tables_grey_is_read_in_clear_view(seed, design):
    """The defect (issue 22, faces_bench scenes 275153 and 275115 on green felt, seeds drawn
    afresh): xskat-german's 10C, slid 0.9 s from seat 2 to seat 4, lay there 0.8 s in clear
    view and was never read ("every corner is hidden"), and its old place, clear, made it
    "removed"; oxygen's 3H, dealt to seat 4, was not read until 10 s later ("the corners in view
    name no card without the face"). The 10C's red pips and the 3H's dark face have the felt's
    grey: they were not new where the card came, and the parts of an outline that are not new
    count as hidden (a hand, a card on top), as were the corners they reach into. A part of the
    outline that is not new but lies inside what is, touching none of its edges, is the card's
    own print: what covers a card comes over its edge."""
    score, wrong, refused = _bench_run(seed, design, False)
    assert score["missed"] == [] and score["unexpected"] == [] and wrong == 0 and refused == 0


@pytest.mark.slow
def test_a_suit_printed_alone_in_a_corner_names_no_card_in_a_deck_enrolled_from_photos():
    """The defect (issue 22, faces_bench scene 639448, oxygen-white enrolled from phone photos,
    seeds drawn afresh): the 2D, dealt alone to the centre, was named the 3D, and 97 sightings
    named it so. Read whole it fitted no enrolled card well enough (0.88-0.90: a photo's
    light), and a patch shaped like a card that reads as none is looked at as what is left of a
    fanned hand: each of its corners as a card showing that corner alone. Its bottom-left
    corner prints a small diamond alone, the same on every diamond; the photos of the deck,
    each lit and cut its own way, are never alike there, so the corner was taken for an index,
    and the 3D's photo fitted it best. A corner names a card alone only where the corner
    opposite prints an index too (:attr:`vision.faces.matcher.Matcher.index_corners`)."""
    score, wrong, _ = _bench_run(639448, "oxygen-white", False, "photo")
    assert wrong == 0 and not any("3D" in event for event in score["unexpected"])


def _bench_run(seed: int, design: str, fan: bool, kind: str = "clean") -> tuple[dict, int, int]:
    """faces_bench's scene (or fan) ``seed`` of ``design``, enrolled from clean images (or the
    pictures of another ``kind``): the pipeline's score, its wrong sightings and the refusals
    it told."""
    import faces_bench

    result = faces_bench.run_scene((seed, design, 10.0, False, kind, fan))
    return result["scores"]["pipeline"], result["seen"]["pipeline"][1], result["unknown"]["pipeline"]


@pytest.mark.slow
def test_a_card_whose_own_reference_is_cut_askew_is_not_named_as_its_rank_in_another_suit():
    """The defect (issue 22, faces_bench --enrol-from crop --designs oxygen, seed 41000, scene
    41010; made while mending xskat-german's small index, caught before it landed): oxygen's
    10H, enrolled from a crop cut askew with the background in it, fits its own reference
    poorly, and was named the 10D in 118 sightings once the best card by the corners was told
    apart from the card of another suit that the whole face looked most like. The suit is the
    corners' to say: the card is unknown, not another card."""
    score, wrong, _ = _bench_run(41010, "oxygen", False, "crop")
    assert wrong == 0 and score["foreign"] == 0


@pytest.mark.slow
def test_a_card_whose_corners_fit_several_cards_alike_is_named_by_the_one_told_apart_from_each():
    """The defect (issue 22, faces_bench --enrol-from photo, fresh seed 418000, scene 418027):
    oxygen's 3C, lying in clear view, its corners fitting the 3D 0.974, the 2S 0.971, the 3S
    0.967 and itself 0.966, was unknown for the whole scene ("the whole face looks like another
    card"): the best two by the corners were told apart, the 3D and the 2S, never the card it
    is. Every card the corners cannot rule out is told apart from each of the others, by the
    corners where the two differ and the face; the one ahead of all is the reading."""
    score, wrong, refused = _bench_run(418027, "oxygen", False, "photo")
    assert wrong == 0 and score["foreign"] == 0 and score["false"] == 0
    assert score["matched"].get("placed", 0) == score["expected"]["placed"]


@pytest.mark.slow
def test_a_court_photographed_upside_down_among_its_rank_is_never_named_as_another_suit():
    """The defect (issue 22, faces_bench scene 322788, nicu-ornamental enrolled from phone
    photos): the QS, lying in clear view, was named the QC (a card not on the table) in 20
    sightings. The design prints its index alike both ways round, so the corners gave no
    reason to turn the QS, photographed upside down among three queens photographed upright;
    its one-headed portrait, the same for every queen, then fitted the QC's better turned than
    its own (:mod:`vision.faces.way_round`). The 3C's long slide in the scene is another matter."""
    score, wrong, _ = _bench_run(322788, "nicu-ornamental", False, "photo")
    assert wrong == 0 and score["foreign"] == 0
    assert score["matched"].get("placed", 0) == score["expected"]["placed"]


@pytest.mark.slow
def test_a_back_framed_inside_a_white_margin_is_a_face_down_card_in_a_scene():
    """The defect (issue 22, faces_bench scene 192278, xskat-french): the face-down 7C, lying
    under the 3D, was refused five times ("I can't read the card in front of Seat 3"); its back
    had been enrolled to the frame printed inside its white margin (``test_enrol_photos``)."""
    score, wrong, refused = _bench_run(192278, "xskat-french", False)
    assert refused == 0 and wrong == 0 and score["false"] == 0
    assert score["matched"].get("placed", 0) == score["expected"]["placed"]


@pytest.mark.slow
def test_a_back_like_the_faces_is_told_from_them_by_its_corners():
    """The defect (issue 22, faces_bench scene 192285, oxygen): the face-down AC, half under the
    6C, was once named the AC (a face-down card named: by chance its own name) and then refused
    ("I can't read the card in front of Seat 1"). Oxygen's back is dark and framed as its faces
    are: its whole face fitted the back 0.89-0.91 but a face 0.84-0.85, under the 0.2 lead a
    back needs, while its corners fitted the back 0.96-0.99 and no face better than 0.90."""
    score, wrong, refused = _bench_run(192285, "oxygen", False)
    assert refused == 0 and wrong == 0 and score["false"] == 0
    assert score["matched"].get("placed", 0) == score["expected"]["placed"]


@pytest.mark.slow
def test_a_fanned_corner_that_shows_whole_is_read_as_a_whole_cards_corner():
    """The defect (issue 22, faces_bench fan 192303, gm-paris): the 3H's index showed whole, the
    next card's edge 13 px of the upright view beyond its corner patch, and the matcher read
    it surely (no other card near), but at 0.956 it fell under the 0.96 a corner alone must fit
    (asked because a corner partly under the next card, its index beside, can read as another
    card), and the corner index model read the 3 as a J: never named. A corner that shows
    whole is read as a whole card's corner is."""
    score, wrong, _ = _bench_run(192303, "gm-paris", True)
    assert wrong == 0 and score["false"] == 0
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 6


@pytest.mark.slow
def test_a_fan_on_a_light_cloth_is_guessed_where_its_cards_differ_from_the_cloth_in_colour():
    """The defect (issue 22, faces_bench fan 583395, xskat-german on a pale checked cloth): in
    grey, the fan's lower half was as light as the cloth, so what differed from the table was its
    top half alone. A card guessed from a corner must lie in what differs, so no guess at the
    corners of the 3D, 7S, 2H or 10H was the card: only the top card was named. Where the frame
    differs from the empty table in colour counts too."""
    score, wrong, _ = _bench_run(583395, "xskat-german", fan=True)
    assert score["matched"].get("placed", 0) >= 3 and score["false"] == 0
    assert wrong == 0


@pytest.mark.slow
def test_a_fanned_cards_corner_a_few_pixels_off_its_outline_names_the_card():
    """The defect (issue 22, faces_bench fan 201179, ancient-egyptians laid at once): the AC, of
    which the top-left corner alone shows, was read from an outline fitted from that corner,
    3 px left of it: so placed, its A fitted the KC and five others better than its own, the AC
    was never aligned ("too unsure between KC and 4C") and never named."""
    score, wrong, _ = _bench_run(201179, "ancient-egyptians", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 4 and score["false"] == 0
    assert wrong == 0


@pytest.mark.slow
def test_what_is_left_of_a_fan_once_its_top_card_is_named_is_read_by_its_corners_though_shaped_like_a_card():
    """The defect (issue 22, faces_bench fan 292567, ancient-egyptians on a checked cloth, laid
    at once; one fan in four of a 44-fan run lost all but its top card so): the top card, the
    6H, was named first and laid on the table as explained; what was left new, the strips of the
    7S, AH, 6S and 2D and a part of the 6H, made a patch 63 x 87 mm, a card's outline. It was
    read as one card, read as none, and its corners were never looked for. A patch shaped like
    a card that reads as no card may be cards showing a corner each."""
    score, wrong, _ = _bench_run(292567, "ancient-egyptians", fan=True)
    assert score["matched"].get("placed", 0) >= 4 and score["false"] == 0
    assert wrong == 0


@pytest.mark.slow
def test_a_fanned_card_read_once_by_its_corner_is_read_again_there_though_the_outline_no_longer_guesses_it():
    """The defect (issue 22, faces_bench fan 292568, gm-paris on a checked cloth, laid at once):
    the 7H and the 8D were each read surely once by the corner they show; in the next frame
    the patch's outline had moved (the 3C beside them named, cells given up as the table) and no
    guess was made at their corners again, so no second read agreed and they were never named.
    A card read once by its corner is read again there, as it was guessed, while it lies still."""
    score, wrong, _ = _bench_run(292568, "gm-paris", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 6 and score["false"] == 0
    assert wrong == 0


@pytest.mark.slow
def test_an_outline_refused_does_not_take_the_card_just_dealt_there_for_the_table():
    """The defect (issue 22, faces_bench fan 292570, konqi-modern dealt one by one on wood): the
    8D, dealt onto the QH a step to its right and turned, was read where the QH had been read
    (the two outlines' centres 15 px apart: one record); the record had named two cards and was
    refused, and refusing it explained every cell of its outline, so the 8D's cells were the
    table before a second read could agree, and the 8D was never named. A refusal is said; the
    cells are given up as any are, after the reads that leave them unexplained."""
    score, wrong, _ = _bench_run(292570, "konqi-modern", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 4 and score["false"] == 0
    assert wrong == 0


@pytest.mark.slow
def test_a_dealt_fans_card_covered_by_the_next_is_kept_though_the_card_under_it_was_named_after_it():
    """The defect (issue 22, faces_bench fan 101420, ancient-egyptians dealt one by one; most of
    the false removals of the fans): the 6C, dealt on the 3D, was named before it; the 3D was
    named a frame later by the corner it shows, and taken to lie on the 6C all over. When the 10C
    was dealt on the 6C, what showed of the 6C beside it (15 % of it, as laid) was looked for
    outside both, too little was left, and the 6C was removed. A card named by its corner lies
    under a card laid before it that still shows as laid where they overlap; and a card covered
    so is kept while a tenth of it shows as laid."""
    score, wrong, _ = _bench_run(101420, "ancient-egyptians", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 4 and score["false"] == 0
    assert wrong == 0


@pytest.mark.slow
def test_a_card_dealt_on_a_fan_is_read_where_it_lies_on_the_cards_named_under_it():
    """The defect (issue 22, faces_bench fan 393943, ancient-egyptians dealt one by one, a design
    nobody tuned to): the JC, dealt on the QH named before it, had all of itself that lies over
    the QH taken as hidden under it (a card named and a card read were in no known order): two
    corners in view, and too little of its face to tell it from the JS ("too unsure between JC
    and JS"); it was never named. A card whose edge shows across another's print lies on it
    (:func:`vision.faces.finder.lies_on`): that card hides nothing of it."""
    score, wrong, _ = _bench_run(393943, "ancient-egyptians", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 5 and score["false"] == 0
    assert wrong == 0


@pytest.mark.slow
def test_a_fanned_cards_corner_is_read_up_to_the_next_cards_edge_where_the_outline_runs_on():
    """The defect (issue 22, faces_bench fan 393951, penguins laid at once, a design nobody tuned
    to): of the AC and the 4C, whose indices show whole and sharp, every guess at the corner
    compared the whole corner patch, the next card's edge and outline across it (the outline
    of the fan ran on along the next card's end side, a little higher, or the guess's end side
    was the long one): 0.91 at best against the 0.96 a corner alone needs, and neither was
    named. Up to the next card's edge, found in the picture running all down the patch, the
    AC's corner fits 0.98."""
    score, wrong, _ = _bench_run(393951, "penguins", fan=True)
    assert score["matched"].get("placed", 0) >= 3 and score["false"] == 0
    assert wrong == 0


@pytest.mark.slow
def test_an_outline_off_a_card_by_its_length_is_not_taken_to_lie_on_the_card_beside_it():
    """The defect (issue 22, faces_bench scene 3028, dondorf, found when cards fitted or named
    were first put in order): an outline fitted 8 mm along a 3C named in a patch of two, its
    long sides on the 3C's, was taken to lie on the other card (its sides showed across it), so
    a corner of it came into view, read as no card four times, and "I can't read the card in
    the centre" was said of a table where every card was named. A card lies on another only
    when each of its sides shows as an edge."""
    score, wrong, unknown = _bench_run(3028, "dondorf", fan=False)
    assert unknown == 0 and wrong == 0


@pytest.mark.slow
def test_a_fanned_cards_corner_is_read_though_a_card_named_under_it_was_laid_there():
    """The defect (issue 22, faces_bench fan 583404, penguins, a design nobody tuned to; laid at
    once): the 2D, named by the corner it showed, was laid on the table as explained by its whole
    outline but the guesses at the other corners, so the 9C's corner, lying on it, was no longer
    new: read once as the 9C, then "every corner is hidden", and never named. The one corner a
    card shows is read whatever was laid under it."""
    score, wrong, _ = _bench_run(583404, "penguins", fan=True)
    assert score["matched"].get("placed", 0) >= 4 and score["false"] == 0
    assert wrong == 0


@pytest.mark.slow
def test_a_card_whose_every_corner_is_hidden_is_not_said_unreadable():
    """The defect (issue 22, faces_bench scene 639749, ancient-egyptians, a design nobody tuned
    to): the 6H was read surely; the next reads of its outline, and of the card beside it, saw
    nothing new at any corner ("every corner is hidden": the card laid already, or under
    another), and four of them made "I can't read the card in front of Seat 1: lift it and lay
    it again". A read that sees no corner is no read of the card, and no miss."""
    score, _, refused = _bench_run(639749, "ancient-egyptians", fan=False)
    assert refused == 0
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] and score["false"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed, design", [(583369, "oxygen-air"), (583403, "oxygen-white")])
def test_a_card_whose_suit_nothing_in_view_tells_is_named_no_other_card(seed, design):
    """The defects (issue 22, faces_bench fans of seed 583364, designs nobody tuned to), each a
    wrong card named and kept (10 and 19 wrong sightings), once the corners' verdict came from
    the pixels where two cards differ most: oxygen-air's JC named the JS, its court corners the
    same on both but for a faint line of the picture; oxygen-white's 2C named the 2S by its
    corners showing the rank alone and per-card sparkles. The corners' verdict must not hang
    on how they are weighed, and a verdict hardly telling the two apart leaves the card unsure."""
    score, wrong, _ = _bench_run(seed, design, fan=True)
    assert wrong == 0 and score["false"] == 0


@pytest.mark.slow
def test_a_fan_dealt_where_the_table_was_read_in_vain_is_named():
    """The defect (issue 22, faces_bench fan 777012, oxygen dealt one by one on casino felt: 0 of
    6 named, no word said): the printed words under a glare spot were read in vain from the
    first frame; the first card came to rest over part of them one read before they were given
    up, and that read gave up the card's part there with them. Its patch lost a corner and was
    never a card's shape again. A try counts for what a cell shows
    (:meth:`vision.changes.ChangeMap.failed`)."""
    score, wrong, _ = _bench_run(777012, "oxygen", fan=True)
    assert score["matched"].get("placed", 0) >= 5 and wrong == 0


@pytest.mark.slow
def test_a_dark_card_dealt_a_few_millimetres_onto_a_dark_card_is_read_where_it_lies_on_it():
    """The defect (issue 22, faces_bench fan 777023, oxygen dealt one by one on felt, 9 mm
    apart: the AC, 2C and JC never named): each card's black face on the black face below
    changed nothing there, and was taken as hidden; the card below, less than a quarter of a
    side away, was taken for the new card itself, so nothing said the new card lay on it. Where
    a card clearly lies on a card named before, what is not new there is its own print."""
    score, wrong, _ = _bench_run(777023, "oxygen", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 5
    assert wrong == 0 and score["false"] == 0


@pytest.mark.slow
def test_a_corner_of_an_outline_read_as_a_card_is_not_read_alone_as_another():
    """The defect (issue 22, faces_bench fan 777028, xskat-german dealt one by one on a cloth: the
    3D named, never laid, 22 wrong sightings): the 5D's outline was read as the 5D by its one
    corner in view, and a guess at that very corner, read alone, as the 3D; the two reads were
    kept apart, and each agreed with itself by the next frame."""
    score, wrong, _ = _bench_run(777028, "xskat-german", fan=True)
    assert wrong == 0 and score["false"] == 0


@pytest.mark.slow
def test_cards_named_nearly_where_a_card_is_dealt_onto_them_hide_none_of_it():
    """Found on the way (issue 22, faces_bench fan 515173, xskat-german dealt one by one on
    casino felt): once the cards named before, lying a few millimetres off, counted as the new
    card's neighbours, those it did not clearly lie on hid all of it but one corner, and that
    corner, read alone, named the 8S the 6S (12 wrong sightings). Such a card came later and
    lies on them: they hide none of it (:data:`vision.faces.recogniser.DEALT_ONTO`)."""
    score, wrong, _ = _bench_run(515173, "xskat-german", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 5
    assert wrong == 0 and score["false"] == 0


@pytest.mark.slow
def test_a_corner_read_near_a_card_named_by_its_corner_is_that_corner_again():
    """Found on the way (issue 22, faces_bench fan 515184, xskat-german laid at once on felt):
    once a card named kept its record against reads a few millimetres off (a card dealt onto
    it is another card), a guess at the 5D's corner, most of its index under the AC named by
    its corner 18 px away, read the 5 as a 3 and named the 3D (9 wrong sightings). Corner
    guesses lie a few pixels apart: a corner read near a card named by its corner is that
    corner again, and another card read there leaves it unnamed."""
    score, wrong, _ = _bench_run(515184, "xskat-german", fan=True)
    assert wrong == 0 and score["false"] == 0


@pytest.mark.slow
def test_a_dealt_card_is_kept_when_the_card_dealt_on_it_is_named_while_the_hand_still_moves_over_it():
    """Found on the way (issue 22, faces_bench fan 777038, xskat-french dealt one by one on felt;
    and quick fan 20744's 10S): once a card dealt a few millimetres onto a card named was read
    whole sooner, the QS was named while the hand that dealt it still moved over the 7C below. The 7C was looked for as covered only while all of it lay still,
    and once the hand had gone nothing was dirty, so no region was read again: the QS's
    footprint covered most of the 7C's, and the 7C was removed. What must lie still is the part
    of it that shows."""
    score, wrong, _ = _bench_run(777038, "xskat-french", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 5
    assert wrong == 0 and score["false"] == 0


@pytest.mark.slow
def test_a_card_named_by_one_corner_is_not_named_again_as_another_by_its_other_corner():
    """The defect (issue 22, faces_bench fan 606077, xskat-german laid at once on wood, a camera
    30 degrees off vertical; a seed drawn at the end of a round): the 9H, the bottom card, was
    named by its bottom-right index; a guess at the same card from the other end read its
    top-left index the other way round, a 9 as a 6. The two reads were one record, refused for
    naming two cards, and the reads after the refusal started afresh: the 6H was named
    (9 wrong sightings). Where a card was named, no guess names another card. (The 8C, its
    small 8 read as a 6 by its top-left corner and as a 9 by its bottom-left one since its long
    side's edge is guessed at too, is refused: it was named before, once the three others were,
    by the strip of it left; docs/faces.md, twenty-seventh round.)"""
    score, wrong, _ = _bench_run(606077, "xskat-german", fan=True)
    assert score["expected"]["placed"] == 4 and score["matched"].get("placed", 0) >= 3
    assert wrong == 0 and score["false"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed, design", [(515153, "gm-paris"), (606075, "penguins")])
def test_a_dealt_card_is_kept_under_the_cards_dealt_on_it(seed, design):
    """The defects (issue 22, faces_bench fans dealt one by one): 515153's 7C was dealt a few
    millimetres onto the 9H, and the QC dealt on it was not read; its place changed and still,
    the 7C was taken for replaced by the 9H below it, which shared three quarters of its place,
    and removed. 606075's 9H had the AD dealt over two thirds of its place, its index still
    showing beside it, and was taken for replaced by the AD. A card that lay there before is
    under it; a card laid on it leaves it in place while what shows beside still shows it."""
    score, wrong, _ = _bench_run(seed, design, fan=True)
    assert score["false"] == 0 and not score["unexpected"]
    assert wrong == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed, design, placed", [(777008, "gm-paris", 5), (777040, "ancient-egyptians", 5)])
def test_a_fanned_card_read_unsurely_by_its_corner_is_named_when_the_index_model_reads_it_there(seed, design, placed):
    """The defect (issue 22, faces_bench fans laid at once, designs nobody tuned to): 777008's 4H
    showed its index whole, blurred; its corner fitted the enrolled 4H's best, at 0.93, where a
    card read by one corner alone must fit 0.96, and its QC's red and black were not told apart
    by the print's colour. 777040's KD fitted 0.98, too unsure between the KD and the AD
    (their corners alike but for the rank). None was named, though the corner index model,
    which reads a rank and a suit, not the enrolled pixels, read each of them at 0.99 and more. The two readers fail apart: a
    card the matcher reads best by that corner and the model reads there too is named."""
    score, wrong, _ = _bench_run(seed, design, fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == placed
    assert wrong == 0 and score["false"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed, design", [(777024, "oxygen-air"), (515179, "oxygen")])
def test_the_top_card_of_a_fan_laid_at_once_is_named_on_a_design_whose_corners_name_no_card(seed, design):
    """The defect (issue 22, faces_bench fans laid at once): oxygen's designs print the rank in
    one corner and the suit in another, so of such a fan only the top card, lying whole, can be
    named. Its patch was fitted at the fan's two ends, the top card one of them, but the tops of
    the cards between lay outside both, so the patch was taken to hold no whole cards, and no
    corner of it could name a card: nothing was read, the 5C (and the KC) never named."""
    score, wrong, _ = _bench_run(seed, design, fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 1
    assert wrong == 0 and score["false"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed, design", [(2026, "nicu-white"), (557569, "gm-paris")])
def test_a_card_whose_rank_the_corner_index_model_reads_in_another_suit_is_not_named(seed, design):
    """The defect (issue 22, faces_bench --tuned fans, seed 2026): nicu-white's 3S, dealt on a
    fan, was found by an outline a few pixels off, its top-left index taken as hidden, so its
    bottom-right corner alone spoke. The corner patch there cut the spade at its tip, and the
    matcher told a spade from a club by that tip: it named the 3C, surely, twice, and the table
    was told of a card not there. The corner index model read the 3S in that corner at 0.9998.
    Likewise gm-paris's 3C in fan 557569 (a design nobody tuned to), named the 3D by its whole
    outline, 13 wrong sightings. When the two readers disagree on the suit, no card is named
    (and the 3S, not aligned at all since six cards fitted better unaligned, is aligned with the
    other suits of its rank)."""
    score, wrong, _ = _bench_run(seed, design, fan=True)
    assert wrong == 0 and score["false"] == 0 and not score["unexpected"]


@pytest.mark.slow
def test_a_fanned_card_lying_named_is_not_named_again_by_a_corner_guessed_elsewhere():
    """The defect (issue 22, faces_bench --tuned fans, seed 2000): in dondorf's fan the 10H lay
    on the 5H, its corner at the 5H's bottom edge. A card guessed with its bottom-right corner
    there, over the 8D and the KC, read the 5H's bottom-left index (dondorf prints one in each
    corner; turned round it is a bottom-right one) and named the 5H there, where the 8D lay,
    though the 5H lay named where it was: 11 wrong sightings, and the 8D's outline refused.
    A card lying named is not named again elsewhere by a corner."""
    score, wrong, unknown = _bench_run(2000, "dondorf", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 5
    assert wrong == 0 and score["false"] == 0 and unknown == 0


@pytest.mark.slow
def test_a_card_whose_reads_disagree_until_its_cells_are_given_up_is_said_not_dropped():
    """The defect (issue 22, faces_bench --quick scene 20730, oxygen-air): the 2H lay alone in
    clear view. Its small crimson rank, blurred, read black, so its reads disagreed (the face
    said the 2H; the colour, a black card): named once, unsure before and after. A sure read
    between unsure ones restarts the count of reads in vain, so it was never refused; but its
    cells, read five times with nothing named, were given up as the table. The card was never
    named nor said: the table silent about a card lying in front of a player. A card read as
    often as the pipeline tries before giving its cells up, and not named, is refused in words."""
    score, wrong, unknown = _bench_run(20730, "oxygen-air", fan=False)
    missed = [m for m in score["missed"] if m.startswith("placed")]
    assert len(missed) <= unknown <= 1, (missed, unknown)    # named, or said
    assert wrong == 0 and score["false"] == 0


@pytest.mark.slow
def test_two_cards_overlapping_under_a_glare_are_both_named():
    """The defect (issue 22, faces_bench scene 157900, oxygen-air on a checked cloth under a
    glare): the 7S, laid over the right side of the 5D, lost its bottom end against the glare,
    and was fitted turned a quarter round at its top-right corner (see
    tests/vision/faces/test_finder.py): neither card was named in the 5 s they lay there, nor
    said."""
    score, wrong, _ = _bench_run(157900, "oxygen-air", fan=False)
    assert not score["missed"] and score["false"] == 0, score
    assert wrong == 0


@pytest.mark.slow
def test_a_back_whose_corners_are_plain_is_a_face_down_card_when_covered_in_part():
    """The defect (issue 22, faces_bench scene 157916, ancient-egyptians on casino felt):
    ancient-egyptians' back is plain but for a picture at its foot. Laid face down with the 3H
    over its right side, it matched the enrolled back at 0.93-0.98 and no face above 0.1, but
    its plain top corners, like any plain patch by chance, correlated -0.95 to 0.07 with the
    back's, so the corners' mean fell short and it was refused ("I can't read the card in the
    centre"), a card lying face down. A corner the back prints nothing on says nothing."""
    score, wrong, unknown = _bench_run(157916, "ancient-egyptians", fan=False)
    assert not score["missed"] and score["false"] == 0 and wrong == 0
    assert unknown == 0


@pytest.mark.slow
def test_a_plain_back_covered_in_part_is_a_face_down_card():
    """The defect (issue 22, faces_bench scene 157911, oxygen-air on wood): oxygen-air's back
    is plain black inside a white border. Laid face down with the next card over part of it, its
    corners fitted the back's at 0.9, but its plain face correlated with the enrolled back's by
    chance alone (0.0-0.37), so it was refused twice ("I can't read the card in front of Seat 1"),
    a card lying face down. A plain back (its middle's grey, kept at enrolment, varies by noise
    alone) is known by a view as plain and as dark where it shows."""
    score, wrong, unknown = _bench_run(157911, "oxygen-air", fan=False)
    assert not score["missed"] and score["false"] == 0 and wrong == 0
    assert unknown == 0


def test_a_plain_back_lit_from_one_side_is_plain():
    """The defect (issue 22, faces_bench scene 392772, oxygen-air on felt, lit from one side):
    the 9C lay face down, whole and in clear view, and was refused three times ("I can't read
    the card in front of Seat 3"): its plain black back's middle varied by 12.9 grey levels, over
    the 12 a plain view may, all of it the light's slope across it (2.7 about the plane that
    fits it). A plain back is plain once the light's slope across it is taken out; a face is not."""
    from vision.faces.features import describe, middle_grey
    from vision.faces.matcher import PLAIN_VIEW

    rng = np.random.default_rng(392772)
    ys, xs = np.mgrid[0:176, 0:126].astype(np.float32)
    black = np.full((176, 126), 255, np.float32)
    black[6:-6, 6:-6] = 27.0                      # a plain black back inside a white border
    face = cv2.cvtColor(cv2.resize(render_card("standard", element_id(parse_card("7H")), 126), (126, 176)),
                        cv2.COLOR_BGR2GRAY).astype(np.float32)
    for card, plain in ((black, True), (face, False)):
        lit = card + 0.2 * xs + 0.35 * ys - 40 + rng.normal(0, 3, card.shape)   # lamp to one side, sensor noise
        grey = middle_grey(describe(np.clip(lit, 0, 255).astype(np.uint8)).soft)
        assert (grey[1] <= PLAIN_VIEW) == plain, grey


@pytest.mark.slow
def test_a_plain_back_lit_from_one_side_in_a_scene_is_a_face_down_card():
    """The same defect in its scene (faces_bench 392772, oxygen-air on felt, a lamp to one side):
    the 9C lying face down, whole, in clear view at 0.9 s. Its middle was not plain as it was
    (12.9 levels), and of its four corners the one the back prints least on (the border's
    rounded corner, 0.23 of the back's corner print, against 0.45-0.65) fitted 0.12 and pulled
    their mean under the bar (0.65). Plain about its plane, its corners weighed by the print the
    back has there (0.74): a back."""
    import faces_bench
    from vision.faces.features import order_quad, warp_upright
    from vision.faces.matcher import Matcher

    seed, design = 392772, "oxygen-air"
    enrolment, _ = faces_bench.enrolled(design)
    view, tilt, effects, quality, _ = faces_bench.faces_conditions(seed)
    script, _ = faces_bench.scene_script("mixed", seed, "standard", foreign=False)
    script, zones = faces_bench.scaled_script(script, DEFAULT_ZONES, view)
    camera = SyntheticCamera("standard", "qr", script, resolution="1080p", seed=seed, view=view, tilt=tilt, effects=effects,
                             zones=zones, card_image=DesignArt(design, face_down={"9C"}))
    frame = cv2.imdecode(cv2.imencode(".jpg", camera.frame_at(0.9), [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    pose = camera.pose_at("9C", 0.9)
    corners = faces_bench._card_corners((pose.x, pose.y, pose.angle), faces_bench.printed_size(design))
    quad = cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float32), camera.homography).reshape(4, 2)
    assert Matcher(enrolment).read_view(warp_upright(frame, order_quad(quad))).face_down

@pytest.mark.slow
def test_a_fanned_card_read_surely_is_not_kept_unnamed_by_a_guess_unsure_between_it_and_another():
    """The defect (issue 22, faces_bench fan 201170, jolly-royal laid at once): the 8C's
    top-left corner was read surely (the 8C, 0.97) at the best-fitted guess, and the corner
    index model read the 8C there; a guess 9 px further off, its patch taking in the next
    card's 3 and diamond, read "too unsure between the 8S and the 8C" and counted as a rival,
    so the 8C was never named. A guess too unsure between another card and the card read,
    where the corner index model reads the card read at both guesses, is no rival."""
    score, wrong, _ = _bench_run(201170, "jolly-royal", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 6 and score["false"] == 0
    assert wrong == 0


@pytest.mark.slow
def test_a_fanned_card_shown_in_part_is_not_taken_for_a_card_face_down():
    """The defect (issue 22, faces_bench fan 251889, ancient-egyptians, once faces were compared
    without the light's slope): a fanned card, its bottom-left corner and 59 % of its face in
    view, was taken for a card laid face down ("placed a face-down card seat1 at 1.10 s"). The
    slope had been taken out over the whole face, the card lying on it included; a face shown
    in part is compared without the plane that fits what shows."""
    score, wrong, _ = _bench_run(251889, "ancient-egyptians", True)
    assert wrong == 0 and score["false"] == 0 and score["unexpected"] == []


@pytest.mark.slow
def test_one_corner_the_deck_shows_no_suit_in_names_a_card_only_with_the_index_model():
    """The defect (issue 22, faces_bench scene 961988, oxygen enrolled from phone photos, once
    its cards were kept one way round): oxygen prints the rank alone at the top right; its 2H,
    a corner of it in view, was named the 2D by that corner in 46 sightings, the 2D said placed
    and removed. A phone-photo enrolment sees no two of its cards alike there (each photo lit
    and cut its own way), so the corner passed for an index. One corner alone that the deck is
    not seen to show the suit in names a card only where the corner index model reads the same
    card there."""
    score, wrong, _ = _bench_run(961988, "oxygen", False, "photo")
    assert wrong == 0 and score["false"] == 0 and score["unexpected"] == []
    assert score["matched"]["placed"] == score["expected"]["placed"]


@pytest.mark.slow
def test_a_fanned_card_whose_top_is_lost_against_a_pale_cloth_is_guessed_where_its_side_ends():
    """The defect (issue 22, faces_bench fan 339924, jolly-royal on a pale checked cloth, a
    fresh seed): the tops of the fan's middle cards were as light as the cloth, so what differed
    from the table stopped in the middle of their indices; a card guessed at its side's edge
    had its corner where that side's line left the patch, across the index, and the QS was
    never named. The edge stops where the corner's rounding starts: the corner is looked for
    there too."""
    score, wrong, _ = _bench_run(339924, "jolly-royal", fan=True)
    assert score["matched"].get("placed", 0) >= 3 and score["false"] == 0
    assert wrong == 0


@pytest.mark.slow
def test_a_card_named_by_its_corner_is_not_taken_for_a_back_by_its_plain_corner():
    """The defect (issue 22, faces_bench fan 133793, ancient-egyptians laid at once, a fresh
    seed; made by the guesses at cards' sides): the AC, named by the corner it showed, was laid;
    an outline fitted to it from the patch then showed only its plain bottom-left corner, which
    read as the deck's back, and a face-down card was placed where the AC lay. Where a card was
    named, an outline showing only some of its corners is that card."""
    score, wrong, _ = _bench_run(133793, "ancient-egyptians", fan=True)
    assert score["false"] == 0 and not score["unexpected"]
    assert wrong == 0


@pytest.mark.slow
def test_a_card_on_top_whose_outline_was_read_is_not_named_by_a_corner_as_if_fanned():
    """The defect (issue 22, faces_bench fan 133803, xskat-german dealt one by one, a fresh
    seed; made by the guesses at cards' sides): the QH, dealt on top, its outline read as the
    QH once, was named in the same frame by its top-left corner guessed at its side's edge, and
    so followed as a fanned card is, by a small quad about its middle; the 7S dealt on it
    covered that middle, and the QH was taken away. A card its outline read where the guess
    lies is named whole, by that outline."""
    score, wrong, _ = _bench_run(133803, "xskat-german", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 3
    assert score["false"] == 0 and not score["unexpected"] and wrong == 0


@pytest.mark.slow
def test_the_top_card_of_a_tight_fan_laid_at_once_is_named_on_a_deck_whose_corners_name_no_card_alone():
    """The defect (issue 22, faces_bench fan 107849, oxygen, a fresh seed): four cards laid at
    once 8 mm apart, on a design whose corners name no card alone (the rank at the top right,
    the suit at the top left); the fan is fitted at its two ends, which overlapped by two
    thirds, and the second was left out: the patch held no whole cards, and the 10S on top,
    lying whole, was never read."""
    score, wrong, _ = _bench_run(107849, "oxygen", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 1
    assert score["false"] == 0 and wrong == 0


@pytest.mark.slow
def test_a_card_lying_alone_in_glare_is_named_by_the_print_of_its_corners():
    """The defect (issue 22, faces_bench fan 294047, oxygen-air dealt one by one on the casino
    felt, 28 degrees off vertical): the 3C lay alone, whole and still, in the table's glare for
    0.7 s and was never named ("no enrolled card looks like it (best 0.70)"): its thin rank fit
    0.94, its three corners of pale ornament, washed out, 0.15-0.5, and each weighed by its
    ink. Whether it is a card of the deck is judged on its print as the corners together
    weigh it, a corner washed out to white saying nothing (test_matcher has the views)."""
    score, wrong, _ = _bench_run(294047, "oxygen-air", fan=True)
    assert score["matched"].get("placed", 0) >= 4 and score["expected"]["placed"] == 5
    assert score["false"] == 0 and wrong == 0


@pytest.mark.slow
def test_a_card_dealt_a_little_onto_a_named_card_leaves_it_lying_under():
    """The defect (issue 22, faces_bench fan 107841, penguins dealt one by one, a fresh seed):
    the 7C, dealt 14 mm onto the 4H, lay with the middle of its face over three fifths of the
    middle of the 4H's and its own print over the rest; that rest, showing the 7C and not the
    4H, was taken for the 4H gone, and the 4H was removed though its index showed beside. The
    pipeline took a named card to reach three quarters of its width (a marker's card about its
    marker); a card named by its face is its outline, and what the card dealt on it covers says
    nothing of the card below."""
    score, wrong, _ = _bench_run(107841, "penguins", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 4
    assert score["false"] == 0 and not score["unexpected"] and wrong == 0


@pytest.mark.slow
def test_a_white_card_dealt_on_white_cards_whose_outline_shows_late_is_read_until_its_reads_agree():
    """The defect (issue 22, faces_bench fan 107829, oxygen-white dealt one by one, a fresh
    seed): the 3D, dealt on top, white on the white cards below, stood out too little for an
    outline at four reads; at the fifth its outline was found and read the 3D once, and the
    pipeline gave its cells up with the table before a second read could agree: never named.
    A read that names a card waiting for its reads to agree is no read in vain."""
    score, wrong, _ = _bench_run(107829, "oxygen-white", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 1
    assert score["false"] == 0 and wrong == 0


@pytest.mark.slow
def test_a_fanned_card_whose_suit_the_corner_index_model_doubts_is_not_named_another_suit():
    """The defect (issue 22, faces_bench fan 967531, nicu-ornamental laid at once on the casino
    felt, a camera 29 degrees off vertical, a fresh seed): the KC showed its top-left index,
    the corner patch taking in only the top lobe of its club; the matcher named it the KS (15
    wrong sightings, a false event) while the corner index model, looking at the whole index,
    read the KC at 0.985, short of the 0.99 it needs to agree. A doubt needs less: the card is
    not named another suit (and a later guess names it the KC)."""
    score, wrong, _ = _bench_run(967531, "nicu-ornamental", fan=True)
    assert wrong == 0 and score["false"] == 0 and not score["unexpected"]
    assert score["matched"].get("placed", 0) >= 5 and score["expected"]["placed"] == 6


@pytest.mark.slow
def test_an_outline_read_as_no_card_where_a_card_was_named_by_its_corner_is_no_card_to_refuse():
    """The defect (issue 22, faces_bench fan 367899, nicu-ornamental dealt one by one): the
    10C, dealt last, was named by the corner it showed; an outline fitted at its place then
    read as no card four times, and the table was told "I can't read the card in the centre:
    lift it and lay it again" of a card it had named. That outline is the card named there."""
    score, wrong, refusals = _bench_run(367899, "nicu-ornamental", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 2
    assert refusals == 0 and wrong == 0 and score["false"] == 0


@pytest.mark.slow
def test_the_cards_of_a_fan_dealt_one_by_one_stay_when_the_next_are_dealt_on_them():
    """The defect (issue 22, faces_bench fan 243973454, xskat-german dealt one by one on wood,
    a camera 27 degrees off vertical, a fresh seed): the 7C and the QS were removed when the AC
    was dealt, their strips of index in view. The 7C, read again by its corner where it lay,
    was no longer taken for a card named (a record read again forgot it had been named); the
    7D, read again where it lay after the QS was dealt on it, was laid anew, last, and taken to
    lie on the QS; and the 6S, named late by its corner, was taken to lie on the 7C, where the
    7D now showed over half of where the two overlap. Each card kept of the three is tested
    apart in test_backdrop."""
    score, wrong, _ = _bench_run(243973454, "xskat-german", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 6
    assert score["false"] == 0 and not score["unexpected"] and wrong == 0


@pytest.mark.slow
def test_cards_dealt_on_a_pale_cloth_outlined_a_few_pixels_off_are_named():
    """The defect (issue 22, faces_bench fan 243973460, oxygen dealt one by one on a pale
    checked cloth, a camera 20 degrees off vertical, a fresh seed): the KD, 10H, 8S and 7H were
    never named, each lying whole for 0.7 s. Each outline lay 3-4 % of the card's length low
    (its white border lost against the cloth, the card below taken in at its foot); the
    corners read each card surely, and the whole face, compared where the outline put it,
    fitted 0.68-0.75: "does not look like the enrolled one" (tested in test_matcher)."""
    score, wrong, _ = _bench_run(243973460, "oxygen", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] == 6
    assert score["false"] == 0 and wrong == 0



@pytest.mark.slow
@pytest.mark.parametrize("seed, card", [(107850, "QC"), (133799, "JC")])
def test_a_pale_card_dealt_on_a_pale_card_named_before_is_read_where_it_lies_on_it(seed, card):
    """The defect (issue 22, faces_bench fans 107850 and 133799, oxygen-air dealt one by one):
    the QC (the JC), dealt on the 5H named before, lay white on white; its edge hardly showed
    across the 5H, so the 5H was taken to lie on it, and its corners there, not new, were
    hidden: the corner left printed the rank alone ("the corners in view name no card without
    the face"). A card named and lying undisturbed does not come to lie on a card that came
    after it: where the frame no longer shows its print as laid, the new card lies on it
    (:meth:`vision.faces.finder.Backdrop.neighbours`, tested apart in test_backdrop)."""
    score, wrong, _ = _bench_run(seed, "oxygen-air", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"], card
    assert score["false"] == 0 and wrong == 0


@pytest.mark.slow
def test_a_card_read_whole_this_frame_is_not_named_by_its_corner_when_read_again():
    """The defect (issue 22, faces_bench --enrol-from photo, fresh seed 210012, scene 210016,
    nicu-ornamental on a checked cloth): the 9C, dealt beside a face-down card, was read by its
    top-left corner in one frame and whole in the next; read again by that corner in the second
    frame, it was named so, and laid as a card lying under all nine guesses made across the
    pair. Its face was learnt nowhere but a strip, the rest stayed new, and outlines fitted
    across the pair were read in vain until the table was told four times "I can't read the card
    in the centre". A card whose outline was read as it this frame is named whole, on every path."""
    score, wrong, refused = _bench_run(210016, "nicu-ornamental", False, "photo")
    assert score["matched"] == score["expected"] and score["false"] == 0 and wrong == 0
    assert refused == 0


@pytest.mark.slow
def test_a_card_read_whole_then_outlined_off_its_edge_on_a_pale_card_is_read_where_it_read():
    """The defect (issue 22, faces_bench --enrol-from photo, fresh seed 210012, scene 210023,
    ancient-egyptians on a checked cloth): the AH, dealt partly onto the pale face-down card,
    was read whole once; from the next frame on its outline was fitted 12 px in on that side
    (white on a pale back, the edge hardly shows; the side went to the line of its index), read
    as no card four times, and the table was told "I can't read the card in the centre". Where
    an outline read as a card not yet named lies, fitted otherwise, that outline is read again."""
    score, wrong, refused = _bench_run(210023, "ancient-egyptians", False, "photo")
    assert score["matched"] == score["expected"] and score["false"] == 0 and wrong == 0
    assert refused == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed, design", [(210028, "oxygen"), (210047, "jolly-royal")])
def test_an_outline_in_a_hand_resting_over_a_pair_is_no_card_to_refuse(seed, design):
    """The defect (issue 22, faces_bench --enrol-from photo, fresh seed 210012; made while a
    pale card dealt on a pale card was mended, caught before it landed): a hand resting still
    over a pair of cards hid the print of both; an outline fitted in the hand was taken to lie
    on the card whose print no longer showed, its corner there in view, and read in vain until
    the table was told "I can't read the card". A card's print gone under the hand's grey is
    no card dealt on it (tested apart in test_backdrop)."""
    score, wrong, refused = _bench_run(seed, design, False, "photo")
    assert score["matched"] == score["expected"] and score["false"] == 0 and wrong == 0
    assert refused == 0


@pytest.mark.slow
def test_a_corner_read_beside_a_rival_is_not_named_when_read_again_alone():
    """The defect (issue 22, faces_bench fans, fresh seed 542983, fan 543015, ancient-egyptians
    on felt; there since before the thirtieth round): the 9S, its corner read surely as the 9S
    by most guesses (the corner index model reading the 9C there), was read by one guess as
    the 9C, unsurely but with the model agreeing. Beside its rivals that guess named nothing,
    and was remembered; read again alone in the next frame (the cards named once by a corner
    are), it was named the 9C: 9 wrong sightings and a card placed that was never there. A
    guess read beside a rival is not named by being read again alone."""
    score, wrong, _ = _bench_run(543015, "ancient-egyptians", fan=True)
    assert score["false"] == 0 and wrong == 0 and score["foreign"] == 0


@pytest.mark.slow
def test_a_fanned_card_whose_small_rank_cannot_be_told_from_another_is_not_named_as_it():
    """The defect (issue 22, faces_bench fans, fresh seed 837600, fan 837627, xskat-german laid
    at once on wood): the 5D, its corner alone in view, was named the 3D (12 wrong sightings, a
    card placed that was never there), and the 3H's other corner read as the 5H. The corners
    are fitted to the view to a tenth of a pixel (tested apart in test_matcher)."""
    score, wrong, _ = _bench_run(837627, "xskat-german", fan=True)
    assert score["false"] == 0 and wrong == 0 and score["foreign"] == 0


@pytest.mark.slow
def test_the_bottom_card_of_a_fan_laid_at_once_is_read_under_the_cards_named_on_it():
    """The defect (issue 22, faces_bench fans, fresh seed 837600, fan 837607, gm-paris laid at
    once on wood): the 3D at the bottom of the fan, its outline fitted and its corner reading
    it surely, was never named: the cards named by their corners on it were taken to cover
    their corners alone, and the rest of its face, under them, looked more like the 2S (tested
    apart in test_backdrop)."""
    score, wrong, _ = _bench_run(837607, "gm-paris", fan=True)
    assert score["matched"] == score["expected"] and score["false"] == 0 and wrong == 0


@pytest.mark.slow
def test_a_fanned_cards_index_as_grey_on_average_as_the_table_is_new():
    """The defect (issue 22, faces_bench fans, fresh seed 898929, fan 898939, penguins laid at
    once on wood in glare): the KS at the bottom of the fan, its index showing whole, was never
    named. The change map compares each 8-pixel cell's mean with the table's, and across the
    narrow strip the KS shows, its big black K on white paper averages to the wood's grey: the
    cells of its corner never changed, so the patch of the fan had its corner cut off, and no
    guess was made there."""
    score, wrong, _ = _bench_run(898939, "penguins", fan=True)
    assert score["matched"] == score["expected"] and score["false"] == 0 and wrong == 0


@pytest.mark.slow
def test_the_bottom_card_of_a_fan_laid_at_once_is_read_under_the_cards_named_by_their_corners_with_it():
    """The defect (issue 22, faces_bench fans, fresh seed 898929, fan 898961, penguins laid at
    once on casino felt): the KH at the bottom of the fan, its index in clear view but for the
    5C's edge across its heart, was never named, and the table was told "I can't read the card
    in the centre". Its outline was fitted whole and read as if nothing lay on it, the strips
    of the 5C, KD, 4C and 2C in its corners (best 0.73): those cards, named by their corners a
    frame before, lay nearly where it lies, and were taken for cards dealt onto it since. A
    card named by the one corner it showed may have come with the card read (a neighbour says
    so, test_backdrop): which lies on which is for their edges to say."""
    score, wrong, refused = _bench_run(898961, "penguins", fan=True)
    assert score["matched"] == score["expected"] and score["false"] == 0 and wrong == 0
    assert refused == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed, design", [(615100, "jolly-royal"), (615136, "oxygen"), (454030, "oxygen")])
def test_every_card_of_a_fan_dealt_card_by_card_is_named(seed, design):
    """The defects (issue 22, faces_bench fans, fresh seed 615096): 615100, jolly-royal dealt card
    by card on a pale checked cloth the camera started on in glare, none of its six cards named
    (the pale squares stood out from the first frame and, found to be the table after all, were
    restored in grey and not in colour: the cards on them were found in neither); 615136,
    oxygen on casino felt, four of six never named (a card's patch fitted twice a few
    millimetres apart, the two fits taken for the two ends of a tight fan, each hiding every
    corner of the other); fresh seed 453993: 454030, oxygen on felt, its KS dealt on the 10H
    taken to lie under it (the KS's own light print covered most of the 10H's pips) and never
    named. Tested apart in test_backdrop and test_finder."""
    score, wrong, refused = _bench_run(seed, design, fan=True)
    assert score["matched"] == score["expected"] and score["false"] == 0 and wrong == 0
    assert refused == 0


def _arrived_after(enrolment: Enrolment, empty: np.ndarray, laid: np.ndarray) -> np.ndarray:
    """The pixels a recogniser looks for cards in (what arrived) once frame ``laid`` (grey)
    has come where the table showed ``empty`` and lain still, as the pipeline hands it over."""
    def camera(grey: np.ndarray) -> Frame:  # a camera's JPEG: the change map sees each cell's mean
        return Frame(jpeg=cv2.imencode(".jpg", grey, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes())

    changes = ChangeMap(backoff=False)
    changes.observe(camera(empty).small(changes.cell), 0.0)
    for now in (0.1, 0.2):
        changes.observe(camera(laid).small(changes.cell), now)
    h, w = laid.shape
    region = Region(camera(laid), (0, 0, w, h), False, number=2, changes=changes,
                    reader=RegionReader(enlarge=False, cell=changes.cell), known={}, to_table=None,
                    locate=lambda point: None, warn=lambda words, at: None, face_down=lambda point, angle: None)
    recogniser = FaceRecogniser(enrolment)
    recogniser.backdrop.ready(camera(empty).grey())
    return recogniser._arrived(region)


def test_what_arrived_takes_in_print_as_grey_on_average_as_the_table(enrolments):
    """The defect (issue 22, faces_bench fan 898939, tested whole above): a card's print whose
    8-pixel cells average to the table's grey (a big black index on white, across a strip)
    changed no cell of the change map. Its pixels are lighter and darker than the table
    both: it arrives with the card."""
    rng = np.random.default_rng(11)
    empty = np.clip(rng.normal(120, 3, (240, 320)), 0, 255).astype(np.uint8)
    laid = empty.copy()
    laid[48:168, 64:150] = 230
    laid[48:88, 64:104][:, (np.arange(40) // 2) % 2 == 0] = 20     # stripes of ink: 125 on average
    arrived = _arrived_after(enrolments["standard"], empty, laid)
    assert arrived[48:168, 64:150].all()


@pytest.mark.slow
def test_a_fanned_card_is_named_though_a_guess_beside_it_reads_another_suit_where_the_index_model_reads_it():
    """The defect (issue 22, faces_bench fans, fresh seed 453993, fan 454025, ancient-egyptians
    laid at once on wood, the camera 14.5 degrees off vertical): the JD was never named. Its
    corner read as the JD, surely, at several guesses, the corner index model reading the JD
    too; a guess 7 px and a degree off read it as the JH, which the model doubted there (it
    read the JD), and that unsure JH was a rival that kept the JD unnamed. Where the model reads
    this card at both guesses, two readers that fail apart agree: no rival."""
    score, wrong, _ = _bench_run(454025, "ancient-egyptians", fan=True)
    assert score["matched"].get("placed", 0) == score["expected"]["placed"] and score["false"] == 0 and wrong == 0


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="known defect, docs/faces.md thirty-eighth round: the rule tried for it cost more than it mended")
def test_a_fanned_card_whose_two_indices_read_as_two_cards_is_not_named():
    """The defect (issue 22, faces_bench fans, fresh seed 998473, fan 998480: xskat-german laid
    at once on casino felt in glare, the camera 22.7 degrees off vertical): the 9S is named
    the 7S, 12 wrong sightings and a false event. Its top-left 9, a few blurred pixels beside
    the next card's edge, fits the 7S's corner surely (0.989); a guess at the same card by its
    bottom-left index reads it best as the 9S, unsurely, and fits less well, so it is no
    rival. One card's two indices naming two cards should leave it unknown; the rule tried
    (another index corner's read a rival, both cards remembered) named fan 998502's 9H the 6H
    and left four more cards of that seed unnamed, and was not kept."""
    score, wrong, _ = _bench_run(998480, "xskat-german", fan=True)
    assert score["false"] == 0 and wrong == 0
    assert score["matched"].get("placed", 0) >= score["expected"]["placed"] - 1
