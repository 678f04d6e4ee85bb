"""The show, the pegs and the last move in the view: the crib while it is laid out, every hand
counted with its breakdown (kept in view until the next starter), each side's front and back peg,
the partnerships of four, and a line saying what just happened. Only cards laid face up."""

import random

import pytest

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.table.recent import Recent, side_scores
from cardtable.table.view import build_view, item_words
from engine.bots import GreedyBot, play_game
from engine.cards import parse_card
from engine.decks import get_deck
from engine.game import ScoreItem
from engine.games import all_games, get_game
from engine.games.cribbage_scoring import score_hand
from engine.table_events import ButtonPress, TableEvent

DECK = get_deck("standard")
NAMES = ("Ann", "Bob")


def placed(card_id, zone):
    return TableEvent("placed", DECK.card(card_id), zone, 0.0, "test")


def _at_play(journal, outputs):
    """Table mode, Bob deals (Ann cut KH, Bob AC), both lay away, starter 2H: Ann to play."""
    c = Table(TableSetup("cribbage", 2, names=NAMES), journal, outputs)
    for card, zone in (("KH", "seat1"), ("AC", "seat2")):
        c.handle(placed(card, zone))
    for card, zone in (("KH", "seat1"), ("AC", "seat2")):
        c.handle(TableEvent("removed", DECK.card(card), zone, 0.0, "test"))
    c.handle(ButtonPress("ok", 0.0))
    c.handle(ButtonPress("ok", 0.0))
    c.handle(placed("2H", "starter"))
    return c


def _at_crib(journal, outputs):
    """The hands played out from :func:`_at_play`: Ann 10H 5C 9H AH, Bob 10S 6D 9S AS."""
    c = _at_play(journal, outputs)
    for card, zone in (("10H", "seat1"), ("10S", "seat2"), ("5C", "seat1"), ("6D", "seat2"),
                       ("9H", "seat1"), ("9S", "seat2"), ("AH", "seat1"), ("AS", "seat2")):
        c.handle(placed(card, zone))
    assert c.game.rules.prompt(c.game.state).kinds == ("crib",)
    return c


def _points(cards, crib=False):
    return score_hand(tuple(map(parse_card, cards)), parse_card("2H"), crib=crib).total


def test_the_hands_counted_and_the_crib_being_laid_out_are_shown(journal, outputs):
    c = _at_crib(journal, outputs)
    for card in ("5D", "5S"):
        c.handle(placed(card, "crib"))
    view = outputs.views[-1]
    assert "2 of 4 cards seen" in view.prompt
    shown = {hand.label: hand for hand in view.shown}
    assert list(shown) == ["Ann's hand", "Bob's hand", "Bob's crib"]
    assert shown["Ann's hand"].cards == ("10H", "5C", "9H", "AH")
    assert shown["Ann's hand"].points == _points(["10H", "5C", "9H", "AH"])
    assert shown["Bob's hand"].points == _points(["10S", "6D", "9S", "AS"])
    assert shown["Bob's crib"].cards == ("5D", "5S") and shown["Bob's crib"].points is None
    assert all(hand.starter == "2H" for hand in view.shown)
    ann = shown["Ann's hand"]
    assert sum(item.points for item in ann.items) == ann.points
    assert all(set(item.cards) <= {*ann.cards, "2H"} for item in ann.items)


def test_the_whole_show_stays_in_view_until_the_next_starter(journal, outputs):
    c = _at_crib(journal, outputs)
    for card in ("5D", "5S", "5H", "JH"):
        c.handle(placed(card, "crib"))
    view = outputs.views[-1]
    assert c.game.state.hand_no == 1 and view.prompt.startswith("Bob: lay two cards away")
    crib = view.shown[-1]
    assert crib.label == "Bob's crib" and crib.cards == ("5D", "5S", "5H", "JH")
    assert crib.points == _points(["5D", "5S", "5H", "JH"], crib=True)
    assert [hand.label for hand in view.shown] == ["Ann's hand", "Bob's hand", "Bob's crib"]
    assert view.last_move == f"Bob's crib: 5D 5S 5H JH (+{crib.points} fifteen \u00d74, a pair royal, and one for his nob)"
    c.handle(ButtonPress("ok", 0.0))
    c.handle(ButtonPress("ok", 0.0))
    assert outputs.views[-1].shown                   # still there while the crib is laid away
    c.handle(placed("KD", "starter"))
    assert outputs.views[-1].shown == ()


def test_the_pegs_and_the_last_move(journal, outputs):
    c = _at_crib(journal, outputs)
    view = outputs.views[-1]
    assert [side.name for side in view.sides] == ["Ann", "Bob"]
    ann_hand = _points(["10H", "5C", "9H", "AH"])
    ann, bob = view.sides
    assert ann.score == view.seats[0].score and bob.score == view.seats[1].score
    assert ann.back == ann.score - ann_hand                 # the back peg: the score before the last
    assert view.target == 121 and view.board == "cribbage"
    c.handle(placed("5D", "crib"))
    assert outputs.views[-1].last_move == view.last_move    # a card of the crib is not a move yet
    assert view.last_move.startswith("Bob plays AS: 20 (+2 a pair, +1 one for last card")
    assert "hand" not in view.last_move                    # the show has a place of its own


def test_a_play_that_scores_says_its_points_in_the_last_move(journal, outputs):
    c = _at_play(journal, outputs)
    c.handle(placed("10H", "seat1"))
    assert outputs.views[-1].last_move == "Ann plays 10H: 10"
    c.handle(placed("5S", "seat2"))
    assert outputs.views[-1].last_move == "Bob plays 5S: 15 (+2 fifteen)"


def test_four_players_peg_as_two_partnerships():
    game = get_game("cribbage")
    state = game.new_game(4, seed=2)
    view = build_view(game, state, ["Ann", "Bob", "Cy", "Di"])
    assert [side.name for side in view.sides] == ["Ann & Cy", "Bob & Di"]


@pytest.mark.parametrize("name", ["allfives", "quinze", "its15", "fifteen"])
def test_other_games_have_a_score_track(name):
    game = get_game(name)
    state = game.new_game(game.players[0], seed=1)
    view = build_view(game, state, [f"P{n}" for n in range(game.players[0])])
    assert view.board == "track" and len(view.sides) == game.players[0]
    assert view.target == game.target(state) and (view.target is None) == (name == "its15")


GAMES = sorted(all_games(), key=lambda g: g.name)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_the_show_names_only_cards_laid_face_up(game, journal, outputs):
    """A whole dealt game through the controller: every card the show section names was laid face
    up in a show (the engine's "show" events), never a card still in a hand or a crib not counted."""
    players = game.players[-1]
    c = Table(TableSetup(game.name, players, mode="dealer", seed=4), journal, outputs)
    bots = [GreedyBot(random.Random(n)) for n in range(players)]
    laid_face_up: set[str] = set()
    views = 0
    while not c.game.finished:
        seat = game.prompt(c.game.state).seat
        events = c.submit(bots[seat or 0].choose(game, c.game.state, seat or 0))
        laid_face_up |= {str(card) for e in events if e.kind == "show" for card in e.cards}
        named = {card for hand in outputs.views[-1].shown for card in hand.cards}
        assert named <= laid_face_up
        views += bool(named)
    assert game.name not in ("cribbage", "fifteen") or views


def test_a_breakdown_in_words():
    item = ScoreItem("pairs", 2, (parse_card("JD"), parse_card("JH")), "a pair")
    assert item_words(item) == "a pair for 2: jack of diamonds and jack of hearts"
    assert item_words(ScoreItem("go", 1, (), "one for the go")) == "one for the go"


def test_le_quinze_says_the_table_in_words_and_its_last_capture():
    """The prompt listed the table as codes ("on the table: 3D JD"); the cards are shown beside it."""
    import re

    game = get_game("quinze")
    recent = Recent(side_scores(game, game.new_game(2, seed=3)))
    prompts, moves = [], []

    def check(action, events, state):
        recent.add(events)
        view = build_view(game, state, ["Ann", "Bob"], recent=recent)
        prompts.append(view.prompt)
        moves.append(view.last_move)
    play_game(game, game.new_game(2, seed=3), [GreedyBot(random.Random(n)) for n in range(2)], on_step=check)
    code = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])[SHDC](?![A-Za-z0-9])")
    playing = [p for p in prompts if " to play" in p]
    assert playing and not [p for p in playing if code.search(p)]
    assert any(re.fullmatch(r"(Ann|Bob) to play: \d cards? on the table, worth \d+", p) for p in playing)
    assert any(" takes " in move for move in moves)            # the last capture is in view


@pytest.mark.parametrize("name", ["allfives", "fifteen"])
def test_a_score_line_says_its_points_once(name):
    """All Fives said "+15 Seat 1 scores 15: ..."."""
    import re

    from cardtable.table.view import score_lines

    game = get_game(name)
    lines = []
    play_game(game, game.new_game(2, seed=5), [GreedyBot(random.Random(n)) for n in range(2)],
              on_step=lambda action, events, state: lines.extend(score_lines(events)))
    assert lines and not [line for line in lines if re.search(r"\b(scores|loses) \d", line)]
    assert all(re.match(r"[+-]\d+ Seat \d: \S", line) for line in lines), lines[:3]
