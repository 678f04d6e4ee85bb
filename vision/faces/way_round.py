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

- **The cards**, two by two: two cards of a deck agree better in their corners lying alike
  than one turned round (the same design, its index printed in the same corners, its art the
  same way up), and two cards of a rank in their whole faces' large shapes too (a pip's own
  shape blurred away: a heart turned is a spade): a one-headed court's portrait says which way
  up it is (nicu-ornamental's QS, enrolled upside down among its rank's queens, was read as the
  QC, whose portrait is the same, by the whole face turned). The deck's cards lie the way in
  which they agree best over every two of them, each card a little rather as enrolled
  (:data:`AS_ENROLLED`): of the signs of the leading eigenvector of how much better each two
  agree alike than across, those signs negated, and every card as enrolled, each then turned
  card by card while that agrees better, the best. A rank's four cards alone cannot say it
  where a design prints its rank small in one corner and its art reaches every corner
  (oxygen's aces cut roughly from photos agreed 5.34 as enrolled and 5.32 with the AH turned:
  13 of its 52 cropped cards were kept the wrong way); every card of the deck says a little,
  and what the art of one design shares across its cards says most. A card alike either way
  round (dondorf's aces: their corners and faces agree within 0.04 either way) has nothing to
  say against being kept as enrolled.
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

#: How much each card would rather be kept as enrolled (in the sum of correlations two cards
#: agree by): a card alike either way round, all but the camera's noise, is not turned by it.
AS_ENROLLED = 0.2
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
    turn = np.zeros(len(features), bool)
    known = rank >= 0
    faces = np.stack([_large_shapes(f.face) for f, k in zip(features, known) if k])
    turn[known] = _cards_one_way(corners[known], faces, rank[known])
    turn ^= _deck_one_way(np.where(turn[:, None], corners[:, ::-1], corners).reshape(len(features), 4, -1), rank, turn)
    if turn.sum() > len(turn) / 2:
        turn = ~turn & (rank >= 0)   # the same agreement: most cards as enrolled
    return turn


def _cards_one_way(corners: np.ndarray, faces: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """Which of the cards (``corners`` and ``faces``, :func:`_large_shapes`: a card a row, of
    ``rank``) to turn so that they agree best two by two, each a little rather as enrolled (see
    the module docstring)."""
    def prefer(vectors: np.ndarray) -> np.ndarray:    # alike, less one turned: a vector turned is reversed
        return vectors @ vectors.T - vectors[:, ::-1] @ vectors.T

    pairs = prefer(corners) + np.where(rank[:, None] == rank[None, :], prefer(faces), 0.0)
    np.fill_diagonal(pairs, 0.0)

    def settled(sign: np.ndarray) -> tuple[float, np.ndarray]:
        for _ in range(4 * len(sign)):
            gain = -2.0 * sign * (pairs @ sign + AS_ENROLLED)    # how much better with card i turned
            best = int(np.argmax(gain))
            if gain[best] <= 1e-9:
                break
            sign[best] = -sign[best]
        return float(sign @ pairs @ sign / 2 + AS_ENROLLED * sign.sum()), sign

    leading = np.where(np.linalg.eigh(pairs)[1][:, -1] >= 0, 1.0, -1.0)
    starts = (leading, -leading, np.ones(len(rank)))
    return max((settled(start.copy()) for start in starts), key=lambda found: found[0])[1] < 0


def _large_shapes(face: np.ndarray) -> np.ndarray:
    """A card's whole ``face`` (:data:`vision.faces.features.FACE`) blurred by
    :data:`LARGE_SHAPES`, without its mean, of unit length."""
    blurred = cv2.GaussianBlur(face.reshape(FACE[1], FACE[0]).astype(np.float32), (0, 0), LARGE_SHAPES).ravel()
    blurred -= blurred.mean()
    return blurred / max(float(np.linalg.norm(blurred)), 1e-9)


def _deck_one_way(corners: np.ndarray, rank: np.ndarray, turned_already: np.ndarray) -> np.ndarray:
    """Which cards to turn, a rank at a time, so that the corners printed on every card are as
    many as can be, and among those ways, the ranks' corners there agree best, each card a
    little rather as enrolled (:data:`AS_ENROLLED`: a rank alike either way round, as a
    two-headed court is, is not turned for the camera's noise) (``corners``: cards x 4 corners
    x pixels, each rank's cards one way round already, those ``turned_already`` turned)."""
    groups = [np.flatnonzero(rank == r) for r in np.unique(rank[rank >= 0])]
    as_enrolled = np.array([np.where(turned_already[g], -1.0, 1.0).sum() for g in groups])
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
        scores += AS_ENROLLED * np.abs(np.where(among, -as_enrolled, as_enrolled).sum(axis=1))   # turning all is alike
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
