"""Bots that play any registered game through the public protocol, and a loop that runs them.

:class:`RandomBot` picks uniformly among the legal actions; :class:`GreedyBot` picks the action
the game's :meth:`~engine.game.Game.heuristic` rates best for its seat (immediate points unless the
game knows better), breaking ties at random; :class:`StrongBot` plays by :mod:`engine.advice`
where it has advice (Cribbage discards and pegging, trick play, Le Quinze captures, It's 15's extra
card) and like the greedy bot elsewhere. All take an injected ``random.Random``.

The strong bot looks only at what its seat may know: its own hand and the cards face up or played,
never another hand, although the dealer-mode state it is given holds them all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.advice.play import strong_choice
from engine.game import Action, Event, Game


class Bot:
    """Chooses an action for ``seat`` from the legal ones."""

    name = "bot"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose(self, game: Game, state, seat: int) -> Action:
        raise NotImplementedError


class RandomBot(Bot):
    name = "random"

    def choose(self, game: Game, state, seat: int) -> Action:
        return self.rng.choice(_actions_for(game, state, seat))


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, game: Game, state, seat: int) -> Action:
        actions = _actions_for(game, state, seat)
        rated = [(game.heuristic(state, action, seat), self.rng.random(), i) for i, action in enumerate(actions)]
        return actions[max(rated)[2]]


class StrongBot(GreedyBot):
    name = "strong"

    def choose(self, game: Game, state, seat: int) -> Action:
        advised = strong_choice(game, state, seat)
        return advised if advised is not None else super().choose(game, state, seat)


BOTS = {bot.name: bot for bot in (RandomBot, GreedyBot, StrongBot)}


def _actions_for(game: Game, state, seat: int) -> list[Action]:
    actions = [a for a in game.legal_actions(state) if a.seat == seat]
    if not actions:
        raise RuntimeError(f"{game.name}: no legal action for seat {seat + 1} at {game.prompt(state)}")
    return actions


@dataclass
class Playthrough:
    """What :func:`play_game` returns: the final state, every action and every event."""

    state: object
    actions: list[Action] = field(default_factory=list)
    events: list[tuple[Action, list[Event]]] = field(default_factory=list)


def play_game(game: Game, state, bots, *, max_actions: int = 100_000, on_step=None) -> Playthrough:
    """Let ``bots`` (one per seat) play from ``state`` to the end in dealer mode.

    ``on_step(action, events, new_state)`` is called after each applied action.
    """
    result = Playthrough(state)
    while not game.is_terminal(state):
        if len(result.actions) >= max_actions:
            raise RuntimeError(f"{game.name}: no end after {max_actions} actions")
        seat = game.prompt(state).seat
        action = bots[seat].choose(game, state, seat)
        state, events = game.apply(state, action)
        result.actions.append(action)
        result.events.append((action, events))
        if on_step:
            on_step(action, events, state)
    result.state = state
    return result
