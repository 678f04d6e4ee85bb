"""The strong bot: plays every game to the end, and chooses from its own seat's view only."""

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.bots import BOTS, GreedyBot, StrongBot, play_game
from engine.games import get_game
from engine.simulate import play_at_table


@pytest.mark.parametrize("name, players", [
    ("cribbage", 2), ("cribbage", 3), ("cribbage", 4), ("allfives", 2), ("allfives", 3), ("fifteen", 2),
    ("quinze", 2), ("quinze", 4), ("its15", 3),
])
def test_the_strong_bot_plays_every_game_to_the_end(name, players):
    game = get_game(name)
    bots = [(StrongBot if seat % 2 == 0 else GreedyBot)(random.Random(seat)) for seat in range(players)]
    result = play_game(game, game.new_game(players, seed=3), bots)
    assert game.is_terminal(result.state)


def test_the_strong_bot_plays_at_a_table_mode_twin():
    game = get_game("cribbage")
    run = play_at_table(game, 2, [StrongBot(random.Random(1)), StrongBot(random.Random(2))], seed=5)
    assert game.is_terminal(run.table_state) and game.scores(run.table_state) == game.scores(run.dealer_state)


def test_the_bots_are_listed_by_name():
    assert set(BOTS) == {"random", "greedy", "strong"}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(0, 40))
def test_the_strong_cribbage_bot_never_looks_at_another_hand(seed, steps):
    """Swapping the opponent's hand for other unseen cards never changes the strong bot's choice."""
    game = get_game("cribbage")
    state = game.new_game(2, seed=seed)
    greedy = GreedyBot(random.Random(seed))
    for _ in range(steps):                                         # somewhere into the game
        if game.is_terminal(state):
            return
        state, _ = game.apply(state, greedy.choose(game, state, game.prompt(state).seat))
    while not game.is_terminal(state) and state.phase not in ("discard", "play"):
        state, _ = game.apply(state, greedy.choose(game, state, game.prompt(state).seat))
    if game.is_terminal(state):
        return
    seat = game.prompt(state).seat
    other = 1 - seat
    swapped = tuple(state.stock[:len(state.hands[other])])        # cards this seat has not seen either
    twin = replace(state, hands=tuple(swapped if s == other else h for s, h in enumerate(state.hands)))
    bot = StrongBot(random.Random(0))
    assert bot.choose(game, state, seat) == bot.choose(game, twin, seat)
