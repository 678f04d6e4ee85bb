"""What an undo and a resume cost in a journal of N games, now (each game's chain checked once,
then only the rows added since) beside checking every game's whole chain, which is what each
undo, replay and resume cost before (``game()`` checked every game).

For N finished games of Cribbage (bots, dealer mode, 40 actions each) and one game under way, it
opens the journal as the table does (one check of everything, once per start), then times, with
the chains known: an undo (mark undone, rebuild the state by replay), the next action, and a
resume (find the unfinished game, replay it); and, in the same run, a fresh check of every chain
(the old cost of each of those). Medians of 9. The journal lives on /dev/shm when there is one,
so the figures are the checking, not the disk's syncs.

    .venv/bin/python benchmarks/journal_bench.py [--games 50 200 800]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardtable.table.journalled_game import JournalledGame, TableSetup  # noqa: E402
from cardtable.journal import GameSetup, Journal, open_for_play  # noqa: E402
from engine.bots import RandomBot  # noqa: E402
from engine.games import get_game  # noqa: E402

GAME = get_game("cribbage")
ACTIONS_PER_GAME = 40


def _actions(seed: int, count: int) -> list:
    state = GAME.new_game(2, mode="dealer", seed=seed)
    bots = [RandomBot(random.Random(seed * 2 + n)) for n in range(2)]
    actions = []
    while len(actions) < count and not GAME.is_terminal(state):
        action = bots[GAME.prompt(state).seat].choose(GAME, state, GAME.prompt(state).seat)
        state, _ = GAME.apply(state, action)
        actions.append(action)
    return actions


def _write(path: Path, games: int) -> None:
    """``games`` games written as the table writes them, the last one left under way."""
    actions = _actions(1, ACTIONS_PER_GAME)
    with Journal(path) as journal:
        for n in range(games + 1):
            setup = GameSetup("cribbage", 2, {}, "dealer", 1)
            game_id, _ = journal.append(setup, actions[0])
            for action in actions[1:]:
                journal.append(game_id, action)
            if n < games:
                journal.finish(game_id, "Seat 1 wins")


def _median_ms(work, repeat: int = 9) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def measure(folder: Path, games: int) -> dict:
    path = folder / f"journal-{games}.sqlite"
    _write(path, games)
    start = time.perf_counter()
    opened = open_for_play(path)
    open_ms = (time.perf_counter() - start) * 1000
    game = JournalledGame(TableSetup("cribbage", 2, mode="dealer", seed=1), opened.journal)
    assert game.resumed and game.kept == ACTIONS_PER_GAME
    last = _actions(1, ACTIONS_PER_GAME)[-1]

    def undo_and_play_again():
        assert game.undo()
        game.apply(last)

    def resume():
        JournalledGame(TableSetup("cribbage", 2, mode="dealer", seed=1), opened.journal)

    def check_everything():
        with Journal(path, read_only=True) as fresh:
            assert not any(record.damage for record in fresh.games())

    figures = {"games": games, "rows": (games + 1) * ACTIONS_PER_GAME, "open": open_ms,
               "undo": _median_ms(undo_and_play_again), "resume": _median_ms(resume),
               "everything": _median_ms(check_everything)}
    opened.journal.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[50, 200, 800])
    args = parser.parse_args(argv)
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as folder:
        print(f"{'games':>6} {'rows':>6} {'open (check once)':>18} {'undo + next action':>19} {'resume':>8} "
              f"{'check everything':>17} {'undo: x less':>13}")
        for games in args.games:
            f = measure(Path(folder), games)
            print(f"{f['games']:>6} {f['rows']:>6} {f['open']:>15.1f} ms {f['undo']:>16.1f} ms {f['resume']:>5.1f} ms "
                  f"{f['everything']:>14.1f} ms {f['everything'] / f['undo']:>12.0f}x")
    print("undo + next action and resume: with the chains checked once at opening; check everything: every "
          "game's chain afresh (what each undo, replay and resume cost before). Medians of 9, in ms, on a shared machine.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
