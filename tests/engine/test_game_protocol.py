"""The conformance suite: every registered game keeps the protocol's promises."""

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.bots import GreedyBot, RandomBot, play_game
from engine.errors import IllegalAction, InvalidInput
from engine.game import Action
from engine.games import all_games, get_game
from engine.serialize import dumps, loads

GAMES = sorted(all_games(), key=lambda g: g.name)
IDS = [g.name for g in GAMES]


def _bots(players, seed):
    return [(GreedyBot if (seed + i) % 2 else RandomBot)(random.Random(seed * 31 + i)) for i in range(players)]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), data=st.data())
def test_bots_play_to_the_end_and_every_state_round_trips(game, seed, data):
    players = data.draw(st.sampled_from(game.players))
    state = game.new_game(players, seed=seed)
    seen = []

    def check(action, events, new_state):
        assert game.from_dict(game.to_dict(new_state)) == new_state
        assert loads(dumps(action)) == action
        assert all(p >= 0 for p in game.scores(new_state))
        seen.append(new_state)

    result = play_game(game, state, _bots(players, seed), on_step=check)
    assert game.is_terminal(result.state)
    assert game.outcome(result.state).winners
    assert len(seen) == len(result.actions)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_prompt_names_who_may_act(game):
    state = game.new_game(game.players[0], seed=3)
    for _ in range(60):
        if game.is_terminal(state):
            break
        prompt = game.prompt(state)
        actions = game.legal_actions(state)
        assert actions, prompt
        assert {a.seat for a in actions} == {prompt.seat}
        assert {a.kind for a in actions} <= set(prompt.kinds)
        assert prompt.text
        state, _ = game.apply(state, actions[0])


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_an_illegal_action_leaves_the_state_unchanged(game):
    state = game.new_game(game.players[0], seed=5)
    before = game.to_dict(state)
    prompt = game.prompt(state)
    wrong_seat = (prompt.seat + 1) % game.players[0]
    for action in (Action("no-such-kind", prompt.seat), Action(prompt.kinds[0], wrong_seat)):
        with pytest.raises(IllegalAction) as err:
            game.apply(state, action)
        assert str(err.value)
    assert game.to_dict(state) == before


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_bad_setup_is_refused_clearly(game):
    with pytest.raises(InvalidInput, match="players"):
        game.new_game(99)
    with pytest.raises(InvalidInput, match="no option"):
        game.new_game(game.players[0], options={"no_such_option": 1})
    with pytest.raises(InvalidInput, match="mode"):
        game.new_game(game.players[0], mode="psychic")


def test_games_are_found_by_name_and_alias():
    assert get_game("Cribbage") is get_game("crib")
    with pytest.raises(InvalidInput, match="choose one of"):
        get_game("snap")
