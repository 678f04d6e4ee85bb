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
    from vision.script import Place
    from vision.synthetic import Effects, SyntheticCamera

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
