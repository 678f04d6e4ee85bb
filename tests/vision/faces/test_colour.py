"""The colour of a card's print tells its suits apart where the grey picture cannot: a design
printed light on a dark ground (oxygen: white indices and pips on a black or dark red card) is red
or black by its ground, and a red card and a black one that the grey signals alone decided
between are unknown, never one of them."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration
from vision.config import VisionConfig
from vision.faces.designs import DesignArt, write_deck_images
from vision.faces.enrol import enrol_from_images
from vision.faces.features import describe, order_quad, redness, turned, warp_upright
from vision.faces.matcher import BLACK, RED, Matcher, colours
from vision.faces.recogniser import FaceRecogniser
from vision.frames import Frame
from vision.pipeline import Pipeline, table_events
from vision.sim.script import Place
from vision.sim.synthetic import DEFAULT_ZONES, Effects, SyntheticCamera

pytestmark = pytest.mark.slow          # a design rendered and enrolled first

#: The light of a scene of faces_bench's (seed 174563): glare, a wood table, a camera 25 degrees
#: off vertical, in which the 3S of a dark-ground design was named the 3D.
HARSH = Effects(lighting=0.312, glare=118, noise=6.8, blur=1.12, hands=True, jitter=True, motion=0.013, flicker=0.057,
                surface="wood", drift=0.033)


@pytest.fixture(scope="module")
def dark_ground(tmp_path_factory, deck):
    """oxygen (a design nobody tunes to: its cards white on black or on dark red) enrolled from its images."""
    folder = write_deck_images("oxygen", tmp_path_factory.mktemp("oxygen"), deck.faces)
    return enrol_from_images(folder, deck, "oxygen")


def _outline(camera: SyntheticCamera, card: str, t: float) -> np.ndarray:
    """The card's true outline in the camera's picture at ``t`` (px)."""
    import faces_bench

    pose = camera.pose_at(card, t)
    corners = faces_bench._card_corners((pose.x, pose.y, pose.angle), camera.card_image.size_mm)
    return cv2.perspectiveTransform(corners.reshape(-1, 1, 2), camera.homography).reshape(4, 2)


def _seen(camera: SyntheticCamera, card: str, t: float) -> np.ndarray:
    """The card as the camera sees it at ``t``, warped upright from its true outline."""
    return warp_upright(camera.frame_at(t), order_quad(_outline(camera, card, t)))


def test_a_card_printed_light_on_a_dark_ground_has_its_grounds_colour(dark_ground):
    """Enrolled and seen by the camera, oxygen's black cards are black and its red cards red
    (the ink taken as what is darker than the card's paper found none on them: no colour)."""
    cards = {"3S": False, "2S": False, "KC": False, "3D": True, "QH": True, "AD": True}
    for card, red in cards.items():
        assert (dark_ground.cards[card].redness >= RED) == red and (dark_ground.cards[card].redness <= BLACK) != red
    script = [Place(0.1, card, zone) for card, zone in zip(cards, ["seat1", "seat2", "seat3", "seat4", "centre", "seat1"])]
    script[-1] = Place(0.1, "AD", "centre", x=80, y=0, angle=20)
    camera = SyntheticCamera("standard", "qr", script, resolution="1080p", effects=HARSH, seed=5, tilt=20,
                             card_image=DesignArt("oxygen"))
    for card, red in cards.items():
        seen = redness(_seen(camera, card, 1.0))
        assert seen is not None and (seen >= RED if red else seen <= BLACK), (card, seen)


def test_a_red_card_and_a_black_one_are_not_told_apart_without_the_colour(dark_ground):
    """Seen in grey (no colour to measure), oxygen's black threes and twos look like its red ones
    in every corner and in the face: read from outlines up to 2 px off the card's edges, they are
    named right or not at all, never a card of the other colour."""
    matcher = Matcher(dark_ground)
    cards = ["3S", "2S", "3D", "2H"]
    camera = SyntheticCamera("standard", "qr", [Place(0.1, c, z) for c, z in zip(cards, ["seat1", "seat2", "seat3", "seat4"])],
                             resolution="1080p", effects=HARSH, seed=174563, tilt=25.3, card_image=DesignArt("oxygen"))
    grey = cv2.cvtColor(camera.frame_at(1.0), cv2.COLOR_BGR2GRAY)
    rng = np.random.default_rng(0)
    for card in cards:
        for _ in range(12):
            quad = order_quad(_outline(camera, card, 1.0) + rng.uniform(-2, 2, (4, 2)).astype(np.float32))
            upright = warp_upright(grey, quad)
            reading = matcher.read((describe(upright), describe(turned(upright))))
            assert reading.card is None or (reading.card.id[-1] in "HD") == (card[-1] in "HD"), (card, reading)


def test_a_black_card_on_a_dark_ground_is_never_named_as_the_red_card_of_its_rank(dark_ground):
    """faces_bench's scene 174563 on oxygen, its first four cards: the 3S laid while the hand
    bringing the QC passes beside it, in glare, was named the 3D for 48 sightings (its colour
    was measured as the ink darker than the paper, of which its white print has none)."""
    script = [Place(0.3, "4C", "seat3", x=-60, y=-158.76, angle=3.8), Place(0.96, "3C", "seat3", x=-10.2, y=-157.6, angle=7.5),
              Place(1.6, "3S", "seat4"), Place(2.12, "QC", "seat4")]
    camera = SyntheticCamera("standard", "qr", script, resolution="1080p", seed=174563, tilt=25.3, effects=HARSH,
                             card_image=DesignArt("oxygen"))
    pipeline = Pipeline(VisionConfig(zones=DEFAULT_ZONES), calibration=Calibration(np.linalg.inv(camera.homography),
                        camera.resolution, 0.0), recogniser=FaceRecogniser(dark_ground))
    events, seen = [], set()
    for i in range(40):
        jpeg = cv2.imencode(".jpg", camera.frame_at(i / 10), [cv2.IMWRITE_JPEG_QUALITY, 91])[1].tobytes()
        events += pipeline.process(Frame(jpeg=jpeg), i / 10)
        seen |= {s.card.id for s in pipeline.sightings}
    assert seen <= {"4C", "3C", "3S", "QC"}, seen
    assert {"4C", "QC"} <= {e.card.id for e in table_events(events) if e.kind == "placed"}


def test_a_pale_crimson_index_beside_a_gold_ornament_is_red(tmp_path, deck):
    """The defect (issue 22, faces_bench scenes 192275 and 192253, fan 192297: oxygen-air's QH,
    3D and JH missed, the worst design by 0.5 s at 88 %): oxygen-air prints a thin crimson index
    and a gold ornament in its corners. Blurred by the camera, the index's pixels were red by
    less than the 1.3 times asked of a red pixel, and the gold, darker than the paper, counted as
    black print: the QH's corners read 0.14 red, "the colour of the print does not tell the QH
    from the QS". Red print takes much more of the paper's green light than of its red; gold is
    neither red nor black."""
    import faces_bench

    matcher = Matcher(faces_bench.enrolled("oxygen-air")[0])
    cards = {"QH": True, "3D": True, "JH": True, "2H": True, "QS": False, "3C": False, "JS": False, "2C": False}
    zones = ["seat1", "seat2", "seat3", "seat4", "centre"]
    for part in (list(cards)[:5], list(cards)[5:]):
        script = [Place(0.1, card, zone) for card, zone in zip(part, zones)]
        camera = SyntheticCamera("standard", "qr", script, resolution="1080p", effects=HARSH, seed=192275, tilt=23,
                                 card_image=DesignArt("oxygen-air"))
        for card in part:
            seen = redness(_seen(camera, card, 1.0))
            assert seen is not None and (seen >= matcher._red_from if cards[card] else seen <= matcher._black_to), (card, seen)


def test_a_decks_colours_are_its_two_groups_of_red_print():
    """The black cards of some designs carry a red ornament in their corners (nicu-ornamental's:
    a fifth of the print): a deck's cards are red or black by the widest gap between their shares
    of red print, not by one share for every deck, and a view is red only clearly above its
    black cards (their ornament spreading with the camera's blur: up to a quarter more)."""
    shares = np.array([0.0, 0.05, 0.19, 0.2006, 0.227, 0.92, 0.99, 1.0, np.nan])
    colour, black_to, red_from = colours(shares)
    assert list(colour[:-1]) == [0, 0, 0, 0, 0, 1, 1, 1] and np.isnan(colour[-1])
    assert black_to == pytest.approx(0.227 * 1.25) and black_to < red_from < 0.92
    plain, black_to, red_from = colours(np.array([0.0, 0.01, 0.03, 0.48, 0.6, 0.99]))   # a deck printed black and red alone
    assert list(plain) == [0, 0, 0, 1, 1, 1] and black_to == BLACK and red_from == RED


@pytest.fixture(scope="module")
def ornamented(tmp_path_factory, deck):
    """nicu-ornamental (nobody tunes to it): its black cards' corners carry a red curl."""
    folder = write_deck_images("nicu-ornamental", tmp_path_factory.mktemp("ornamental"), deck.faces)
    return enrol_from_images(folder, deck, "nicu-ornamental")


def test_a_black_card_with_a_red_ornament_is_read_as_black(ornamented):
    """faces_bench's scene 439281: nicu-ornamental's 7S, seen by one index corner, its red
    ornament lost to the camera's blur, was read as the 7C: its enrolled share of red print (0.2006)
    made it a red card, out of the running for a black view."""
    matcher = Matcher(ornamented)
    cards = ["7S", "5C", "JS", "3C"]
    camera = SyntheticCamera("standard", "qr", [Place(0.1, c, z) for c, z in zip(cards, ["seat1", "seat2", "seat3", "seat4"])],
                             resolution="1080p", effects=HARSH, seed=439281, tilt=18, card_image=DesignArt("nicu-ornamental"))
    for card in cards:
        upright = _seen(camera, card, 1.0)
        for corner in (0, 3):
            reading = matcher.read_view(upright, np.arange(4) == corner, np.zeros((45, 32), bool))
            assert reading.card is not None and reading.card.id == card, (card, corner, reading)


def test_a_black_card_whose_red_ornament_shows_is_read_as_black(ornamented, deck):
    """The defect (issue 22, nicu-ornamental, a design nobody tuned to): its black cards, seen
    sharp enough for their red curls to show (a fifth of the print, as enrolled), were "the
    colour of the print does not tell the 2S from the 2D", 78 of 306 views of 17 cards: a view
    was black only below 5 % of red print, whatever the deck. A view is black up to as much red
    as the deck's black cards carry."""
    from vision.faces.designs import element_id, render_card
    from vision.faces.enrol import card_quad

    matcher = Matcher(ornamented)
    for card in ("2S", "8S", "10S", "JS", "3S"):
        image = cv2.GaussianBlur(render_card("nicu-ornamental", element_id(deck.card(card).face), 200), (0, 0), 1.0)
        upright = warp_upright(image, order_quad(card_quad(image)))
        assert BLACK < describe(upright).redness
        reading = matcher.read_view(upright)
        assert reading.card is not None and reading.card.id == card, (card, reading)


def test_a_deck_whose_red_print_does_not_fall_in_two_groups_has_no_colours():
    """A German-suited deck (xskat-german: green leaves, yellow bells, red hearts) is not red and
    black: its shares of red print run from 0 to 0.9 with no wide gap, and a split at one share
    cut its bells in two, so a 3 of bells whose print read black under the table's light was
    out of the running (faces_bench's fan 583395). Such a deck says nothing by colour."""
    colour, *_ = colours(np.array([0.0, 0.0, 0.12, 0.17, 0.23, 0.29, 0.39, 0.5, 0.63, 0.75, 0.88, 0.92]))
    assert np.isnan(colour).all()


def test_a_card_whose_colour_is_not_its_suits_has_none():
    """gm-paris's jack of spades has its picture's red in the corner patch (0.48 of the print
    red, the other spades 0.03 at most): its colour is not known, rather than red, so a view of
    it whose red does not show is not out of the running. The other spades stay black."""
    shares = np.array([0.0, 0.0, 0.03, 0.48, 0.7, 0.9, 1.0, 0.6])
    colour, *_ = colours(shares, ["S", "S", "S", "S", "H", "H", "D", "D"])
    assert list(colour[:3]) == [0, 0, 0] and np.isnan(colour[3]) and list(colour[4:]) == [1, 1, 1, 1]


@pytest.fixture(scope="module")
def german(tmp_path_factory, deck):
    """xskat-german (nobody tunes to it) enrolled from its images."""
    folder = write_deck_images("xskat-german", tmp_path_factory.mktemp("german"), deck.faces)
    return enrol_from_images(folder, deck, "xskat-german")


def test_a_card_of_a_deck_not_red_and_black_is_read_whatever_its_print_looks_like(german):
    """faces_bench's fan 583395: xskat-german's 3 of bells, its index in clear view, read 0.01
    red under the table's light (enrolled 0.29) and was taken for a black card: "no enrolled card
    looks like it"."""
    camera = SyntheticCamera("standard", "qr", [Place(0.1, "3D", "seat1")], resolution="1080p", effects=HARSH,
                             seed=583395, tilt=5, card_image=DesignArt("xskat-german"))
    upright = _seen(camera, "3D", 1.0)
    views = tuple(replace(describe(view), redness=0.01) for view in (upright, turned(upright)))
    reading = Matcher(german).read(views)
    assert reading.card is not None and reading.card.id == "3D", reading
