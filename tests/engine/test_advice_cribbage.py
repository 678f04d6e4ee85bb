"""Cribbage advice: exact hand expectations, the crib table, ranked discards, and pegging plays.

Expected values are checked against the engine's own scorers (score_hand, score_pegging) by brute
force, so the advice can never drift from the rules.
"""

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from engine.advice.crib_table import crib_ev, crib_key, load_table
from engine.advice.discards import Unseen, discard_advice, hand_ev, starter_total
from engine.advice.pegging import best_reply_odds, pegging_advice
from engine.advice.rank_points import five_rank_points
from engine.cards import parse_cards, standard_52
from engine.errors import InvalidInput
from engine.games.cribbage_scoring import score_combinations, score_hand, score_pegging, value

DECK = standard_52()
cards = st.lists(st.sampled_from(DECK), unique=True)


def brute_hand_ev(keep, seen, crib=False) -> Fraction:
    starters = [c for c in DECK if c not in keep and c not in seen]
    return Fraction(sum(score_hand(keep, s, crib=crib).total for s in starters), len(starters))


# -- the hand ----------------------------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(cards.filter(lambda c: len(c) >= 2).map(lambda c: c[:5]))
def test_rank_points_agree_with_the_engine(five):
    assert five_rank_points(tuple(c.rank for c in five)) == score_combinations(five).total


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=4, max_size=8, unique=True), st.booleans())
def test_hand_ev_is_exact_over_every_starter(dealt, crib):
    keep, seen = tuple(dealt[:4]), tuple(dealt[4:])
    unseen = Unseen.excluding(keep + seen)
    assert Fraction(starter_total(keep, unseen, crib=crib), unseen.total) == brute_hand_ev(keep, seen, crib)
    assert hand_ev(keep, seen, crib=crib) == pytest.approx(float(brute_hand_ev(keep, seen, crib)))


def test_hand_ev_worked_examples():
    assert hand_ev("5H 5D 5S JC") == pytest.approx(794 / 48)       # 29 with the 5C; nobs with 12 clubs
    assert hand_ev("2H 4H 6H 8H", "10H") == pytest.approx(float(brute_hand_ev(parse_cards("2H 4H 6H 8H"),
                                                                               parse_cards("10H"))))


# -- the crib table ------------------------------------------------------------------------------
def test_the_crib_table_covers_every_discard_and_states_its_model():
    table = load_table()
    assert "best exact expected hand" in table["model"]
    for players, size in ((2, 2), (3, 1), (4, 1)):
        entries = table["players"][str(players)]
        keys = {crib_key(combo) for combo in combinations(DECK, size)}
        assert keys == set(entries)
        for mean, error in entries.values():
            assert 0 < mean < 29 and 0 <= error < 0.05


def test_crib_key_and_lookup():
    assert crib_key(parse_cards("5D 5H")) == "5-5"
    assert crib_key(parse_cards("KH 5H")) == "5-K suited"
    assert crib_key(parse_cards("AS KH")) == "A-K"
    assert crib_ev("5H 5D", 2) > crib_ev("KS 9D", 2)              # fives are good to give
    with pytest.raises(InvalidInput, match="lays 1 card away"):
        crib_ev("5H 5D", 3)


# -- discards ------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(cards.filter(lambda c: len(c) >= 6), st.booleans(), st.sampled_from([2, 3, 4]))
def test_any_legal_hand_gets_a_complete_correctly_ranked_list(dealt, dealer, players):
    hand = dealt[:6] if players == 2 else dealt[:5]
    ranked = discard_advice(hand, dealer=dealer, players=players)
    throw = len(hand) - 4
    assert sorted(tuple(sorted(d.discard)) for d in ranked) == sorted(combinations(sorted(hand), throw))
    for d in ranked:
        assert sorted(d.discard + d.keep) == sorted(hand)
        assert 0 <= d.hand_ev <= 29 and 0 < d.crib_ev <= 29
        assert d.net_ev == pytest.approx(d.hand_ev + (d.crib_ev if dealer else -d.crib_ev))
    nets = [d.net_ev for d in ranked]
    assert nets == sorted(nets, reverse=True)
    best = ranked[0]
    assert best.hand_ev == pytest.approx(float(brute_hand_ev(best.keep, best.discard)))


def test_discard_advice_for_the_issue_hand():
    dealer = discard_advice("5H 5D 5S JC 6H 4C", dealer=True)
    pone = discard_advice("5H 5D 5S JC 6H 4C", dealer=False)
    assert [str(c) for c in pone[0].discard] == ["6H", "4C"]          # keep the three fives and the jack
    assert pone[0].hand_ev == pytest.approx(765 / 46)
    assert dealer[0].net_ev > pone[0].net_ev                           # the crib helps the dealer only


@pytest.mark.parametrize("hand, kwargs, message", [
    ("5H 5D 5S JC 6H 7X", {}, "7X is not a card"),
    ("5H 5D 5S JC 6H 5H", {}, "5H is in the hand twice"),
    ("5H 5D 5S JC", {}, "has 5 or 6 cards, not 4"),
    ("5H 5D 5S JC 6H", {}, "dealt with 3 or 4 players"),
    ("5H 5D 5S JC 6H", {"players": 2}, "with 2 players each is dealt 6 cards, not 5"),
    ("5H 5D 5S JC 6H 4C", {"players": 5}, "2, 3 or 4 players"),
    ("5H 5D 5S JC 6H 4C", {"seen": "4C"}, "4C is both in the hand and in the seen cards"),
])
def test_bad_hands_are_refused_in_words(hand, kwargs, message):
    with pytest.raises(InvalidInput, match=message):
        discard_advice(hand, dealer=True, **kwargs)


# -- pegging -------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.permutations(list(DECK)), st.integers(1, 4), st.integers(0, 7), st.integers(0, 4))
def test_pegging_scores_match_the_engine_and_are_ranked(deck, held, laid, their_cards):
    hand = deck[:held]
    pile, count = [], 0
    for card in deck[held:held + laid]:
        if count + value(card) > 31:
            break
        pile.append(card)
        count += value(card)
    ranked = pegging_advice(hand, pile, their_cards=their_cards)
    assert {a.card for a in ranked} == {c for c in hand if count + value(c) <= 31}
    for a in ranked:
        assert a.points == score_pegging(pile + [a.card]).total
        assert a.count == count + value(a.card)
        assert 0 <= a.reply_chance <= 1 and 0 <= a.reply_ev <= 12
        assert (a.reply_ev == 0) == (a.reply_chance == 0)
    assert [a.net for a in ranked] == sorted((a.net for a in ranked), reverse=True)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=1, max_size=9), st.integers(0, 4))
def test_best_reply_odds_equal_enumeration(points, k):
    hands = list(combinations(points, min(k, len(points))))
    chance, expected = best_reply_odds(points, k)
    if k == 0:
        assert (chance, expected) == (0, 0)
        return
    assert chance == pytest.approx(sum(max(h) > 0 for h in hands) / len(hands))
    assert expected == pytest.approx(sum(max(h) for h in hands) / len(hands))


def test_pegging_worked_examples():
    ranked = pegging_advice("5H 9C 7D 8S", "10S 6H 7C")
    assert [str(a.card) for a in ranked] == ["8S", "5H", "7D"]         # 9C would pass 31
    assert ranked[0].points == 5 and ranked[0].reply_chance == 0      # 31 and a run ends the count
    assert pegging_advice("KH QS", "10S JD QC") == []                 # 40 is past 31: go
    with pytest.raises(InvalidInput, match="past 31"):
        pegging_advice("AH", "KH QS JD 2C")
    with pytest.raises(InvalidInput, match="both in the hand and in the count"):
        pegging_advice("5H", "5H")
