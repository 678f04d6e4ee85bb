"""What the table says, for every game and every kind of event: the display's sentences, said as
a player says them (cards and numbers in words, players by name), from public events only."""

import random
import re
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.speech.sentences import (END, PLAY, PROMPT, REFUSAL, REPEAT, SCORE, WARNING, Utterance, event_utterances,
                                        scores_said, spoken, turn_and_scores, view_utterances)
from engine.bots import GreedyBot
from engine.cards import standard_52
from engine.decks import get_deck
from engine.game import Event
from engine.games import all_games
from engine.simulate import play_at_table
from engine.table_events import ButtonPress, TableEvent
from engine.wording import who, words
from hardware.view import SeatView, TableView

NAMES = ["Ann", "Bob", "Cy", "Di", "Eve"]
CODE = re.compile(r"\b(?:10|[2-9AJQKT])[SHDC]\b|\b[BG](?:10|[1-9])\b|\bV[12][RBYPO]\b")
DIGITS = re.compile(r"\d")


def said_of_a_whole_game(game, players):
    run = play_at_table(game, players, [GreedyBot(random.Random(n)) for n in range(players)], seed=4)
    return [(event, said) for step in run.steps for event in step.events
            for said in event_utterances([event], NAMES[:players])]


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_event_of_every_game_is_said_in_words_with_the_players_names(game):
    players = game.players[0]
    said = said_of_a_whole_game(game, players)
    kinds = {u.kind for _, u in said}
    assert {PLAY, SCORE, END} <= kinds, kinds
    for event, utterance in said:
        assert utterance.text and not DIGITS.search(utterance.text), utterance
        assert not CODE.search(utterance.text), utterance
        assert "Seat" not in utterance.text, utterance
        if event.seat is not None and event.kind in ("play", "score"):
            assert NAMES[event.seat] in utterance.text, utterance
        if utterance.kind == SCORE:
            assert utterance.tally == ((NAMES[event.seat] if event.seat is not None else "", event.points),)
    assert any(u.kind == END and "wins" in u.text for _, u in said)     # the game's end


def test_cribbage_is_counted_the_way_players_count():
    game = next(g for g in all_games() if g.name == "cribbage")
    run = play_at_table(game, 2, [GreedyBot(random.Random(n)) for n in range(2)], seed=4)
    texts = [u.text for step in run.steps for u in event_utterances(step.events, ["Ann", "Bob"])]
    assert any(re.fullmatch(r"(Ann|Bob) plays the (\w+) of (hearts|spades|diamonds|clubs): [a-z-]+( [a-z-]+)*", t)
               for t in texts)
    assert any(re.fullmatch(r"(Ann|Bob): fifteen two, .*", t) for t in texts), texts
    assert any(re.fullmatch(r"(Ann|Bob)'s hand: (the \w+ of \w+, ){3}and the \w+ of \w+", t) for t in texts)


def test_the_prompt_says_whose_turn_and_the_count_and_a_refusal_is_said_as_one(journal):
    deck = get_deck("standard")
    c = Table(TableSetup("cribbage", 2, names=("Ann", "Bob")), journal)

    def lay(card, zone, kind="placed"):
        c.handle(TableEvent(kind, deck.card(card), zone, 0.0, "test"))

    for card, zone in (("KH", "seat1"), ("AC", "seat2")):
        lay(card, zone)
    for card, zone in (("KH", "seat1"), ("AC", "seat2")):
        lay(card, zone, "removed")
    c.handle(ButtonPress("ok", 0.0))
    c.handle(ButtonPress("ok", 0.0))
    before = c.view()
    lay("2H", "starter")
    said = view_utterances(before, c.view())
    assert [u.text for u in said] == ["Ann to play, the count is zero"]
    before = c.view()
    lay("5H", "seat2")                                            # Bob, out of turn
    again = view_utterances(before, c.view(), refused=1)
    assert [(u.kind, u.seat) for u in again] == [(REFUSAL, 1)]
    assert again[0].text.startswith("Bob, it is not your turn: Ann to play")     # said to Bob, by name
    assert "the five of hearts" in again[0].text and "5H" not in again[0].text
    assert view_utterances(c.view(), c.view(), refused=1)[0].kind == REFUSAL     # laid again: said again
    assert view_utterances(c.view(), c.view()) == []                              # nothing new: nothing said


def test_the_count_and_the_scores_are_said_as_numbers_in_words():
    assert spoken("Ann to play (count 21)") == "Ann to play, the count is twenty-one"
    assert spoken("Ann to play (count 15). The scores") == "Ann to play, the count is fifteen. The scores"
    assert spoken("Ann wins 121 to 87: a skunk") == "Ann wins one hundred and twenty-one to eighty-seven: a skunk"
    assert spoken("Turned up: the 10H") == "Turned up: the ten of hearts"
    assert spoken("Seat 1: take AH QD with the 5C").endswith("the ace of hearts and the queen of diamonds with the five of clubs")
    assert spoken("Ann: B10 and the centre 9 make 19") == "Ann: brown ten and the centre nine make nineteen"
    assert scores_said([("Ann", 2), ("Bob", 3), ("Ann", 6)]) == "Ann scored eight and Bob three"


def test_the_say_button_answer_is_whose_turn_and_the_scores(journal):
    c = Table(TableSetup("cribbage", 2, names=("Ann", "Bob")), journal)
    text = turn_and_scores(c.view())
    assert text.startswith("Ann: cut the pack") and text.endswith("The scores: Ann zero and Bob zero")


_SEATS = st.integers(0, 4)
_CARDS = st.lists(st.sampled_from([str(c) for c in standard_52()]), min_size=1, max_size=4)


@st.composite
def events(draw):
    seat = draw(_SEATS)
    parts = draw(st.lists(st.one_of(
        st.just(who(seat)), st.just(who(draw(_SEATS), "seat")), _CARDS.map(" ".join),
        st.integers(0, 999).map(str), st.integers(0, 121).map(lambda n: f"(count {n})"),
        st.sampled_from(["plays", "scores", "wins", "and", "the", ":", ",", "is", "of", "trick"])), min_size=1, max_size=12))
    kind = draw(st.sampled_from(["play", "score", "round_won", "hand_over", "game_over", "trick", "cut", "revoke",
                                 "capture", "bid", "starter", "show"]))
    return Event(kind, seat, draw(st.integers(-5, 30)), text=words(" ".join(parts)))


@pytest.mark.slow
@settings(deadline=None)
@given(st.lists(events(), max_size=8))
def test_any_events_are_said_with_names_and_without_codes_or_digits(evs):
    said = event_utterances(evs, NAMES)
    assert len(said) == len(evs)
    for event, utterance in zip(evs, said):
        assert not CODE.search(utterance.text) and not DIGITS.search(utterance.text), utterance
        assert "Seat" not in utterance.text and "seat" not in utterance.text
        assert utterance.kind == {"score": SCORE, "round_won": SCORE, "hand_over": END, "game_over": END,
                                  "revoke": WARNING}.get(event.kind, PLAY)
        assert (utterance.tally == ((NAMES[event.seat], event.points),)) == (utterance.kind == SCORE)


@settings(deadline=None)
@given(st.text(max_size=200))
def test_any_text_can_be_said(text):
    assert isinstance(spoken(text), str)


def test_an_utterance_is_a_value():
    assert Utterance(PLAY, "a") == Utterance(PLAY, "a") and Utterance(PLAY, "a") != Utterance(PROMPT, "a")


def test_the_choice_the_left_and_right_buttons_highlight_is_said():
    seats = (SeatView("Ann", 0), SeatView("Bob", 0))
    before = TableView("Le Quinze", seats, "Ann: take AH QD or 2S JH with the 5C", choices=("AH QD", "2S JH"))
    after = replace(before, selected=1)
    assert view_utterances(before, after) == [Utterance(REPEAT, "the two of spades and the jack of hearts")]
    assert view_utterances(after, after) == []
    offer = TableView("Fifteen", seats, "Bob: take one, or give", choices=("take_one", "give"), selected=0)
    assert view_utterances(replace(offer, selected=None), offer)[-1] == Utterance(REPEAT, "take one")
