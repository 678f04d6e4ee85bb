"""It's 15: the showdown, every rule of RULES.md I1-I12, physical value cards, table mode, bot games."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from engine.bots import GreedyBot, RandomBot, play_game
from engine.decks import ITS15_VALUE_CARDS, get_deck, parse_its_face
from engine.errors import IllegalAction, InvalidInput
from engine.game import TABLE, Action, Termination
from engine.games import get_game
from engine.games.its15 import BROWNS, showdown
from engine.simulate import play_at_table

GAME = get_game("its15")


def faces(text: str) -> tuple:
    return tuple(parse_its_face(t) for t in text.split())


def bidding(players=3, *, hands, centre="G5", starter=0, options=None, mode="dealer", **changes):
    """At the start of the betting, with each seat's number cards (dealer mode) as given."""
    state = GAME.new_game(players, seed=2, mode=mode, options={"first_player": starter + 1, **(options or {})})
    hands = tuple(faces(h) for h in hands)
    return replace(state, phase="bidding", hands=hands if mode != TABLE else (), held=tuple(map(len, hands)),
                   centre=parse_its_face(centre), turn=starter, asked=0, **changes)


def act(state, kind, *cards, seat=None):
    return GAME.apply(state, Action(kind, state.turn if seat is None else seat, tuple(cards)))


def value_cards(state) -> Counter:
    return Counter([c for h in state.holdings for c in h] + list(state.pot) + list(state.staked))


def kinds(state) -> set[str]:
    return {a.kind for a in GAME.legal_actions(state)}


# -- the showdown (I7, I8) ----------------------------------------------------------------------------
def test_i7_closest_to_15_wins_and_going_over_is_no_bust():
    assert showdown({0: [9, 5], 1: [6]}, 4) == 0           # 18 (3 over) beats 10 (5 under)
    assert showdown({0: [10], 1: [3, 2]}, 5) == 0          # exactly 15 beats 10
    assert showdown({0: [10, 1], 1: [9, 3]}, 2) == 1       # 14 beats 13
    assert showdown({2: [8], 4: [3, 5], 1: [10]}, 7) == 2  # seats are whatever the mapping says


def test_i8_a_tie_goes_to_the_highest_single_card():
    assert showdown({0: [4, 5], 1: [9]}, 6) == 1           # both 15: the 9 beats the 5
    assert showdown({0: [8, 2], 1: [7, 3], 2: [1]}, 5) == 0
    assert showdown({0: [10], 1: [2, 7]}, 5) == 0          # 15 and 14: no tie, closest wins


def test_showdown_refuses_what_cannot_be_at_the_table():
    with pytest.raises(InvalidInput, match="same cards"):
        showdown({0: [5], 1: [5]}, 3)
    with pytest.raises(InvalidInput):
        showdown({}, 3)
    with pytest.raises(InvalidInput):
        showdown({0: []}, 3)


# -- I1, I2: the card set and the players -----------------------------------------------------------
def test_i1_each_player_owns_physical_value_cards_of_one_colour():
    state = GAME.new_game(3)
    assert state.holdings[0] == ("V1R-1", "V1R-2", "V1R-3", "V1R-4", "V1R-5", "V2R-1", "V2R-2")
    assert state.holdings[1][0] == "V1B-1" and state.holdings[2][-1] == "V2Y-2"
    assert GAME.scores(state) == (9, 9, 9) and ITS15_VALUE_CARDS == {1: 5, 2: 2}
    deck = get_deck("its15")
    assert all(card_id in deck for holding in state.holdings for card_id in holding)


def test_i1_value_card_counts_are_options():
    state = GAME.new_game(2, options={"value_ones": 3, "value_twos": 4})
    assert state.holdings[1] == ("V1B-1", "V1B-2", "V1B-3", "V2B-1", "V2B-2", "V2B-3", "V2B-4")
    assert GAME.scores(state) == (11, 11)
    with pytest.raises(InvalidInput, match="at least one value card"):
        GAME.new_game(2, options={"value_ones": 0, "value_twos": 0})


def test_i2_two_to_five_players():
    assert GAME.players == (2, 3, 4, 5)
    for count in (1, 6):
        with pytest.raises(InvalidInput, match="players"):
            GAME.new_game(count)


# -- I3: the extra card --------------------------------------------------------------------------------
def test_i3_each_player_in_turn_may_take_one_more_brown_card():
    state = GAME.new_game(3, seed=4, options={"first_player": 2})
    assert state.phase == "extra" and state.centre.kind == "G" and all(len(h) == 1 for h in state.hands)
    order = []
    for kind in ("take", "stand", "take"):
        order.append(state.turn)
        assert GAME.prompt(state).choices == ("take", "stand")
        state, _ = act(state, kind)
    assert order == [1, 2, 0] and state.held == (2, 2, 1)
    assert [len(h) for h in state.hands] == [2, 2, 1] and all(c.kind == "B" for h in state.hands for c in h)
    assert len({c for h in state.hands for c in h}) == 5 and state.phase == "bidding" and state.turn == 1


# -- I4: opening the bid --------------------------------------------------------------------------------
def test_i4_bid_or_decline_and_decliners_stay_in():
    state = bidding(hands=["B9", "B2", "B3"])
    assert GAME.prompt(state).choices == ("bid", "decline")
    state, _ = act(state, "decline")
    state, events = act(state, "bid", "V1B-1", "V1B-2")
    assert events[0].points == 2 and state.required == 2 and state.turn == 2
    assert GAME.prompt(state).choices == ("match", "raise", "pass")
    state, _ = act(state, "pass")
    assert state.turn == 0 and GAME.prompt(state).choices == ("match", "raise", "pass")  # the decliner


def test_i4_nobody_bids_the_cards_are_turned_for_nothing():
    state = bidding(hands=["B9", "B2", "B3"])
    for _ in range(3):
        state, events = act(state, "decline")
    assert "no_bid" in [e.kind for e in events]
    won = [e for e in events if e.kind == "round_won"][0]
    assert won.seat == 0 and won.points == 0 and GAME.scores(state) == (9, 9, 9)
    assert state.round_no == 1 and state.starter == 0      # the winner starts the next round (I10)


# -- I5: one raise ---------------------------------------------------------------------------------------
def test_i5_one_raise_then_everyone_tops_up_or_passes():
    state = bidding(hands=["B9", "B2", "B3"])
    state, _ = act(state, "bid", "V1R-1")
    state, events = act(state, "raise", "V2B-1", "V1B-1")
    assert state.required == 3 and state.raiser == 1 and "raises the bid to 3" in events[0].text
    assert GAME.prompt(state).choices == ("match", "pass") and "raise" not in kinds(state)
    with pytest.raises(IllegalAction, match="raised once a round"):
        act(state, "raise", "V2Y-1", "V2Y-2")
    state, _ = act(state, "match", "V2Y-1", "V1Y-1")
    assert state.turn == 0 and GAME.prompt(state).text.startswith("Seat 1: match with 2 more")
    state, events = act(state, "match", "V2R-1")             # the opener tops up
    won = [e for e in events if e.kind == "round_won"][0]
    assert won.seat == 0 and won.points == 9                 # 9 + 5 = 14 beats 2 + 5, 3 + 5
    assert GAME.scores(state) == (9 - 3 + 9, 9 - 3, 9 - 3)


def test_i5_a_raise_must_place_more_than_matching_takes():
    state, _ = act(bidding(hands=["B9", "B2", "B3"]), "bid", "V1R-1", "V1R-2")
    with pytest.raises(IllegalAction, match="more than the 2"):
        act(state, "raise", "V2B-1")


# -- I6: paying --------------------------------------------------------------------------------------------
def test_i6_bids_are_paid_exactly_with_cards_held():
    state, _ = act(bidding(hands=["B9", "B2", "B3"]), "bid", "V2R-1")
    with pytest.raises(IllegalAction, match="exactly 2, not 1"):
        act(state, "match", "V1B-1")
    with pytest.raises(IllegalAction, match="do not hold the value card V1R-3"):
        act(state, "match", "V1R-3", "V1B-1")
    matched, _ = act(state, "match", "V1B", "V1B")             # faces: any copies held
    assert matched.pot == ("V2R-1", "V1B-1", "V1B-2")


def test_i6_who_cannot_form_the_amount_must_pass_and_passed_cards_stay_in_the_pot():
    hold_twos = (("V1R-1", "V1R-2"), ("V2B-1", "V2B-2"), ("V1Y-1",))
    state = bidding(hands=["B9", "B2", "B3"], holdings=hold_twos)
    state, _ = act(state, "bid", "V1R-1")
    assert kinds(state) == {"raise", "pass"}                   # a 2 cannot pay 1 exactly
    state, _ = act(state, "raise", "V2B-1", "V2B-2")           # 4
    assert kinds(state) == {"pass"}                            # seat 3 holds 1
    state, _ = act(state, "pass")
    state, events = act(state, "pass")                         # the opener gives up his 1
    won = [e for e in events if e.kind == "round_won"]
    assert won[0].seat == 1 and events[-1].kind == "centre"    # and the next round is dealt
    assert GAME.scores(state) == (1, 5, 1)                     # the opener's 1 stayed in the pot


# -- I9, I10: the prize, the end, the starting player ----------------------------------------------------
def test_i9_the_winner_takes_every_wagered_card():
    state, _ = act(bidding(2, hands=["B3", "B10"], centre="G5"), "bid", "V1R-1")
    state, _ = act(state, "match", "V1B-1")
    assert sorted(state.holdings[1]) == sorted(("V1B-1", "V1B-2", "V1B-3", "V1B-4", "V1B-5", "V2B-1", "V2B-2",
                                                "V1R-1"))
    assert state.starter == 1 and state.round_no == 1


def test_i9_after_the_last_round_the_most_points_wins_and_ties_share():
    state = bidding(2, hands=["B3", "B10"], options={"rounds": 1})
    state, _ = act(state, "bid", "V1R-1")
    won, events = act(state, "match", "V1B-1")
    assert won.outcome.termination == Termination.ROUNDS_PLAYED and won.outcome.winners == (1,)
    assert won.outcome.scores == (8, 10) and events[-1].kind == "game_over"
    state = bidding(2, hands=["B3", "B10"], options={"rounds": 1})
    state, _ = act(state, "decline")
    tied, _ = act(state, "decline")
    assert tied.outcome.winners == (0, 1) and "share the win" in tied.outcome.text


def test_i10_first_player_option_and_a_drawn_seat():
    assert GAME.new_game(4, options={"first_player": 3}).starter == 2
    drawn = {GAME.new_game(4, seed=seed, options={"first_player": 0}).starter for seed in range(30)}
    assert drawn == {0, 1, 2, 3}
    with pytest.raises(InvalidInput, match="first_player"):
        GAME.new_game(2, options={"first_player": 3})


# -- I11, I12 -----------------------------------------------------------------------------------------------
def test_i11_number_cards_come_back_and_are_reshuffled_every_round():
    rounds = []

    def record(action, events, after):
        if any(e.kind == "centre" for e in events):
            rounds.append(after)

    play_game(GAME, GAME.new_game(5, seed=8), [RandomBot(random.Random(s)) for s in range(5)], on_step=record)
    assert len(rounds) == 9                                    # rounds 2-10 begin after an action
    for state in rounds:                                       # all ten brown cards are back each round
        assert len(state.browns) == 5
        assert {c for h in state.hands for c in h} | set(state.browns) == set(BROWNS)
    assert len({state.hands[0][0] for state in rounds}) > 3   # freshly shuffled
    assert len({state.centre for state in rounds}) > 3


def test_i12_a_player_without_value_cards_cannot_bid_but_can_win_for_nothing():
    state = bidding(2, hands=["B10", "B3"], holdings=((), ("V1B-1",)))
    assert kinds(state) == {"decline"}
    state, _ = act(state, "decline")
    state, events = act(state, "decline")
    assert [e for e in events if e.kind == "round_won"][0].seat == 0
    state = bidding(2, hands=["B10", "B3"], holdings=((), ("V1B-1",)), starter=1)
    state, _ = act(state, "bid", "V1B-1")
    assert kinds(state) == {"pass"}


# -- table mode -----------------------------------------------------------------------------------------------
def test_table_mode_sees_the_centre_the_pot_and_the_reveal():
    state = GAME.new_game(2, mode=TABLE)
    assert GAME.prompt(state).kinds == ("centre",) and GAME.legal_actions(state) == []
    with pytest.raises(IllegalAction, match="green"):
        GAME.apply(state, Action("centre", None, faces("B4")))
    state, _ = GAME.apply(state, Action("centre", None, faces("G4")))
    state, _ = act(state, "take")
    state, _ = act(state, "stand")
    deck = get_deck("its15")
    state, _ = act(state, "stake", deck.card("V2R-2"))       # laid in the pot, seen by the camera
    assert GAME.prompt(state).kinds == ("stake", "bid", "decline") and "2 laid" in GAME.prompt(state).text
    assert GAME.public_view(state).play_label == "Pot 2"
    state, _ = GAME.apply(state, GAME.action_for_choice(state, "bid"))   # the button
    assert state.pot == ("V2R-2",) and state.required == 2 and state.staked == ()
    state, _ = act(state, "stake", "V1B-3")
    state, _ = act(state, "stake", "V1B-4")
    state, _ = act(state, "match")
    assert state.phase == "reveal" and state.turn == 0 and GAME.legal_actions(state) == []
    with pytest.raises(IllegalAction, match="brown"):
        act(state, "reveal", *faces("G2"))
    with pytest.raises(IllegalAction, match="one to 2"):
        act(state, "reveal", *faces("B1 B2 B3"))
    state, _ = act(state, "reveal", *faces("B9"))
    assert state.turn == 0                                     # one of two cards shown
    with pytest.raises(IllegalAction, match="already been shown"):
        act(state, "reveal", *faces("B9"))
    state, _ = act(state, "reveal", *faces("B1"))
    state, events = act(state, "reveal", *faces("B7"))
    assert any(e.kind == "round_won" and e.seat == 0 for e in events) and state.round_no == 1
    assert GAME.scores(state) == (11, 7)                       # 9 + 1 + 4 = 14 beats 7 + 4


def test_table_mode_a_player_who_passes_takes_back_cards_laid_but_not_bet():
    state = bidding(2, hands=["B1", "B2"], mode=TABLE)
    state, _ = act(state, "bid", "V1R-1")
    state, _ = act(state, "stake", "V2B-1")
    state, _ = act(state, "pass")
    assert "V2B-1" in state.holdings[1] and GAME.scores(state) == (9, 9)
    with pytest.raises(IllegalAction, match="first"):
        act(bidding(2, hands=["B1", "B2"], mode=TABLE), "bid")


# -- whole games -----------------------------------------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4, 5]), greedy=st.booleans(),
       ones=st.integers(0, 6), twos=st.integers(1, 3))
def test_bot_games_conserve_value_cards(seed, players, greedy, ones, twos):
    options = {"value_ones": ones, "value_twos": twos, "rounds": 10}
    state = GAME.new_game(players, options=options, seed=seed)
    every_card = value_cards(state)
    assert all(n == 1 for n in every_card.values()) and len(every_card) == players * (ones + twos)
    history = [state]

    def check(action, events, after):
        assert value_cards(after) == every_card               # nothing made, nothing lost
        if any(e.kind == "round_won" for e in events):
            assert after.pot == () and sum(GAME.scores(after)) == players * (ones + 2 * twos)
        history.append(after)

    bot = GreedyBot if greedy else RandomBot
    result = play_game(GAME, state, [bot(random.Random(seed + s)) for s in range(players)], on_step=check)
    assert result.state.outcome.termination == Termination.ROUNDS_PLAYED and result.state.round_no == 9
    picked = random.Random(seed).choice(history)
    assert GAME.from_dict(json.loads(json.dumps(GAME.to_dict(picked)))) == picked
    if not GAME.is_terminal(picked):
        snapshot = GAME.to_dict(picked)
        prompt = GAME.prompt(picked)
        for bad in (Action("raise", prompt.seat, ("V9Z-1",)), Action("bid", (prompt.seat + 1) % players),
                    Action("reveal", prompt.seat, faces("G3"))):
            with pytest.raises(IllegalAction):
                GAME.apply(picked, bad)
        assert GAME.to_dict(picked) == snapshot


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4, 5]), greedy=st.booleans())
def test_bot_games_in_table_mode_agree_with_dealer_mode(seed, players, greedy):
    bot = GreedyBot if greedy else RandomBot
    run = play_at_table(GAME, players, [bot(random.Random(seed + s)) for s in range(players)], seed=seed)
    assert run.table_state.outcome == run.dealer_state.outcome
    assert run.table_state.holdings == run.dealer_state.holdings
    every_card = value_cards(run.table_state)
    assert all(value_cards(step.table_state) == every_card for step in run.steps)
    contested = sum(any(e.kind == "reveal" for e in step.events) for step in run.steps)
    uncontested = sum(any(e.kind == "uncontested" for e in step.events) for step in run.steps)
    assert contested + uncontested >= 10                        # every round ended in one of the two
    assert GAME.from_dict(json.loads(json.dumps(GAME.to_dict(run.table_state)))) == run.table_state
