"""Engine benchmark: Cribbage hands scored per second, and every (hand, starter) pair scored.

Run: ``.venv/bin/python benchmarks/engine_bench.py [--quick]``

Prints ``score_hand`` throughput on random hands, then the time to score all 12,994,800
(four-card hand, starter) combinations with :func:`hand_score_histogram` and its histogram, and,
in the same run, the naive way (``score_hand`` on every combination) timed on a sample and
extrapolated. Target (issue 2): the full enumeration in under 30 s on one core.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations, islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import standard_52  # noqa: E402
from engine.games.cribbage import score_hand  # noqa: E402
from engine.games.cribbage_scoring import hand_score_histogram  # noqa: E402

COMBINATIONS = 270_725 * 48


def hands_per_second(n: int) -> float:
    rng = random.Random(1)
    deck = list(standard_52())
    deals = [rng.sample(deck, 5) for _ in range(n)]
    start = time.perf_counter()
    for cards in deals:
        score_hand(cards[:4], cards[4])
    return n / (time.perf_counter() - start)


def naive_sample_seconds(n: int) -> float:
    """Seconds per combination for score_hand over the first ``n`` combinations in order."""
    deck = list(standard_52())
    pairs = ((hand, s) for hand in combinations(deck, 4) for s in deck if s not in hand)
    start = time.perf_counter()
    for hand, starter in islice(pairs, n):
        score_hand(hand, starter)
    return (time.perf_counter() - start) / n


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    args = parser.parse_args()
    rate = hands_per_second(5_000 if args.quick else 50_000)
    print(f"score_hand: {rate:,.0f} hands/s (random hands, one core)")
    naive = naive_sample_seconds(5_000 if args.quick else 50_000) * COMBINATIONS
    start = time.perf_counter()
    histogram = hand_score_histogram()
    elapsed = time.perf_counter() - start
    total = sum(histogram.values())
    mean = sum(k * v for k, v in histogram.items()) / total
    print(f"full enumeration: {total:,} combinations scored in {elapsed:.1f} s (target < 30 s: "
          f"{'met' if elapsed < 30 else 'MISSED'}); mean {mean:.4f}")
    print(f"naive (score_hand on each, extrapolated from a sample): {naive:.0f} s, "
          f"{naive / elapsed:.0f}x slower")
    print("score  combinations")
    for score in range(0, 30):
        print(f"{score:5d}  {histogram[score]:>12,}")
    return 0 if total == COMBINATIONS else 1


if __name__ == "__main__":
    sys.exit(main())
