"""A rule option checks a value in one place (``Option.problem``), in the words the config file's
check says them, so that the engine and the config agree on what a game accepts."""

import pytest
from hypothesis import given, strategies as st

from engine.errors import InvalidInput
from engine.game import Option
from engine.games import all_games

TARGET = Option("target", 121, "points to win")
MUGGINS = Option("muggins", False, "claims")
PENALTY = Option("revoke_penalty", "revoker_loses", "penalty", ("revoker_loses", "none"))


def test_true_is_not_a_whole_number_and_text_is_not_a_number():
    with pytest.raises(InvalidInput, match="option target: expected a whole number, got True"):
        TARGET.check(True)
    assert TARGET.problem("121") == "expected a whole number, got the text '121' (write it without quotes)"
    assert MUGGINS.problem(1) == "expected true or false, got 1"


def test_numbers_stay_in_range_and_choices_are_named():
    assert TARGET.problem(20_000) == "expected a whole number from 0 to 10000, got 20000"
    assert TARGET.problem(-1) == "expected a whole number from 0 to 10000, got -1"
    assert PENALTY.problem("x") == "choose one of revoker_loses, none, not 'x'"
    assert TARGET.check(61) == 61 and PENALTY.check("none") == "none"


@given(value=st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=80)))
def test_every_option_of_every_game_takes_a_value_or_says_why(value):
    for game in all_games():
        for option in game.options:
            problem = option.problem(value)
            if problem is None:
                assert option.check(value) == value
            else:
                with pytest.raises(InvalidInput, match=f"option {option.name}: "):
                    option.check(value)
