"""docs/adding_a_game.md, proven: a sixth game (Beggar-my-neighbour, tests/engine/beggar_my_neighbour.py)
joins with its module and one registration line, and passes the conformance suite and its own rules.
"""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import engine.games
import test_game_protocol as conformance
from engine.bots import RandomBot, play_game
from engine.cards import parse_card
from engine.errors import IllegalAction
from engine.game import TABLE, Action, CardSlot, Game, handles
from engine.games import get_game

# Loaded under the name it would have in engine/games/: stored states name engine types only.
_SPEC = importlib.util.spec_from_file_location("engine.games.beggar_my_neighbour",
                                               Path(__file__).with_name("beggar_my_neighbour.py"))
beggar = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = beggar
_SPEC.loader.exec_module(beggar)


@pytest.fixture
def game(monkeypatch):
    """The registry with Beggar-my-neighbour added (and the five games' registry untouched after)."""
    monkeypatch.setattr(engine.games, "_GAMES", dict(engine.games._GAMES))
    engine.games.register(beggar.BeggarMyNeighbour)         # the registration line
    return get_game("beggar")


def test_the_registered_game_is_found_by_name_and_alias(game):
    assert get_game("Strip Jack Naked") is game
    assert game in engine.games.all_games()


@pytest.mark.slow
def test_it_keeps_every_promise_of_the_conformance_suite(game):
    conformance.test_bots_play_to_the_end_and_every_state_round_trips(game)
    conformance.test_prompt_names_who_may_act(game)
    conformance.test_an_illegal_action_leaves_the_state_unchanged(game)
    conformance.test_bad_setup_is_refused_clearly(game)


def _lay(game, state, *cards):
    events = []
    for card in cards:
        state, more = game.apply(state, Action("lay", state.turn, (parse_card(card),)))
        events += more
    return state, events


def test_a_court_card_is_paid_for_and_its_player_takes_the_pile(game):
    state = game.new_game(2, mode=TABLE)
    state, events = _lay(game, state, "5H", "QS", "2C", "3D")       # a queen: seat 1 owes two
    assert [e.kind for e in events][-1] == "take" and events[-1].seat == 1
    assert state.held == (23, 29) and state.turn == 1 and state.pile == ()


def test_a_court_card_laid_while_paying_turns_the_debt_around(game):
    state = game.new_game(2, mode=TABLE)
    state, _ = _lay(game, state, "KS", "4H", "JD")                   # seat 2 pays the king with a jack
    assert (state.turn, state.owed, state.claimant) == (0, 1, 1)
    state, events = _lay(game, state, "9C")
    assert events[-1].kind == "take" and state.held == (24, 28)


def test_a_card_already_on_the_pile_or_not_on_top_is_refused(game):
    state = game.new_game(2, mode=TABLE)
    state, _ = _lay(game, state, "5H")
    with pytest.raises(IllegalAction, match="already on the pile"):
        _lay(game, state, "5H")
    dealt = game.new_game(2, seed=1)
    wrong = next(c for c in dealt.stocks[1] if c != dealt.stocks[0][0])
    with pytest.raises(IllegalAction, match="top card"):
        _lay(game, dealt, str(wrong))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_no_card_is_lost_or_invented(seed):
    game = beggar.BeggarMyNeighbour()
    state = game.new_game(2, seed=seed, options={"limit": 300})

    def check(_action, _events, after):
        assert sum(after.held) + len(after.pile) == 52
        assert len({*after.pile, *after.stocks[0], *after.stocks[1]}) == 52

    result = play_game(game, state, [RandomBot(random.Random(seed)), RandomBot(random.Random(seed + 1))],
                       on_step=check)
    assert game.outcome(result.state).winners


def test_registration_refuses_a_game_missing_a_handler():
    class Broken(Game):
        name, title, players, state_type = "broken", "Broken", (2,), beggar.BeggarState
        card_actions = {"lay": CardSlot(1), "pass": CardSlot(1)}

        @handles("lay")
        def _lay(self, step, action) -> None:
            raise IllegalAction("no")

    with pytest.raises(TypeError, match="no handler for pass"):
        engine.games.register(Broken)


def test_threads_asking_the_registry_at_once_all_find_the_games():
    """The shipped games load on first use: a second thread waits for them instead of finding none."""
    script = ("import threading\nfrom engine.games import get_game\nfound = []\n"
              "threads = [threading.Thread(target=lambda: found.append(get_game('cribbage').name)) for _ in range(8)]\n"
              "[t.start() for t in threads]; [t.join() for t in threads]\nassert found == ['cribbage'] * 8, found\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=Path(__file__).resolve().parents[2],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-600:]
