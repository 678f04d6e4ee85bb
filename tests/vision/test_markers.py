"""Marker payloads and ArUco ids: round trips for every card of every deck, clear errors otherwise."""

import pytest

from engine.decks import DECKS, get_deck
from vision.markers import (ForeignMarker, aruco_id_for, card_for_aruco, card_for_payload, payload_for,
                            qr_modules, MAT_MARKER_IDS)


@pytest.mark.parametrize("deck", list(DECKS))
def test_every_card_round_trips_through_its_payload_and_aruco_id(deck):
    payloads = set()
    for card in get_deck(deck).cards:
        payload = payload_for(card, deck)
        assert card_for_payload(payload) == card
        assert card_for_aruco(aruco_id_for(card, deck), deck) == card
        assert qr_modules(payload).shape == (21, 21)  # version 1: the printed module size holds
        payloads.add(payload)
    assert len(payloads) == len(get_deck(deck).cards)


def test_its15_value_cards_with_the_same_face_have_different_payloads():
    deck = get_deck("its15")
    twins = [c for c in deck.cards if str(c.face) == "V1R"]
    assert len(twins) > 1
    assert len({payload_for(c, deck) for c in twins}) == len(twins)


@pytest.mark.parametrize("text, words", [
    ("http://example.com", "not a cardtable card"),
    ("CT2:STANDARD:10H", "version 2"),
    ("CT1:POKER:10H", "names no card"),
    ("CT1:STANDARD:11H", "names no card"),
    ("CTX:STANDARD:10H", "not a cardtable card"),
])
def test_foreign_payloads_are_refused_with_a_reason(text, words):
    with pytest.raises(ForeignMarker, match=words):
        card_for_payload(text)


def test_aruco_ids_outside_the_deck_and_the_mat_ids_are_foreign():
    with pytest.raises(ForeignMarker, match="calibration mat"):
        card_for_aruco(MAT_MARKER_IDS[0], "standard")
    with pytest.raises(ForeignMarker, match="not a card"):
        card_for_aruco(40, "french40")
    with pytest.raises(ForeignMarker):
        card_for_aruco("3", "standard")
