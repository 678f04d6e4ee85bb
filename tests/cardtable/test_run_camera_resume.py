"""``cardtable run`` killed mid-game and started again on the same table: a real process with the
synthetic camera (ArUco marked French cards at 720p, hands and noise), the real pipeline, the
controller and the journal. The second start finds the cards played before the kill lying where
they were played (``present``), refuses none of them, and the game is played on to its end."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.journal import Journal
from cardtable.sim.camera import table_layout
from cardtable.sim.simulation import table_moves
from engine.decks import get_deck
from engine.games import get_game
from engine.table_events import TableEvent
from vision.calibration import Calibration, save_calibration
from vision.sim.scene import Scene
from vision.sim.script import parse_script
from vision.sim.synthetic import table_homography
from vision.table_layout import seat_zones, shared_zones
from waiting import patience

GAME, OPTIONS, SEED = "quinze", {"target": 1}, 3
#: Moves of the bots' game played before the kill (a capture's cards and the table cards lie there).
CUT = 24


def script_of(moves, start: float) -> tuple[list[str], float]:
    """The synthetic camera's script for the moves: a card laid or taken every 0.8 s, a gathered
    pile taken together."""
    lines, t = [], start
    for move in moves:
        if move.kind == "place":
            lines.append(f"{t:.2f} place {move.card.id} {move.zone}")
        else:
            lines += [f"{t:.2f} remove {card.id}" for card in move.cards or (move.card,)]
        t += 0.8
    return lines, t


def config(tmp_path, script: str) -> str:
    zones = table_layout(list(seat_zones(2)) + list(shared_zones(get_game(GAME))))
    polygons = "\n".join(f"{name} = {[list(p) for p in polygon]}" for name, polygon in zones.items())
    path = tmp_path / f"{script}.toml"
    path.write_text(f"""
[game]
name = "{GAME}"
players = 2
seed = {SEED}
[game.options]
target = {OPTIONS['target']}
[input]
kind = "camera"
[vision]
deck = "french40"
marker = "aruco"
calibration = "calibration.json"
camera = "synthetic:{tmp_path / script}.txt"
resolution = [1280, 720]
fps = 15
[vision.zones]
{polygons}
[journal]
path = "journal.sqlite"
""")
    return str(path)


def actions_after(moves, tmp_path) -> int:
    """How many actions the moves make (the controller fed the same moves, in memory)."""
    with Journal(tmp_path / "expected.sqlite") as journal:
        controller = Table(TableSetup(GAME, 2, OPTIONS, seed=SEED), journal)
        on_table = {}
        for move in moves:
            if move.kind == "place":
                controller.handle(TableEvent("placed", move.card, move.zone, 0.0, "camera"))
                on_table[move.card.id] = move.zone
            else:
                for card in move.cards or (move.card,):
                    controller.handle(TableEvent("removed", card, on_table.pop(card.id), 0.0, "camera"))
        return controller.game.kept


def journal_state(tmp_path):
    if not (tmp_path / "journal.sqlite").exists():
        return 0, None
    with Journal(tmp_path / "journal.sqlite") as journal:
        games = journal.games()
        return (games[-1].actions, games[-1].result) if games else (0, None)


def wait_for(tmp_path, done, timeout: float):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state = journal_state(tmp_path)
        if done(*state):
            return state
        time.sleep(0.5)
    return journal_state(tmp_path)


@pytest.mark.slow
@pytest.mark.timeout(900)   # two real runs through the camera: about two minutes on a busy machine
def test_run_killed_mid_game_starts_again_on_the_laid_table_and_finishes_the_game(tmp_path):
    game = get_game(GAME)
    moves, dealt = table_moves(game, 2, seed=SEED, options=OPTIONS)
    assert all(m.kind in ("place", "take", "gather") for m in moves)
    size = (1280, 720)
    save_calibration(Calibration(np.linalg.inv(table_homography(size)), size, 0.0), tmp_path / "calibration.json")
    first, end = script_of(moves[:CUT], 0.5)
    (tmp_path / "first.txt").write_text("\n".join(first) + "\n")
    # What lies on the table when the first run is killed, exactly where the camera saw it.
    zones = table_layout(list(seat_zones(2)) + list(shared_zones(game)))
    scene = Scene(zones, parse_script("\n".join(first)), deck=get_deck("french40"))
    lying = [f"before place {card} {scene.zone_of(p.x, p.y)} x={p.x:.1f} y={p.y:.1f} angle={p.angle:.1f}"
             for card, p in scene.cards_at(end + 5).items()]
    assert lying
    rest, _ = script_of(moves[CUT:], 1.5)
    (tmp_path / "second.txt").write_text("\n".join(lying + rest) + "\n")
    expected = actions_after(moves[:CUT], tmp_path)
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    command = [sys.executable, "-m", "cardtable.cli", "run", "--config"]

    run = subprocess.Popen(command + [config(tmp_path, "first")], cwd=tmp_path, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        kept, result = wait_for(tmp_path, lambda n, r: n >= expected, 240)
        time.sleep(patience(1.0))
    finally:
        run.send_signal(signal.SIGKILL)                      # the Pi loses power mid-game
        run.wait()
    assert (kept, result) == (expected, None), run.stderr.read().decode()[-2000:]

    run = subprocess.Popen(command + [config(tmp_path, "second")], cwd=tmp_path, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        kept, result = wait_for(tmp_path, lambda n, r: r is not None, 600)
    finally:
        run.send_signal(signal.SIGTERM)
        _, err = run.communicate(timeout=patience(30))
    assert result is not None, (kept, err.decode()[-3000:])
    with Journal(tmp_path / "journal.sqlite") as journal:
        replay = journal.replay(journal.games()[-1].id)
    assert game.scores(replay.state) == game.scores(dealt)
    assert not any(b"take back" in line for line in err.splitlines())
