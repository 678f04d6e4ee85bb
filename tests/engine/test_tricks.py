"""The trick machinery both trick games share, and the properties of whole games of both in
dealer mode and table mode: follow-suit, the show-out record, revokes proven by the end of the
hand (RULES.md F1, F8, F10, N8 and "Table mode")."""

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.bots import GreedyBot, RandomBot, play_game
from engine.cards import parse_card, parse_cards
from engine.errors import IllegalAction, InvalidInput
from engine.game import TABLE, Action
from engine.games import get_game
from engine.games.tricks import check_play, legal_plays, play_card, power, start_tricks, trick_winner
from engine.serialize import dumps, loads
from engine.simulate import plan_revokes, play_at_table

GAMES = [get_game("allfives"), get_game("fifteen")]
IDS = [g.name for g in GAMES]
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- pure rules ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("cards, trump, winner", [
    ("10H AH 2H", "S", 1),          # ace high in the suit led
    ("10H KH 2S", "S", 2),          # any trump beats the suit led
    ("10H 2S 3S", "S", 2),          # the highest trump
    ("10H AD KC", "S", 0),          # a card of another suit never wins
    ("5C", "H", 0),
    ("2D AS KD", "d", 2),           # trump letter in lower case
])
def test_trick_winner(cards, trump, winner):
    assert trick_winner(cards, trump) == winner
    assert trick_winner(parse_cards(cards), trump) == winner


def test_trick_winner_refuses_nonsense():
    with pytest.raises(InvalidInput, match="suit letter"):
        trick_winner("10H AH", "X")
    with pytest.raises(InvalidInput, match="at least one"):
        trick_winner([], "H")
    with pytest.raises(InvalidInput, match="twice"):
        trick_winner("10H 10H", "H")
    with pytest.raises(InvalidInput):
        trick_winner("1X", "H")


def test_ace_is_high():
    assert power(parse_card("AS")) == 14 > power(parse_card("KS")) == 13


def test_legal_plays_follow_suit_or_anything_when_void():
    hand = parse_cards("2H KH 5S 9C")
    assert legal_plays(hand, "H") == parse_cards("2H KH")
    assert legal_plays(hand, "D") == hand                   # void: any card
    assert legal_plays(hand, None) == hand                  # leading: any card


def test_check_play_refuses_with_a_reason_for_the_table():
    known = parse_cards("2H 5S")
    with pytest.raises(IllegalAction, match="seat 2 cannot play 5S: you must follow hearts"):
        check_play(known, 2, parse_card("5S"), "H", 1)
    with pytest.raises(IllegalAction, match="do not hold"):
        check_play(known, 2, parse_card("9C"), None, 1)
    with pytest.raises(IllegalAction, match="all your cards"):
        check_play((), 0, parse_card("9C"), None, 1)
    check_play((), 5, parse_card("9C"), "H", 1)             # unknown hand: the claim is recorded instead
    check_play(parse_cards("2H"), 5, parse_card("9C"), "S", 1)


# -- the show-out record and revokes ------------------------------------------------------------------
def _play(tricks, *plays):
    events = []
    for card in plays:
        tricks, more = play_card(tricks, tricks.turn, parse_card(card))
        events += more
    return tricks, events


def test_trick_winner_leads_next_and_collects_the_cards():
    tricks = start_tricks(3, "S", leader=1)
    tricks, events = _play(tricks, "10H", "2S", "AH")       # seats 2, 3, 1
    assert tricks.leader == 2 and tricks.trick_no == 2 and tricks.won[2] == parse_cards("10H 2S AH")
    assert events[-1].kind == "trick" and events[-1].seat == 2 and "two of spades" in events[-1].text


def test_showing_out_is_recorded_and_a_later_card_of_that_suit_proves_a_revoke():
    tricks = start_tricks(2, "S", leader=0)
    tricks, _ = _play(tricks, "KH", "3C")                   # seat 2 shows out of hearts on trick 1
    assert [(o.seat, o.suit, o.trick) for o in tricks.showouts] == [(1, "H", 1)]
    tricks, events = _play(tricks, "9D", "2D")              # seat 1 wins, leads again
    tricks, events = _play(tricks, "AD", "4H")              # seat 2 plays a heart: it held one on trick 1
    revokes = [e for e in events if e.kind == "revoke"]
    assert len(revokes) == 1 and revokes[0].seat == 1
    detail = dict(revokes[0].detail)
    assert detail["trick"] == 1 and detail["evidence"] == parse_card("4H") and detail["evidence_trick"] == 3
    assert "trick 1" in revokes[0].text and "four of hearts" in revokes[0].text
    _, events = _play(tricks, "5H", "6H")                   # proven once, not again
    assert not [e for e in events if e.kind == "revoke"]


def test_playing_a_suit_one_never_showed_out_of_is_no_revoke():
    tricks = start_tricks(2, "S", leader=0)
    tricks, events = _play(tricks, "KH", "3H", "AC", "2H", "QH", "5H")
    assert not [e for e in events if e.kind == "revoke"]
    assert [(o.seat, o.suit, o.trick, str(o.card)) for o in tricks.showouts] == [(1, "C", 2, "2H")]


def test_public_functions_round_trip_through_serialization():
    tricks, _ = _play(start_tricks(2, "H", 0), "KH", "3C")
    assert loads(dumps(tricks)) == tricks


# -- whole games in both knowledge modes -------------------------------------------------------------
def _bots(players, seed):
    return [(GreedyBot if (seed + i) % 2 else RandomBot)(random.Random(seed * 7 + i)) for i in range(players)]


def accounted(state) -> list:
    """Every card whose place the engine knows, and how many more it knows to be somewhere."""
    cards = [c for h in state.hands for c in h] + list(state.stock)
    if state.tricks:
        cards += [c for w in state.tricks.won for c in w] + list(state.tricks.current)
    cards += list(getattr(state, "turn_ups", ())) + list(getattr(state, "discards", ()))
    cards += list(getattr(state, "crib", ())) + [c for c in [getattr(state, "upcard", None)] if c]
    return cards


def _dealer_invariants(game, state):
    if game.is_terminal(state) or state.phase == "cut":
        return
    cards = accounted(state)
    assert len(cards) == 52 and len(set(cards)) == 52, "all 52 cards accounted for"
    assert all(len(h) == n for h, n in zip(state.hands, state.held))


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=12, **SETTINGS)
@given(seed=st.integers(0, 100_000), data=st.data())
def test_dealer_mode_games_keep_their_invariants(game, seed, data):
    players = data.draw(st.sampled_from(game.players))
    state = game.new_game(players, seed=seed)
    last = game.scores(state)

    def check(action, events, new):
        nonlocal last
        scores = game.scores(new)
        assert all(a >= b for a, b in zip(scores, last)), "scores never fall without a revoke"
        last = scores
        assert game.from_dict(game.to_dict(new)) == new
        _dealer_invariants(game, new)
        assert not [e for e in events if e.kind == "revoke"]

    result = play_game(game, state, _bots(players, seed), on_step=check)
    outcome = game.outcome(result.state)
    target = result.state.options.get("target", 15)
    (winner,) = outcome.winners
    assert outcome.scores[winner] >= target
    assert all(s < outcome.scores[winner] for i, s in enumerate(outcome.scores) if i != winner)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=10, **SETTINGS)
@given(seed=st.integers(0, 100_000), data=st.data())
def test_table_mode_agrees_with_dealer_mode_and_reports_no_revoke_where_there_is_none(game, seed, data):
    players = data.draw(st.sampled_from(game.players))
    run = play_at_table(game, players, _bots(players, seed), seed=seed)
    assert game.scores(run.table_state) == game.scores(run.dealer_state)
    assert game.outcome(run.table_state).winners == game.outcome(run.dealer_state).winners
    assert not any(e.kind == "revoke" for step in run.steps for e in step.events)
    for step in run.steps:
        state = step.table_state
        if state.phase in ("play",) and not game.is_terminal(state):
            known = accounted(state)
            unseen = sum(state.held) - sum(map(len, state.hands)) + state.undealt
            unseen += getattr(state, "crib_size", 0) - len(getattr(state, "crib", ()))
            assert len(known) == len(set(known)) and len(known) + unseen == 52, "all 52 cards accounted for"
        assert game.from_dict(game.to_dict(state)) == state


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=6, **SETTINGS)
@given(seed=st.integers(0, 100_000))
def test_hands_dealt_through_a_reader_enforce_follow_suit_at_once(game, seed):
    """With the deal scanned, the table engine knows the hands: it lists the legal plays, refuses
    a card that does not follow, and ends where the dealer-mode twin ends."""
    players = game.players[0]
    options = {"reader_deal": True}
    run = play_at_table(game, players, _bots(players, seed), seed=seed, options=options,
                        tamper=lambda action, _state: action)    # discards are scanned too
    assert game.scores(run.table_state) == game.scores(run.dealer_state)
    refused = 0
    for step in run.steps:
        state = step.table_state
        if state.phase == "play" and not game.is_terminal(state) and state.tricks.led:
            seat = state.tricks.turn
            legal = {a.card for a in game.legal_actions(state)}
            others = [c for c in state.hands[seat] if c not in legal]
            assert legal and all(c.suit == state.tricks.led for c in legal) or not others
            for card in others[:1]:
                with pytest.raises(IllegalAction, match="must follow"):
                    game.apply(state, Action("play", seat, (card,)))
                refused += 1
    assert refused or not any(s.table_state.phase == "play" for s in run.steps)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=12, **SETTINGS)
@given(seed=st.integers(0, 100_000), choice=st.integers(0, 1000), data=st.data())
def test_an_injected_revoke_is_always_proven_by_the_end_of_its_hand(game, seed, choice, data):
    """Two plays of one seat are exchanged as the table sees them, so that seat showed out of a
    suit it held. The table engine must report it, with the right trick, before the hand ends,
    penalise it, and report nobody else."""
    players = data.draw(st.sampled_from(game.players))
    plans = plan_revokes(play_at_table(game, players, _bots(players, seed), seed=seed).steps)
    if not plans:
        return
    plan = plans[choice % len(plans)]
    run = play_at_table(game, players, _bots(players, seed), seed=seed, tamper=plan.tamper(game))
    events = [e for step in run.steps for e in step.events]
    reported = [(e, sum(x.kind == "hand_over" for x in events[:i])) for i, e in enumerate(events) if e.kind == "revoke"]
    assert reported, "the revoke was proven"
    assert all(e.seat == plan.seat and e.fact("suit") == plan.suit for e, _ in reported)
    assert all(hands_over == plan.hand_no for _, hands_over in reported), "proven within its hand"
    first = reported[0][0]
    assert any(e.fact("trick") == plan.trick for e, _ in reported)
    assert first.fact("evidence_trick") <= plan.evidence_trick
    penalties = [e for step in run.steps for e in step.events if e.kind == "score" and e.points < 0]
    assert penalties and all(e.seat == plan.seat for e in penalties)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_an_illegal_play_leaves_the_state_unchanged(game):
    state = game.new_game(game.players[0], seed=11)
    while state.phase != "play":
        state, _ = game.apply(state, game.legal_actions(state)[0])
    state, _ = game.apply(state, game.legal_actions(state)[0])     # a lead
    before = game.to_dict(state)
    seat = game.prompt(state).seat
    legal = {a.card for a in game.legal_actions(state)}
    wrong = [c for c in state.hands[seat] if c not in legal] + [c for c in state.hands[1 - seat]]
    for card in wrong:
        with pytest.raises(IllegalAction):
            game.apply(state, Action("play", seat, (card,)))
    assert game.to_dict(state) == before


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_table_mode_never_asks_for_a_card_it_has_not_seen(game):
    state = game.new_game(game.players[0], mode=TABLE)
    assert game.prompt(state).kinds == ("cut",) and game.legal_actions(state) == []
    state, _ = game.apply(state, Action("cut", 0, (parse_card("KH"),)))
    with pytest.raises(IllegalAction, match="already"):
        game.apply(state, Action("cut", 1, (parse_card("KH"),)))
