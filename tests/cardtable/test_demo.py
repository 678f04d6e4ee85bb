"""The demo's whole pipeline for every game: bots, simulated devices, controller, journal, displays."""

import pytest

from cardtable.cli import main
from cardtable.demo import run_demo
from cardtable.journal import Journal
from engine.game import all_games

SETUPS = sorted((g.name, n) for g in all_games() for n in g.players)


@pytest.mark.parametrize("game, players", SETUPS)
def test_every_game_plays_to_the_end_through_the_readers_and_keeps_the_dealt_score(game, players, tmp_path):
    result = run_demo(game, players=players, input_kind="rfid", seed=2, out_dir=tmp_path)
    assert result.agrees, result.outcome
    with Journal(result.journal) as journal:
        record = journal.game(result.game_id)
        assert record.result == result.outcome
        assert journal.replay(result.game_id).state is not None
    assert result.snapshots and all(p.stat().st_size > 0 for p in result.snapshots)


@pytest.mark.parametrize("game, players", [("cribbage", 2), ("quinze", 3), ("its15", 5)])
def test_the_camera_demo_reads_every_card_through_the_vision_pipeline(game, players, tmp_path):
    """Rendered frames, real decoder, tracker and zones; Le Quinze captures are named by the
    cards that leave the table."""
    result = run_demo(game, players=players, input_kind="camera", seed=1, out_dir=tmp_path)
    assert result.agrees, result.outcome
    assert not result.notices


def test_demo_command_prints_the_result_and_where_things_were_written(tmp_path, capsys):
    assert main(["demo", "--input", "rfid", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "the same as the dealt game" in out
    assert f"Journal: {tmp_path / 'journal.sqlite'}" in out
    assert "Display snapshots:" in out
