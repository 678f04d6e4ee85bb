"""The recogniser protocol: a third recogniser, written here in one module and registered in one
line, is chosen from the config and driven by the real pipeline on real rendered frames.

The cards of this test carry a colour code instead of a marker or a printed face: four squares
down the middle of a white card, the first black (it says which end is the start), the other
three each red, yellow, green or blue (64 codes, a card's position in the deck). The recogniser
finds white card-shaped patches in a changed region, reads the squares' colours and names the
card; everything else (the change map, footprints, zones, the tracker) is the pipeline's.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from engine.decks import Deck, get_deck
from engine.errors import InvalidInput
from vision.calibration import Calibration
from vision.config import VisionConfig, load_vision_config
from vision.pipeline import Pipeline, table_events
from vision.recognisers import RECOGNISERS, Found, Outline, Region, Traits, make_recogniser
from vision.sim.script import parse_script
from vision.sim.synthetic import DEFAULT_ZONES, Effects, SyntheticCamera, expected_events

#: The code colours (BGR) and their hues in OpenCV's HSV (0-179).
PALETTE = {"red": ((30, 30, 220), 0), "yellow": ((30, 220, 230), 30), "green": ((40, 180, 40), 60),
           "blue": ((220, 60, 30), 120)}
BLACK = (25, 25, 25)
CARD_MM = (63, 88)
#: The squares' centres down the card, in shares of its length from its middle.
STEPS = [(i - 1.5) * 16 / 88 for i in range(4)]
#: A card is followed by its outline shrunk this much (the pipeline reaches CARD_REACH around it).
SHARE = 1 / 2.2


def code_of(index: int) -> list[str]:
    names = list(PALETTE)
    return [names[index // 16], names[index // 4 % 4], names[index % 4]]


def colour_card(deck: Deck):
    """``card_image`` for the synthetic camera: a white card with its colour code."""

    def draw(card, px_per_mm: float) -> np.ndarray:
        w, h = round(CARD_MM[0] * px_per_mm), round(CARD_MM[1] * px_per_mm)
        image = np.full((h, w, 3), 240, np.uint8)
        side = 14 * px_per_mm
        colours = [BLACK] + [PALETTE[name][0] for name in code_of(deck.cards.index(card))]
        for step, colour in zip(STEPS, colours):
            x, y = w / 2, h / 2 + step * h
            cv2.rectangle(image, (round(x - side / 2), round(y - side / 2)), (round(x + side / 2), round(y + side / 2)),
                          colour, -1)
        return image

    return draw


class ColourCodeRecogniser:
    """The third recogniser: cards of ``deck`` by their colour code."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.traits = Traits()
        self.unread: list[Outline] = []

    def read(self, region: Region) -> list[Found]:
        x0, y0, x1, y1 = region.box
        bgr = region.frame.colour(region.box)
        hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
        white = ((hsv[..., 1] < 60) & (hsv[..., 2] > 140)).astype(np.uint8)
        contours, _ = cv2.findContours(white, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        found = []
        for contour in contours:
            (cx, cy), (a, b), angle = cv2.minAreaRect(contour)
            if min(a, b) < 40 or not 1.2 < max(a, b) / min(a, b) < 1.6:
                continue  # no whole card: a hand, a glint, a card cut by the region's edge
            quad = cv2.boxPoints(((cx + x0, cy + y0), (a, b), angle)).astype(np.float32)
            if region.busy and not region.is_still(region.cells(quad)):
                continue
            card = self._card(bgr, quad - np.float32([x0, y0]))
            region.explain(region.cells(quad))
            if card is None:
                self.unread.append(Outline(quad, "unknown", (40, 40, 230)))
                region.warn(f"I can't read the colour code {where(region.locate((cx + x0, cy + y0)))}")
                continue
            centre = quad.mean(axis=0)
            found.append(Found(card, centre + (quad - centre) * SHARE))
        return found

    def _card(self, bgr: np.ndarray, quad: np.ndarray):
        """The card whose code the squares down ``quad``'s long axis show in ``bgr``, or None."""
        centre = quad.mean(axis=0)
        sides = [quad[1] - quad[0], quad[2] - quad[1]]
        along = max(sides, key=np.linalg.norm)
        samples = []
        for step in STEPS:
            x, y = np.round(centre + step * along).astype(int)
            mean = bgr[max(y - 2, 0):y + 3, max(x - 2, 0):x + 3].reshape(-1, 3).mean(axis=0)
            samples.append(cv2.cvtColor(np.uint8([[mean]]), cv2.COLOR_BGR2HSV)[0, 0].astype(float))
        if samples[-1][2] < samples[0][2]:
            samples.reverse()  # the black square starts the code
        if samples[0][2] > 80 or min(s[1] for s in samples[1:]) < 100:
            return None
        names = [min(PALETTE, key=lambda n: min(abs(s[0] - PALETTE[n][1]), 180 - abs(s[0] - PALETTE[n][1])))
                 for s in samples[1:]]
        index = sum(list(PALETTE).index(n) * 4 ** (2 - i) for i, n in enumerate(names))
        return self.deck.cards[index] if index < len(self.deck.cards) else None

    def outlines(self) -> list[Outline]:
        return self.unread[-8:]


def where(zone: str | None) -> str:
    return "outside the play areas" if zone is None else f"in {zone}"


def recogniser(config: VisionConfig) -> ColourCodeRecogniser:
    return ColourCodeRecogniser(get_deck(config.deck))


def per_card(events) -> dict[str, list[tuple[str, str]]]:
    """(kind, card, zone) triples as each card's (kind, zone) in order."""
    out: dict[str, list[tuple[str, str]]] = {}
    for kind, card, zone in events:
        out.setdefault(card, []).append((kind, zone))
    return out


SCRIPT = """
0.3 place 7C seat1
0.8 place QH centre
1.3 place 2S seat3
2.0 slide QH seat4 0.5
2.4 remove 7C
"""


def test_a_third_recogniser_registered_in_one_line_is_driven_by_the_pipeline(monkeypatch):
    monkeypatch.setitem(RECOGNISERS, "colour code", __name__)  # the one registration line
    config = replace(load_vision_config({"recognition": "colour code"}, "."), zones=DEFAULT_ZONES)
    script = parse_script(SCRIPT)
    effects = Effects(glare=0, lighting=0.2, noise=3, blur=0.7)
    camera = SyntheticCamera("standard", "qr", script, effects=effects, seed=7,
                             card_image=colour_card(get_deck("standard")))
    pipeline = Pipeline(config, calibration=Calibration(np.linalg.inv(camera.homography), camera.resolution, 0.0))
    assert isinstance(pipeline.recogniser, ColourCodeRecogniser)
    inputs = [e for i in range(40) for e in pipeline.process(camera.frame_at(i / 10), i / 10)]
    events = table_events(inputs)
    # Per card, the events come in order (the move and the removal may be decided in either order).
    assert per_card((e.kind, e.card.id, e.zone) for e in events) == \
        per_card((k, c, z) for k, c, z, _ in expected_events(camera, script))
    assert [e.from_zone for e in events if e.kind == "moved"] == ["centre"]
    assert inputs == events and pipeline.stats.decodes < pipeline.stats.frames


def test_a_recognition_nobody_registered_is_refused_naming_the_choices():
    with pytest.raises(InvalidInput, match="vision.recognition: expected one of markers, faces"):
        load_vision_config({"recognition": "colour code"}, ".")
    with pytest.raises(InvalidInput, match="no recogniser called 'colour code': choose one of markers, faces"):
        make_recogniser(VisionConfig(recognition="colour code"))
