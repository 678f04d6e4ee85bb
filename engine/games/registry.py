"""Imports every game module so that each registers itself with :func:`engine.game.register`."""

from engine.games import cribbage  # noqa: F401
