"""All Fives: the seed text (seeds/004) and RULES.md F1-F13, in dealer mode and table mode."""

from dataclasses import replace

import pytest

from engine.cards import Card, parse_card, parse_cards, standard_52
from engine.errors import IllegalAction, InvalidInput
from engine.game import TABLE, Action
from engine.games import get_game
from engine.games.allfives import trick_winner, trump_points

GAME = get_game("all-fives")
C = parse_card


# -- the public functions -------------------------------------------------------------------------
def test_trump_points_are_the_seed_table():
    assert trump_points("AH KH QH JH 10H 5H", "H") == 4 + 3 + 2 + 1 + 10 + 5 == 25      # F2
    assert trump_points("AS KS QS JS 10S 5S 9H 2H", "H") == 0                          # only trumps
    assert trump_points("9H 8H 7H 6H 4H 3H 2H", "H") == 0                              # other trumps: nothing
    assert trump_points(parse_cards("10D 5D"), "D") == 15 and trump_points([], "D") == 0


def test_trick_winner_is_public_here_too():
    assert trick_winner("10H AH 2S", "S") == 2                # trump wins
    assert trick_winner([Card(10, "H"), Card(1, "H"), Card(2, "C")], "S") == 1   # ace high, led suit
    with pytest.raises(InvalidInput):
        trump_points("AH", "hearts")


# -- a fixed deal -----------------------------------------------------------------------------------
def _deal(hands, turn_up, stock_top=(), players=2, dealer=1, scores=None, **options):
    """A dealer-mode state where eldest must stand or beg, with chosen hands and stock order."""
    state = GAME.new_game(players, seed=1, options=options)
    hands = tuple(parse_cards(h) for h in hands)
    turn_up = C(turn_up)
    top = parse_cards(" ".join(stock_top))
    used = {c for h in hands for c in h} | {turn_up} | set(top)
    stock = top + tuple(c for c in standard_52() if c not in used)
    return replace(state, dealer=dealer, hands=hands, held=tuple(map(len, hands)), stock=stock,
                   undealt=len(stock), turn_ups=(turn_up,), trump=turn_up.suit, phase="beg",
                   scores=scores or (0,) * players)


HANDS = ("AH 10H 2C 3C KS 4D", "5H JH QC 9C 2S 6D")        # seat 1 deals, seat 2 is eldest


def _act(state, *moves):
    events = []
    for move in moves:
        seat = GAME.prompt(state).seat
        action = Action("play", seat, (C(move),)) if move[0].isdigit() or move[0] in "AKQJ" else Action(move, seat)
        state, more = GAME.apply(state, action)
        events += more
    return state, events


def test_a_fresh_deal_is_six_each_in_threes_and_a_turn_up():
    for players in (2, 3):
        state = GAME.new_game(players, seed=5)
        assert state.held == (6,) * players and len(state.turn_ups) == 1
        assert state.undealt == 52 - 6 * players - 1 == len(state.stock)
        deals = [a for a in state.shown if a.kind == "deal"]
        assert [len(a.cards) for a in deals] == [3] * (2 * players)
        assert deals[0].seat == (state.dealer + 1) % players and deals[players - 1].seat == state.dealer
        prompt = GAME.prompt(state)
        assert prompt.seat == (state.dealer + 1) % players and prompt.choices == ("stand", "beg")


def test_the_highest_cut_deals_and_a_tie_cuts_again():
    state = GAME.new_game(3, mode=TABLE)
    for seat, card in enumerate(("5H", "AC", "KD")):
        state, events = GAME.apply(state, Action("cut", seat, (C(card),)))
    assert state.dealer == 1 and "Seat 2 deals" in events[-1].text                      # F12: ace high
    state = GAME.new_game(2, mode=TABLE)
    state, _ = GAME.apply(state, Action("cut", 0, (C("9H"),)))
    state, events = GAME.apply(state, Action("cut", 1, (C("9C"),)))
    assert state.phase == "cut" and state.cuts == () and "again" in events[-1].text
    dealer_mode = GAME.new_game(2, seed=3)
    keys = [14 if c.rank == 1 else c.rank for c in dealer_mode.cuts]
    assert dealer_mode.dealer == keys.index(max(keys))


def test_stand_keeps_the_turn_up_suit_and_eldest_leads():
    state, events = _act(_deal(HANDS, "7H"), "stand")
    assert state.phase == "play" and state.tricks.trump == "H" and GAME.prompt(state).seat == 0
    assert "stands" in events[0].text


def test_take_one_gives_eldest_a_point_and_play_begins():
    state, _ = _act(_deal(HANDS, "7H"), "beg")
    assert GAME.prompt(state).seat == 1 and GAME.prompt(state).choices == ("take_one", "run")
    state, events = _act(state, "take_one")
    assert state.scores == (1, 0) and state.trump == "H" and state.phase == "play"


def test_take_one_can_win_the_game_at_sixty():
    state, events = _act(_deal(HANDS, "7H", scores=(60, 50)), "beg", "take_one")       # F5
    assert GAME.is_terminal(state) and GAME.outcome(state).winners == (0,)


def test_option_the_dealer_cannot_give_the_game_point():
    state, _ = _act(_deal(HANDS, "7H", scores=(60, 50), no_gift_game_point=True), "beg")
    assert GAME.prompt(state).kinds == ("run",)
    with pytest.raises(IllegalAction, match="run"):
        GAME.apply(state, Action("take_one", 1))


def test_running_the_cards_deals_three_more_and_turns_until_a_new_suit():
    # stock: three each (seat 1 first, the dealer last), then 2H (same suit: again), three each, then 9S
    top = ("6C", "7C", "8C", "6S", "7S", "8S", "2H", "9D", "10D", "JD", "QD", "KD", "AD", "9S")
    state, events = _act(_deal(HANDS, "7H", top), "beg", "run")
    assert state.turn_ups == parse_cards("7H 2H 9S") and state.trump == "S"
    assert state.held == (12, 12) and state.phase == "play" and GAME.prompt(state).seat == 0     # F7, F8
    assert C("6C") in state.hands[0] and C("6S") in state.hands[1]
    assert "Trumps are spades" in [e.text for e in events if e.kind == "trump"][0]
    _, more = _act(state, "AH")
    assert not [e for e in more if e.kind == "score"]       # turn-ups never score (F13)


def test_the_pack_running_out_means_a_redeal_by_the_same_dealer():
    hearts = [f"{r}H" for r in ("2", "3", "4", "6", "8")]
    others = iter(c for c in map(str, standard_52()) if c[-1] != "H" and c not in " ".join(HANDS).split())
    top = []
    for heart in hearts:
        top += [next(others) for _ in range(6)] + [heart]
    state, events = _act(_deal(HANDS, "7H", top), "beg", "run")
    assert [e.kind for e in events].count("redeal") == 1
    assert state.deal_no == 1 and state.hand_no == 0 and state.dealer == 1
    assert state.phase == "beg" and state.held == (6, 6) and len(state.turn_ups) == 1
    assert len(state.stock) == 52 - 13


def test_option_discard_to_six():
    top = ("6C", "7C", "8C", "6S", "7S", "8S", "9S")
    state, _ = _act(_deal(HANDS, "7H", top, discard_to_six=True), "beg", "run")
    prompt = GAME.prompt(state)
    assert state.phase == "discard" and prompt.seat == 0 and "3 cards" in prompt.text
    with pytest.raises(IllegalAction, match="do not hold"):
        GAME.apply(state, Action("discard", 0, (C("5H"),)))
    for card in ("6C", "7C", "8C"):
        state, _ = GAME.apply(state, Action("discard", 0, (C(card),)))
    for card in ("6S", "7S", "8S"):
        state, _ = GAME.apply(state, Action("discard", 1, (C(card),)))
    assert state.phase == "play" and state.held == (6, 6) and len(state.discards) == 6


def test_follow_suit_is_enforced_and_trumping_while_able_to_follow_is_refused():
    state, _ = _act(_deal(HANDS, "7S"), "stand")            # spades trumps
    state, _ = _act(state, "2C")                            # seat 1 leads clubs
    with pytest.raises(IllegalAction, match="seat 2 cannot play 2S: you must follow clubs"):
        _act(state, "2S")                                   # F1: not "follow or trump"
    state, _ = _act(state, "QC")
    assert state.tricks.leader == 1                         # the trick winner leads next
    state, _ = _act(state, "6D", "4D")                      # seat 2 leads diamonds, seat 1 follows
    assert state.tricks.leader == 1


def test_void_players_may_play_anything_and_a_trump_wins():
    hands = ("AH 10H 2C 3C KS 4D", "5H JH QH 9H 2S 6H")
    state, _ = _act(_deal(hands, "7S"), "stand")
    state, events = _act(state, "2C", "2S")                 # seat 1 has no club: trumps with the two
    assert state.tricks.leader == 1 and events[-1].kind == "trick"


def test_the_hand_scores_trumps_won_in_tricks_at_the_end():
    hands = ("AH 10H 2C 3C KS 4D", "5H JH QC 9C 2S 6D")
    state, _ = _act(_deal(hands, "7H"), "stand")
    state, events = _act(state, "AH", "5H", "10H", "JH", "QC", "2C", "9C", "3C", "6D", "4D", "2S", "KS")
    scores = [e for e in events if e.kind == "score"]
    # seat 1 won AH 5H and KS 2S; seat 2 won 10H JH (the jack is higher) and every other trick
    assert [(e.seat, e.points) for e in scores] == [(0, 4 + 5), (1, 10 + 1)]
    assert "the ten of hearts" in scores[1].text
    assert state.scores == (9, 11) and state.hand_no == 1 and state.dealer == 0       # deal passes left


def _finish_hand(scores):
    """Seat 1 scores 25 this hand: it holds all the scoring hearts."""
    hands = ("AH 10H KH QH JH 5H", "2C 3C 4C 6C 7C 8C")
    state, _ = _act(_deal(hands, "7H", scores=scores), "stand")
    while not GAME.is_terminal(state) and state.phase == "play":
        state, _ = GAME.apply(state, GAME.legal_actions(state)[0])
    return state


def test_several_past_61_the_highest_wins_and_a_tie_plays_another_hand():
    state = _finish_hand((50, 70))                            # 75 v 70: seat 1 wins (F9)
    assert GAME.is_terminal(state) and GAME.outcome(state).winners == (0,)
    state = _finish_hand((45, 70))                            # 70 v 70: another hand
    assert not GAME.is_terminal(state) and state.scores == (70, 70) and state.hand_no == 1


# -- table mode: revokes proven from evidence (F10) ------------------------------------------------
def _table(players=2, **options):
    state = GAME.new_game(players, mode=TABLE, options=options)
    for seat, card in enumerate(("KH", "2C", "3D")[:players]):
        state, _ = GAME.apply(state, Action("cut", seat, (C(card),)))
    assert state.dealer == 0 and GAME.prompt(state).kinds == ("turn_up",) and GAME.prompt(state).seat is None
    state, _ = GAME.apply(state, Action("turn_up", None, (C("7S"),)))
    return _act(state, "stand")[0]


def test_table_mode_learns_cards_and_refuses_one_seen_twice():
    state = _table()
    assert GAME.legal_actions(state) == []                   # it cannot list plays from unseen hands
    with pytest.raises(IllegalAction, match="already been seen"):
        _act(state, "7S")                                    # the turn-up belongs to nobody
    state, _ = _act(state, "KH", "2H")
    with pytest.raises(IllegalAction, match="already been seen"):
        _act(state, "KH")


def test_a_revoke_is_proven_when_the_suit_shown_out_of_is_played_later():
    state = _table()                                          # seat 2 leads (eldest)
    state, _ = _act(state, "KH", "3C")                        # seat 1 shows out of hearts on trick 1
    assert [(o.seat, o.suit, o.trick) for o in state.tricks.showouts] == [(0, "H", 1)]
    state, events = _act(state, "AH", "9H")                   # seat 2 led again; seat 1 plays a heart
    revokes = [e for e in events if e.kind == "revoke"]
    assert len(revokes) == 1 and revokes[0].seat == 0
    assert revokes[0].fact("trick") == 1 and revokes[0].fact("evidence") == C("9H")
    assert state.scores == (-3, 0) and state.revokers == (0,)


def test_others_gain_three_in_the_variant():
    state = _table(3, revoke_penalty="others_gain")            # seat 2 leads; dealer seat 1 last
    state, _ = _act(state, "KH", "3C", "4H")                   # seat 3 shows out of hearts; seat 2 wins
    state, events = _act(state, "2D", "5H")                    # seat 3 plays a heart: a revoke
    revokes = [e for e in events if e.kind == "revoke"]
    assert [e.seat for e in revokes] == [2]
    assert state.scores == (3, 3, 0)


def test_a_revoker_cannot_win_on_that_hand():
    state = _table()
    state = replace(state, scores=(58, 10))
    state, _ = _act(state, "2H", "3C")                        # seat 1 shows out of hearts
    state, _ = _act(state, "4C", "AH")                        # and later plays the AH: revoke
    assert state.scores == (55, 10)
    state = replace(state, scores=(58, 10))                   # as if it still had 58 points
    for card in ("2S", "AS", "10S", "3S", "5S", "4S", "KS", "6S"):      # seat 1 wins 22 in trumps
        state, events = GAME.apply(state, Action("play", GAME.prompt(state).seat, (C(card),)))
    assert not GAME.is_terminal(state) and state.scores[0] == 60          # held at 60
    assert any(e.kind == "score" and e.fact("reason") == "revoke" for e in events)


def test_hands_dealt_through_a_reader_refuse_a_revoke_at_once():
    state = GAME.new_game(2, mode=TABLE, options={"reader_deal": True})
    state, _ = GAME.apply(state, Action("cut", 0, (C("KH"),)))
    state, _ = GAME.apply(state, Action("cut", 1, (C("2C"),)))
    assert GAME.prompt(state).kinds == ("deal",) and GAME.prompt(state).seat is None
    with pytest.raises(IllegalAction, match="owed"):
        GAME.apply(state, Action("deal", 1, parse_cards("2H 3H 4H 5H 6H 7H 8H")))
    state, _ = GAME.apply(state, Action("deal", 1, parse_cards("2H 3H 4H")))
    state, _ = GAME.apply(state, Action("deal", 0, parse_cards("2C 3C 4C 5C 6C 7S")))
    state, _ = GAME.apply(state, Action("deal", 1, parse_cards("9S 10S JS")))
    state, _ = GAME.apply(state, Action("turn_up", None, (C("KD"),)))
    state, _ = _act(state, "stand", "2H")
    assert {a.card for a in GAME.legal_actions(state)} == set(parse_cards("2C 3C 4C 5C 6C 7S"))
    state, _ = _act(state, "2C", "9S")
    with pytest.raises(IllegalAction, match="must follow spades"):
        _act(state, "3C")


THREE = ("AH 10H 2C 3C KS 4D", "5H JH QC 9C 2S 6D", "7C 8C 9D 10D JD QD")


def test_take_one_ends_the_game_only_when_it_makes_eldest_the_highest():
    """Issue: 3 players after a tie at 65 (F9, another hand): eldest at 60 begs, the dealer gives
    one; 61 is past the target but not the highest, so the hand is played."""
    state = _deal(THREE, "7H", players=3, dealer=2, scores=(60, 65, 65))
    state, events = _act(state, "beg", "take_one")
    assert not GAME.is_terminal(state) and state.scores == (61, 65, 65) and state.phase == "play"
    state = _deal(THREE, "7H", players=3, dealer=2, scores=(64, 60, 64))       # 65 is alone at the top
    state, _ = _act(state, "beg", "take_one")
    assert GAME.is_terminal(state) and GAME.outcome(state).winners == (0,)


def test_take_one_is_said_once():
    _, events = _act(_deal(HANDS, "7H"), "beg", "take_one")
    said = [e.text for e in events if e.kind == "score"]
    assert said == ["Seat 1: the dealer's gift"]
