"""What checking the config loads, ``cardtable run`` uses: the tag registry and the camera's
calibration are each read from disk once per run (checking reads them to say what is wrong with
them; the bridge and the pipeline then take what was read). Counted over a real run: the reader
board's twin on a pty, the synthetic camera through the real pipeline."""

import sys

import numpy as np

import pytest
import vision.pipeline  # noqa: F401 - loaded now, so that its load_calibration is counted too
from cardtable.cli import main
from cardtable.sim.devices import demo_registry
from cardtable.sim.simulation import table_moves
from engine.games import get_game
from firmware_bridge.registry import TagRegistry
from firmware_bridge.twin import Twin
from test_run import beside_the_table, journalled, reader_table
from test_run_camera_resume import GAME, OPTIONS, SEED, config, script_of
from vision import calibration
from vision.calibration import Calibration, save_calibration
from vision.sim.synthetic import table_homography
from waiting import wait_until


def counting(monkeypatch, original) -> list:
    """Every call of the function ``original``, wherever a loaded module holds it by name."""
    calls = []

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    for module in list(sys.modules.values()):
        if getattr(module, original.__name__, None) is original:
            monkeypatch.setattr(module, original.__name__, counted)
    return calls


def test_a_reader_table_reads_its_tag_registry_once(tmp_path, monkeypatch):
    registry = demo_registry("standard")
    registry.save(tmp_path / "tags.json")
    loads = []
    load = TagRegistry.load
    monkeypatch.setattr(TagRegistry, "load", staticmethod(lambda *a, **k: loads.append(a) or load(*a, **k)))
    with Twin(readers=2, heartbeat=0.3) as twin:
        reader_table(tmp_path, twin)

        def table():        # a card read through the registry and accepted: the bridge has it
            twin.place(0, registry.uid_for("KH"))
            wait_until(lambda: journalled(tmp_path / "journal.sqlite", 1), 20, what="the cut KH")

        with beside_the_table(table):
            assert main(["run", "--config", str(tmp_path / "table.toml")]) == 0
    assert len(loads) == 1, loads


@pytest.mark.slow
def test_a_camera_table_reads_its_calibration_once(tmp_path, monkeypatch):
    size = (1280, 720)
    save_calibration(Calibration(np.linalg.inv(table_homography(size)), size, 0.0), tmp_path / "calibration.json")
    moves, _ = table_moves(get_game(GAME), 2, seed=SEED, options=OPTIONS)
    lines, _ = script_of(moves[:1], 0.5)
    (tmp_path / "first.txt").write_text("\n".join(lines) + "\n")
    loads = counting(monkeypatch, calibration.load_calibration)

    def table():            # a card seen in its zone (table mm, through the calibration) and accepted
        wait_until(lambda: journalled(tmp_path / "journal.sqlite", 1), 60, what=f"the first move, {lines[0]}")

    with beside_the_table(table):
        assert main(["run", "--config", config(tmp_path, "first")]) == 0
    assert len(loads) == 1, loads


def test_the_checked_setup_stays_as_checked_while_the_table_plays_on(tmp_path):
    """``run`` hands the controller the config's own setup: the next game's seed is the session's,
    and the checked config still says what the file says."""
    from cardtable.config import check_values
    from cardtable.table.journalled_game import JournalledGame
    from cardtable.journal import Journal

    problems = []
    config = check_values({"game": {"name": "cribbage", "players": 2, "seed": 7, "mode": "dealer"},
                           "input": {"kind": "rfid"}, "rfid": {"readers": ["seat1", "seat2", "starter", "crib"]}},
                          tmp_path / "table.toml", problems)
    assert problems == []
    with Journal(":memory:") as journal:
        session = JournalledGame(config.setup, journal, resume=False)
        session.next_game()
        assert session.setup.seed == 8
    assert config.setup.seed == 7
