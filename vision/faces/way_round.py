"""Which way round each enrolled card is compared: all of a deck's cards one way.

A user photographs each card as it lies, and half of them lie upside down. The matcher reads a
card on the table both ways round, so one card enrolled upside down is still read; but what it
compares and learns assumes that the deck's cards lie one way: the whole faces of two suits of
a rank compared with one view, and of the deck as a whole the corners every card prints an
index in, the corners that show the suit, the deck's average corner a view is registered on.
A design whose cards are not alike turned round (ancient-egyptians prints its bottom index
upright; oxygen's designs print the rank at the top right alone) enrolled from phone photos
had its index at the top left of some cards and upside down at the bottom right of others.

Cards are kept as enrolled or turned (:func:`vision.faces.features.turned_features`) in two
steps:

- **Within a rank**, the cards agree best: the sum, over every two cards of the rank, of how
  alike their corners are (the same rank, printed alike), the largest of every way the rank's
  cards may lie: the index says which way up a card is. Not the whole faces where the index
  says it: a heart upside down looks like a spade (oxygen-white's pips all stand upright, and
  its 4H and 9H, enrolled upright, agreed better turned with the other suits of their rank),
  and a design may lay a rank's pips otherwise suit by suit (oxygen-air's 7C has its odd pip
  at the top, the other sevens at the foot). Where it cannot (an index printed alike both
  ways round, as most designs print it: two cards agree in their corners either way, but for
  the cut and the light of each photo), of the ways the corners find alike, the one in
  which the corners and the faces' large shapes (a pip's own shape blurred away) agree best
  together: a one-headed court's portrait says which way up it is (nicu-ornamental's QS, enrolled
  upside down among its rank's queens, was read as the QC, whose portrait is the same, by the
  whole face turned).
- **The ranks**, each turned whole, print an index in the same corners: a deck's index is what
  every card prints in the same corners, so the ranks lie one way when the corners printed on
  every card are as many as can be (oxygen-air's aces print the suit at the top left and the
  rank at the top right, its courts the rank at the top right and art at the foot: turned,
  the aces share two printed corners with the courts, and the rank's corner with no card).
  Among the ways that print as many, the ranks' corners there agree best.

A design alike either way round gives no reason to turn any card. Of two ways alike, the one
that keeps more cards as enrolled is kept: a deck enrolled one way round is kept so.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from vision.faces.features import FACE, Features, turned_features

#: Turning cards must make a rank's cards agree better by this much at least (a sum of
#: correlations): a card alike either way round is not turned by the camera's noise.
BETTER_BY = 0.5
#: The ways a rank's cards may lie whose corners agree within this much (a sum of correlations)
#: of the way they agree best are alike to the corners (an index printed alike both ways
#: agrees either way but for the cut and the light of each photo): their faces choose among them.
CORNERS_ALIKE = 0.2
#: The blur (pixels of a :data:`vision.faces.features.FACE`-sized face) that keeps a face's large
#: shapes (a portrait, where the pips lie) and leaves none of a pip's own (a heart turned is a spade).
LARGE_SHAPES = 2.0
#: A corner is printed on a card when it holds this share at least of the print of the card's
#: most printed corner (the norms of the corner patches; a blank corner of a photographed card
#: holds the camera's noise and the table's edge: oxygen-air's, 0.1-0.25 of its index corner).
PRINTED_SHARE = 0.4


def one_way_round(features: list[Features], ranks: list) -> list[Features]:
    """``features`` (a deck's enrolled cards, of ``ranks``: None for a card of no rank, never
    turned) each as enrolled or turned, so that the cards lie one way round (see the module
    docstring)."""
    return [turned_features(f) if t else f for f, t in zip(features, kept_turned(features, ranks))]


def kept_turned(features: list[Features], ranks: list) -> np.ndarray:
    """Which of ``features`` (see :func:`one_way_round`) are kept turned round."""
    rank = np.array([-1 if r is None else r for r in ranks])
    if len(features) < 2 or (rank >= 0).sum() < 2:
        return np.zeros(len(features), bool)
    corners = np.stack([f.corners for f in features]).astype(np.float64)
    turn = _ranks_one_way(corners, np.stack([_large_shapes(f.face) for f in features]), rank)
    turn ^= _deck_one_way(np.where(turn[:, None], corners[:, ::-1], corners).reshape(len(features), 4, -1), rank)
    if turn.sum() > len(turn) / 2:
        turn = ~turn & (rank >= 0)   # the same agreement: most cards as enrolled
    return turn


def _ranks_one_way(corners: np.ndarray, faces: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """Which cards to turn so that each rank's cards agree best in their ``corners``, or, among
    the ways their corners find alike (:data:`CORNERS_ALIKE`), in their corners and ``faces``
    (:func:`_large_shapes`) together: a way that agrees :data:`BETTER_BY` better than the cards
    as enrolled, most of each rank as enrolled."""
    turn = np.zeros(len(rank), bool)
    for r in np.unique(rank[rank >= 0]):
        group = np.flatnonzero(rank == r)
        ways = np.array(list(itertools.product((False, True), repeat=len(group) - 1)), bool).reshape(-1, len(group) - 1)
        ways = np.hstack([np.zeros((len(ways), 1), bool), ways])   # the first card as enrolled: turning all is alike
        by_corners = _pairs_agree(corners[group], ways)
        both = by_corners + _pairs_agree(faces[group], ways)
        if by_corners.max() - by_corners[0] >= BETTER_BY:           # the index says it
            best = int(np.argmax(by_corners))
        else:
            best = int(np.argmax(np.where(by_corners >= by_corners.max() - CORNERS_ALIKE, both, -np.inf)))
            best = best if both[best] - both[0] >= BETTER_BY else 0
        way = ways[best]
        turn[group] = ~way if way.sum() > len(way) / 2 else way
    return turn


def _pairs_agree(vectors: np.ndarray, ways: np.ndarray) -> np.ndarray:
    """For each row of ``ways`` (which of the cards are turned), the sum over every two cards of
    how alike their ``vectors`` are, lying so (a vector turned is reversed)."""
    alike = vectors @ vectors.T
    across = vectors[:, ::-1] @ vectors.T
    same = ways[:, :, None] == ways[:, None, :]
    upper = np.triu(np.ones(alike.shape, bool), 1)
    return (np.where(same, alike, across) * upper).sum(axis=(1, 2))


def _large_shapes(face: np.ndarray) -> np.ndarray:
    """A card's whole ``face`` (:data:`vision.faces.features.FACE`) blurred by
    :data:`LARGE_SHAPES`, without its mean, of unit length."""
    blurred = cv2.GaussianBlur(face.reshape(FACE[1], FACE[0]).astype(np.float32), (0, 0), LARGE_SHAPES).ravel()
    blurred -= blurred.mean()
    return blurred / max(float(np.linalg.norm(blurred)), 1e-9)


def _deck_one_way(corners: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """Which cards to turn, a rank at a time, so that the corners printed on every card are as
    many as can be, and among those ways, the ranks' corners there agree best (``corners``:
    cards x 4 corners x pixels, each rank's cards one way round already)."""
    groups = [np.flatnonzero(rank == r) for r in np.unique(rank[rank >= 0])]
    norms = np.linalg.norm(corners, axis=2)
    printed = norms >= PRINTED_SHARE * norms.max(axis=1, keepdims=True)
    # Each rank's corners printed on all its cards, and the sum of its corners, as kept and turned.
    shown = np.array([[printed[g].all(axis=0), printed[g].all(axis=0)[::-1]] for g in groups])   # rank, way, corner
    sums = np.array([[corners[g].sum(axis=0), corners[g].sum(axis=0)[::-1, ::-1]] for g in groups])
    agree = np.einsum("gakp,hbkp->ghabk", sums, sums)       # rank, rank, way, way, corner
    ways = np.array(list(itertools.product((False, True), repeat=len(groups) - 1)), bool).reshape(-1, len(groups) - 1)
    ways = np.hstack([np.zeros((len(ways), 1), bool), ways])  # the first rank as kept: turning all is alike
    common = shown[np.arange(len(groups)), ways.astype(int)].all(axis=1)   # way, corner
    most = common.sum(axis=1)
    best, score = ways[0], -np.inf
    for corners_shown in np.unique(common[most == most.max()], axis=0):   # the corners every card prints
        among = ways[(common == corners_shown).all(axis=1)]
        scores = _agreement(agree[..., corners_shown].sum(axis=-1), among)
        if scores.max() > score:
            best, score = among[int(np.argmax(scores))], float(scores.max())
    turn = np.zeros(len(rank), bool)
    for group, flip in zip(groups, best):
        turn[group] = flip
    return turn


def _agreement(agree: np.ndarray, ways: np.ndarray) -> np.ndarray:
    """For each row of ``ways`` (which ranks are turned), the sum over every two ranks of
    ``agree[g, h, way of g, way of h]``: a sum of pairs, written as a quadratic in the ways."""
    none = agree[:, :, 0, 0]
    one = agree[:, :, 1, 0] - none                  # rank g turned alone
    both = agree[:, :, 1, 1] - agree[:, :, 1, 0] - agree[:, :, 0, 1] + none
    upper = np.triu(np.ones(none.shape, bool), 1)
    linear = (one * upper).sum(axis=1) + ((agree[:, :, 0, 1] - none) * upper).sum(axis=0)
    pair = np.where(upper, both, 0.0)
    w = ways.astype(float)
    return (none * upper).sum() + w @ linear + np.einsum("wg,gh,wh->w", w, pair, w)
