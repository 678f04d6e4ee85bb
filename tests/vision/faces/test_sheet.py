"""The contact sheet of an enrolment (:mod:`vision.faces.sheet`)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.faces.features import UPRIGHT, describe, turned
from vision.faces.sheet import GAP, LABEL, contact_sheet
from vision.faces.store import Enrolment


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
