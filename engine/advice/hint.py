"""What the shared display may say: a public hint for anyone, and hand advice in teaching mode.

:func:`public_hint` uses only what everyone at the table knows (the count, the suit led, the cards
face up, the rules): never a card from a hand; each game words its own (:meth:`Game.public_hint`).
:func:`teaching_advice` is advice about the hand of the seat to act, for a table whose
configuration says it is in teaching mode, where the players have agreed to see it on the shared
display; elsewhere hand advice belongs only where that player alone sees it (the command line, or
the player's own page). Both return ``None`` when there is nothing to say.
"""

from __future__ import annotations

from engine.advice.play import strong_choice
from engine.game import DEALER, Game


def public_hint(game: Game, state) -> str | None:
    """The rule that decides which cards may be played now, from public knowledge only.

    >>> from engine.games import get_game
    >>> crib = get_game("cribbage")
    >>> public_hint(crib, crib.new_game(2, seed=1)) is None
    True
    """
    return None if game.is_terminal(state) else game.public_hint(state)


def teaching_advice(game: Game, state, seat: int) -> str | None:
    """Advice about ``seat``'s own hand, in words, for the shared display in teaching mode only.

    Dealer mode only (the engine must hold the hand); ``None`` where there is no advice.
    """
    if state.mode != DEALER or game.is_terminal(state):
        return None
    action = strong_choice(game, state, seat)
    return None if action is None else game.advice_words(state, action)


__all__ = ["public_hint", "teaching_advice"]
