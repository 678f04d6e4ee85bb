"""Enrolment from images and the enrolment file: every check says what is wrong in words."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_card
from engine.errors import InvalidInput
from vision.faces.designs import DESIGNS, element_id, render_card
from vision.faces.enrol import card_quad, enrol_from_images, face_id
from vision.faces.features import order_quad, warp_upright
from vision.faces.matcher import Matcher
from vision.faces.store import Enrolment, enrolment_path


@pytest.mark.slow
@pytest.mark.parametrize("design", DESIGNS)
def test_a_whole_deck_enrols_from_its_images(enrolments, design):
    enrolment = enrolments[design]
    assert len(enrolment.cards) == 52 and enrolment.missing == []
    corners = np.stack([f.corners for f in enrolment.cards.values()])
    similar = corners @ corners.T
    np.fill_diagonal(similar, 0)
    assert similar.max() < 0.995  # no two cards alike


@pytest.mark.slow
def test_a_missing_card_is_named(images, deck, tmp_path):
    folder = shutil.copytree(images["standard"], tmp_path / "scans")
    (folder / "QH.png").unlink()
    with pytest.raises(InvalidInput, match=r"1 of the 52 cards are missing: QH"):
        enrol_from_images(folder, deck, "mine")


def test_two_pictures_of_one_card_are_refused(images, deck, tmp_path):
    folder = shutil.copytree(images["standard"], tmp_path / "scans")
    shutil.copy(folder / "7C.png", folder / "8D.png")
    with pytest.raises(InvalidInput, match="look alike: is one of them a second picture of the same card"):
        enrol_from_images(folder, deck, "mine")


@pytest.mark.slow
def test_a_file_named_after_no_card_is_named(images, deck, tmp_path):
    folder = shutil.copytree(images["standard"], tmp_path / "scans")
    shutil.copy(folder / "7C.png", folder / "holiday.png")
    with pytest.raises(InvalidInput, match="'holiday' names no card of the"):
        enrol_from_images(folder, deck, "mine")


def test_the_file_keeps_everything_and_refuses_other_versions(enrolments, tmp_path):
    path = enrolments["dondorf"].save(tmp_path / "mine.npz")
    loaded = Enrolment.load(path)
    assert loaded.name == "dondorf" and sorted(loaded.cards) == sorted(enrolments["dondorf"].cards)
    np.testing.assert_allclose(loaded.cards["QS"].corners, enrolments["dondorf"].cards["QS"].corners)
    np.testing.assert_allclose(loaded.cards["QS"].detail, enrolments["dondorf"].cards["QS"].detail, atol=1e-3)
    with_back = Enrolment(loaded.deck, "backed", dict(enrolments["dondorf"].cards), back=enrolments["dondorf"].cards["QS"],
                          back_middle=(27.0, 0.5))
    backed = Enrolment.load(with_back.save(tmp_path / "backed.npz"))
    np.testing.assert_allclose(backed.back.tint, enrolments["dondorf"].cards["QS"].tint)  # a back's colour is kept
    assert backed.back_middle == (27.0, 0.5)   # and how plain it is
    newer = tmp_path / "newer.npz"
    np.savez(newer, meta=np.array(json.dumps({"format": "cardtable-faces", "version": 9})))
    with pytest.raises(InvalidInput, match="version 9, but this cardtable reads version 1: enrol the deck again"):
        Enrolment.load(newer)
    with pytest.raises(OSError, match="run 'cardtable enroll faces' first"):
        Enrolment.load(tmp_path / "none.npz")


def test_a_deck_enrolled_before_the_detailed_faces_were_kept_still_reads(enrolments, tmp_path):
    """A file written before the faces at :data:`vision.faces.features.DETAIL` were kept has
    none: it loads, and its cards are told apart by the smaller faces, as they were."""
    path = enrolments["dondorf"].save(tmp_path / "mine.npz")
    with np.load(path) as data:
        arrays = {key: data[key] for key in data.files if key != "detail"}
    np.savez_compressed(path, **arrays)
    loaded = Enrolment.load(path)
    assert all(features.detail is None for features in loaded.cards.values())
    image = render_card("dondorf", element_id(parse_card("QS")), 180)
    assert Matcher(loaded).read_view(warp_upright(image, order_quad(card_quad(image)))).card.id == "QS"


def test_a_deck_enrolled_before_the_lights_slope_was_taken_out_reads_as_enrolled_now(enrolments, tmp_path):
    """A file written before the light's slope across a face was taken out of it
    (:func:`vision.faces.features.unlit`) holds faces without their mean alone: read, they are
    the faces enrolled now, and its cards read as they do."""
    from vision.faces.features import DETAIL, FACE

    enrolment = enrolments["dondorf"]
    path = enrolment.save(tmp_path / "mine.npz")
    with np.load(path) as data:
        arrays = {key: data[key] for key in data.files}
    slope = np.mgrid[0:FACE[1], 0:FACE[0]][1].ravel().astype(np.float32)  # brighter to the right
    slope -= slope.mean()
    arrays["face"] = np.stack([(face + 0.02 * slope) / np.linalg.norm(face + 0.02 * slope) for face in arrays["face"]])
    wide = np.mgrid[0:DETAIL[1], 0:DETAIL[0]][1].ravel().astype(np.float32)
    arrays["detail"] = (arrays["detail"] + 0.01 * (wide - wide.mean())).astype(np.float16)
    np.savez_compressed(path, **arrays)
    loaded = Enrolment.load(path)
    for card_id in ("QS", "7H"):
        np.testing.assert_allclose(loaded.cards[card_id].face, enrolment.cards[card_id].face, atol=1e-4)
        np.testing.assert_allclose(loaded.cards[card_id].detail, enrolment.cards[card_id].detail, atol=2e-3)
    image = render_card("dondorf", element_id(parse_card("QS")), 180)
    assert Matcher(loaded).read_view(warp_upright(image, order_quad(card_quad(image)))).card.id == "QS"


def test_a_deck_enrolled_before_its_colours_were_measured_softened_knows_none(enrolments, tmp_path, caplog):
    """A file written before the share of red print was measured softened (kept as ``redness``,
    measured sharp: a view's share, measured softened now, no longer compares with it) loads
    with no card's colour known, said once, and its cards still read by their grey signals;
    the colours are kept in a file written now."""
    import logging

    path = enrolments["dondorf"].save(tmp_path / "mine.npz")
    assert Enrolment.load(path).cards["QH"].redness == pytest.approx(enrolments["dondorf"].cards["QH"].redness)
    with np.load(path) as data:
        arrays = {("redness" if key == "colour" else key): data[key] for key in data.files}
    np.savez_compressed(path, **arrays)
    with caplog.at_level(logging.WARNING, logger="vision.faces.store"):
        loaded = Enrolment.load(path)
    assert all(features.redness is None for features in loaded.cards.values())
    assert "enrolled by an older cardtable" in caplog.text
    image = render_card("dondorf", element_id(parse_card("QS")), 180)
    assert Matcher(loaded).read_view(warp_upright(image, order_quad(card_quad(image)))).card.id == "QS"


def test_the_shape_of_the_decks_cards_is_kept_and_names_its_size(enrolments, tmp_path):
    """One deck, one size (issue 22: a fan laid at once measures no card whole, and its top card
    was fitted a bridge card at the corners of a poker card): each enrolment keeps the shape of
    the cards as found in their pictures, and it names the deck's size before any card on the
    table is measured. A file written before it was kept loads with none: any size."""
    from vision.faces.finder import DeckSize

    dondorf, nicu = enrolments["dondorf"], enrolments["nicu-white"]
    assert len(dondorf.shapes) == 52 and dondorf.shape == pytest.approx(57 / 88, abs=0.01)   # drawn a bridge card
    assert nicu.shape == pytest.approx(0.735, abs=0.01)
    assert DeckSize(shape=dondorf.shape).sizes == ((57.0, 88.0),) and DeckSize(shape=nicu.shape).sizes == ((63.0, 88.0),)
    path = dondorf.save(tmp_path / "mine.npz")
    assert Enrolment.load(path).shape == pytest.approx(dondorf.shape)
    with np.load(path) as data:
        arrays = {key: data[key] for key in data.files if key != "shape"}
    np.savez_compressed(path, **arrays)
    assert Enrolment.load(path).shape is None and DeckSize(shape=None).sizes == ((63.0, 88.0), (57.0, 88.0))


def test_a_config_names_an_enrolment_or_a_file(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert enrolment_path("kitchen") == tmp_path / "cardtable" / "faces" / "kitchen.npz"
    assert enrolment_path("decks/mine.npz", "/etc/table") == Path("/etc/table/decks/mine.npz")


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=200))
def test_any_file_is_read_or_refused_in_words(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("junk") / "deck.npz"
    path.write_bytes(data)
    with pytest.raises((InvalidInput, OSError)):
        Enrolment.load(path)


@pytest.mark.parametrize(("stem", "card_id"), [
    ("KS", "KS"), ("ks", "KS"), ("king_club", "KC"), ("10_club", "10C"), ("1_spade", "AS"), ("king_of_spades", "KS"),
    ("Queen of Diamonds", "QD"), ("ace-of-hearts", "AH"), ("t-h", "10H"), ("jack_heart", "JH"), ("back", "BACK")])
def test_common_file_names_name_their_card(deck, stem, card_id):
    assert face_id(stem, deck) == card_id


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=8), st.from_regex(r"(ace|[0-9]{1,2}|king|of|_| )+(club|spades?|of|_| )+", fullmatch=True)))
def test_any_file_name_is_a_card_or_refused_in_words(deck, stem):
    try:
        card_id = face_id(stem, deck)
    except InvalidInput as err:
        assert "names no card" in str(err)
    else:
        assert card_id == "BACK" or card_id in deck


def _frames(design: str, cards: list[str]):
    """Frames of a card laid alone in the middle of the table and taken away, one after another."""
    from vision.faces.designs import DesignArt
    from vision.sim.script import Place, Remove
    from vision.sim.synthetic import Effects, SyntheticCamera

    script = [move for i, card in enumerate(cards)
              for move in (Place(0.5 + 2 * i, card, "centre"), Remove(1.7 + 2 * i, card))]
    camera = SyntheticCamera("standard", "qr", script, effects=Effects(hands=False), card_image=DesignArt(design))
    return (camera.frame_at(i / 10) for i in range(int(20 * len(cards)) + 10))


@pytest.mark.slow
def test_camera_enrolment_checks_each_card_and_resumes(deck, tmp_path):
    from vision.faces.enrol import CameraEnrolment, enrol_from_camera

    path = tmp_path / "mine.npz"
    enrolment = Enrolment(deck, "mine")
    said: list[str] = []
    walk = CameraEnrolment(enrolment)
    enrol_from_camera(_frames("nicu-white", ["AS", "2S", "2S"]), walk, said.append, save=lambda: enrolment.save(path))
    assert said[0].startswith("(0/52) lay the ") and "(AS)" in said[0]
    assert "enrolled AS" in said and "enrolled 2S" in said
    assert any("look alike" in line for line in said)  # the 2S laid again when the 3S was asked for
    resumed = CameraEnrolment(Enrolment.load(path))
    assert resumed.progress == (2, 52) and resumed.current.id == "3S"
    assert sorted(resumed.enrolment.shapes) == ["2S", "AS"]     # each card's shape, as the camera saw it
