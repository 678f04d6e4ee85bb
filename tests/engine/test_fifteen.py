"""Fifteen: the seed text (seeds/000, with its five of spades examples) and RULES.md N1-N14, in
dealer mode and table mode."""

from dataclasses import replace

import pytest

from engine.cards import parse_card, parse_cards, standard_52
from engine.errors import IllegalAction, InvalidInput
from engine.game import TABLE, Action, Step
from engine.games import get_game
from engine.games.fifteen import card_points, legal_gives

GAME = get_game("fifteen")
C = parse_card


# -- the seed's worked examples ----------------------------------------------------------------------
def test_non_dealer_example_five_of_spades_turned_up():
    # "if the five of spades was turned up, and a player won the five of diamonds, the ace of
    # spades, and the 3 of spades in his or her tricks, that player would score 3 points"
    assert card_points(["5D", "AS", "3S"], "5S") == 3


def test_dealer_example_tricks_plus_crib():
    # "if the dealer had won the 6 of spades, and then in the discarded cards found the jack of
    # spades, the five of clubs, and the five of hearts, the dealer would score 4 points"
    assert card_points(["6S"], "5S") + card_points(["JS", "5C", "5H"], "5S") == 4


def test_card_points_count_a_card_once_and_take_card_objects():
    assert card_points(parse_cards("5S 9D KC"), C("5S")) == 1            # trump and rank: once (N9)
    assert card_points([], "5S") == 0
    with pytest.raises(InvalidInput):
        card_points(["5Z"], "5S")


def test_legal_gives_differ_in_suit_and_rank():
    assert legal_gives(["5D", "KS", "QH", "2C"], "5S") == parse_cards("QH 2C")          # N3
    assert legal_gives(["2S", "9S", "KS", "AS", "4S"], "5S") == ()                      # seed: all trumps
    assert legal_gives(["2S", "5D", "5H", "KS", "5C"], "5S") == ()                      # N4: generalised


# -- a fixed deal --------------------------------------------------------------------------------------
HANDS = ("AS 3S 9D KH 2C", "6S QD JC 4H 7C")        # seat 1 deals; seat 2 is the non-dealer
CRIB = "JS 5C 5H 8D"


def _deal(hands=HANDS, crib=CRIB, upcard="5S", stock_top=(), scores=(0, 0), **options):
    """A dealer-mode state where the non-dealer must accept, beg or switch."""
    state = GAME.new_game(2, seed=1, options=options)
    hands = tuple(parse_cards(h) for h in hands)
    crib, upcard, top = parse_cards(crib), C(upcard), parse_cards(" ".join(stock_top))
    used = {c for h in hands for c in h} | set(crib) | {upcard} | set(top)
    stock = top + tuple(c for c in standard_52() if c not in used)
    return replace(state, dealer=0, hands=hands, held=(5, 5), crib=crib, crib_size=4, upcard=upcard,
                   stock=stock, undealt=len(stock), phase="choose", scores=scores)


def _act(state, *moves):
    events = []
    for move in moves:
        seat = GAME.prompt(state).seat
        if move.startswith("give "):
            action = Action("give", seat, (C(move[5:]),))
        elif move[0].isdigit() or move[0] in "AKQJ":
            action = Action("play", seat, (C(move),))
        else:
            action = Action(move, seat)
        state, more = GAME.apply(state, action)
        events += more
    return state, events


def test_the_deal_is_seven_each_two_laid_away_then_the_up_card():
    state = GAME.new_game(2, seed=4)
    assert state.held == (7, 7) and state.phase == "discard"
    pone = 1 - state.dealer
    assert GAME.prompt(state).seat == pone                              # the non-dealer lays away first
    with pytest.raises(IllegalAction, match="two cards"):
        GAME.apply(state, Action("discard", pone, state.hands[pone][:1]))
    state, _ = GAME.apply(state, Action("discard", pone, state.hands[pone][:2]))
    state, events = GAME.apply(state, Action("discard", state.dealer, state.hands[state.dealer][:2]))
    assert state.held == (5, 5) and len(state.crib) == 4 and state.upcard is not None        # N1
    assert GAME.prompt(state).choices == ("accept", "beg", "switch") and GAME.prompt(state).seat == pone


def test_accept_the_non_dealer_leads_and_the_up_card_sets_trumps():
    state, _ = _act(_deal(), "accept")
    assert state.phase == "play" and state.tricks.trump == "S" and GAME.prompt(state).seat == 1     # N7


def test_beg_and_take_one_scores_one_and_the_dealer_leads():
    state, _ = _act(_deal(), "beg")
    assert GAME.prompt(state).seat == 0 and GAME.prompt(state).choices == ("take_one", "give")
    state, _ = _act(state, "take_one")
    assert state.scores == (0, 1) and GAME.prompt(state).seat == 0 and state.upcard == C("5S")


def test_the_beg_point_at_fourteen_wins_at_once():
    state, _ = _act(_deal(scores=(10, 14)), "beg", "take_one")                                  # N5
    assert GAME.is_terminal(state) and GAME.outcome(state).winners == (1,)


def test_give_swaps_the_up_card_for_a_card_of_another_suit_and_rank():
    state, _ = _act(_deal(), "beg")
    with pytest.raises(IllegalAction, match="suit and in rank"):
        _act(state, "give 3S")                                            # same suit
    with pytest.raises(IllegalAction, match="do not hold"):
        _act(state, "give QD")                                            # not the dealer's
    state, events = _act(state, "give 9D")
    assert state.upcard == C("9D") and state.tricks.trump == "D"
    assert C("5S") in state.hands[0] and C("9D") not in state.hands[0] and state.held == (5, 5)
    assert GAME.prompt(state).seat == 0 and "new up-card" in events[-1].text           # N3, N7


def test_take_one_is_forced_when_no_card_qualifies():
    hands = ("6S 5D 5H 4S 5C", "AS 3S 9D KH 2C")
    state, _ = _act(_deal(hands=hands, crib="JS 7C QH 8D"), "beg")
    assert GAME.prompt(state).kinds == ("take_one",)                                      # N4
    assert [a.kind for a in GAME.legal_actions(state)] == ["take_one"]
    with pytest.raises(IllegalAction):
        _act(state, "give 5D")


def test_switch_takes_the_crib_and_up_card_and_turns_a_new_one():
    state, events = _act(_deal(stock_top=("9H",)), "switch")                             # N6
    assert set(state.hands[1]) == set(parse_cards(CRIB + " 5S"))
    assert state.crib == parse_cards(HANDS[1]) and state.crib_size == 5
    assert state.upcard == C("9H") and state.tricks.trump == "H"
    assert state.phase == "play" and GAME.prompt(state).seat == 0                         # no beg after a switch
    assert [e.kind for e in events] == ["switch", "turn_up"]


def _play_out(state):
    events = []
    while state.phase == "play" and not GAME.is_terminal(state):
        state, more = GAME.apply(state, GAME.legal_actions(state)[0])
        events += more
    return state, events


def test_counting_order_non_dealer_then_dealer_then_crib():
    state, _ = _act(_deal(), "accept")
    state, events = _play_out(state)
    scores = [(e.seat, e.fact("reason")) for e in events if e.kind == "score"]
    assert scores == [s for s in [(1, "tricks"), (0, "tricks"), (0, "crib")] if s in scores]      # N11
    assert scores[-1] == (0, "crib")
    assert [e.points for e in events if e.kind == "score"][-1] == card_points(CRIB, "5S") == 3


def _count_crib(state):
    step = Step(state)
    GAME._count_crib(step)
    return step.state, step.events


def test_the_crib_cap_exactly():
    state = _deal(scores=(11, 0))
    state = replace(state, tricks=None)
    state, events = _count_crib(state)                  # 11 + 3 = 14: kept
    assert state.scores[0] == 14
    state, events = _count_crib(replace(_deal(scores=(12, 0)), tricks=None))
    assert state.scores[0] == 14 and not GAME.is_terminal(state)          # 15 by the crib: held at 14
    assert "cannot win" in [e for e in events if e.kind == "score"][0].text


def test_reaching_fifteen_by_tricks_wins_at_once_non_dealer_first():
    state, _ = _act(_deal(scores=(14, 14)), "accept")
    state, events = _play_out(state)
    assert GAME.is_terminal(state)
    first = next(e for e in events if e.kind == "score")
    assert GAME.outcome(state).winners == (first.seat,)


# -- table mode ----------------------------------------------------------------------------------------
def _table(**options):
    state = GAME.new_game(2, mode=TABLE, options=options)
    state, _ = GAME.apply(state, Action("cut", 0, (C("2H"),)))
    state, events = GAME.apply(state, Action("cut", 1, (C("KH"),)))
    assert state.dealer == 0 and "Seat 1 deals" in events[-1].text                       # lowest deals (N13)
    state, _ = GAME.apply(state, Action("discard", 1))
    state, _ = GAME.apply(state, Action("discard", 0))
    assert GAME.prompt(state).kinds == ("turn_up",) and GAME.prompt(state).seat is None
    state, _ = GAME.apply(state, Action("turn_up", None, (C("5S"),)))
    return state


def test_table_mode_the_old_up_card_is_known_so_a_revoke_with_it_is_refused_at_once():
    state, _ = _act(_table(), "beg", "give QD")
    assert state.hands[0] == (C("5S"),) and state.held == (5, 5)
    state, _ = _act(state, "9C", "KC", "3S")              # seat 2 wins the clubs and leads a spade
    with pytest.raises(IllegalAction, match="must follow spades"):
        _act(state, "KH")                                  # seat 1 holds the five of spades


def test_table_mode_revoke_is_proven_and_penalised():
    state, _ = _act(_table(), "accept")                    # seat 2 leads
    state, _ = _act(state, "KH", "2C")                     # seat 1 shows out of hearts on trick 1; seat 2 wins
    state, events = _act(state, "3D", "4H")                # seat 1 plays a heart
    revoke = next(e for e in events if e.kind == "revoke")
    assert revoke.seat == 0 and revoke.fact("trick") == 1 and revoke.cards[0] == C("4H")
    assert state.scores == (-3, 0)


def test_table_mode_lays_the_crib_out_to_count_it():
    state, _ = _act(_table(), "accept")
    plays = ("KH", "2H", "KD", "2D", "KC", "2C", "QH", "3H", "QD", "3D")
    state, _ = _act(state, *plays)                         # seat 2 wins every trick: no trump, no five
    assert GAME.prompt(state).kinds == ("crib",) and GAME.prompt(state).seat == 0
    with pytest.raises(IllegalAction, match="four cards"):
        GAME.apply(state, Action("crib", 0, parse_cards("JS 5C 5H")))
    with pytest.raises(IllegalAction, match="already been seen"):
        GAME.apply(state, Action("crib", 0, parse_cards("JS 5C 5H KH")))
    state, events = GAME.apply(state, Action("crib", 0, parse_cards("JS 5C 5H 8D")))
    assert state.scores == (3, 0) and state.hand_no == 1 and state.dealer == 1           # deal alternates


def test_table_mode_switch_asks_for_a_new_up_card_and_a_five_card_crib():
    state, _ = _act(_table(), "switch")
    assert GAME.prompt(state).kinds == ("turn_up",)
    assert state.hands[1] == (C("5S"),) and state.crib_size == 5
    state, _ = GAME.apply(state, Action("turn_up", None, (C("9H"),)))
    assert GAME.prompt(state).seat == 0 and state.tricks.trump == "H"


def test_bots_play_a_whole_game_dealt_through_readers():
    """With reader_deal the discards are scanned to the crib too, so the table engine, knowing
    both hands, follows the dealt game to the same scores."""
    import random

    from engine.bots import GreedyBot, RandomBot
    from engine.simulate import play_at_table

    for seed in range(3):
        bots = [RandomBot(random.Random(seed)), GreedyBot(random.Random(seed + 1))]
        run = play_at_table(GAME, 2, bots, seed=seed, options={"reader_deal": True})
        assert GAME.is_terminal(run.table_state)
        assert GAME.scores(run.table_state) == GAME.scores(run.dealer_state)
