"""Strict marker payloads: exactly the text ``print-deck`` writes is a card, nothing else, and no
text ever raises anything but :class:`ForeignMarker`."""

import pytest
from hypothesis import given, settings, strategies as st

from engine.decks import DECKS, get_deck
from vision.markers import ForeignMarker, card_for_payload, payload_for

CANONICAL = {payload_for(card, deck): card for deck in DECKS for card in get_deck(deck).cards}


@pytest.mark.parametrize("text", [
    "ct1:standard:5h",          # lower case: QR alphanumeric mode has none, print-deck never makes it
    "CT1:standard:5H",
    "Ct1:STANDARD:5H",
    "CT1:Standard:5H",
    "CT1:STANDARD:5h",
    " CT1:STANDARD:5H",         # spaces
    "CT1:STANDARD:5H ",
    "CT1: STANDARD:5H",
    "CT1:STANDARD:5H\n",        # a trailing newline
    "CT01:STANDARD:5H",         # another spelling of the version
    "CT+1:STANDARD:5H",
    "CT\u0661:STANDARD:5H",     # an Arabic-Indic digit one
    "CT\u00b9:STANDARD:7H",     # a superscript one (raised ValueError before)
    "CT1:STANDARD:5H:",         # extra characters
    "CT1:STANDARD:5HX",
    "XCT1:STANDARD:5H",
    "CT1:STANDARD:T5",
    "CT2:STANDARD:5H",          # another version
    "CT1:FRENCH40:10H",         # not a card of that deck (french40 has no 10)
    "CT1:POKER:5H",
])
def test_only_the_exact_printed_text_is_a_card(text):
    with pytest.raises(ForeignMarker):
        card_for_payload(text)


def test_every_printed_payload_is_its_card():
    for text, card in CANONICAL.items():
        assert card_for_payload(text) == card


def test_a_card_of_another_deck_is_foreign_when_the_deck_in_play_is_given():
    assert card_for_payload("CT1:FRENCH40:7C", deck="french40").id == "7C"
    with pytest.raises(ForeignMarker, match="another deck"):
        card_for_payload("CT1:FRENCH40:7C", deck="standard")


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.one_of(
    st.text(max_size=40),
    st.sampled_from(sorted(CANONICAL)).flatmap(
        lambda p: st.tuples(st.just(p), st.integers(0, len(p)), st.text(max_size=3), st.integers(0, 2)).map(
            lambda t: t[0][:t[1]] + t[2] + t[0][t[1] + t[3]:]))))
def test_random_text_never_raises_and_is_a_card_only_when_canonical(text):
    try:
        card = card_for_payload(text)
    except ForeignMarker:
        assert text not in CANONICAL
        return
    assert CANONICAL[text] == card
