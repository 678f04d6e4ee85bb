"""Simulated cribbage deals, vectorised with numpy, for building and checking the crib table.

The opponent model (stated in ``MODEL`` and docs/advice.md): every other player lays away the
cards that leave them the best exact expected hand over every starter they cannot see, the crib
ignored, ties going to the first keep in the order of ``itertools.combinations`` over their sorted
hand. With three players one card from the pack goes to the crib too.

Cards are codes 0-51: ``(rank - 1) * 4 + suit`` with suits in the order C, D, H, S, so sorting codes
sorts cards the way :class:`engine.cards.Card` sorts. Rank-only points come from the engine's own
:func:`engine.advice.rank_points.starter_points`; flush and nobs are added per suit here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from engine.advice.crib_table import crib_key
from engine.advice.rank_points import starter_points
from engine.cards import Card

SUIT_ORDER = "CDHS"
MODEL = ("each other player lays away the cards that leave them the best exact expected hand over every "
         "starter they cannot see (crib ignored; ties to the first keep in sorted order); with three players "
         "one card from the pack joins the crib; the starter is any card not dealt")
DEALT = {2: 6, 3: 5, 4: 5}
JACK = 10                                  # rank index (0-based) of the jack


def card_of(code: int) -> Card:
    return Card(code // 4 + 1, SUIT_ORDER[code % 4])


def code_of(card: Card) -> int:
    return (card.rank - 1) * 4 + SUIT_ORDER.index(card.suit)


def _starter_rows() -> np.ndarray:
    """Row ``((a*13+b)*13+c)*13+d`` (sorted 0-based ranks) holds the rank-only points per starter rank."""
    rows = np.zeros((13 ** 4, 13), dtype=np.int32)
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    rows[((a * 13 + b) * 13 + c) * 13 + d] = starter_points((a + 1, b + 1, c + 1, d + 1))
    return rows


STARTER_ROWS = _starter_rows()


def _rank_code(four: np.ndarray) -> np.ndarray:
    ranks = np.sort(four // 4, axis=-1)
    return ((ranks[..., 0] * 13 + ranks[..., 1]) * 13 + ranks[..., 2]) * 13 + ranks[..., 3]


def _counts(cards: np.ndarray, size: int, of) -> np.ndarray:
    """Per row, how many of ``cards`` have each rank (``of=rank``) or suit."""
    values = of(cards)
    return (values[..., None] == np.arange(size)).sum(axis=-2)


def rank_of(cards):
    return cards // 4


def suit_of(cards):
    return cards % 4


def starter_totals(four: np.ndarray, rank_left: np.ndarray, suit_left: np.ndarray, *, crib: bool) -> np.ndarray:
    """Points of ``four`` (..., 4) summed over the starters left (rank and suit counts (..., 13), (..., 4))."""
    total = (STARTER_ROWS[_rank_code(four)] * rank_left).sum(axis=-1)
    suits = suit_of(four)
    flush = (suits == suits[..., :1]).all(axis=-1)
    same = np.take_along_axis(suit_left, suits[..., :1], axis=-1)[..., 0]
    left = rank_left.sum(axis=-1)
    total = total + np.where(flush, 5 * same if crib else 4 * left + same, 0)
    nobs = np.take_along_axis(suit_left, suits, axis=-1) * (rank_of(four) == JACK)
    return total + nobs.sum(axis=-1)


def model_discards(hands: np.ndarray) -> np.ndarray:
    """The opponent model's discard for each row of sorted ``hands`` (N, 5 or 6): (N, 1 or 2) codes."""
    size = hands.shape[1]
    keeps = np.array(list(combinations(range(size), 4)))
    throws = np.array([[i for i in range(size) if i not in keep] for keep in keeps])
    rank_left = 4 - _counts(hands, 13, rank_of)
    suit_left = 13 - _counts(hands, 4, suit_of)
    kept = hands[:, keeps]                                             # (N, K, 4)
    totals = starter_totals(kept, rank_left[:, None, :], suit_left[:, None, :], crib=False)
    best = totals.argmax(axis=1)
    return hands[np.arange(len(hands))[:, None], throws[best]]


def crib_scores(crib: np.ndarray, starter: np.ndarray) -> np.ndarray:
    """The show of each four-card ``crib`` with its ``starter`` (crib rules: a flush needs all five)."""
    rank_left = (rank_of(starter)[:, None] == np.arange(13)).astype(np.int32)
    suit_left = (suit_of(starter)[:, None] == np.arange(4)).astype(np.int32)
    return starter_totals(crib, rank_left, suit_left, crib=True)


def _shuffled_rest(rng: np.random.Generator, fixed: np.ndarray) -> np.ndarray:
    """Per row, the 52 codes not in ``fixed`` (N, t) in random order."""
    keys = rng.random((len(fixed), 52))
    np.put_along_axis(keys, fixed, 2.0, axis=1)
    return np.argsort(keys, axis=1)[:, : 52 - fixed.shape[1]]


def _others_to_crib(rest: np.ndarray, players: int, start: int) -> tuple[np.ndarray, int]:
    """The other players' model discards (and the pack's card with three players) from ``rest``
    columns ``start`` on; returns them and the next unused column."""
    size, parts = DEALT[players], []
    for _ in range(players - 1):
        parts.append(model_discards(np.sort(rest[:, start:start + size], axis=1)))
        start += size
    if players == 3:
        parts.append(rest[:, start:start + 1])
        start += 1
    return np.concatenate(parts, axis=1), start


def _class_discards(rng: np.random.Generator, key: str, n: int) -> np.ndarray:
    """``n`` random concrete discards of the kind named ``key`` ("5", "5-5", "A-5", "5-J suited")."""
    names = {"A": 1, "J": 11, "Q": 12, "K": 13}
    ranks = [names.get(r) or int(r) for r in key.split()[0].split("-")]
    suits = np.argsort(rng.random((n, 4)), axis=1)[:, : len(ranks)]
    if key.endswith("suited"):
        suits[:, 1] = suits[:, 0]
    return np.array([(r - 1) * 4 for r in ranks])[None, :] + suits


def class_keys(players: int) -> list[str]:
    """Every kind of discard with ``players`` players, named as :func:`crib_key` names them."""
    if players != 2:
        return [crib_key((card_of(r * 4),)) for r in range(13)]
    kinds = {(a // 4, b // 4, crib_key((card_of(a), card_of(b)))) for a, b in combinations(range(52), 2)}
    return [key for *_, key in sorted(kinds)]


def crib_expectations(rng: np.random.Generator, players: int, key: str, n: int) -> np.ndarray:
    """Deal ``n`` hands where this player lays away a discard of kind ``key``; for each, the crib's
    exact expectation over every starter not dealt (the player's own kept four are random cards)."""
    mine = _class_discards(rng, key, n)
    rest = _shuffled_rest(rng, mine)
    others, used = _others_to_crib(rest, players, 4)
    pool = rest[:, used:]
    crib = np.concatenate([mine, others], axis=1)
    totals = starter_totals(crib, _counts(pool, 13, rank_of), _counts(pool, 4, suit_of), crib=True)
    return totals / pool.shape[1]


@dataclass
class Tally:
    """Running sums per discard kind: count, sum and sum of squares of crib points."""

    keys: list[str]
    count: np.ndarray = field(init=False)
    total: np.ndarray = field(init=False)
    squares: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.count, self.total, self.squares = (np.zeros(len(self.keys)) for _ in range(3))

    def add(self, index: np.ndarray, points: np.ndarray) -> None:
        size = len(self.keys)
        self.count += np.bincount(index, minlength=size)
        self.total += np.bincount(index, weights=points, minlength=size)
        self.squares += np.bincount(index, weights=points.astype(float) ** 2, minlength=size)

    def mean_and_error(self) -> tuple[np.ndarray, np.ndarray]:
        mean = self.total / self.count
        spread = np.sqrt(np.maximum(self.squares / self.count - mean ** 2, 0))
        return mean, spread / np.sqrt(self.count)


def _key_index(players: int, keys: list[str]) -> np.ndarray:
    """For two players a (52, 52) array of kind indices by discard codes; else (52,) by code."""
    where = {k: i for i, k in enumerate(keys)}
    if players != 2:
        return np.array([where[crib_key((card_of(c),))] for c in range(52)])
    index = np.zeros((52, 52), dtype=np.int64)
    for a, b in combinations(range(52), 2):
        index[a, b] = index[b, a] = where[crib_key((card_of(a), card_of(b)))]
    return index


def play_deals(rng: np.random.Generator, players: int, n: int, tally: Tally) -> None:
    """Deal ``n`` whole hands, turn a starter, and score the crib for every discard this player
    could make against the model's discards (an independent check: real starters, no table)."""
    size = DEALT[players]
    rest = _shuffled_rest(rng, np.zeros((n, 0), dtype=np.int64))
    hand = np.sort(rest[:, :size], axis=1)
    others, used = _others_to_crib(rest, players, size)
    starter = rest[:, used]
    index = _key_index(players, tally.keys)
    for throw in combinations(range(size), size - 4):
        mine = hand[:, list(throw)]
        points = crib_scores(np.concatenate([mine, others], axis=1), starter)
        kinds = index[mine[:, 0], mine[:, 1]] if players == 2 else index[mine[:, 0]]
        tally.add(kinds, points)
