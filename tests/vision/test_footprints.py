"""Footprints on their own: when another card lies where a card was."""

import numpy as np

from vision.footprints import Footprint

SHAPE = (20, 30)
CARD, TABLE = 200, 60


def footprint(rows: slice, cols: slice, since: int, card: tuple[slice, slice] | None = None) -> Footprint:
    """A card seen on the cells of ``rows`` x ``cols`` (grey CARD; its marker's place, or the
    middle of its face), lying there since frame ``since``; the card itself on the cells of
    ``card`` (rows and columns; default the same)."""
    marker = np.zeros(SHAPE, bool)
    marker[rows, cols] = True
    outline = marker.copy()
    if card is not None:
        outline[card] = True
    cells = np.flatnonzero(marker)
    return Footprint(cells, np.full(len(cells), CARD, np.uint8), None, outline, outline, since=since)


def overlaid(card: Footprint, others: list[Footprint], beside: int) -> bool:
    """Whether ``card`` counts as replaced by ``others``, its cells under none of them showing ``beside``."""
    under = np.isin(card.cells, np.concatenate([o.cells for o in others if o is not card]))
    values = np.where(under, CARD, beside).astype(np.uint8)
    return card._overlaid(others, values, np.ones(len(card.cells), bool))


def test_a_card_laid_where_a_card_was_taken_away_lies_in_its_place():
    gone, laid = footprint(slice(2, 16), slice(2, 12), since=10), footprint(slice(3, 17), slice(3, 13), since=40)
    assert overlaid(gone, [gone, laid], beside=TABLE)


def test_a_card_that_lay_there_before_a_card_was_dealt_onto_it_is_under_it_not_in_its_place():
    # (Before: faces_bench fan 515153, gm-paris dealt one by one: the 7C, dealt a few millimetres
    # onto the 9H, shared three quarters of its place; the QC, dealt on the 7C, was not read, and
    # with its place changed and still, the 7C was taken for replaced by the 9H below it: removed.)
    below, dealt = footprint(slice(2, 16), slice(2, 12), since=10), footprint(slice(2, 16), slice(4, 14), since=40)
    assert not overlaid(dealt, [below, dealt], beside=TABLE)


def test_a_card_dealt_over_most_of_a_card_whose_index_still_shows_beside_it_is_laid_on_it():
    # (Before: faces_bench fan 606075, penguins dealt one by one: the AD, dealt on the 9H, lay
    # over two thirds of its place; the third beside it still showed the 9H, but the 9H was
    # taken for replaced by the AD and removed.)
    below, dealt = footprint(slice(2, 16), slice(2, 14), since=10), footprint(slice(2, 16), slice(6, 18), since=40)
    assert not overlaid(below, [below, dealt], beside=CARD)
    assert overlaid(below, [below, dealt], beside=TABLE)


def test_a_card_dealt_on_a_card_covering_what_its_marker_leaves_with_its_own_print_is_laid_on_it():
    # (Before: faces_bench fan 107841, penguins dealt one by one: the 7C, dealt 14 mm onto the
    # 4H, lay with the middle of its face over three fifths of the middle of the 4H's and its
    # own print over the rest; that rest, showing the 7C's print and not the 4H's, was taken for
    # the 4H gone: removed, though its index still showed beside the 7C.)
    below = footprint(slice(2, 16), slice(2, 12), since=10)
    dealt = footprint(slice(2, 16), slice(6, 16), since=40, card=(slice(0, 19), slice(0, 20)))
    assert not overlaid(below, [below, dealt], beside=CARD - 90)
    assert not overlaid(below, [below, dealt], beside=TABLE)   # under the card dealt: what lies there is not known
    pile = footprint(slice(2, 16), slice(3, 13), since=40, card=(slice(0, 19), slice(0, 16)))
    assert overlaid(below, [below, pile], beside=CARD - 90)   # dealt squarely on it: in its place
