"""Card text, decks and physical cards."""

import pytest
from hypothesis import given, strategies as st

from engine.cards import Card, french_40, parse_card, parse_cards, standard_52
from engine.decks import ItsFace, get_deck, parse_its_face
from engine.errors import InvalidInput


@pytest.mark.parametrize("text, expected", [
    ("10H", Card(10, "H")), ("TH", Card(10, "H")), ("th", Card(10, "H")), ("AS", Card(1, "S")),
    ("qd", Card(12, "D")), ("K♣", Card(13, "C")), (" 7C ", Card(7, "C")),
])
def test_parse_card_accepts_the_usual_spellings(text, expected):
    assert parse_card(text) == expected


def test_canonical_text_and_repr_round_trip():
    card = parse_card("TH")
    assert str(card) == "10H"
    assert eval(repr(card), {"Card": lambda t: parse_card(t)}) == card
    assert card.name == "ten of hearts"


@pytest.mark.parametrize("text, words", [
    ("1H", "no rank"), ("11S", "no rank"), ("10X", "no suit"), ("H", "too short"), ("", "too short"),
])
def test_bad_card_text_says_what_is_wrong(text, words):
    with pytest.raises(InvalidInput, match=words):
        parse_card(text)


@pytest.mark.slow
@given(st.text(max_size=6))
def test_any_text_parses_to_a_card_or_raises_invalid_input(text):
    try:
        card = parse_card(text)
    except InvalidInput:
        return
    assert parse_card(str(card)) == card


def test_every_card_text_round_trips():
    assert all(parse_card(str(card)) == card for card in standard_52())
    assert parse_cards("5H 5S") == (Card(5, "H"), Card(5, "S"))


def test_packs():
    assert len(set(standard_52())) == 52
    forty = french_40()
    assert len(forty) == 40 and {c.rank for c in forty} == {1, 2, 3, 4, 5, 6, 7, 11, 12, 13}


def test_decks_hold_unique_physical_cards():
    for name in ("standard", "french40", "its15"):
        deck = get_deck(name)
        assert len({card.id for card in deck.cards}) == len(deck.cards)
    its = get_deck("its15")
    faces = [card.face for card in its.cards]
    assert faces.count(parse_its_face("V1R")) > 1
    assert its.card("B10").face == ItsFace("B", 10)


def test_unknown_deck_and_card_are_clear_errors():
    with pytest.raises(InvalidInput, match="choose one of standard"):
        get_deck("tarot")
    with pytest.raises(InvalidInput, match="has no card 'ZZ'"):
        get_deck("standard").card("ZZ")
    with pytest.raises(InvalidInput, match="not an It's 15 card"):
        parse_its_face("X3")
