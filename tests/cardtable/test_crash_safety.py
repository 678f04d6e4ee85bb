"""Crash safety: kill the controller at 100 random points; each restart resumes exactly.

The child process (crash_child.py) resumes the journal's game and submits the game's actions one
by one, printing "accepted N" after each commit. The test kills it with SIGKILL after a random
delay, then checks that the journal rebuilds the state after its last committed action, that no
action the child reported as accepted was lost, and that a new controller resumes that state.
"""

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.journal import Journal
from engine.games import get_game
from crash_script import script

CHILD = Path(__file__).with_name("crash_child.py")
SEED = 11
KILLS = 100


def _state_after(actions):
    game = get_game("cribbage")
    state = game.new_game(2, mode="table", seed=SEED)
    for action in actions:
        state, _ = game.apply(state, action)
    return state


@pytest.mark.slow
def test_killed_at_random_points_the_game_resumes_where_it_was(tmp_path):
    actions = script(SEED)
    rng = random.Random(7)
    kills, games = 0, 1
    path = tmp_path / "journal-1.sqlite"
    while kills < KILLS:
        child = subprocess.Popen([sys.executable, str(CHILD), str(path), str(SEED)],
                                 stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        assert child.stdout.readline().startswith("ready")
        time.sleep(rng.uniform(0, 0.004))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        kills += 1
        # a line cut short by the kill may lack its number: only whole lines count
        reported = [int(line.split()[1]) for line in out.splitlines() if re.fullmatch(r"accepted \d+", line)]
        with Journal(path) as journal:
            started = journal.games()
            if not started:   # killed before the game's first action was committed: a game is
                assert reported == []   # journalled with its first action, so none to resume
                continue
            record = started[-1]
            replay = journal.replay(record.id)
            assert not replay.problems
            committed = record.actions
            if reported:
                assert committed >= reported[-1], "an action reported as accepted was lost"
            assert replay.state == _state_after(actions[:committed])
            resumed = Table(TableSetup("cribbage", 2, seed=SEED), journal)
            if committed < len(actions):
                assert resumed.game.resumed and resumed.game.state == replay.state
        if committed == len(actions):                     # the game is over: kill the next one
            games += 1
            path = tmp_path / f"journal-{games}.sqlite"
    assert kills == KILLS
