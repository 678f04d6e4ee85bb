"""``cardtable enroll faces`` from the shell, and the ``[vision]`` keys that choose faces."""

from __future__ import annotations

import shutil

import pytest

from cardtable.cli import main
from engine.errors import InvalidInput
from vision.config import load_vision_config
from vision.faces.store import Enrolment


def test_enrol_from_images_writes_one_file_the_config_can_name(images, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["enroll", "faces", "--deck", "standard", "--name", "kitchen", "--from-images", str(images["dondorf"])]) == 0
    out = capsys.readouterr().out
    assert "enrolled 52 cards" in out and 'faces = "kitchen"' in out
    config = load_vision_config({"recognition": "faces", "faces": "kitchen"}, tmp_path)
    assert config.effective_decoder == "faces"
    assert len(Enrolment.load(config.faces).cards) == 52


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
    with pytest.raises(InvalidInput, match=r"\[vision\] recognition = 'colour' is not one of markers, faces"):
        load_vision_config({"recognition": "colour"})
    with pytest.raises(InvalidInput, match=r"\[vision\] faces must name an enrolled deck"):
        load_vision_config({"recognition": "faces", "faces": 3})
