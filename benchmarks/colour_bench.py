"""Benchmark of the colour of a card's print (:func:`vision.faces.features.redness`): every red and
black card of every installed design, enrolled from its clean images, seen as a camera would see
it (its upright view softened by 0.6-1.6 px, each channel's light scaled by 0.8-1.1, sensor noise,
JPEG at quality 70), and its colour told by the deck's own bounds (:func:`vision.faces.matcher.colours`).

It prints, per design (tuned and untuned apart), the black cards read red (the red cards then out
of the running: the wrong card, or none) and read neither, the red cards read black and read
neither; a card read neither is unknown when the grey signals alone do not tell it from a card of
the other colour. Beside, the same views measured the naive way: a red pixel is red by 25 grey
levels and 1.3 times the others, the print is whatever is clearly darker than the corner's paper,
measured sharp, and a view is black up to the deck's black cards' most.

    .venv/bin/python benchmarks/colour_bench.py                    # every design, two views a card
    .venv/bin/python benchmarks/colour_bench.py --designs oxygen-air nicu-ornamental --views 4
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.faces.designs import DESIGNS, element_id, render_card  # noqa: E402
from vision.faces.enrol import card_quad  # noqa: E402
from vision.faces.features import CORNERS, INK_CONTRAST, INK_DEPTH, order_quad, redness, warp_upright  # noqa: E402
from vision.faces.matcher import BLACK, RED, colours  # noqa: E402


def naive_redness(upright: np.ndarray) -> float | None:
    """The share of red print the naive way (see the module docstring)."""
    inks = []
    for rows, cols in CORNERS:
        patch = upright[rows, cols].astype(np.int16)
        grey = patch.mean(axis=2)
        light, dark = np.percentile(grey, (95, 1))
        b, g, r = np.moveaxis(patch, 2, 0)
        red = (r - np.maximum(g, b) > 25) & (r > 1.3 * np.maximum(g, b))
        ink = red | ((grey < light - INK_DEPTH * (light - dark)) if light - dark >= INK_CONTRAST else False)
        if ink.sum() >= 12:
            inks.append(red[ink])
    return float(np.concatenate(inks).mean()) if inks else None


def as_seen(rng: np.random.Generator, upright: np.ndarray) -> np.ndarray:
    """An upright view as a camera gives it: softened, tinted, noisy, JPEG-compressed."""
    lit = cv2.GaussianBlur(upright.astype(np.float32) * rng.uniform(0.8, 1.1, 3), (0, 0), rng.uniform(0.6, 1.6))
    noisy = np.clip(lit + rng.normal(0, 3, upright.shape), 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 70])[1], cv2.IMREAD_COLOR)


def told(value: float | None, black_to: float, red_from: float) -> str:
    """A view's colour by its share of red print: "red", "black" or "neither"."""
    if value is None or black_to < value < red_from:
        return "neither"
    return "red" if value >= red_from else "black"


def measure(design: str, views: int, seed: int) -> dict:
    """Counts of the colours told for ``design``'s cards, by the product and the naive way."""
    import faces_bench

    enrolment = faces_bench.enrolled(design)[0]
    cards = [enrolment.deck.card(card_id) for card_id in enrolment.cards]
    shares = np.array([np.nan if enrolment.cards[card.id].redness is None else enrolment.cards[card.id].redness
                       for card in cards])
    known, black_to, red_from = colours(shares, [card.face.suit for card in cards])   # as the matcher tells them
    rng = np.random.default_rng(seed)
    uprights = {}
    for card, colour in zip(cards, known):
        if not np.isnan(colour):
            image = render_card(design, element_id(card.face), 126)
            uprights[card.id] = (bool(colour), warp_upright(image, order_quad(card_quad(image))))
    naive = np.array([naive_redness(up) for _, up in uprights.values()], dtype=float)
    reds = np.array([red for red, _ in uprights.values()], bool)   # none: a deck that is not red and black
    naive_black_to = max(BLACK, float(np.nanmax(naive[~reds]))) if (~reds).any() else BLACK
    bounds = {"product": (black_to, red_from), "naive": (naive_black_to, max(RED, naive_black_to + 0.1))}
    counts = {way: {"black read red": 0, "black neither": 0, "red read black": 0, "red neither": 0, "cards": 0}
              for way in bounds}
    for red, upright in uprights.values():
        for _ in range(views):
            seen = as_seen(rng, upright)
            for way, measure_it in (("product", redness), ("naive", naive_redness)):
                colour = told(measure_it(seen), *bounds[way])
                tally = counts[way]
                tally["cards"] += 1
                if colour == "neither":
                    tally["red neither" if red else "black neither"] += 1
                elif (colour == "red") != red:
                    tally["black read red" if not red else "red read black"] += 1
    return counts


def main() -> None:
    from vision.faces.designs import installed_designs

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--designs", nargs="*", help="designs to measure (default: every installed design)")
    parser.add_argument("--views", type=int, default=2, help="camera-like views of each card (default 2)")
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100000, help="seed of the views (default: new)")
    args = parser.parse_args()
    designs = args.designs or [d for d in installed_designs() if d != "future"]
    print(f"colour of the print: {args.views} views a card, seed {args.seed} (--seed {args.seed} draws them again)")
    print(f"{'design':24s} {'way':8s} {'views':>6s} {'black->red':>10s} {'black ?':>8s} {'red->black':>10s} {'red ?':>6s}")
    totals = {}
    for design in designs:
        counts = measure(design, args.views, args.seed)
        split = "tuned" if design in DESIGNS else "untuned"
        for way, tally in counts.items():
            print(f"{design:24s} {way:8s} {tally['cards']:6d} {tally['black read red']:10d} {tally['black neither']:8d} "
                  f"{tally['red read black']:10d} {tally['red neither']:6d}")
            total = totals.setdefault((split, way), dict.fromkeys(tally, 0))
            for key, value in tally.items():
                total[key] += value
    for (split, way), tally in sorted(totals.items()):
        wrong = tally["black read red"] + tally["red read black"]
        unclear = tally["black neither"] + tally["red neither"]
        print(f"all {split:20s} {way:8s} {tally['cards']:6d} views: told the wrong colour {wrong} "
              f"({100 * wrong / max(tally['cards'], 1):.2f} %), neither {unclear} ({100 * unclear / max(tally['cards'], 1):.2f} %)")


if __name__ == "__main__":
    main()
