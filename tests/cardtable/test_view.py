"""The view a display gets never shows a hand, the crib before the show, or a face-down card."""

import random
import re

import pytest

from cardtable.table.score_log import ScoreLog
from cardtable.table.view import build_view, its15_words, score_lines
from engine.bots import GreedyBot, play_game
from engine.cards import parse_card
from engine.game import TABLE, Action
from engine.games import all_games, get_game
from engine.wording import everyone, named, who, words

GAMES = sorted(all_games(), key=lambda g: g.name)


def _hidden(state) -> set[str]:
    """Cards the engine knows to be in hands, or face down in the crib before it is counted."""
    hidden = {str(c) for hand in getattr(state, "hands", ()) or () for c in hand}
    crib_shown = getattr(state, "phase", "") == "show" and getattr(state, "show_step", 0) >= state.players
    if not crib_shown:
        hidden |= {str(c) for c in getattr(state, "crib", ()) or ()}
    return hidden


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_no_view_of_a_whole_game_shows_a_hidden_card(game):
    players = game.players[-1]
    names = [f"Player {n}" for n in range(players)]
    checked = []

    def check(action, events, state):
        view = build_view(game, state, names)
        shown = set(view.centre_cards) | set(view.play_cards)
        leaked = shown & _hidden(state)
        assert not leaked, f"{game.name}: {view} shows {leaked}"
        checked.append(len(shown))

    play_game(game, game.new_game(players, seed=4), [GreedyBot(random.Random(n)) for n in range(players)],
              on_step=check)
    assert sum(checked) > 0, "the views showed the face-up cards"


def test_sentences_use_the_players_names():
    game = get_game("cribbage")
    state = game.new_game(2, seed=3)
    view = build_view(game, state, ["Ann", "Bob"])
    assert view.prompt == "Bob: lay two cards away to Ann's crib" and game.prompt(state).text.startswith("Seat 2")


def test_seat_numbers_of_any_length_and_lists_of_seats_get_the_names():
    """The seat pattern once matched one digit only: "Seat 10" came out as "Seat 10" (or worse).
    Sentences now know their seats, so any seat and any list of seats takes the names."""
    names = [f"P{n}" for n in range(1, 13)]
    assert named(words(f"{who(9)} wins; {who(11, 'seat')} said go; {who(0)} deals"), names) == \
        "P10 wins; P12 said go; P1 deals"
    assert named(words(f"{everyone([0, 1, 10])} share the win"), names) == "P1, P2, and P11 share the win"
    assert named(words(f"{everyone([0, 2])} share the win"), ["Ann", "Bob", "Cy"]) == "Ann and Cy share the win"
    assert named(words(f"{who(12)} wins"), names) == "Seat 13 wins"


def test_the_score_log_says_the_players_names():
    game = get_game("cribbage")
    log = ScoreLog(size=1000)
    play_game(game, game.new_game(2, seed=4), [GreedyBot(random.Random(n)) for n in range(2)],
              on_step=lambda action, events, state: log.add(events))
    view = build_view(game, game.new_game(2, seed=4), ["Ann", "Bob"], score_log=tuple(log.entries))
    assert view.score_log and all(re.match(r"[+-]\d+ (Ann|Bob)\b", line) for line in view.score_log)


def test_nobody_is_the_dealer_before_the_cut():
    game = get_game("cribbage")
    state = game.new_game(3, mode=TABLE)
    names = ["Ann", "Bob", "Cy"]
    assert not any(seat.is_dealer for seat in build_view(game, state, names).seats)
    for seat, card in enumerate(["9H", "AS", "KD"]):
        state, _ = game.apply(state, Action("cut", seat, (parse_card(card),)))
    assert [seat.is_dealer for seat in build_view(game, state, names).seats] == [False, True, False]


@pytest.mark.parametrize("name", ["allfives", "fifteen"])
def test_the_game_over_view_shows_no_trick_after_the_last(name):
    """It said "Trick 6" under a hand of five tricks."""
    game = get_game(name)
    end = play_game(game, game.new_game(2, seed=3), [GreedyBot(random.Random(n)) for n in range(2)]).state
    view = build_view(game, end, ["Ann", "Bob"])
    assert view.finished and view.play_label == "" and view.play_cards == ()


CODE = re.compile(r"\b(?:[BG]\d{1,2}|V[12][RBYPO])\b")


def test_its15_cards_are_named_as_the_players_know_them():
    game = get_game("its15")
    names = ["Ann", "Bob", "Cy"]
    log, seen = ScoreLog(size=1000), set()

    def check(action, events, state):
        log.add(events)
        view = build_view(game, state, names, score_log=tuple(log.entries))
        texts = [view.prompt, view.warning, *view.centre_cards, *view.play_cards, *view.score_log,
                 *(seat.note for seat in view.seats)]
        assert not [text for text in texts if CODE.search(text)], texts
        seen.update(view.centre_cards + view.play_cards)

    play_game(game, game.new_game(3, seed=5), [GreedyBot(random.Random(n)) for n in range(3)], on_step=check)
    assert {card.split()[0] for card in seen} >= {"green", "red"}
    assert its15_words("Seat 1: B10 G4 and V2Y-1") == "Seat 1: brown 10 green 4 and yellow 2"


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_the_score_log_accounts_for_every_point(game):
    """Each change of a score is one log line led by the change; together they make the final scores."""
    players = game.players[-1]
    state = game.new_game(players, seed=6)
    start, lines = game.scores(state), []
    end = play_game(game, state, [GreedyBot(random.Random(n)) for n in range(players)],
                    on_step=lambda action, events, state: lines.extend(score_lines(events))).state
    side = (lambda seat: seat % 2) if game.name == "cribbage" and players == 4 else (lambda seat: seat)
    said = [0] * players
    for line in lines:
        change, seat = re.match(r"([+-]\d+) Seat (\d+)", line).groups()
        said[side(int(seat) - 1)] += int(change)
    assert [start[seat] + said[side(seat)] for seat in range(players)] == list(game.scores(end))


def test_the_controllers_refusals_say_the_players_names(journal, outputs):
    from cardtable.table.journalled_game import TableSetup
    from cardtable.table.table import Table
    from engine.decks import get_deck
    from engine.table_events import TableEvent

    deck = get_deck("standard")
    c = Table(TableSetup("cribbage", 2, names=("Ann", "Bob")), journal, outputs)
    c.handle(TableEvent("placed", deck.card("KH"), "seat2", 0.0, "test"))      # Ann cuts first
    warning = outputs.views[-1].warning
    assert warning == "It is not your turn: Ann: cut the pack and show a card; lowest deals. Take back the KH to go on"
