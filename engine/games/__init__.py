"""The five games; importing this package registers each of them (see :func:`engine.game.get_game`)."""

from engine.games import cribbage  # noqa: F401
