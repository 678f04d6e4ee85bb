"""The strong bot's choices: the advice applied to a game in progress, from one seat's view.

Each game chooses through its own :meth:`~engine.game.Game.strong_choice`, built on this package's
advice: Cribbage discards and plays by :mod:`~engine.advice.discards` and
:mod:`~engine.advice.pegging`; trick plays by :func:`~engine.advice.trick_choice.suggest`; Le
Quinze plays by the best-ranked capture; It's 15 takes another card or bets by
:mod:`~engine.advice.its15`.

:func:`strong_choice` returns the action the advice recommends for ``seat``, or ``None`` where it
has no advice (cutting, claiming, bidding ...), leaving the choice to the greedy bot. It reads only
what the seat may know: its own hand and the cards face up or already played.
"""

from __future__ import annotations

from engine.game import DEALER, Action, Game


def strong_choice(game: Game, state, seat: int) -> Action | None:
    """The advised action for ``seat``, or ``None`` where the advice has nothing to say.

    Only in dealer mode, where the engine holds the seat's hand.
    """
    return game.strong_choice(state, seat) if state.mode == DEALER else None
