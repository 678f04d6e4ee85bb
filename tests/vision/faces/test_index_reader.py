"""A standard deck nobody enrolled, read by its corner indices (vision.faces.index_reader): the
shipped model loads through OpenCV's DNN module, names cards of designs it never trained on, says
unknown for a corner it cannot read, and never raises on any picture; ``faces = "standard-index"``
makes the table's recogniser use it."""

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
from vision.faces.index_reader import INPUT, RANKS, SUITS, CornerModel, IndexReader, corner_input
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
    assert 0.5 <= model.threshold < 1


#: The held-out designs the model reads; nicu-white's and nicu-ornamental's big indices it does not
#: (their suit lies partly outside the corner it reads): unknown, never wrong (docs/faces.md).
READ = ("gm-paris", "jolly-royal", "penguins")


@pytest.mark.parametrize("design", READ)
def test_clean_cards_of_a_design_never_trained_on_are_named_right(design):
    reader = IndexReader()
    cards = [card.id for card in DECK.cards[::5]]  # every rank, every suit
    readings = {card: reader.read(upright(design, card)) for card in cards}
    named = {card: r.card.id for card, r in readings.items() if r.card is not None}
    assert all(named[card] == card for card in named), named
    # The threshold is strict (0.999, set by the designs the model misreads): a card the model is
    # less sure of is unknown, and the table reads it again on the next frame.
    assert len(named) >= len(cards) // 2, {card: r.why for card, r in readings.items() if r.card is None}


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
