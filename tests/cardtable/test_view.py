"""The view a display gets never shows a hand, the crib before the show, or a face-down card."""

import random

import pytest

from cardtable.view import build_view, with_names
from engine.bots import GreedyBot, play_game
from engine.game import all_games

GAMES = sorted(all_games(), key=lambda g: g.name)


def _hidden(state) -> set[str]:
    """Cards the engine knows to be in hands, or face down in the crib before it is counted."""
    hidden = {str(c) for hand in getattr(state, "hands", ()) or () for c in hand}
    crib_shown = getattr(state, "phase", "") == "show" and getattr(state, "show_step", 0) >= state.players
    if not crib_shown:
        hidden |= {str(c) for c in getattr(state, "crib", ()) or ()}
    return hidden


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_no_view_of_a_whole_game_shows_a_hidden_card(game):
    players = game.players[-1]
    names = [f"Player {n}" for n in range(players)]
    checked = []

    def check(action, events, state):
        view = build_view(game, state, names)
        shown = set(view.centre_cards) | set(view.play_cards)
        leaked = shown & _hidden(state)
        assert not leaked, f"{game.name}: {view} shows {leaked}"
        checked.append(len(shown))

    play_game(game, game.new_game(players, seed=4), [GreedyBot(random.Random(n)) for n in range(players)],
              on_step=check)
    assert sum(checked) > 0, "the views showed the face-up cards"


def test_sentences_use_the_players_names():
    assert with_names("Seat 2 to play; seat 1 said go", ["Ann", "Bob"]) == "Bob to play; Ann said go"
    assert with_names("Seat 7 wins", ["Ann", "Bob"]) == "Seat 7 wins"
