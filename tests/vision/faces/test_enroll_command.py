"""``cardtable enroll faces`` from the shell, and the ``[vision]`` keys that choose faces."""

from __future__ import annotations

import shutil

import pytest

from cardtable.cli import main
from engine.errors import InvalidInput
from vision.config import load_vision_config
from vision.faces.designs import installed_designs
from vision.faces.store import Enrolment


@pytest.mark.slow
def test_enrol_from_images_writes_one_file_the_config_can_name(images, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["enroll", "faces", "--deck", "standard", "--name", "kitchen", "--from-images", str(images["dondorf"])]) == 0
    out = capsys.readouterr().out
    assert "enrolled 52 cards" in out and 'faces = "kitchen"' in out
    config = load_vision_config({"recognition": "faces", "faces": "kitchen"}, tmp_path)
    assert config.effective_decoder == "faces"
    assert len(Enrolment.load(config.faces).cards) == 52


@pytest.mark.slow
def test_a_missing_card_is_said_and_nothing_is_written(images, tmp_path, capsys):
    folder = shutil.copytree(images["standard"], tmp_path / "scans")
    (folder / "5S.png").unlink()
    out = tmp_path / "deck.npz"
    assert main(["enroll", "faces", "--from-images", str(folder), "--out", str(out)]) == 2
    assert "cardtable: error: 1 of the 52 cards are missing: 5S" in capsys.readouterr().err
    assert not out.exists()


def test_rfid_enrolment_keeps_its_command(capsys):
    with pytest.raises(SystemExit):
        main(["enroll", "rfid", "--help"])
    assert "--registry" in capsys.readouterr().out


def test_recognition_is_markers_or_faces():
    assert load_vision_config({}).recognition == "markers"
    with pytest.raises(InvalidInput, match=r"vision.recognition: expected one of markers, faces, got the text 'colour'"):
        load_vision_config({"recognition": "colour"})
    with pytest.raises(InvalidInput, match=r"vision.faces: expected the name of an enrolled deck or its file, got 3"):
        load_vision_config({"recognition": "faces", "faces": 3})


@pytest.mark.slow
def test_replay_and_watch_read_faces_from_recorded_frames(enrolments, recorded, tmp_path, capsys):
    """Frames recorded as JPEG (compression artefacts included), replayed with a config that
    names the enrolment: events carry their confidence, watch draws each card read."""
    import json

    from vision.faces.designs import DesignArt
    from vision.sim.script import Place
    from vision.sim.synthetic import Effects, SyntheticCamera

    camera = SyntheticCamera("standard", "qr", [Place(0.3, "QD", "seat1"), Place(1.0, "4C", "centre")],
                             effects=Effects(hands=False), card_image=DesignArt("tigullio-international"))
    frames, config = recorded(camera, enrolments["tigullio-international"], 20)
    assert main(["vision", "replay", str(frames), "--config", str(config), "--fps", "10", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(line["card"], line["zone"]) for line in lines] == [("QD", "table"), ("4C", "table")]
    assert all(0.5 <= line["confidence"] <= 1 for line in lines)
    out = tmp_path / "watch"
    assert main(["vision", "watch", "--config", str(config), "--source", str(frames), "--out", str(out)]) == 0
    assert (out / "annotated" / "latest.jpg").exists()


@pytest.mark.slow
def test_the_demo_rendered_cache_enrols_and_jokers_are_skipped_with_a_note(deck, tmp_path, capsys):
    """The names Debian's designs give their cards (king_club.png, 10_club.png, 1_spade.png),
    as the demo's rendered cache holds them, and a joker: enrolled, the joker skipped."""
    import cv2

    from vision.faces.designs import element_id, render_card

    folder = tmp_path / "cache"
    folder.mkdir()
    for face in deck.faces:
        cv2.imwrite(str(folder / f"{element_id(face)}.png"), render_card("nicu-white", element_id(face)))
    cv2.imwrite(str(folder / "red_joker.png"), render_card("nicu-white", "red_joker"))
    cv2.imwrite(str(folder / "back.png"), render_card("nicu-white", "back"))
    out = tmp_path / "deck.npz"
    assert main(["enroll", "faces", "--from-images", str(folder), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "skipped red_joker.png: the standard 52-card pack has no such card" in said
    assert "enrolled 52 cards and the back" in said
    assert len(Enrolment.load(out).cards) == 52


@pytest.mark.slow
def test_a_design_enrols_with_its_contact_sheet_and_an_unknown_one_lists_the_names(tmp_path, capsys):
    import cv2

    out, sheet = tmp_path / "deck.npz", tmp_path / "sheet.png"
    assert main(["enroll", "faces", "--from-design", "standard", "--out", str(out), "--sheet", str(sheet)]) == 0
    # The design's back too: a card laid face down is a face-down card, not "I can't read the card".
    assert "enrolled 52 cards and the back" in capsys.readouterr().out
    assert Enrolment.load(out).back is not None
    image = cv2.imread(str(sheet))
    assert image is not None and image.shape[0] < image.shape[1]  # 4 rows of 13
    assert main(["enroll", "faces", "--from-design", "bicycle", "--out", str(out)]) == 2
    assert "no card design 'bicycle' is installed: try one of " in capsys.readouterr().err


@pytest.mark.slow
def test_one_photo_of_the_deck_laid_out_enrols_and_a_card_out_of_place_is_named(deck, tmp_path, capsys):
    """The deck laid out in 4 rows of 13 in suit order, photographed at an angle on felt."""
    import cv2
    import numpy as np

    from vision.faces.designs import element_id, render_card
    from vision.faces.photos import photo_of_layout
    from vision.faces.rows import layout_rows

    rows = layout_rows(deck)
    cards = [[render_card("nicu-white", element_id(deck.card(card_id).face)) for card_id in row] for row in rows]
    photo, _ = photo_of_layout(np.random.default_rng(4), cards, size=(2400, 1800), kind="felt")
    cv2.imwrite(str(tmp_path / "deck.jpg"), photo)
    out = tmp_path / "deck.npz"
    assert main(["enroll", "faces", "--from-photo", str(tmp_path / "deck.jpg"), "--out", str(out),
                 "--sheet", str(tmp_path / "sheet.png")]) == 0
    assert "enrolled 52 cards" in capsys.readouterr().out
    assert len(Enrolment.load(out).cards) == 52
    del cards[2][4]  # the 5D left out: the rest of its row moves up a place
    photo, _ = photo_of_layout(np.random.default_rng(5), cards, size=(2400, 1800), kind="wood")
    cv2.imwrite(str(tmp_path / "short.jpg"), photo)
    assert main(["enroll", "faces", "--from-photo", str(tmp_path / "short.jpg"), "--out", str(tmp_path / "x.npz")]) == 2
    err = capsys.readouterr().err
    assert "row 3" in err and not (tmp_path / "x.npz").exists()


@pytest.mark.slow
@pytest.mark.parametrize("design", installed_designs())
def test_every_installed_playing_card_design_enrols(design, tmp_path):
    """`--from-design` on every design Debian installs whose cards are card-shaped. Refused before:
    a court card whose portrait has an outline of its own (ancient-egyptians' KC) or a small box
    in its art (oxygen-air's JH) was cut out as the card; and different cards alike in their
    corners, where a design prints a big pip beside the index or the rank alone (xskat-french's
    5C and 8C, oxygen-air's 2S and 2C), were taken for two pictures of one card."""
    from engine.decks import get_deck
    from vision.faces.designs import render_card
    from vision.faces.enrol import enrol_from_design

    ace = render_card(design, "1_spade")
    if not 1.2 <= ace.shape[0] / ace.shape[1] <= 1.75:
        pytest.skip(f"{design}'s cards are not card-shaped (landscape cartridges)")
    assert len(enrol_from_design(design, get_deck("standard"), design, tmp_path / design).cards) == 52
