"""Advice benchmark: exact hand expectations, the crib table against a fresh simulation, the speed
of full discard advice beside the naive exhaustive way, and the strong Cribbage bot's win rate.

Run: ``.venv/bin/python benchmarks/advice_bench.py [--deals 10000000] [--players 2 3 4] [--games 2000] [--other-games 400]``

1. ``hand_ev``: for 1,000 random kept hands (from random six-card deals, the two thrown cards seen),
   the advice's exact total over every starter equals :func:`score_hand` summed over every starter.
2. ``crib_ev``: every entry of the shipped crib table against a simulation of ``--deals`` whole
   deals with the same opponent model, real starters and no table (each deal scores the crib for
   every discard the player could make); target: within 0.05 points. Prints the simulation's 95%
   confidence half-width beside each worst case.
3. Speed: full discard advice for a six-card hand, median over random hands, one core (target
   under 10 ms), beside the naive exhaustive way in plain Python: ``score_hand`` for the hand over
   every starter, and for the crib over every pair the opponent could throw and every starter
   (timed for one discard and multiplied by the 15 discards).
4. The strong bot against the greedy one, seats alternating: ``--games`` two-player Cribbage games,
   and ``--other-games`` of each other game (a shared win does not count as a win).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.advice.crib_table import load_table  # noqa: E402
from engine.advice.discards import Unseen, discard_advice, starter_total  # noqa: E402
from engine.advice.rank_points import five_rank_points, starter_points  # noqa: E402
from engine.bots import GreedyBot, StrongBot, play_game  # noqa: E402
from engine.cards import standard_52  # noqa: E402
from engine.games import get_game  # noqa: E402
from engine.games.cribbage_scoring import score_hand  # noqa: E402
from tools.crib_sim import Tally, class_keys, play_deals  # noqa: E402

DECK = standard_52()
CHUNK = 100_000
SEEDS = 10_000          # game seeds from here on, apart from those the bots were tuned on


def check_hand_ev(hands: int) -> tuple[int, int]:
    """(hands whose exact expectation equals brute force, hands checked)."""
    rng = random.Random(16)
    equal = 0
    for _ in range(hands):
        dealt = rng.sample(DECK, 6)
        keep = tuple(dealt[:4])
        starters = [c for c in DECK if c not in dealt]
        brute = Fraction(sum(score_hand(keep, s).total for s in starters), len(starters))
        unseen = Unseen.excluding(dealt)
        equal += Fraction(starter_total(keep, unseen), unseen.total) == brute
    return equal, hands


def check_crib_table(players: int, deals: int, seed: int) -> None:
    keys = class_keys(players)
    tally = Tally(keys)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for done in range(0, deals, CHUNK):
        play_deals(rng, players, min(CHUNK, deals - done), tally)
    elapsed = time.perf_counter() - start
    sim, error = tally.mean_and_error()
    table = load_table()["players"][str(players)]
    diffs = np.array([abs(table[k][0] - sim[i]) for i, k in enumerate(keys)])
    worst = int(diffs.argmax())
    within = int((diffs <= 0.05).sum())
    print(f"crib_ev, {players} players: {deals:,} simulated deals in {elapsed:.0f} s; {within}/{len(keys)} kinds "
          f"within 0.05 (target: all) - {'met' if within == len(keys) else 'MISSED'}")
    print(f"    worst {keys[worst]!r}: table {table[keys[worst]][0]:.4f} +- {1.96 * table[keys[worst]][1]:.4f}, "
          f"simulation {sim[worst]:.4f} +- {1.96 * error[worst]:.4f} (95%), difference {diffs[worst]:.4f}; "
          f"mean difference {diffs.mean():.4f}; widest simulation half-width {1.96 * error.max():.4f}")


def naive_discard_seconds(hand: list) -> float:
    """The naive exhaustive advice for one six-card hand, extrapolated from one discard."""
    keep, thrown = tuple(hand[:4]), tuple(hand[4:])
    rest = [c for c in DECK if c not in hand]
    start = time.perf_counter()
    sum(score_hand(keep, s).total for s in rest)
    for pair in combinations(rest, 2):
        crib = thrown + pair
        sum(score_hand(crib, s, crib=True).total for s in rest if s not in pair)
    return (time.perf_counter() - start) * 15


def advice_speed(hands: int) -> tuple[float, float]:
    """(the first call, with every precomputed table cleared; the median of the calls after it)."""
    rng = random.Random(7)
    deals = [rng.sample(DECK, 6) for _ in range(hands)]
    for cached in (starter_points, five_rank_points, load_table):
        cached.cache_clear()
    start = time.perf_counter()
    discard_advice(deals[0], dealer=True)
    first = time.perf_counter() - start
    times = []
    for dealt in deals:
        start = time.perf_counter()
        discard_advice(dealt, dealer=bool(len(times) % 2))
        times.append(time.perf_counter() - start)
    return first, statistics.median(times)


def strong_against_greedy(name: str, games: int) -> float:
    """The share of two-player games the strong bot wins alone against the greedy bot."""
    game = get_game(name)
    wins = 0
    for n in range(games):
        strong = n % 2
        bots = [(StrongBot if seat == strong else GreedyBot)(random.Random(n * 2 + seat)) for seat in range(2)]
        result = play_game(game, game.new_game(2, seed=SEEDS + n), bots)
        wins += game.outcome(result.state).winners == (strong,)
    return wins / games


def print_win_rate(name: str, games: int) -> None:
    start = time.perf_counter()
    rate = strong_against_greedy(name, games)
    half = 1.96 * (rate * (1 - rate) / games) ** 0.5
    print(f"strong {name} bot beats greedy in {rate:.1%} +- {half:.1%} (95%) of {games:,} two-player games "
          f"({time.perf_counter() - start:.0f} s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000_000, help="simulated deals per player count")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4], choices=(2, 3, 4),
                        help="player counts whose crib table to check (none: skip)")
    parser.add_argument("--games", type=int, default=2000, help="strong-against-greedy Cribbage games")
    parser.add_argument("--other-games", type=int, default=400, help="strong-against-greedy games of each other game")
    parser.add_argument("--seed", type=int, default=99, help="simulation seed (the table was built with another)")
    args = parser.parse_args()

    equal, checked = check_hand_ev(1000)
    print(f"hand_ev exact: {equal}/{checked} random kept hands equal brute force over every starter "
          f"- {'met' if equal == checked else 'MISSED'}")

    for players in args.players:
        check_crib_table(players, args.deals, args.seed + players)

    first, median = advice_speed(300)
    naive = naive_discard_seconds(random.Random(3).sample(DECK, 6))
    print(f"discard advice, six cards: median {median * 1000:.2f} ms over 300 hands (first call, reading the crib "
          f"table with nothing precomputed yet: {first * 1000:.1f} ms); target < 10 ms - {'met' if median < 0.010 else 'MISSED'}")
    print(f"naive exhaustive (score_hand over every starter and every opponent pair): {naive:.1f} s per hand, "
          f"{naive / median:,.0f}x slower")

    if args.games:
        print_win_rate("cribbage", args.games)
    if args.other_games:
        for name in ("allfives", "fifteen", "quinze", "its15"):
            print_win_rate(name, args.other_games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
