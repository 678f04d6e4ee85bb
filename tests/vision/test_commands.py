"""The vision commands through the real ``cardtable`` entry point."""

import json

import cv2
import pytest
import zxingcpp

from cardtable.cli import main
from vision.sim.synthetic import SyntheticCamera
from vision.sim.script import parse_script


@pytest.mark.slow
def test_print_deck_writes_a_pdf_whose_cards_decode(tmp_path, capsys):
    out = tmp_path / "deck.pdf"
    assert main(["print-deck", "--deck", "french40", "--marker", "qr", "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF") and "5 a4 pages" in capsys.readouterr().out
    from vision.printing import PX_PER_MM, deck_pages
    from vision.render import CardArt

    assert len(deck_pages("french40", "qr", "cards", "letter")) == 5  # nine cards a page
    art = CardArt("french40", "qr")
    for card in art.deck.cards:  # each printed card decodes to its own payload
        [result] = zxingcpp.read_barcodes(art.card(card, PX_PER_MM).convert("L"))
        assert result.text == f"CT1:FRENCH40:{card.id}"


def test_print_stickers_and_mat(tmp_path):
    assert main(["print-deck", "--deck", "its15", "--marker", "aruco", "--layout", "stickers",
                 "--paper", "letter", "--out", str(tmp_path / "s.pdf")]) == 0
    assert main(["print-mat", "--out", str(tmp_path / "mat.pdf")]) == 0
    assert (tmp_path / "mat.pdf").read_bytes().startswith(b"%PDF")
    from vision.printing import mat_page
    from vision.calibration import calibrate
    import numpy as np

    page = np.asarray(mat_page("letter").convert("L"))
    assert page.shape[1] > page.shape[0]  # landscape
    assert calibrate(cv2.resize(page, (page.shape[1] // 3, page.shape[0] // 3))).reprojection_error_px < 1.0


def test_the_mat_names_only_the_seat_that_fixes_which_way_it_lies():
    """A 2-seat table has no seat 3: the mat says where seat 1 sits (every default layout puts
    seat 1 at the near edge, y towards it) and names no seat that a table may not have."""
    import re

    from vision.printing import MAT_INSTRUCTIONS
    from vision.table_layout import default_layout

    words = " ".join(MAT_INSTRUCTIONS)
    assert "bottom edge towards seat 1" in words and not re.search(r"seat [2-9]", words), words
    for players in range(2, 6):
        ys = [y for _, y in default_layout(players)["seat1"]]
        assert min(ys) > 0, players          # seat 1 is nearest the mat's bottom edge


@pytest.mark.slow
def test_replay_a_folder_of_frames_prints_json_events(tmp_path, capsys):
    camera = SyntheticCamera("standard", "qr", parse_script("0.2 place KD seat1"), resolution="720p", seed=5)
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(12):
        cv2.imwrite(str(folder / f"{i:03d}.png"), camera.frame_at(i / 10))
    assert main(["vision", "replay", str(folder), "--fps", "10", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(d["type"], d["card"], d["face"], d["zone"]) for d in lines] == [("placed", "KD", "KD", "table")]
    assert lines[0]["frame"] == round(lines[0]["time"] * 10)


def test_calibrate_from_an_image_then_replay_with_a_config(tmp_path, capsys):
    frame = SyntheticCamera("standard", "qr", [], resolution="720p", mat=True).frame_at(0)
    cv2.imwrite(str(tmp_path / "mat.png"), frame)
    (tmp_path / "table.toml").write_text('[vision]\ncalibration = "cal.json"\n[vision.zones]\n'
                                         'near = [[-450, 0], [450, 0], [450, 260], [-450, 260]]\n')
    assert main(["calibrate", "--config", str(tmp_path / "table.toml"), "--source", str(tmp_path / "mat.png")]) == 0
    assert "reprojection error" in capsys.readouterr().out and (tmp_path / "cal.json").exists()


def test_watch_writes_annotated_frames_and_errors_are_readable(tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("0.1 place 2H seat1\n")
    assert main(["vision", "watch", "--source", f"synthetic:{script}", "--out", str(tmp_path / "w"),
                 "--frames", "3"]) == 0
    assert (tmp_path / "w" / "annotated" / "latest.jpg").exists()
    assert main(["vision", "replay", str(tmp_path / "missing")]) == 2
    assert "no camera, video file or folder" in capsys.readouterr().err


def test_watch_shows_the_annotated_frames_in_a_window(tmp_path, capsys, monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    script = tmp_path / "s.txt"
    script.write_text("0.1 place 7H seat1\n")
    assert main(["vision", "watch", "--source", f"synthetic:{script}", "--window", "--frames", "4"]) == 0
    assert "showed 4 annotated frames" in capsys.readouterr().out
    assert main(["vision", "watch", "--source", f"synthetic:{script}"]) == 2
    assert "--window, or --out DIR" in capsys.readouterr().err
