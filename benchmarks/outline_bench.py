"""Benchmark of the outline a card is cut out on in the pictures users enrol from (phone photos
on a desk, wood, cloth or felt; scans with a margin; crops cut roughly by hand), against where the
card really lies, beside the naive approach.

An enrolled reference cut a few pixels off the card's edge is a picture the card itself, seen
whole on the table, fits less well than another card of its rank: the deck reads wrong or not at
all, though every check of a card cut from a picture passes. This measures the finder alone
(:func:`vision.faces.still.find_card`, as enrolment calls it), card by card:

- **on the edge**: every corner within 2 % of the card's short side of the true corner (about
  1.3 mm of a poker card);
- **off**: found, but a corner farther (the figure is the worst corner, in short sides);
- **none**: no card found (the enrolment names the picture and asks for another);
- **median off**: the median of the worst corner's distance, in short sides.

The naive approach: the picture's grey thresholded by Otsu's method, the largest outer contour,
simplified to four corners (its rotated bounding box when it has not four).

Pictures are drawn afresh on each run (the seed is printed; ``--seed N`` draws them again), each
saved as JPEG as a phone or scanner does. Designs are split into the four the recogniser was
tuned on (:data:`vision.faces.designs.DESIGNS`) and every other design installed; the worst of
each is printed.

    .venv/bin/python benchmarks/outline_bench.py                      # every design, photos, 13 cards each
    .venv/bin/python benchmarks/outline_bench.py --kinds photo scan crop --cards 52 --seed 60243
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from engine.decks import get_deck  # noqa: E402
from vision.faces.designs import DESIGNS, element_id, installed_designs, render_card  # noqa: E402
from vision.faces.features import order_quad  # noqa: E402
from vision.faces.photos import photo_of_card, rough_crop, scan_of_card  # noqa: E402
from vision.faces.still import find_card  # noqa: E402

#: Designs whose cards are not a playing card's shape (future's landscape cartridges).
SKIP = ("future",)
#: Every corner within this share of the card's short side: the card is cut on its edge.
ON_EDGE = 0.02
PICTURES = {"photo": photo_of_card, "scan": scan_of_card, "crop": rough_crop}


def corners_off(found: np.ndarray | None, truth: np.ndarray) -> float:
    """How far the farthest corner of ``found`` lies from ``truth``'s, in the card's short sides
    (whichever corner each starts from); infinite when nothing was found."""
    if found is None:
        return float("inf")
    truth = order_quad(np.float32(truth))
    short = float(min(np.linalg.norm(truth - np.roll(truth, 1, axis=0), axis=1)))
    return min(float(np.abs(order_quad(np.float32(found)) - np.roll(truth, k, axis=0)).max()) for k in range(4)) / short


def naive_card(image: np.ndarray) -> np.ndarray | None:
    """The naive outline: Otsu's threshold of the grey picture, its largest outer contour, four
    corners."""
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    _, mask = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    largest = max(contours, key=cv2.contourArea)
    approx = cv2.approxPolyDP(largest, 0.02 * cv2.arcLength(largest, True), True)
    return approx.reshape(-1, 2).astype(np.float32) if len(approx) == 4 else cv2.boxPoints(cv2.minAreaRect(largest))


def measure(design: str, kind: str, faces, seed: int) -> dict:
    """Each of ``faces`` of ``design`` pictured as ``kind``, cut out by the finder and the naive
    way: the counts, the worst corner off, the cards off and the seconds per picture."""
    rng = np.random.default_rng(seed)
    result = {"finder": [0, 0, 0], "naive": [0, 0, 0], "off": [], "seconds": [], "finder_off": [], "naive_off": []}
    for face in faces:
        picture, placed = PICTURES[kind](rng, render_card(design, element_id(face)))
        ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(85, 96))])
        picture = cv2.imdecode(data, cv2.IMREAD_COLOR)
        started = time.process_time()
        found = find_card(picture)
        result["seconds"].append(time.process_time() - started)
        for way, quad in (("finder", found), ("naive", naive_card(picture))):
            off = corners_off(quad, placed.quad)
            result[way][0 if off <= ON_EDGE else 1 if np.isfinite(off) else 2] += 1
            result[f"{way}_off"].append(off)
            if way == "finder" and off > ON_EDGE:
                result["off"].append(f"{face} {off:.3f}" if np.isfinite(off) else f"{face} none")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--designs", nargs="*", help="designs to measure (default: every installed one)")
    parser.add_argument("--kinds", nargs="*", choices=sorted(PICTURES), default=["photo"], help="kinds of picture (default photo)")
    parser.add_argument("--cards", type=int, default=13, help="cards per design and kind, spread over the deck (default 13)")
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100000, help="seed of the pictures (default: new)")
    parser.add_argument("--verbose", action="store_true", help="list the cards cut off their edge")
    args = parser.parse_args(argv)
    designs = [d for d in (args.designs or installed_designs()) if d not in SKIP]
    deck = get_deck("standard")
    faces = deck.faces[:: max(1, len(deck.faces) // args.cards)][: args.cards]
    print(f"seed {args.seed}; {len(faces)} cards per design and kind; on the edge: every corner within "
          f"{ON_EDGE:.0%} of the card's short side")
    print(f"{'design':24} {'kind':6} {'on edge':>9} {'off':>5} {'none':>5} {'median off':>11} {'naive on edge':>14} "
          f"{'naive off':>10} {'s/picture':>10}")
    shares: dict[tuple[bool, str], list[tuple[float, str]]] = {}
    for design in designs:
        for kind in args.kinds:
            seed = args.seed + sum(map(ord, design + kind))
            r = measure(design, kind, faces, seed)
            share, naive = r["finder"][0] / len(faces), r["naive"][0] / len(faces)
            shares.setdefault((design in DESIGNS, kind), []).append((share, design))
            print(f"{design:24} {kind:6} {share:9.1%} {r['finder'][1]:5d} {r['finder'][2]:5d} "
                  f"{np.median(r['finder_off']):11.3f} {naive:14.1%} {np.median(r['naive_off']):10.3f} "
                  f"{np.median(r['seconds']):10.2f}", flush=True)
            if args.verbose and r["off"]:
                print("    off:", ", ".join(r["off"]))
    for (tuned, kind), values in sorted(shares.items()):
        mean = sum(v for v, _ in values) / len(values)
        worst = min(values)
        print(f"{'tuned' if tuned else 'untuned'} designs, {kind}: {mean:.1%} on the edge; worst {worst[1]} {worst[0]:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
