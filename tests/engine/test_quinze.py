"""Le Quinze: the seed's worked examples, every rule of RULES.md Q1-Q12, table mode and bot games."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from engine.bots import GreedyBot, RandomBot, play_game
from engine.cards import Card, french_40, parse_card, parse_cards
from engine.errors import IllegalAction, InvalidInput
from engine.game import DEALER, TABLE, Action
from engine.games import get_game
from engine.games.quinze import captures, value
from engine.simulate import new_twins, play_at_table, show_table

GAME = get_game("quinze")
FULL = frozenset(french_40())


def sets(found) -> list[set[str]]:
    return [set(map(str, s)) for s in found]


def at_play(players=2, *, table, hands, mode=DEALER, options=None, turn=0, **changes):
    """A game in the middle of a deal: ``hands`` (card text per seat) and ``table`` as given."""
    state = GAME.new_game(players, options=options, mode=mode, seed=1)
    hands = tuple(parse_cards(h) for h in hands)
    return replace(
        state, phase="play", hands=hands if mode == DEALER else (), held=tuple(map(len, hands)),
        table=parse_cards(table), turned=parse_cards(table) if mode == TABLE else state.turned,
        turn=turn, **changes,
    )


def last_play(table, card, taken0, options=None, **changes):
    """Two players, the deal's last card (``card``, seat 1) to play; the other cards are ``taken0``
    (seat 1's pile) and everything else (seat 2's pile)."""
    table, card, taken0 = parse_cards(table), parse_card(card), parse_cards(taken0)
    taken1 = tuple(sorted(FULL - set(table) - {card} - set(taken0)))
    return at_play(table=table, hands=[(card,), ()], options=options, round_no=5,
                   taken=(taken0, taken1), last_taker=1, stock=(), **changes)


def play(state, *cards, seat=None, choice=None):
    seat = state.turn if seat is None else seat
    return GAME.apply(state, Action("play", seat, parse_cards(cards), choice))


# -- Q2: what a capture is; the seed's worked examples -------------------------------------------
def test_seed_example_the_7_takes_6_and_2_or_a_jack():
    """Q2, seed: "le joueur pose un 7, il peut prendre ... un 6 et un 2 ..., ou ... un valet"."""
    assert sets(captures("6S 2H", "7C")) == [{"6S", "2H"}]
    assert sets(captures("JD", "7C")) == [{"JD"}]
    assert sets(captures("6S 2H JD 4C", "7C")) == [{"JD"}, {"2H", "6S"}]


def test_seed_example_the_5_takes_a_king_or_two_5s():
    """Q2, seed: "le joueur pose un 5, il peut prendre ... un roi ..., ou ... deux autres 5"."""
    assert sets(captures("KH 5S 5D", "5C")) == [{"KH"}, {"5S", "5D"}]


def test_q2_values_faces_and_suits():
    """Q2: A-7 count their number, J 8, Q 9, K 10; suits do not matter; any subset counts."""
    assert [value(c) for c in parse_cards("AH 7S JD QC KH")] == [1, 7, 8, 9, 10]
    assert sets(captures("AH 2S 3D 4C 5H", "KS")) == [{"5H"}, {"AH", "4C"}, {"2S", "3D"}]
    assert sets(captures("AH 2S 3D 4C 5H", "5S")) == [{"AH", "4C", "5H"}, {"2S", "3D", "5H"}, {"AH", "2S", "3D", "4C"}]
    assert sets(captures("5H 5D", "5S")) == [{"5H", "5D"}]    # a rank match alone does not take (Q2)
    assert captures("", "KS") == [] and captures("QH KD", "7C") == []


def test_q2_every_set_found_matches_brute_force():
    """Q2: captures() agrees with trying every subset."""
    from itertools import combinations

    rng = random.Random(7)
    for _ in range(50):
        table = rng.sample(sorted(FULL), rng.randint(0, 9))
        card = rng.choice(sorted(FULL - set(table)))
        brute = {frozenset(s) for k in range(1, len(table) + 1) for s in combinations(table, k)
                 if sum(map(value, s)) + value(card) == 15}
        assert set(captures(table, card)) == brute


def test_captures_refuses_cards_outside_the_pack():
    with pytest.raises(InvalidInput, match="not in the French 40-card pack"):
        captures("8H", "7C")
    with pytest.raises(InvalidInput):
        captures("7C", "7C")
    with pytest.raises(InvalidInput):
        captures("XX", "7C")


# -- Q3: compulsory capture, the player's choice ---------------------------------------------------
def test_q3_a_card_that_can_take_must_take():
    state = at_play(table="6S 2H 4C", hands=["7C AD", "KS"])
    with pytest.raises(IllegalAction, match="taking is compulsory"):
        play(state, "7C", choice="leave")
    after, events = play(state, "7C")                 # the only set: taken at once
    assert [e.kind for e in events][:1] == ["capture"]
    assert set(after.table) == {parse_card("4C")} and set(after.taken[0]) == set(parse_cards("7C 6S 2H"))


def test_q3_option_capture_optional():
    state = at_play(table="6S 2H 4C", hands=["7C AD", "KS"], options={"capture_optional": True})
    after, _ = play(state, "7C", choice="leave")
    assert parse_card("7C") in after.table and after.taken[0] == ()
    pending, _ = play(state, "7C")                    # optional: the choice stays open
    assert pending.phase == "capture" and "leave" in GAME.prompt(pending).choices


def test_q3_the_player_chooses_the_set():
    state = at_play(table="6S 2H JD", hands=["7C AD", "KS"])
    after, _ = play(state, "7C", "JD")
    assert set(after.table) == set(parse_cards("6S 2H"))
    with pytest.raises(IllegalAction, match="makes 13, not 15"):
        play(state, "7C", "6S")
    with pytest.raises(IllegalAction, match="not on the table"):
        play(state, "7C", "QH")


def test_q3_several_sets_wait_for_the_cards_that_leave():
    """Table mode: the capture is named by the cards that leave the table; the prompt lists sets."""
    state = at_play(table="6S 2H JD", hands=["7C AD", "KS"])
    pending, events = play(state, "7C")
    prompt = GAME.prompt(pending)
    assert pending.phase == "capture" and prompt.seat == 0
    assert prompt.choices == ("JD", "2H 6S") and prompt.kinds == ("capture",)
    assert {a.cards for a in GAME.legal_actions(pending)} == {parse_cards("7C JD"), parse_cards("7C 2H 6S")}
    by_cards, _ = GAME.apply(pending, Action("capture", 0, parse_cards("2H 6S")))
    by_choice, _ = GAME.apply(pending, Action("capture", 0, choice="2H 6S"))
    assert by_cards == by_choice and by_cards.table == (parse_card("JD"),) and by_cards.turn == 1
    with pytest.raises(IllegalAction):
        GAME.apply(pending, Action("capture", 0, choice="leave"))
    with pytest.raises(IllegalAction):
        GAME.apply(pending, Action("play", 1, parse_cards("KS")))


def test_q3_the_player_may_play_any_card():
    """Q3: capturing is compulsory for the card played, not a reason to play a capturing card."""
    state = at_play(table="6S 2H", hands=["7C AD", "KS"])
    after, _ = play(state, "AD")
    assert parse_card("AD") in after.table


# -- Q4: scopas ----------------------------------------------------------------------------------
def test_q4_a_sweep_is_a_scopa_scored_at_once():
    state = at_play(table="6S 2H", hands=["7C AD", "KS QS"])
    after, events = play(state, "7C", "6S", "2H")
    assert after.table == () and after.scopas == (1, 0) and after.scores == (1, 0)
    assert any(e.kind == "score" and e.breakdown[0].category == "scopa" for e in events)


def test_q4_scopa_on_the_last_play_counts_by_default():
    after, events = play(last_play("JD", "7C", "7H 7S 7D"), "7C", "JD")
    categories = [i.category for e in events if e.kind == "score" for i in e.breakdown]
    assert categories.count("scopa") == 1


# -- Q5, Q9: end of the deal -----------------------------------------------------------------------
def test_q9_end_of_deal_points():
    """Q9: seat 1 takes 7C, most sevens and a scopa; seat 2 most cards and most clubs."""
    state = last_play("JD", "7C", "7H 7S 7D")
    after, events = play(state, "7C", "JD")
    got = {(e.seat, i.category) for e in events if e.kind == "score" for i in e.breakdown}
    assert got == {(0, "scopa"), (0, "seven of clubs"), (0, "sevens"), (1, "cards"), (1, "clubs")}
    assert after.scores == (3, 2) and after.deal_no == 1 and after.outcome is None
    assert [e for e in events if e.kind == "deal_over"][0].text.endswith("3, 2")


def test_q9_a_tie_for_the_most_scores_nobody():
    """Q9: 20 cards each and two sevens each: neither cards nor sevens score."""
    rest = sorted(FULL - set(parse_cards("7C JD 7H 7S 7D")))
    non_clubs = [c for c in rest if c.suit != "C"][:17]
    state = last_play("JD", "7C", [*non_clubs, parse_card("7H")])
    after, events = play(state, "7C", "JD")
    got = {(e.seat, i.category) for e in events if e.kind == "score" for i in e.breakdown}
    assert ("cards" not in {c for _, c in got}) and ("sevens" not in {c for _, c in got})
    assert (1, "clubs") in got and (0, "seven of clubs") in got


def test_q5_cards_left_go_to_the_last_taker_and_are_no_scopa():
    state = last_play("JD AH", "7C", "7H 7S 7D")
    after, events = play(state, "7C", "JD")
    remainder = [e for e in events if e.kind == "remainder"]
    assert remainder and remainder[0].seat == 0 and remainder[0].cards == (parse_card("AH"),)
    assert "scopa" not in [i.category for e in events if e.kind == "score" for i in e.breakdown]
    cards_event = [i for e in events if e.kind == "score" for i in e.breakdown if i.category == "sevens"]
    assert cards_event[0].points == 1


def test_q5_nobody_took_so_nothing_is_scored():
    table = sorted(FULL - {parse_card("KS")})
    state = at_play(table=table, hands=[("KS",), ()], options={"capture_optional": True},
                    round_no=5, last_taker=None, stock=())
    after, events = play(state, "KS", choice="leave")
    assert not [e for e in events if e.kind in ("score", "remainder")] and after.scores == (0, 0)


# -- Q6: escoba de mano ----------------------------------------------------------------------------
@pytest.mark.parametrize("cards, scopas", [("AH 2H 3H QS", 1), ("KH 5S JD 7C", 2), ("KH KS QD AH", 0)])
def test_q6_escoba_de_mano_option(cards, scopas):
    state = table_game(2, cuts="AH KS", options={"escoba_de_mano": True})
    after, _ = GAME.apply(state, Action("turn_up", None, parse_cards(cards)))
    assert after.scopas[0] == scopas and after.scores[0] == scopas
    assert (after.table == ()) == bool(scopas)
    plain, _ = GAME.apply(table_game(2, cuts="AH KS"), Action("turn_up", None, parse_cards(cards)))
    assert plain.scores == (0, 0) and len(plain.table) == 4


# -- Q7, Q8: rounds, direction, dealers ------------------------------------------------------------
@pytest.mark.parametrize("players, rounds", [(2, 6), (3, 4), (4, 3)])
def test_q7_three_more_cards_until_the_pack_is_used(players, rounds):
    result = play_game(GAME, GAME.new_game(players, seed=3), [RandomBot(random.Random(s)) for s in range(players)])
    kinds = [e.kind for _, events in result.events for e in events if e.kind in ("deal", "deal_over")]
    per_deal = " ".join(kinds).split("deal_over")
    assert all(part.split().count("deal") == rounds - 1 for part in per_deal[:-1])


def test_q8_counter_clockwise_from_the_dealers_right():
    """Q8: lowest card deals; play starts at the dealer's right and goes right; the deal passes right."""
    state = table_game(3, cuts="5H AH KS")
    assert state.dealer == 1 and state.turn == 0
    state, _ = GAME.apply(state, Action("turn_up", None, parse_cards("KH KD KC KS")))
    order = []
    for card in parse_cards("6H 6S 6D 6C 4H 4S"):      # nothing here makes 15
        order.append(state.turn)
        state, _ = GAME.apply(state, Action("play", state.turn, (card,)))
    assert order == [0, 2, 1] * 2 and len(state.table) == 10


def test_q8_first_dealer_tie_draws_again():
    state = GAME.new_game(2, mode=TABLE)
    state, _ = GAME.apply(state, Action("cut", 0, parse_cards("AH")))
    state, events = GAME.apply(state, Action("cut", 1, parse_cards("AS")))
    assert state.cuts == () and "draws again" in events[-1].text
    with pytest.raises(IllegalAction, match="turn"):
        GAME.apply(state, Action("cut", 1, parse_cards("2S")))


def test_q8_dealer_mode_first_dealer_drew_lowest_and_deal_passes_right():
    for seed in range(5):
        state = GAME.new_game(3, seed=seed)
        values = [value(c) for c in state.cuts]
        assert values[state.dealer] == min(values) and values.count(min(values)) == 1
        assert state.turn == (state.dealer - 1) % 3


# -- Q10: winning ----------------------------------------------------------------------------------
def test_q10_highest_total_at_eleven_wins():
    state = last_play("JD", "7C", "7H 7S 7D", scores=(8, 8), deal_start=(8, 8))
    after, events = play(state, "7C", "JD")
    assert after.scores == (11, 10) and after.outcome.winners == (0,)
    assert events[-1].kind == "game_over" and after.outcome.text == "Seat 1 wins 11 to 10"
    with pytest.raises(IllegalAction, match="over"):
        play(after, "7C")


def test_q10_a_tie_at_the_top_plays_another_deal():
    state = last_play("JD", "7C", "7H 7S 7D", scores=(9, 10), deal_start=(9, 10))
    after, _ = play(state, "7C", "JD")
    assert after.outcome is None and after.scores == (12, 12) and after.deal_no == 1


def test_q10_option_count_order_breaks_the_tie():
    """Parlett: count the deal's points in order; seat 2 reaches 11 with most cards, first."""
    state = last_play("JD", "7C", "7H 7S 7D", scores=(9, 10), deal_start=(9, 10),
                      options={"tie_break": "count order"})
    after, _ = play(state, "7C", "JD")
    assert after.outcome and after.outcome.winners == (1,)


def test_q10_target_is_an_option():
    state = last_play("JD", "7C", "7H 7S 7D", options={"target": 3})
    after, _ = play(state, "7C", "JD")
    assert after.outcome.winners == (0,) and "3 to 2" in after.outcome.text


# -- Q11: partnerships -----------------------------------------------------------------------------
def test_q11_four_play_alone_by_default_and_partners_as_an_option():
    assert len(GAME.new_game(4).scores) == 4
    state = at_play(4, table="6S 2H", hands=["7C", "AD", "AS", "AH"], options={"partnerships": True})
    after, _ = play(state, "7C", "6S", "2H")
    assert len(after.scores) == 2 and GAME.scores(after) == (1, 0, 1, 0)
    with pytest.raises(InvalidInput, match="four players"):
        GAME.new_game(3, options={"partnerships": True})


# -- Q12: an empty table -----------------------------------------------------------------------------
def test_q12_on_an_empty_table_the_card_stays():
    state = at_play(table="", hands=["7C AD", "KS"])
    after, events = play(state, "7C")
    assert after.table == (parse_card("7C"),) and "stays on the table" in events[0].text
    after, _ = play(after, "KS")
    assert set(after.table) == set(parse_cards("7C KS"))


# -- table mode ----------------------------------------------------------------------------------------
def table_game(players, *, cuts, options=None):
    state = GAME.new_game(players, options=options, mode=TABLE)
    for seat, card in enumerate(parse_cards(cuts)):
        state, _ = GAME.apply(state, Action("cut", seat, (card,)))
    return state


def test_table_mode_learns_the_turned_up_cards_and_plays():
    state = table_game(2, cuts="AH KS")
    assert GAME.prompt(state).kinds == ("turn_up",) and GAME.prompt(state).seat is None
    state, _ = GAME.apply(state, Action("turn_up", None, parse_cards("6S 2H")))
    assert "two cards" in GAME.prompt(state).text
    with pytest.raises(IllegalAction, match="already been seen"):
        GAME.apply(state, Action("turn_up", None, parse_cards("6S")))
    state, _ = GAME.apply(state, Action("turn_up", None, parse_cards("JD 4C")))
    assert state.phase == "play" and GAME.legal_actions(state) == []   # hands are not seen
    pending, _ = GAME.apply(state, Action("play", 1, parse_cards("7C")))
    assert GAME.prompt(pending).choices == ("JD", "2H 6S")
    with pytest.raises(IllegalAction, match="already been seen"):
        GAME.apply(state, Action("play", 1, parse_cards("JD")))


def test_q7_table_mode_counts_the_rounds_it_does_not_see_dealt():
    state = table_game(2, cuts="AH KS")
    state, _ = GAME.apply(state, Action("turn_up", None, parse_cards("KH KD KC KS")))
    for card in parse_cards("6H 6S 6D 6C 4H 4S"):
        state, _ = GAME.apply(state, Action("play", state.turn, (card,)))
    assert state.round_no == 1 and state.held == (3, 3)     # three more cards each


def test_dealer_mode_refuses_a_card_not_held():
    state = at_play(table="6S", hands=["7C AD", "KS"])
    with pytest.raises(IllegalAction, match="do not hold"):
        play(state, "KS", seat=0)
    with pytest.raises(IllegalAction, match="turn"):
        play(state, "KS", seat=1)


# -- whole games with bots -------------------------------------------------------------------------------
def deal_ends_account_for_every_card(steps):
    """At each deal's end, the cards taken, on the table and the last card played are the 40."""
    ends = 0
    for before, action, events in steps:
        if any(e.kind == "deal_over" for e in events):
            cards = [c for pile in before.taken for c in pile] + list(before.table)
            cards += [parse_card(action.cards[0])] if action.kind == "play" else [before.pending]
            assert len(cards) == 40 and set(cards) == FULL
            ends += 1
    return ends


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4]), greedy=st.booleans(),
       partnerships=st.booleans(), optional=st.booleans())
def test_bot_games_in_dealer_mode(seed, players, greedy, partnerships, optional):
    options = {"partnerships": partnerships and players == 4, "capture_optional": optional}
    bot = GreedyBot if greedy else RandomBot
    state = GAME.new_game(players, options=options, seed=seed)
    steps, rng = [], random.Random(seed)

    def check(action, events, after):
        before = steps[-1][3] if steps else state
        steps.append((before, action, events, after))
        in_play = [c for h in after.hands for c in h] + list(after.stock) + list(after.table)
        in_play += [c for pile in after.taken for c in pile] + ([after.pending] if after.pending else [])
        assert after.outcome or (len(in_play) == 40 and set(in_play) == FULL)

    result = play_game(GAME, state, [bot(random.Random(seed + s)) for s in range(players)], on_step=check)
    assert deal_ends_account_for_every_card([s[:3] for s in steps]) >= 1
    outcome = result.state.outcome
    assert max(result.state.scores) >= 11 and result.state.scores[GAME.scores(result.state).index(max(result.state.scores))]
    assert all(GAME.scores(result.state)[w] == max(result.state.scores) for w in outcome.winners)
    # serialization round trip and refused actions, at a state picked along the way
    before, action, _, after = steps[rng.randrange(len(steps))]
    data = json.loads(json.dumps(GAME.to_dict(before)))
    assert GAME.from_dict(data) == before
    snapshot = GAME.to_dict(before)
    wrong_seat = (GAME.prompt(before).seat + 1) % players if GAME.prompt(before).seat is not None else 0
    for bad in (Action(action.kind, wrong_seat, action.cards, action.choice), Action("play", action.seat, (Card(8, "H"),)),
                Action("cut", 0, (Card(1, "H"),))):
        with pytest.raises(IllegalAction):
            GAME.apply(before, bad)
        assert GAME.to_dict(before) == snapshot


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4]), greedy=st.booleans())
def test_bot_games_in_table_mode_agree_with_dealer_mode(seed, players, greedy):
    bot = GreedyBot if greedy else RandomBot
    run = play_at_table(GAME, players, [bot(random.Random(seed + s)) for s in range(players)], seed=seed)
    assert run.table_state.scores == run.dealer_state.scores
    assert run.table_state.outcome == run.dealer_state.outcome
    steps, before = [], GAME.new_game(players, mode=TABLE, seed=seed)
    for step in run.steps:
        steps.append((before, step.table_action, step.events))
        before = step.table_state
    assert deal_ends_account_for_every_card(steps) >= 1
    assert GAME.from_dict(json.loads(json.dumps(GAME.to_dict(run.table_state)))) == run.table_state


def test_table_mode_capture_named_by_the_cards_that_leave():
    """Table mode as a camera sees it: the played card first, then the cards leaving the table."""
    for seed in range(4):
        bots = [RandomBot(random.Random(seed + s)) for s in range(2)]
        dealer, table = new_twins(GAME, 2, seed=seed)
        table = show_table(GAME, (dealer,), table, [])
        captures_sent = 0
        while not GAME.is_terminal(dealer):
            action = bots[GAME.prompt(dealer).seat].choose(GAME, dealer, GAME.prompt(dealer).seat)
            before, (dealer, _) = dealer, GAME.apply(dealer, action)
            table, _ = GAME.apply(table, Action("play", action.seat, action.cards[:1], action.choice))
            if table.phase == "capture":
                table, _ = GAME.apply(table, Action("capture", action.seat, action.cards[1:]))
                captures_sent += 1
            table = show_table(GAME, (before, dealer), table, [])
        assert table.outcome == dealer.outcome and captures_sent


def test_q4_the_last_card_can_never_clear_the_table():
    """Every capture takes cards worth 15 with the card played, and the pack is worth 220, which
    15 does not divide: a card always stays on the table, so no option is needed for it."""
    values = [value(card) for card in french_40()]
    assert sum(values) == 220 and sum(values) % 15
    with pytest.raises(InvalidInput, match="no option 'last_play_scopa_counts'"):
        GAME.new_game(2, options={"last_play_scopa_counts": False})
