"""The table-mode actions of one whole bot game, shared by the crash test and its child process."""

import random
from functools import lru_cache

from engine.bots import GreedyBot
from engine.games import get_game
from engine.simulate import play_at_table


@lru_cache(maxsize=None)
def script(seed: int) -> tuple:
    game = get_game("cribbage")
    run = play_at_table(game, 2, [GreedyBot(random.Random(seed + i)) for i in range(2)], seed=seed)
    return tuple(step.table_action for step in run.steps)
