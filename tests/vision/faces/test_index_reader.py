"""A standard deck nobody enrolled, read by its corner indices (vision.faces.index_reader): the
shipped model loads through OpenCV's DNN module, names cards of designs and fonts it never trained
on (big indices too), judges a whole card by its two corners, says unknown for a corner it cannot
read, and never raises on any picture; ``faces = "standard-index"`` makes the table's recogniser
use it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from engine.decks import get_deck
from engine.errors import InvalidInput
from tools import corner_data
from vision.config import parse_vision
from vision.faces.designs import element_id, render_card
from vision.faces.features import UPRIGHT
from vision.faces.index_reader import INPUT, RANKS, SUITS, CornerModel, IndexReader, corner_input, decide
from vision.faces.recogniser import FaceRecogniser, recogniser

DECK = get_deck("standard")

def upright(design: str, card_id: str) -> np.ndarray:
    """A clean rendering of the card, brought to the recogniser's upright view."""
    return cv2.resize(render_card(design, element_id(DECK.card(card_id).face)), UPRIGHT, interpolation=cv2.INTER_AREA)


def test_the_shipped_model_loads_through_opencv_dnn_and_gives_both_heads():
    model = CornerModel()
    assert isinstance(model.net, cv2.dnn.Net)
    ranks, suits = model.probabilities(np.zeros((3, INPUT[1], INPUT[0]), np.float32))
    assert ranks.shape == (3, len(RANKS)) and suits.shape == (3, len(SUITS))
    assert np.allclose(ranks.sum(axis=1), 1, atol=1e-4) and np.allclose(suits.sum(axis=1), 1, atol=1e-4)
    assert 0.5 <= model.agree_threshold <= model.threshold < 1


#: The designs held out of training, the nicu family's big indices among them (the first model's
#: corner cut their suit in half, and read none of their cards).
READ = corner_data.HELD_OUT


@pytest.mark.parametrize("design", READ)
def test_clean_cards_of_a_design_never_trained_on_are_named_right(design):
    reader = IndexReader()
    cards = [card.id for card in DECK.cards[::5]]  # every rank, every suit
    readings = {card: reader.read(upright(design, card)) for card in cards}
    named = {card: r.card.id for card, r in readings.items() if r.card is not None}
    assert all(named[card] == card for card in named), named
    # A card the model is less sure of is unknown, and the table reads it again on the next frame.
    assert len(named) >= 0.5 * len(cards), {card: r.why for card, r in readings.items() if r.card is None}


def test_the_corner_read_holds_the_biggest_index_whole():
    """nicu-white prints the biggest index of the designs (the rank 14 % of the card's height):
    its suit symbol ends inside the corner the model reads, with room to spare for an outline
    found a little off."""
    from vision.faces.index_reader import CORNER_SHARE

    grey = cv2.cvtColor(upright("nicu-white", "QC"), cv2.COLOR_BGR2GRAY)
    column = grey[:, 4:round(0.2 * UPRIGHT[0])] < 128  # the index's column, right of the card's edge
    inked = np.nonzero(column.any(axis=1))[0]
    runs = np.split(inked, np.nonzero(np.diff(inked) > 1)[0] + 1)
    index = runs[0]  # the rank and the suit below it, touching in this column
    assert index[0] < 0.1 * UPRIGHT[1] and index[-1] > 0.35 * UPRIGHT[1], index
    assert index[-1] + 0.03 * UPRIGHT[1] < CORNER_SHARE[1] * UPRIGHT[1], index


@pytest.mark.slow
def test_camera_views_of_held_out_designs_are_named_right_or_unknown_never_wrong():
    rng, reader = np.random.default_rng(11), IndexReader()
    right = wrong = total = 0
    for design in READ:
        for card in DECK.cards[::3]:
            view = corner_data.camera_upright(render_card(design, element_id(card.face)), rng)
            reading = reader.read(view)
            total += 1
            right += reading.card is not None and reading.card.id == card.id
            wrong += reading.card is not None and reading.card.id != card.id
    assert wrong == 0
    assert right >= 0.5 * total, (right, total)  # one view each; the table reads a card again every frame


def read_in_font(font: str, seed: int) -> list[tuple[str, str | None]]:
    """(card id, the card named or None) for one camera view of each card drawn in ``font``."""
    if font not in {f.name for f in corner_data.fonts(held_out=True)}:
        pytest.skip(f"{font} is not installed (apt-get install {' '.join(corner_data.FONT_PACKAGES)})")
    rng, reader = np.random.default_rng(seed), IndexReader()
    said = [(card_id, reader.read(corner_data.camera_upright(face, rng)).card)
            for card_id, face in corner_data.source_cards(font, 1, rng)]
    return [(card_id, None if card is None else card.id) for card_id, card in said]


@pytest.mark.slow
@pytest.mark.parametrize("font", corner_data.HELD_OUT_FONTS)
def test_cards_printed_in_a_font_never_trained_on_are_named_right_or_unknown_never_wrong(font):
    said = read_in_font(font, 12)
    assert [(card_id, card) for card_id, card in said if card is not None and card != card_id] == []
    assert sum(card is not None for _, card in said) >= 0.2 * len(said), said


def test_a_card_under_the_next_card_of_a_fan_is_named_by_its_one_corner():
    rng, reader = np.random.default_rng(13), IndexReader()
    shown = np.array([True, False, False, False])  # the top-left corner alone shows
    said = [(card.id, reader.read(corner_data.camera_upright(render_card("penguins", element_id(card.face)), rng,
                                                            fan=True, length=240), shown).card)
            for card in DECK.cards[1::3]]
    assert [(card_id, card.id) for card_id, card in said if card is not None and card.id != card_id] == []
    assert sum(card is not None for _, card in said) >= 0.25 * len(said), said


@pytest.mark.parametrize("read, named", [
    ([("7S", 0.9), ("7S", 0.9)], "7S"),        # two corners agree: surer than either alone
    ([("7S", 0.9), ("7S", 0.5)], None),        # one of them unsure
    ([("7S", 0.9)], None),                     # one corner alone, not sure enough
    ([("7S", 0.99)], "7S"),                    # one corner alone, sure
    ([("7S", 0.99), (None, 0.99)], "7S"),      # the other corner covered
    ([("7S", 0.9), (None, 0.9)], None),        # no agreement from a corner that reads nothing
    ([("7S", 0.99), ("KH", 0.4)], None),       # two cards: unknown, never a guess
    ([], None),
])
def test_a_whole_card_is_named_by_one_sure_corner_or_two_agreeing(read, named):
    assert decide(read, 0.98, 0.85)[0] == named


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([None, "AS", "10H", "KC"]), st.floats(0, 1)), max_size=2),
       st.floats(0.5, 1), st.floats(0.5, 1))
def test_a_card_named_is_read_in_a_corner_sure_enough_and_contradicted_by_none(read, threshold, agree):
    agree = min(agree, threshold)
    card, confidence, why = decide(read, threshold, agree)
    if card is None:
        assert why and confidence <= 0.5
    else:
        assert why == "" and {c for c, _ in read if c is not None} == {card}
        assert any(p >= threshold for c, p in read) or (len(read) == 2 and min(p for _, p in read) >= agree)


def test_cards_are_drawn_in_many_fonts_none_of_them_held_out():
    training = {f.name for f in corner_data.fonts()}
    assert len(training) >= 15 and not training & set(corner_data.HELD_OUT_FONTS)
    assert not any("Math" in name or "Symbol" in name for name in training)


def test_a_drawn_card_prints_its_index_in_both_corners():
    face = corner_data.font_card("Q", "H", corner_data.fonts()[0], np.random.default_rng(5))
    h, w = face.shape[:2]
    corner = (slice(0, round(0.2 * h)), slice(0, round(0.2 * w)))  # the index, clear of the middle's decoration
    top, bottom = face[corner].astype(int), face[::-1, ::-1][corner].astype(int)
    assert (top < 150).any()
    assert (np.abs(top - bottom).max(axis=2) > 60).mean() < 0.05  # the same but for a border line a pixel off


def test_the_jokers_the_benchmark_reads_print_a_word_and_no_card():
    """The bench's jokers (``corner_data.JOKERS``): held-out designs' and drawn ones, none a card,
    the drawn ones with JOKER printed in the top-left corner and, turned round, the bottom-right."""
    jokers = list(corner_data.source_cards(corner_data.JOKERS, 1, np.random.default_rng(6)))
    assert len(jokers) == 52 and all(card is None for card, _ in jokers)
    face = jokers[0][1]
    h, w = face.shape[:2]
    corner = (slice(round(0.05 * h), h // 2), slice(round(0.05 * w), round(0.2 * w)))  # inside any border
    assert (face[corner] < 150).any() and (face[::-1, ::-1][corner] < 150).any()


@pytest.mark.parametrize("what", ["back", "blank", "blurred", "covered", "oxygen-white"])
def test_a_corner_that_shows_no_clear_index_is_unknown(what):
    reader = IndexReader()
    if what == "back":
        view = cv2.resize(render_card("penguins", "back"), UPRIGHT)
    elif what == "blank":
        view = np.full((UPRIGHT[1], UPRIGHT[0], 3), 235, np.uint8)
    elif what == "blurred":  # far out of focus: the index is a smudge
        view = cv2.GaussianBlur(upright("gm-paris", "8C"), (0, 0), 6)
    elif what == "covered":  # a hand over both index corners
        view = upright("jolly-royal", "5D")
        view[:60, :45] = (120, 150, 200)
        view[-60:, -45:] = (120, 150, 200)
    else:  # a design that prints no rank in its corners
        view = upright("oxygen-white", "9H")
    reading = reader.read(view)
    assert reading.card is None, reading


def test_corners_that_read_as_two_different_cards_name_none():
    view = upright("penguins", "7S")
    view[UPRIGHT[1] // 2:] = cv2.rotate(upright("penguins", "KH"), cv2.ROTATE_180)[UPRIGHT[1] // 2:]
    reader = IndexReader(threshold=0.5)  # each corner alone reads surely: only their disagreement stops it
    assert reader.read(view).card is None
    shown = np.array([False, True, True, True])  # the top-left corner hidden: the other one speaks
    assert reader.read(view, shown).card.id == "KH"
    assert reader.read(view, shown[::-1]).card.id == "7S"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(
    arrays(np.uint8, st.tuples(st.integers(0, 300), st.integers(0, 300))),
    arrays(np.uint8, st.tuples(st.integers(0, 300), st.integers(0, 300), st.sampled_from([1, 3, 4]))),
    arrays(np.float32, st.tuples(st.integers(1, 60), st.integers(1, 60), st.just(3)),
           elements=st.floats(allow_nan=True, allow_infinity=True, width=32))))
def test_any_picture_of_any_size_gives_a_card_or_unknown_never_raises(image):
    reading = IndexReader().read(image)
    assert reading.card is None or reading.card.id in {c.id for c in DECK.cards}
    assert 0.0 <= reading.confidence <= 1.0


def test_corner_input_is_the_models_size_whatever_the_view():
    for shape in [(UPRIGHT[1], UPRIGHT[0]), (300, 200, 3), (20, 14)]:
        patch = corner_input(np.random.default_rng(0).integers(0, 255, shape, dtype=np.uint8))
        assert patch.shape == (INPUT[1], INPUT[0]) and patch.dtype == np.float32


def test_faces_standard_index_makes_the_recogniser_read_by_corner_indices(tmp_path):
    problems: list[str] = []
    config = parse_vision({"recognition": "faces", "faces": "standard-index"}, problems, base_dir=tmp_path)
    assert problems == []
    made = recogniser(config)
    assert isinstance(made, FaceRecogniser) and isinstance(made.enrolment, IndexReader)
    wrong_deck = parse_vision({"recognition": "faces", "faces": "standard-index", "deck": "french40"}, problems)
    with pytest.raises(InvalidInput, match='faces = "standard-index" reads a standard 52-card deck'):
        recogniser(wrong_deck)


@pytest.mark.slow
@pytest.mark.parametrize("design", ["jolly-royal"])
def test_cards_of_a_deck_nobody_enrolled_are_placed_by_the_pipeline(design):
    from test_recogniser import run

    from vision.faces.designs import DesignArt
    from vision.sim.script import Place

    script = [Place(0.3, "KH", "seat1"), Place(1.0, "7C", "seat2"), Place(1.7, "10S", "centre")]
    pipeline, made, events, said = run(IndexReader(), script, DesignArt(design), 4.0)
    assert [(e.kind, e.card.id, e.zone) for e in events] == [
        ("placed", "KH", "seat1"), ("placed", "7C", "seat2"), ("placed", "10S", "centre")]
    assert said == []


@pytest.mark.slow
def test_the_still_reader_names_a_table_photo_of_a_deck_nobody_enrolled(tmp_path, capsys):
    import json

    from cardtable.cli import main
    from vision.faces.photos import photo_of_table

    faces = ["AS", "10H", "KC", "QD", "7S", "2D", "JH", "5C"]
    cards = [render_card("penguins", element_id(DECK.card(face).face)) for face in faces]
    photo, placed = photo_of_table(np.random.default_rng(4), cards, size=(2000, 1500), kind="wood")
    cv2.imwrite(str(tmp_path / "table.jpg"), photo)
    assert main(["vision", "read", str(tmp_path / "table.jpg"), "--faces", "standard-index", "--json"]) == 0
    named = [line["card"] for line in map(json.loads, capsys.readouterr().out.splitlines()) if line["card"]]
    assert set(named) <= set(faces[:len(placed)]) and len(named) == len(set(named))  # never a wrong card
    # The court cards' suits are what the model is least sure of (KC, QD and JH are unknown here).
    assert len(named) >= len(placed) // 2
