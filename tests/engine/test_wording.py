"""Sentences for people: every seat an engine sentence names can be said with the players' names."""

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from engine.bots import GreedyBot, RandomBot
from engine.games import all_games
from engine.simulate import play_at_table
from engine.cards import parse_card
from engine.errors import IllegalAction
from engine.wording import Words, capitalized, compose, everyone, named, who, words

GAMES = sorted(all_games(), key=lambda g: g.name)
SEAT_NUMBER = re.compile(r"\b[Ss]eats? \d")


def _sentences(game, state, events):
    view = game.public_view(state)
    yield game.prompt(state).text
    yield from (view.status, view.centre_label, view.play_label, *view.notes)
    yield from (event.text for event in events)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_every_seat_in_every_sentence_takes_the_players_name(game):
    players = game.players[-1]
    names = [f"Player{chr(65 + n)}" for n in range(players)]
    bots = [(GreedyBot if n % 2 else RandomBot)(random.Random(n)) for n in range(players)]
    run = play_at_table(game, players, bots, seed=11)
    said = 0
    for step in run.steps:
        for text in _sentences(game, step.table_state, step.events):
            assert "\ue000" not in text and "\ue000" not in str(text)
            assert not SEAT_NUMBER.search(named(text, names)), (text, named(text, names))
            said += isinstance(text, Words)
    assert said > len(run.steps)


def test_a_sentence_reads_with_numbers_and_says_names():
    text = words(f"{who(1)} to play; {who(0, 'seat')} said go; {everyone([0, 2])} share")
    assert text == "Seat 2 to play; seat 1 said go; Seats 1 and 3 share"
    assert named(text, ["Ann", "Bob", "Cy"]) == "Bob to play; Ann said go; Ann and Cy share"
    assert named(text, ["Ann"]) == "Seat 2 to play; Ann said go; Seats 1 and 3 share"   # too few names
    assert named("no seat here", ["Ann"]) == "no seat here"
    assert named(compose("it is not your turn: ", text), ["Ann", "Bob", "Cy"]).startswith("it is not your turn: Bob")


@settings(max_examples=50, deadline=None)
@given(seats=st.lists(st.integers(0, 20), min_size=1, max_size=5), text=st.text(max_size=30))
def test_names_replace_exactly_the_marked_seats(seats, text):
    text = text.replace("\ue000", "")
    names = [f"N{n}" for n in range(21)]
    sentence = words(text + " " + " ".join(who(s) for s in seats))
    assert named(sentence, names) == text + " " + " ".join(f"N{s}" for s in seats)
    assert str(sentence) == text + " " + " ".join(f"Seat {s + 1}" for s in seats)


def test_a_refusal_names_its_seat_and_keeps_it_through_capitals_and_joins():
    err = IllegalAction("you must follow hearts", seat=1, card=parse_card("KS"))
    assert str(err) == "seat 2 cannot play KS: you must follow hearts"
    warning = compose(capitalized(str(err)), ". Take back the KS to go on")
    assert warning == "Seat 2 cannot play KS: you must follow hearts. Take back the KS to go on"
    assert named(warning, ["Ann", "Bob"]) == "Bob cannot play KS: you must follow hearts. Take back the KS to go on"
    assert capitalized("the count") == "The count" and capitalized(words(f"the {who(0, 'seat')}")) == "The seat 1"


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_refusal_for_the_wrong_seat_says_both_players_names(game):
    state = game.new_game(game.players[0], seed=3)
    prompt = game.prompt(state)
    wrong = (prompt.seat + 1) % game.players[0]
    action = next(a for a in game.legal_actions(state))
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, dataclasses.replace(action, seat=wrong))
    text = str(refused.value)
    names = [f"Player{chr(65 + n)}" for n in range(game.players[0])]
    said = named(text, names)
    assert "\ue000" not in text and not SEAT_NUMBER.search(said), said
    assert names[prompt.seat] in said and names[wrong] in said


def test_the_others_scores_in_a_result_come_runner_up_first():
    from engine.wording import won

    assert words(won((0,), 67, (47, 57))) == "Seat 1 wins 67 to 57 and 47"
    assert words(won((1,), 121, (87,), "a skunk")) == "Seat 2 wins 121 to 87: a skunk"


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_options_are_explained_in_words_without_rule_ids(game):
    """``cardtable games`` and ``config example`` show these: the rule ids of RULES.md ("Q10",
    "I1", "seed: 10") belong beside the code, not in what a player reads."""
    for option in game.options:
        assert not re.search(r"\([A-Z]{1,2}\d+\)|\bseed:", option.help), (option.name, option.help)


def test_no_sentence_or_breakdown_line_of_the_golden_games_ends_mid_phrase():
    """A score line, a breakdown's label (shown alone on the page and said aloud) and every other
    event's text end on a word that closes a phrase: "the dealer's gift", never "the dealer's gift of"."""
    dangling = re.compile(r"\b(of|for|to|and|the|a|with)$")
    golden = Path(__file__).parent / "golden"
    for path in sorted(golden.glob("*.jsonl")):
        for line in path.read_text().splitlines()[1:]:              # the first line is the setup
            for event in json.loads(line)["events"]:
                texts = [event["text"], *(item[3] for item in event["breakdown"] if item[3])]
                bad = [text for text in texts if dangling.search(text.rstrip(" .:"))]
                assert not bad, f"{path.name}: {bad}"
