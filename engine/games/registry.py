"""Imports every game module so that each registers itself with :func:`engine.game.register`."""

from engine.games import cribbage  # noqa: F401
from engine.games import quinze  # noqa: F401
from engine.games import allfives  # noqa: F401
from engine.games import its15  # noqa: F401
from engine.games import fifteen  # noqa: F401
