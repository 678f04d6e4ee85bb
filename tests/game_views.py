"""The views of a whole game played by bots (``cardtable.table.view.build_view`` on each state), for the
tests of a display or a page that show a real game (importable from every test folder)."""

from __future__ import annotations

import random

from cardtable.table.view import build_view
from engine.bots import RandomBot, play_game
from engine.games import get_game
from hardware.view import TableView


def bot_game_views(name: str, names: list[str], *, seed: int = 3) -> list[TableView]:
    """Every view of a ``name`` game for ``len(names)`` players, dealt with ``seed``, to its end."""
    game = get_game(name)
    views = []
    bots = [RandomBot(random.Random(seed + n)) for n in range(len(names))]
    play_game(game, game.new_game(len(names), seed=seed), bots,
              on_step=lambda _action, _events, state: views.append(build_view(game, state, list(names))))
    return views
