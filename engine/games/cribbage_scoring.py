"""Cribbage scoring: the show (:func:`score_hand`) and the play (:func:`score_pegging`).

Rules as RULES.md C2-C7: fifteens 2 each over every subset; pairs by rank only, 2 each; runs as
maximal runs counted once per combination (a double run of three is 8 with its pair); a flush is
four hand cards of one suit (4, plus 1 if the starter matches), in the crib only all five (5);
nobs is the jack of the starter's suit in hand or crib. In the play, the card just laid scores
fifteen or thirty-one, pairs with the cards before it, and the longest run the tail of the count
makes in any order; nothing spans a reset.

>>> b = score_hand("5H 5S JD QD", "KD")
>>> b.fifteens, b.pairs, b.runs, b.flush, b.nobs, b.total
(12, 2, 3, 0, 1, 18)
>>> score_hand("5H 5S 5C JD", "5D").total
29
>>> score_pegging("7H 9C 6D 8S").total
4
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from engine.cards import Card, parse_card, parse_cards
from engine.errors import InvalidInput
from engine.game import ScoreItem
from engine.wording import join_words, number_words

_SET_NAMES = {2: "a pair", 3: "a pair royal", 4: "a double pair royal"}
_RUN_SIZE = {3: "three", 4: "four", 5: "five"}


def value(card: Card) -> int:
    """A card's count: ace 1, court cards 10."""
    return min(card.rank, 10)


@dataclass(frozen=True)
class Breakdown:
    """A score with its parts. Each item is one thing a player calls ("fifteen two")."""

    items: tuple[ScoreItem, ...] = ()

    def points(self, category: str) -> int:
        return sum(item.points for item in self.items if item.category == category)

    fifteens = property(lambda self: self.points("fifteens"))
    pairs = property(lambda self: self.points("pairs"))
    runs = property(lambda self: self.points("runs"))
    flush = property(lambda self: self.points("flush"))
    nobs = property(lambda self: self.points("nobs"))

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def say(self) -> str:
        """The count as a player calls it: "fifteen two, fifteen four, and a pair is six"."""
        if not self.items:
            return "nothing to count"
        parts, running = [], 0
        for item in self.items:
            running += item.points
            if item.category == "fifteens":
                parts.append(f"fifteen {number_words(running)}")
            elif running == item.points and item.label.startswith(("one for", "two for")):
                parts.append(item.label)
            else:
                parts.append(f"{item.label} is {number_words(running)}")
        return join_words(parts)

    def __str__(self) -> str:
        return self.say()


# -- the show ----------------------------------------------------------------------------------
def _fifteens(cards: tuple[Card, ...]) -> list[ScoreItem]:
    return [
        ScoreItem("fifteens", 2, combo, "fifteen")
        for size in range(2, len(cards) + 1)
        for combo in combinations(cards, size)
        if sum(map(value, combo)) == 15
    ]


def _pairs(cards: tuple[Card, ...]) -> list[ScoreItem]:
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    items = []
    for same in by_rank.values():
        if len(same) >= 2:
            n = len(same)
            items.append(ScoreItem("pairs", n * (n - 1), tuple(same), _SET_NAMES[n]))
    return items


def _runs(cards: tuple[Card, ...]) -> list[ScoreItem]:
    counts = Counter(card.rank for card in cards)
    items, rank = [], 1
    while rank <= 13:
        end = rank
        while end + 1 in counts:
            end += 1
        length = end - rank + 1 if rank in counts else 0
        if length >= 3:
            ranks = range(rank, end + 1)
            times = 1
            for r in ranks:
                times *= counts[r]
            run_cards = tuple(card for card in cards if rank <= card.rank <= end)
            prefix = {1: "a", 2: "a double", 3: "a triple", 4: "a quadruple"}[times]
            items.append(ScoreItem("runs", length * times, run_cards, f"{prefix} run of {_RUN_SIZE[length]}"))
        rank = end + 1 if length else rank + 1
    return items


def _flush(hand: tuple[Card, ...], starter: Card | None, crib: bool) -> list[ScoreItem]:
    suits = {card.suit for card in hand}
    if len(suits) != 1:
        return []
    matches = starter is not None and starter.suit in suits
    if crib and not matches:
        return []
    cards = hand + ((starter,) if matches else ())
    return [ScoreItem("flush", len(cards), cards, "a flush")]


def _nobs(hand: tuple[Card, ...], starter: Card | None) -> list[ScoreItem]:
    if starter is None:
        return []
    return [ScoreItem("nobs", 1, (card,), "one for his nob") for card in hand if card.rank == 11 and card.suit == starter.suit]


def score_hand(hand, starter, crib: bool = False) -> Breakdown:
    """Score a four-card hand (or crib) with the starter, as in the show.

    ``hand`` is four cards (text such as ``"5H 5S JD QD"`` or Card objects); ``starter`` one card.

    :raises InvalidInput: for bad card text, a hand that is not four cards, or a card twice.
    """
    cards = parse_cards(hand)
    turn = parse_card(starter) if starter is not None else None
    if len(cards) != 4:
        raise InvalidInput(f"a cribbage hand has four cards, not {len(cards)}")
    every = cards + ((turn,) if turn else ())
    if len(set(every)) != len(every):
        raise InvalidInput(f"a card appears twice in {' '.join(map(str, every))}")
    items = _fifteens(every) + _pairs(every) + _runs(every) + _flush(cards, turn, crib) + _nobs(cards, turn)
    return Breakdown(tuple(items))


def score_combinations(cards) -> Breakdown:
    """Fifteens, pairs and runs among any cards (no flush or nobs): what a kept hand is sure of."""
    cards = parse_cards(cards)
    return Breakdown(tuple(_fifteens(cards) + _pairs(cards) + _runs(cards)))


@lru_cache(maxsize=None)
def _rank_points(ranks: tuple[int, ...]) -> int:
    """Points from fifteens, pairs and runs, which depend only on the ranks."""
    return score_combinations(tuple(Card(rank, "S") for rank in ranks)).total


def hand_score_histogram(crib: bool = False) -> Counter:
    """How many of the 12,994,800 (four-card hand, starter) pairs score each total.

    Scores every combination, reusing the rank-only part (fifteens, pairs, runs) across hands with
    the same ranks; flush and nobs are added per starter. Agrees with :func:`score_hand` (tested).
    """
    deck = [(rank, suit) for suit in "SHDC" for rank in range(1, 14)]
    histogram: Counter = Counter()
    for hand in combinations(deck, 4):
        hand_ranks = sorted(rank for rank, _ in hand)
        hand_suits = {suit for _, suit in hand}
        flush_suit = next(iter(hand_suits)) if len(hand_suits) == 1 else None
        jack_suits = {suit for rank, suit in hand if rank == 11}
        extra = {}
        for s in "SHDC":
            bonus = 1 if s in jack_suits else 0
            if flush_suit:
                bonus += 5 if s == flush_suit else (0 if crib else 4)
            extra[s] = bonus
        for rank in range(1, 14):
            if hand_ranks.count(rank) == 4:
                continue
            base = _rank_points(tuple(sorted(hand_ranks + [rank])))
            for s in "SHDC":
                if (rank, s) not in hand:
                    histogram[base + extra[s]] += 1
    return histogram


# -- the play ----------------------------------------------------------------------------------
def score_pegging(pile) -> Breakdown:
    """What the last card of ``pile`` (the cards of the current count, in order) scores.

    :raises InvalidInput: for bad card text, an empty pile, or a count over 31.
    """
    cards = parse_cards(pile)
    if not cards:
        raise InvalidInput("nothing has been played in this count")
    count = sum(map(value, cards))
    if count > 31:
        raise InvalidInput(f"the count {count} is past 31")
    last = cards[-1]
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem("fifteens", 2, cards, "fifteen"))
    if count == 31:
        items.append(ScoreItem("thirty-one", 2, cards, "thirty-one"))
    same = 1
    while same < len(cards) and cards[-same - 1].rank == last.rank:
        same += 1
    if same >= 2:
        items.append(ScoreItem("pairs", same * (same - 1), cards[-same:], _SET_NAMES[same]))
    for length in range(len(cards), 2, -1):
        tail = sorted(card.rank for card in cards[-length:])
        if all(b - a == 1 for a, b in zip(tail, tail[1:])):
            items.append(ScoreItem("runs", length, cards[-length:], f"a run of {number_words(length)}"))
            break
    return Breakdown(tuple(items))
