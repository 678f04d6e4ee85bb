"""Child process for the crash-safety test: resumes the journal's game and plays on until killed.

Usage: python crash_child.py JOURNAL SEED. Prints "ready" once resumed and "accepted N" after each
action the journal has committed (N = actions in the game so far).
"""

import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).parent)]

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table  # noqa: E402
from cardtable.journal import Journal  # noqa: E402
from crash_script import script  # noqa: E402


def main(path: str, seed: int) -> None:
    actions = script(seed)
    with Journal(path) as journal:
        controller = Table(TableSetup("cribbage", 2, seed=seed), journal)
        done = len(journal.raw_actions(controller.game.game_id))
        print("ready", done, flush=True)
        for action in actions[done:]:
            assert controller.submit(action) is not None, controller.held.warning
            done += 1
            print("accepted", done, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
