"""Build ``engine/advice/crib_table.json``: the expected crib for each kind of discard.

Run: ``.venv/bin/python tools/build_crib_table.py [--deals-two 200000] [--deals-more 500000] [--seed 2026]``

For each number of players and each kind of discard (its ranks, and for two cards whether they
share a suit) it deals ``--deals-*`` hands in which this player lays away such cards (suits drawn
at random), lets the other players discard by the opponent model of :mod:`tools.crib_sim`, and
averages the crib's exact expectation over every starter not dealt. It writes the mean and its
standard error, rounded to 0.0001, with the model, the deal counts and the seed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.advice.crib_table import TABLE_FILE  # noqa: E402
from tools.crib_sim import MODEL, class_keys, crib_expectations  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "engine" / "advice" / TABLE_FILE
CHUNK = 50_000


def build(players: int, deals: int, rng: np.random.Generator) -> dict[str, list[float]]:
    table = {}
    for key in class_keys(players):
        values = np.concatenate([
            crib_expectations(rng, players, key, min(CHUNK, deals - done)) for done in range(0, deals, CHUNK)
        ])
        table[key] = [round(float(values.mean()), 4), round(float(values.std() / np.sqrt(len(values))), 4)]
    return table


def _dump(document: dict) -> str:
    """JSON with one line per table entry, so that a rebuilt table diffs line by line."""
    head = {k: v for k, v in document.items() if k != "players"}
    blocks = []
    for count, table in document["players"].items():
        rows = ",\n".join(f"   {json.dumps(key)}: {json.dumps(value)}" for key, value in table.items())
        blocks.append(f"  {json.dumps(count)}: {{\n{rows}\n  }}")
    players = ",\n".join(blocks)
    return json.dumps(head, indent=1)[:-2] + f',\n "players": {{\n{players}\n }}\n}}\n'


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals-two", type=int, default=200_000, help="deals per kind of discard, 2 players")
    parser.add_argument("--deals-more", type=int, default=500_000, help="deals per kind of discard, 3 or 4 players")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    deals = {2: args.deals_two, 3: args.deals_more, 4: args.deals_more}
    players = {}
    for count, n in deals.items():
        start = time.perf_counter()
        players[str(count)] = build(count, n, rng)
        print(f"{count} players: {len(players[str(count)])} kinds x {n:,} deals in {time.perf_counter() - start:.0f} s")
    document = {
        "model": MODEL,
        "deals_per_kind": {str(k): v for k, v in deals.items()},
        "seed": args.seed,
        "columns": ["mean", "standard_error"],
        "players": players,
    }
    args.out.write_text(_dump(document), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
