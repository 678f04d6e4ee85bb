"""Cribbage pegging: for a hand and the count so far, each card that fits with what it scores now
and the risk it leaves, best first.

The points come from the engine's own :func:`~engine.games.cribbage_scoring.score_pegging`. The
risk is exact under one stated assumption: the next player's cards are any of the cards this
player has not seen, all equally likely. For each card still unseen, what it would score laid next
(fifteen, thirty-one, a pair, a run); from those, the chance that the next player's hand holds at
least one scoring reply, and the expected points of their best reply. Cards are ranked by points
now minus that expected reply, then by points now. A card that makes 31 ends the count, so it
leaves no reply.

>>> best = pegging_advice("5H 9C", "10S")[0]
>>> str(best.card), best.points, best.say()
('5H', 2, 'fifteen for 2; the next player scores with 12% (expected 0.24 back)')
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from engine.advice.hand_input import check_apart, read_cards
from engine.cards import Card
from engine.errors import InvalidInput
from engine.games.cribbage_scoring import Breakdown, score_pegging, value


@dataclass(frozen=True)
class PlayAdvice:
    """One card that fits under 31: the count it makes, what it scores, and the reply it risks."""

    card: Card
    count: int
    points: int
    breakdown: Breakdown
    reply_chance: float
    reply_ev: float

    @property
    def net(self) -> float:
        return self.points - self.reply_ev

    def say(self) -> str:
        """"fifteen for 2; the next player scores with 23% (expected 0.32 back)"."""
        now = f"{', '.join(item.label for item in self.breakdown.items)} for {self.points}" if self.points else "no points"
        if not self.reply_chance:
            return f"{now}; no reply can score"
        return f"{now}; the next player scores with {self.reply_chance:.0%} (expected {self.reply_ev:.2f} back)"

    def to_dict(self) -> dict:
        return {"card": str(self.card), "count": self.count, "points": self.points,
                "scores": [item.label for item in self.breakdown.items],
                "reply_chance": round(self.reply_chance, 4), "reply_ev": round(self.reply_ev, 4),
                "net": round(self.net, 4)}


def best_reply_odds(reply_points: list[int], their_cards: int) -> tuple[float, float]:
    """For the points each unseen card would score as the reply, and a hand of ``their_cards`` of
    them drawn at random: the chance the best reply scores, and its expected points.

    >>> best_reply_odds([2, 0, 0, 0], 1)
    (0.25, 0.5)
    """
    unseen, k = len(reply_points), min(their_cards, len(reply_points))
    if k <= 0:
        return 0.0, 0.0
    hands = comb(unseen, k)
    expected, chance = 0.0, 0.0
    for threshold in range(1, max(reply_points, default=0) + 1):
        at_least = sum(1 for p in reply_points if p >= threshold)
        p_reach = 1 - comb(unseen - at_least, k) / hands
        expected += p_reach
        if threshold == 1:
            chance = p_reach
    return chance, expected


def pegging_advice(hand, pile=(), *, seen=(), their_cards: int | None = None) -> list[PlayAdvice]:
    """Each card of ``hand`` that fits in the count, best first; empty when the player must say go.

    ``pile`` is the cards of the current count in the order laid; ``seen`` any other cards this
    player has seen (the starter, earlier counts); ``their_cards`` how many cards the next player
    holds (default: as many as this player).

    :raises InvalidInput: for bad card text, a card twice or in two places, more than four cards
        in hand, or a count past 31.
    """
    held = read_cards(hand, sizes=(1, 2, 3, 4))
    laid = read_cards(pile, what="count")
    others = read_cards(seen, what="seen cards")
    check_apart((held, "hand"), (laid, "count"), (others, "seen cards"))
    count = sum(map(value, laid))
    if count > 31:
        raise InvalidInput(f"the count {count} is past 31")
    k = len(held) if their_cards is None else their_cards
    known = set(held) | set(laid) | set(others)
    unseen_ranks = [rank for rank in range(1, 14) for suit in "SHDC" if Card(rank, suit) not in known]
    advice = []
    for card in held:
        if count + value(card) > 31:
            continue
        after = laid + (card,)
        breakdown = score_pegging(after)
        total = count + value(card)
        by_rank = {}
        if total < 31:
            for rank in set(unseen_ranks):
                if total + min(rank, 10) <= 31:
                    by_rank[rank] = score_pegging(after + (Card(rank, "S"),)).total
        replies = [by_rank.get(rank, 0) for rank in unseen_ranks]
        chance, expected = best_reply_odds(replies, k)
        advice.append(PlayAdvice(card, total, breakdown.total, breakdown, chance, expected))
    advice.sort(key=lambda a: (-a.net, -a.points, a.card))
    return advice
