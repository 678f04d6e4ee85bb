"""Cribbage points that depend only on ranks (fifteens, pairs, runs), precomputed per rank multiset.

Five cards (a four-card hand or crib with its starter) score fifteens, pairs and runs from their
ranks alone; flush and nobs need the suits and are added by the caller. :func:`starter_points`
gives, for a four-rank multiset, the rank-only points with each possible starter rank, so an
expectation over every starter is a 13-term dot product with the count of each rank still unseen.

>>> five_rank_points((5, 5, 5, 5, 11))
28
>>> starter_points((5, 5, 5, 11))[4]
28
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

RANKS = range(1, 14)


def _fifteens(values: tuple[int, ...]) -> int:
    return 2 * sum(
        1 for size in range(2, len(values) + 1) for combo in combinations(values, size) if sum(combo) == 15
    )


def _pairs(counts: dict[int, int]) -> int:
    return sum(n * (n - 1) for n in counts.values())


def _runs(counts: dict[int, int]) -> int:
    best, rank = 0, 1
    while rank <= 13:
        if rank not in counts:
            rank += 1
            continue
        end, times = rank, counts[rank]
        while end + 1 in counts:
            end += 1
            times *= counts[end]
        if end - rank + 1 >= 3:
            best += (end - rank + 1) * times
        rank = end + 1
    return best


@lru_cache(maxsize=None)
def five_rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs among cards of these ``ranks`` (any order, any number of cards)."""
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    return _fifteens(tuple(min(r, 10) for r in ranks)) + _pairs(counts) + _runs(counts)


@lru_cache(maxsize=None)
def starter_points(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """For four sorted ``ranks``, the rank-only points with a starter of rank 1, 2, ... 13."""
    return tuple(five_rank_points(tuple(sorted(ranks + (r,)))) for r in RANKS)
