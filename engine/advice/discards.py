"""Cribbage discards: every way to lay away, ranked by expected net points.

For each discard, ``hand_ev`` is the exact expected show of the kept four cards over every starter
that can still come (the cards the player has seen cannot), ``crib_ev`` the expected crib from the
shipped crib table (:mod:`engine.advice.crib_table`), and ``net_ev`` their sum for the dealer (the
crib is theirs, or their partner's with four players) or the difference for the pone.

The hand expectation is exact and fast: fifteens, pairs and runs depend only on ranks, so each
kept hand's rank-only points for every starter rank come precomputed
(:func:`~engine.advice.rank_points.starter_points`) and are weighted by how many cards of that rank
are unseen; flush and nobs are counted per suit from the unseen cards of each suit.

>>> best = discard_advice("5H 5D 5S JC 6H 4C", dealer=False)[0]
>>> [str(c) for c in best.discard], round(best.hand_ev, 3)
(['6H', '4C'], 16.63)
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from engine.advice.crib_table import crib_ev
from engine.advice.hand_input import check_apart, read_cards
from engine.advice.rank_points import starter_points
from engine.cards import SUITS, Card
from engine.errors import InvalidInput

#: cards dealt to each player, by number of players (RULES.md; two players get six)
DEALT = {2: 6, 3: 5, 4: 5}


@dataclass(frozen=True)
class Unseen:
    """How many cards of each rank and suit a player has not seen, and how many in all."""

    ranks: tuple[int, ...]          # index 0 is rank 1 (ace)
    suits: dict[str, int]
    total: int

    @classmethod
    def excluding(cls, seen) -> Unseen:
        ranks, suits = [4] * 13, dict.fromkeys(SUITS, 13)
        for card in seen:
            ranks[card.rank - 1] -= 1
            suits[card.suit] -= 1
        return cls(tuple(ranks), suits, 52 - len(seen))


def starter_total(four: tuple[Card, ...], unseen: Unseen, *, crib: bool = False) -> int:
    """The points of ``four`` (a hand, or a crib with ``crib=True``) summed over every unseen starter.

    Divide by ``unseen.total`` for the expectation.
    """
    points = starter_points(tuple(sorted(card.rank for card in four)))
    total = sum(p * n for p, n in zip(points, unseen.ranks))
    suits = {card.suit for card in four}
    if len(suits) == 1:
        same = unseen.suits[next(iter(suits))]
        total += 5 * same if crib else 4 * unseen.total + same
    return total + sum(unseen.suits[card.suit] for card in four if card.rank == 11)


def hand_ev(keep, seen=(), *, crib: bool = False) -> float:
    """The exact expected show of four cards over every starter not among them or ``seen``.

    >>> round(hand_ev("5H 5D 5S JC"), 4)
    16.5417

    :raises InvalidInput: for bad card text, a card twice, or not four cards.
    """
    four = read_cards(keep, sizes=(4,), what="kept hand")
    others = read_cards(seen, what="seen cards")
    check_apart((four, "kept hand"), (others, "seen cards"))
    unseen = Unseen.excluding(four + others)
    return starter_total(four, unseen, crib=crib) / unseen.total


@dataclass(frozen=True)
class Discard:
    """One way to lay away: the cards thrown, the cards kept and the expected points."""

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    hand_ev: float
    crib_ev: float
    net_ev: float

    def to_dict(self) -> dict:
        """Plain data for JSON: card texts and points rounded to 0.001."""
        return {
            "discard": [str(c) for c in self.discard], "keep": [str(c) for c in self.keep],
            "hand_ev": round(self.hand_ev, 3), "crib_ev": round(self.crib_ev, 3), "net_ev": round(self.net_ev, 3),
        }


def players_for(hand_size: int, players: int | None) -> int:
    """The number of players a hand of ``hand_size`` cards is dealt in (two for six cards).

    :raises InvalidInput: when the count of cards does not fit the number of players.
    """
    if players is None:
        if hand_size == 5:
            raise InvalidInput("a five-card hand is dealt with 3 or 4 players: say how many")
        players = 2
    if players not in DEALT:
        raise InvalidInput(f"cribbage is for 2, 3 or 4 players, not {players}")
    if DEALT[players] != hand_size:
        raise InvalidInput(f"with {players} players each is dealt {DEALT[players]} cards, not {hand_size}")
    return players


def discard_advice(hand, *, dealer: bool, players: int | None = None, seen=()) -> list[Discard]:
    """Every discard of ``hand`` (5 or 6 cards), best first by ``net_ev``, then ``hand_ev``.

    ``dealer``: the crib is the player's (or their partner's); ``players`` defaults to 2 for six
    cards; ``seen`` are other cards the player has seen (they cannot be the starter).

    :raises InvalidInput: for bad card text, a card twice, or a count of cards that is not dealt.
    """
    cards = read_cards(hand, sizes=(5, 6))
    players = players_for(len(cards), players)
    others = read_cards(seen, what="seen cards")
    check_apart((cards, "hand"), (others, "seen cards"))
    unseen = Unseen.excluding(cards + others)
    sign = 1 if dealer else -1
    ranked = []
    for keep in combinations(cards, 4):
        thrown = tuple(c for c in cards if c not in keep)
        hand_points = starter_total(keep, unseen) / unseen.total
        crib_points = crib_ev(thrown, players)
        ranked.append(Discard(thrown, keep, hand_points, crib_points, hand_points + sign * crib_points))
    ranked.sort(key=lambda d: (-d.net_ev, -d.hand_ev, sorted(d.discard)))
    return ranked
