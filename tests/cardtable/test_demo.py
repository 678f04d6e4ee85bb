"""The demo's whole pipeline for every game: bots, simulated devices, controller, journal, displays."""

import re

import pytest

from cardtable.cli import main
from cardtable.sim.demo import run_demo
from cardtable.journal import Journal
from cardtable.table.view import score_lines
from engine.games import all_games, get_game

pytestmark = pytest.mark.slow          # whole demo games through simulated devices

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
    scores = next(line for line in out.splitlines() if line.startswith("Scores: "))
    assert scores.endswith("(the bots' own record of the game has the same)"), scores
    assert f"Journal: {tmp_path / 'journal.sqlite'}" in out
    assert "Display snapshots:" in out


def test_faces_recognition_with_readers_is_refused_in_a_sentence(tmp_path, capsys):
    """The readers name every card, so --recognition faces (a camera's) would be silently ignored."""
    assert main(["demo", "--input", "rfid", "--recognition", "faces", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == ("cardtable: error: --recognition faces is how the camera reads an unmarked deck; "
                           "with --input rfid the readers name each card: leave out --recognition, "
                           "or use --input camera")
    assert not (tmp_path / "journal.sqlite").exists()


LINE = re.compile(r"^  ([+-]\d+) Seat (\d+)\b")


def side(game, players: int, seat: int) -> int:
    """Partners share a score: four-handed Cribbage is played as two partnerships."""
    return seat % 2 if game.name == "cribbage" and players == 4 else seat


@pytest.mark.parametrize("game, players", [("cribbage", 2), ("cribbage", 4), ("allfives", 3), ("fifteen", 2),
                                           ("quinze", 4), ("its15", 3)])
def test_piped_demo_says_every_point_scored_and_they_add_up_to_the_final_scores(game, players, tmp_path, capsys):
    """Piped, the demo once printed only the last score of each move (41 of 63 Cribbage lines)."""
    assert main(["demo", "--input", "rfid", "--game", game, "--players", str(players), "--seed", "2",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    final = [int(n) for n in next(line for line in out if line.startswith("Scores: "))[8:].split(" (")[0].split(", ")]
    rules = get_game(game)
    start = rules.scores(rules.new_game(players, seed=2))
    said = [0] * players
    for line in out:
        if match := LINE.match(line):
            said[side(rules, players, int(match.group(2)) - 1)] += int(match.group(1))
    for seat in range(players):
        assert start[seat] + said[side(rules, players, seat)] == final[seat], (seat, said, final)
    if game == "cribbage":
        assert any("for last card" in line for line in out)


def test_the_display_log_holds_every_score_of_a_move(tmp_path):
    """The pone's hand, the dealer's and "one for last card" each reach the log; its newest
    entries equal what the engine said."""
    logged = []

    def watch(move, controller):
        view = controller.view()
        new = controller.game.score_log.count - len(logged)
        logged.extend(view.score_log[len(view.score_log) - new:] if new > 0 else ())

    result = run_demo("cribbage", players=2, input_kind="rfid", seed=2, out_dir=tmp_path, on_move=watch)
    assert result.agrees
    with Journal(result.journal) as journal:
        steps = journal.replay(result.game_id).steps
    said = score_lines(e for _, events in steps for e in events)
    assert logged == said and len(said) == sum(e.kind == "score" for _, events in steps for e in events)
    assert any("for last card" in line for line in logged)


@pytest.mark.parametrize("players", ["0", "5", "-1"])
def test_a_player_count_the_game_is_not_played_by_is_refused_in_words(players, tmp_path, capsys):
    assert main(["demo", "--input", "rfid", "--players", players, "--out", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert err == f"cardtable: error: Cribbage is played by 2, 3 or 4 players, not {players}\n" and not out
    assert not (tmp_path / "journal.sqlite").exists()


def test_a_demo_folder_that_cannot_be_made_is_said_in_words(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["demo", "--input", "rfid", "--out", str(blocker / "demo")]) == 2
    err = capsys.readouterr().err
    assert "Errno" not in err and f"cannot write the folder {blocker / 'demo'}: a part of" in err


def test_demo_help_lists_the_games_and_the_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "allfives, cribbage, fifteen, its15, quinze (default: cribbage" in text
    assert "(default: camera)" in text and "(default: out/demo)" in text
