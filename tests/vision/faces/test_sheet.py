"""The contact sheet of an enrolment (:mod:`vision.faces.sheet`)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.faces.features import UPRIGHT, describe, turned
from vision.faces.sheet import GAP, LABEL, contact_sheet
from vision.faces.store import Enrolment
from vision.faces.way_round import kept_turned


def _tile_at(sheet: np.ndarray, deck, card_id: str) -> tuple[np.ndarray, np.ndarray]:
    """The label and the picture of ``card_id``'s tile: a suit a row, in deck order."""
    suit = deck.card(card_id).face.suit
    row = list(dict.fromkeys(card.face.suit for card in deck.cards)).index(suit)
    column = [card.id for card in deck.cards if card.face.suit == suit].index(card_id)
    w, h = UPRIGHT
    y, x = GAP + row * (h + LABEL + GAP), GAP + column * (w + GAP)
    return sheet[y:y + LABEL, x:x + w], sheet[y + LABEL:y + LABEL + h, x:x + w]


@pytest.mark.slow
def test_a_card_photographed_upside_down_is_shown_the_way_the_table_compares_it(deck, upright_views):
    """The defect (issue 22): the contact sheet showed each card as photographed, half of a
    phone-photo enrolment upside down, while the table compares the cards one way round: the
    sheet did not show what the table compares against. A card kept turned is shown turned, and
    its label says so; the others as enrolled."""
    views = upright_views("oxygen-air")
    enrolment = Enrolment(deck, "oxygen-air")
    for card in deck.cards:
        seen = turned(views[card.id]) if card.id == "2H" else views[card.id]
        enrolment.cards[card.id], enrolment.views[card.id] = describe(seen), seen
    sheet = contact_sheet(enrolment)
    (label, picture), (label_2d, picture_2d) = _tile_at(sheet, deck, "2H"), _tile_at(sheet, deck, "2D")
    assert np.array_equal(picture, views["2H"]) and np.array_equal(picture_2d, views["2D"])
    # "2H turned" inks its label twice as much as "2D" at least.
    assert (label < 128).sum() > 2 * (label_2d < 128).sum()


@pytest.mark.slow
@pytest.mark.parametrize("design", ["standard", "dondorf", "gm-paris"])
def test_a_deck_enrolled_upright_is_shown_with_no_card_turned(deck, upright_views, design):
    """The defect (issue 22; ``cardtable enroll faces --from-design standard --sheet``): a deck
    enrolled upright from a design's own images had ranks labelled "turned" on its contact
    sheet (standard's jacks and kings, dondorf's aces and courts, gm-paris's kings): ranks alike
    either way round, turned whole for a gain of the camera's noise. A deck enrolled one way
    round is shown, and compared, as enrolled."""
    views = upright_views(design)
    enrolment = Enrolment(deck, design)
    for card in deck.cards:
        enrolment.cards[card.id], enrolment.views[card.id] = describe(views[card.id]), views[card.id]
    ids = list(enrolment.cards)
    turn = kept_turned([enrolment.cards[i] for i in ids], [deck.card(i).face.rank for i in ids])
    assert not turn.any(), [card for card, t in zip(ids, turn) if t]
