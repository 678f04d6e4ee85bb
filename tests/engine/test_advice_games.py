"""Advice for the other games: trick play (All Fives, Fifteen), Le Quinze captures, It's 15 chances."""

from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from engine.advice.its15 import closest_chance, its15_advice
from engine.advice.quinze import capture_advice
from engine.advice.tricks import trick_advice
from engine.cards import french_40, standard_52
from engine.errors import InvalidInput
from engine.games.its15 import showdown
from engine.games.quinze import captures, value
from engine.games.tricks import legal_plays


# -- trick games ----------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.permutations(list(standard_52())), st.integers(1, 9), st.integers(0, 3), st.sampled_from("SHDC"),
       st.sampled_from(["allfives", "fifteen"]))
def test_trick_advice_lists_exactly_the_legal_cards_and_suggests_one(deck, held, laid, trump, game):
    hand, trick, upcard = deck[:held], deck[held:held + laid], deck[20]
    advice = trick_advice(game, hand, trick, trump=trump, upcard=upcard, players=4)
    assert set(advice.legal) == set(legal_plays(hand, trick[0].suit if trick else None))
    assert advice.suggestion in advice.legal and advice.reason and advice.why


def test_trick_advice_says_why():
    assert trick_advice("allfives", "5H KH 2C", "QH", trump="S").reason == "you must follow hearts"
    assert trick_advice("allfives", "5C KS 2C", "QH", trump="S").reason == "you have no hearts, so any card"
    assert trick_advice("allfives", "5C KS", trump="S").reason == "you lead: any card"
    # last to play with the ten of trumps on the table: take it as cheaply as possible
    assert str(trick_advice("allfives", "5S KS 2S", "10S", trump="S").suggestion) == "KS"
    # Fifteen: the up-card sets trumps; the 5H scores with the 5S turned up, so keep it back
    assert str(trick_advice("fifteen", "5H KH", "QH", upcard="5S").suggestion) == "KH"


@pytest.mark.parametrize("kwargs, message", [
    (dict(game="allfives", hand="5H 7X", trump="S"), "7X is not a card"),
    (dict(game="allfives", hand="5H", trick="5H", trump="S"), "both in the hand and in the trick"),
    (dict(game="fifteen", hand="5H"), "say the trump suit"),
    (dict(game="fifteen", hand="5H", trump="S"), "needs the up-card"),
    (dict(game="euchre", hand="5H", trump="S"), "not 'euchre'"),
    (dict(game="allfives", hand="5H", trick="2H 3H", trump="Z"), "trump must be a suit letter"),
    (dict(game="allfives", hand="5H", trick="2H", trump="S", players=2 - 1), "at most 0 cards"),
])
def test_bad_trick_questions_are_refused_in_words(kwargs, message):
    with pytest.raises(InvalidInput, match=message):
        trick_advice(**kwargs)


# -- Le Quinze -------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.permutations(list(french_40())), st.integers(0, 8), st.integers(1, 3))
def test_every_capture_is_listed_with_its_counts(deck, on_table, held):
    table, hand = deck[:on_table], deck[on_table:on_table + held]
    ranked = capture_advice(table, hand)
    for card in hand:
        sets = {frozenset(s) for s in captures(table, card)}
        listed = {frozenset(c.taken) for c in ranked if c.card == card}
        assert listed == (sets or {frozenset()})
    for c in ranked:
        pile = (c.card, *c.taken) if c.taken else ()
        assert not c.taken or sum(map(value, pile)) == 15
        assert c.cards == len(pile) and c.sevens == sum(x.rank == 7 for x in pile)
        assert c.clubs == sum(x.suit == "C" for x in pile) and c.scopa == (bool(c.taken) and len(c.taken) == len(table))
    assert [c.worth for c in ranked] == sorted((c.worth for c in ranked), reverse=True)


def test_quinze_worked_example_and_errors():
    best = capture_advice("6S 2H JD 4C", "7C")[0]
    assert [str(c) for c in best.taken] == ["2H", "6S"] and best.seven_of_clubs and not best.scopa
    sweep = capture_advice("KS 2H", "3D AS")[0]
    assert sweep.scopa and [str(c) for c in sweep.taken] == ["2H", "KS"]
    with pytest.raises(InvalidInput, match="9H is not in the pack"):
        capture_advice("9H", "AS")
    with pytest.raises(InvalidInput, match="both in the table and in the hand"):
        capture_advice("AS", "AS")


# -- It's 15 ---------------------------------------------------------------------------------------
def test_its15_chance_by_hand_count():
    # 9 with centre 5 makes 14; the other player's single card v makes v + 5: only 10 (15) beats it
    assert closest_chance([9], 5, [1]) == pytest.approx(8 / 9)
    assert its15_advice([9], 5, [1]).chance_if_take < 8 / 9


@settings(max_examples=30, deadline=None)
@given(st.permutations(list(range(1, 11))), st.integers(1, 9), st.lists(st.integers(1, 2), min_size=1, max_size=3))
def test_its15_chance_equals_settling_every_deal_by_showdown(browns, centre, counts):
    mine = browns[:1]
    chance = closest_chance(mine, centre, counts)
    # every deal of the unseen cards, each settled by the engine with all hands at once
    pool = browns[1:]
    wins = total = 0
    for order in combinations(pool, sum(counts)):
        for split in _splits(list(order), counts):
            hands = {0: mine, **{i + 1: h for i, h in enumerate(split)}}
            wins += showdown(hands, centre) == 0
            total += 1
    assert chance == pytest.approx(wins / total)
    assert 0 <= chance <= 1


def _splits(cards, counts):
    if not counts:
        yield []
        return
    for first in combinations(cards, counts[0]):
        rest = [c for c in cards if c not in first]
        for more in _splits(rest, counts[1:]):
            yield [list(first), *more]


@pytest.mark.parametrize("args, message", [
    (([11], 5, [1]), "11 is not a brown card"),
    (([3], 10, [1]), "10 is not a green card"),
    (([3, 3], 4, [1]), "given twice"),
    (([3], 4, [3]), "1 or 2"),
    (([1, 2], 4, [2, 2, 2, 2, 2]), "not that many brown cards"),
])
def test_its15_errors(args, message):
    with pytest.raises(InvalidInput, match=message):
        closest_chance(*args)


# -- the shared display -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["cribbage", "allfives", "fifteen", "quinze", "its15"])
def test_hints_name_no_card_from_a_hand_and_teaching_advice_only_the_seats_own(name):
    import random

    from engine.advice.hint import public_hint, teaching_advice
    from engine.bots import GreedyBot
    from engine.games import get_game

    game = get_game(name)
    state, bot = game.new_game(2, seed=4), GreedyBot(random.Random(4))
    said = 0
    for _ in range(150):
        if game.is_terminal(state):
            break
        seat = game.prompt(state).seat
        hands = [set(map(str, hand)) for hand in getattr(state, "hands", ())]
        words = set((public_hint(game, state) or "").replace(",", " ").split())
        assert not words & set().union(*hands)
        if seat is not None:
            advice = teaching_advice(game, state, seat)
            said += advice is not None
            named = set((advice or "").split())
            assert not named & set().union(*(h for s, h in enumerate(hands) if s != seat))
        state, _ = game.apply(state, bot.choose(game, state, seat))
    assert said
