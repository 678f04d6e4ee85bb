"""The still-photo reader: every face-up card of one photo named, with no empty table to
compare with (``cardtable vision read``), on synthetic photos of a real design."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from cardtable.cli import main
from engine.cards import parse_card
from vision.faces.designs import element_id, render_card
from vision.faces.photos import BACKGROUNDS, photo_of_table

FACES = ["AS", "10H", "KC", "QD", "7S", "2D", "JH", "5C"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", BACKGROUNDS)
def test_every_card_of_a_table_photo_is_named_and_none_wrong(enrolments, tmp_path, capsys, kind):
    rng = np.random.default_rng(BACKGROUNDS.index(kind))
    cards = [render_card("nicu-white", element_id(parse_card(face))) for face in FACES]
    photo, placed = photo_of_table(rng, cards, size=(2000, 1500), kind=kind)
    cv2.imwrite(str(tmp_path / "table.jpg"), photo)
    enrolments["nicu-white"].save(tmp_path / "deck.npz")
    assert main(["vision", "read", str(tmp_path / "table.jpg"), "--faces", str(tmp_path / "deck.npz"), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    named = [line["card"] for line in lines if line["card"] is not None]
    assert set(named) <= set(FACES[:len(placed)]) and len(named) == len(set(named))  # never a wrong card
    assert len(named) >= len(placed) - 2  # 29 of 32 named on these four photos
    assert all(len(line["outline"]) == 4 and 0 <= line["confidence"] <= 1 for line in lines)


def test_a_photo_that_cannot_be_read_is_said(enrolments, tmp_path, capsys):
    enrolments["standard"].save(tmp_path / "deck.npz")
    (tmp_path / "note.jpg").write_text("not a picture")
    assert main(["vision", "read", str(tmp_path / "note.jpg"), "--faces", str(tmp_path / "deck.npz")]) == 2
    assert "cannot read the photo" in capsys.readouterr().err


@pytest.mark.slow
@given(arrays(np.float32, st.tuples(st.integers(1, 40), st.integers(1, 40), st.integers(1, 4)),
              elements=st.floats(-300, 300, width=32)))
def test_the_colour_distances_a_picture_is_looked_at_by_are_numpys_to_the_bit(vectors):
    """:func:`vision.faces.still.lengths`, taken for ``np.linalg.norm(..., axis=-1)`` where a
    picture's colours are compared (in well under half its time), gives the very same floats:
    an outline found is found where it was."""
    from vision.faces.still import lengths

    assert np.array_equal(lengths(vectors), np.linalg.norm(vectors, axis=-1))


@given(arrays(np.uint8, st.tuples(st.integers(1, 30), st.integers(1, 30), st.just(3))),
       st.tuples(*[st.floats(0, 255, width=32)] * 3))
def test_the_colour_distances_from_a_border_are_those_of_the_pictures_float_copy_to_the_bit(lab, colour):
    """:func:`vision.faces.still.distances` (a picture's Lab colours from its border's, by a
    table of each channel's squares, with no float copy of the picture) gives the very floats
    :func:`vision.faces.still.lengths` gives on the float copy, for any colour, not only whole
    or half levels: the still reader's outlines are found where they were."""
    from vision.faces.still import distances, lengths

    middle = np.float32(colour)
    assert np.array_equal(distances(lab, middle), lengths(lab.astype(np.float32) - middle))


@given(short=st.integers(6, 160), long_=st.integers(0, 80), x=st.integers(8, 60), y=st.integers(8, 60),
       paper=st.integers(170, 255), cloth=st.integers(0, 90))
def test_a_card_of_any_size_found_on_a_plain_cloth_follows_its_edge(short, long_, x, y, paper, cloth):
    """A card's outline however small (a pip or a far card taken for one) is checked like a
    large one: a light card on a plain dark cloth, outlined on its edge, follows it all round
    (a card with a short side under 50 px once found no background beyond it to compare with)."""
    from vision.faces.still import edge_followed

    width, height = short, short + long_
    image = np.full((y + height + 60, x + width + 60, 3), cloth, np.uint8)
    image[y:y + height, x:x + width] = paper
    quad = np.float32([[x, y], [x + width, y], [x + width, y + height], [x, y + height]]) - 0.5
    assert edge_followed(image, quad) == 1.0
