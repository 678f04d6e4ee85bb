"""It's 15: the chance that a player's number cards end closest to 15, given the cards seen.

Exact by counting: the brown cards this player has not seen (brown cards are unique, 1 to 10)
are dealt to the other players still in, as many as each is known to hold (one, or two after
taking another), every way equally likely; who wins is settled by the engine's own
:func:`~engine.games.its15.showdown`. The chance after taking one more card averages over the
card that would come.

>>> round(closest_chance([9], 5, [1]), 3)
0.889
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import comb

from engine.errors import InvalidInput
from engine.games.its15_showdown import showdown

BROWNS = range(1, 11)


def _check(mine: list[int], centre: int, others: list[int], seen: list[int]) -> None:
    if not 1 <= len(mine) <= 2:
        raise InvalidInput(f"you hold one or two brown cards, not {len(mine)}")
    for v in mine + seen:
        if v not in BROWNS:
            raise InvalidInput(f"{v} is not a brown card: they are 1 to 10")
    if len(set(mine + seen)) != len(mine + seen):
        raise InvalidInput("each brown card is unique: a value is given twice")
    if centre not in range(1, 10):
        raise InvalidInput(f"{centre} is not a green card: they are 1 to 9")
    if not others or any(n not in (1, 2) for n in others):
        raise InvalidInput("say how many brown cards each other player still in holds (1 or 2)")
    if sum(others) > 10 - len(mine) - len(seen):
        raise InvalidInput("there are not that many brown cards left for the other players")


def _count_deals(pool: tuple[int, ...], sizes: list[int], allowed: set | None = None) -> int:
    """How many ways there are to give ``sizes[i]`` cards of ``pool`` to other player ``i``, each
    hand one of ``allowed`` (``None``: any)."""
    if not sizes:
        return 1
    if allowed is None:
        return comb(len(pool), sizes[0]) * _count_deals(pool[sizes[0]:], sizes[1:])
    count = 0
    for hand in combinations(pool, sizes[0]):
        if hand in allowed:
            count += _count_deals(tuple(v for v in pool if v not in hand), sizes[1:], allowed)
    return count


def closest_chance(mine, centre: int, others, seen=()) -> float:
    """The chance that ``mine`` (brown values) with the ``centre`` green card wins the reveal
    against other players holding ``others[i]`` brown cards each; ``seen`` are brown values known
    not to be in their hands.

    The showdown orders hands one against another, so this hand wins a deal exactly when it beats
    each other hand alone: the hands it beats are found once, then the deals made only of them are
    counted.

    :raises InvalidInput: for values that are no brown or green card, or impossible counts.
    """
    mine, others, seen = list(mine), list(others), list(seen)
    _check(mine, centre, others, seen)
    pool = tuple(v for v in BROWNS if v not in mine and v not in seen)
    beaten = {hand for size in set(others) for hand in combinations(pool, size)
              if showdown({0: mine, 1: list(hand)}, centre) == 0}
    return _count_deals(pool, others, beaten) / _count_deals(pool, others)


@dataclass(frozen=True)
class Its15Advice:
    total: int
    chance: float
    chance_if_take: float | None

    def say(self) -> str:
        now = f"your total is {self.total}: closest with {self.chance:.0%}"
        if self.chance_if_take is None:
            return now
        better = "take" if self.chance_if_take > self.chance else "stand"
        return f"{now}; with one more card {self.chance_if_take:.0%}, so {better}"

    def to_dict(self) -> dict:
        return {"total": self.total, "chance": round(self.chance, 4),
                "chance_if_take": None if self.chance_if_take is None else round(self.chance_if_take, 4)}


def its15_advice(mine, centre: int, others, seen=()) -> Its15Advice:
    """The chance now and, holding one card, the chance after taking another (see :func:`closest_chance`)."""
    mine, seen = list(mine), list(seen)
    now = closest_chance(mine, centre, others, seen)
    after = None
    if len(mine) == 1:
        pool = [v for v in BROWNS if v not in mine and v not in seen]
        after = sum(closest_chance(mine + [v], centre, others, seen) for v in pool) / len(pool)
    return Its15Advice(sum(mine) + centre, now, after)
