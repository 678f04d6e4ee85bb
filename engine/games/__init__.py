"""The games and their registry: each game's class, registered under its name and aliases.

A game joins with one line in :func:`_load_shipped` (or ``register(MyGame)`` from outside);
:func:`register` checks the class first: its name, title and player counts, its state type, and
that every action kind it names (card actions, hidden and dealt kinds) has a handler in its
dispatch table (:func:`engine.game.handles`).

The shipped games load the first time the registry is used, not with this package: a game asks
:mod:`engine.advice` for its strong choice, and the advice reads rule modules of this package
(:mod:`engine.games.tricks`, :mod:`engine.games.quinze_captures` ...), which must import without
loading every game.
"""

from __future__ import annotations

import threading

from engine.errors import InvalidInput
from engine.game import Game, GameState

_GAMES: dict[str, Game] = {}
#: whether the shipped games are registered yet (see :func:`_load_shipped`)
_SHIPPED: list[bool] = []
_LOADING = threading.RLock()


def _key(name: str) -> str:
    return name.lower().replace(" ", "").replace("'", "")


def register(game_class: type[Game]) -> type[Game]:
    """Make ``game_class`` findable by its name and aliases, once it passes the checks.

    :raises TypeError: naming what the class lacks (a handler, a name, a state type ...).
    """
    _load_shipped()
    where = game_class.__name__
    if not (game_class.name and game_class.title and game_class.players):
        raise TypeError(f"{where}: a game needs a name, a title and its player counts")
    if not (isinstance(game_class.state_type, type) and issubclass(game_class.state_type, GameState)):
        raise TypeError(f"{where}: state_type must be a GameState dataclass")
    named = set(game_class.card_actions) | game_class.hidden_kinds | game_class.dealt_kinds
    missing = sorted(named - set(game_class.handlers))
    if missing or not game_class.handlers:
        raise TypeError(f"{where}: no handler for {', '.join(missing) or 'any action'}")
    game = game_class()
    for key in map(_key, (game.name, *game.aliases)):
        if _GAMES.get(key, game).name != game.name:
            raise TypeError(f"{where}: the name {key!r} belongs to {_GAMES[key].name}")
        _GAMES[key] = game
    return game_class


def get_game(name: str) -> Game:
    """The game called ``name`` (or one of its aliases), ignoring case, spaces and apostrophes.

    :raises InvalidInput: naming the games there are.
    """
    _load_shipped()
    try:
        return _GAMES[_key(name)]
    except KeyError:
        names = ", ".join(game.name for game in all_games())
        raise InvalidInput(f"no game called {name!r}: choose one of {names}") from None


def all_games() -> list[Game]:
    """Every registered game, once each, in the order they registered."""
    _load_shipped()
    return list({game.name: game for game in _GAMES.values()}.values())



def _load_shipped() -> None:
    """Register the games that come with the engine, once, in this order (another thread asking
    meanwhile waits until they are all in)."""
    with _LOADING:
        if _SHIPPED:
            return
        _SHIPPED.append(True)
        from engine.games.allfives import AllFives
        from engine.games.cribbage import Cribbage
        from engine.games.fifteen import Fifteen
        from engine.games.its15 import Its15
        from engine.games.quinze import LeQuinze

        for game_class in (Cribbage, LeQuinze, AllFives, Its15, Fifteen):
            register(game_class)
