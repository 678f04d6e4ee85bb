"""Which way round each enrolled card is compared: all of a deck's cards one way.

A user photographs each card as it lies, and half of them lie upside down. The matcher reads a
card on the table both ways round, so one card enrolled upside down is still read; but what the
matcher learns of the deck as a whole (the corners every card prints an index in, the corners
that show the suit, the deck's average corner that a view is registered on, the whole faces of
two suits of a rank compared with one view) assumes that the deck's cards lie one way. A design
whose indices are not alike turned round (ancient-egyptians prints its bottom index upright;
oxygen's designs print the rank at the top right alone) enrolled from phone photos showed
its index in the top-left corner of some cards and upside down in the bottom right of others.

Each card is kept as enrolled or turned (:func:`vision.faces.features.turned_features`) so that
the deck's cards agree best: the sum, over every two cards, of how alike their corners are,
and for two cards of one rank their whole faces too (court art, a seven's odd pip), as large as
it can be made by turning one card at a time. A design alike either way round gives no reason
to turn any card, and none is.
"""

from __future__ import annotations

import numpy as np

from vision.faces.features import Features, turned_features

#: Turning a card must make it agree better with the rest of the deck by this much at least
#: (a sum of correlations): a card alike either way round is not turned by the camera's noise.
BETTER_BY = 0.5


def one_way_round(features: list[Features], ranks: list) -> list[Features]:
    """``features`` (a deck's enrolled cards, of ``ranks``: None for a card of no rank, never
    turned) each as enrolled or turned, so that the cards of each rank lie one way round (see
    the module docstring); most cards of a rank are kept as enrolled, and all of a rank
    enrolled one way round are."""
    count = len(features)
    rank = np.array([-1 if r is None else r for r in ranks])
    same_rank = (rank[:, None] == rank[None, :]) & (rank[:, None] >= 0)
    np.fill_diagonal(same_rank, False)
    if count < 2 or not same_rank.any():
        return list(features)
    vectors = [np.stack([f.corners for f in features]).astype(np.float64), np.stack([f.face for f in features]).astype(np.float64)]
    turn = np.zeros(count, bool)
    for _ in range(4 * count):     # each turn makes the agreement larger: it ends
        kept = [np.where(turn[:, None], v[:, ::-1], v) for v in vectors]
        # What turning each card gains in agreement with the others of its rank as kept.
        gains = sum(((v[:, ::-1] @ v.T - v @ v.T) * same_rank).sum(axis=1) for v in kept)
        best = int(np.argmax(gains))
        if gains[best] < BETTER_BY:
            break
        turn[best] = ~turn[best]
    for r in np.unique(rank[rank >= 0]):
        if turn[rank == r].sum() > (rank == r).sum() / 2:
            turn[rank == r] = ~turn[rank == r]   # the same agreement: most of the rank as enrolled
    return [turned_features(f) if t else f for f, t in zip(features, turn)]
