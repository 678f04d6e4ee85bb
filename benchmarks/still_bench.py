"""Benchmark of the still-photo reader (``cardtable vision read``) and of enrolment from the
pictures users have, on designs split into tuned and untuned, against the naive approach.

Each design is enrolled in each of the ways a user can (``--kinds``): from its clean card images,
from scans with a margin, from crops cut roughly by hand, from phone photos of each card on a
desk, wood, cloth or felt (:mod:`vision.faces.photos`), and from one photo of the whole deck laid
out in 4 rows of 13. A picture refused with a sentence is taken again (a new picture), as the
user would, and counted. Each enrolment then reads ``--photos`` synthetic 12-megapixel photos of
a table (ten cards of the design apart from each other, anywhere, turned, up to 20 degrees off
vertical, with other things around), JPEG-decoded inside the timing, with

- the still reader: cards looked for at 1000 px across, then each outline moved onto the card's
  edge at full resolution and read (:func:`vision.faces.still.read_cards`);
- the naive approach: the same finder and matcher at full resolution (no shrinking).

It prints, per design and enrolment kind, cards named right, unknown and wrong, the retakes the
enrolment asked for, the seconds per photo (median and worst), and the worst design of the
tuned (:data:`vision.faces.designs.DESIGNS`) and of the untuned designs.

    .venv/bin/python benchmarks/still_bench.py --designs nicu-white gm-paris --photos 2 --kinds clean photo
    .venv/bin/python benchmarks/still_bench.py                # every design and kind (long)
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from engine.decks import get_deck  # noqa: E402
from engine.errors import InvalidInput  # noqa: E402
from vision.faces.designs import DESIGNS, element_id, installed_designs, render_card  # noqa: E402
from vision.faces.enrol import enrol_from_images, enrol_from_photo  # noqa: E402
from vision.faces.matcher import Matcher  # noqa: E402
from vision.faces.photos import IMAGE_KINDS, photo_of_layout, photo_of_table, picture_of, write_photos  # noqa: E402
from vision.faces.rows import layout_rows  # noqa: E402
from vision.faces.still import read_cards  # noqa: E402

#: Designs with a standard pack's faces that rsvg-convert draws (future is not a pack; konqi-modern
#: and xskat-french have no page size; xskat-german has German suits).
SKIP = ("future", "konqi-modern", "xskat-french", "xskat-german")
KINDS = IMAGE_KINDS + ("layout",)
RETAKES = 5


def enrol(design: str, kind: str, deck, seed: int) -> tuple[object, int, float]:
    """``design`` enrolled from pictures of ``kind``: the enrolment, the pictures retaken, and the
    CPU seconds (process time) that enrolling took, every try counted (a user waits for each),
    making the pictures not (that is this benchmark's work, not the product's)."""
    rng = np.random.default_rng(seed)
    spent = 0.0

    def timed(enrolling, *args):
        nonlocal spent
        started = time.process_time()
        try:
            return enrolling(*args)
        finally:
            spent += time.process_time() - started

    if kind == "layout":
        cards = [[render_card(design, element_id(deck.card(card_id).face)) for card_id in row] for row in layout_rows(deck)]
        for retake in range(RETAKES):
            photo, _ = photo_of_layout(rng, cards, size=(4000, 3000))
            try:
                return timed(enrol_from_photo, photo, deck, design), retake, spent
            except InvalidInput:
                continue
        return None, RETAKES, spent
    with tempfile.TemporaryDirectory() as folder:
        write_photos(design, folder, deck.faces, kind, seed, back=True)   # as the clean images (faces_bench lays cards face down)
        for retake in range(RETAKES + 1):
            try:
                return timed(enrol_from_images, folder, deck, design), retake, spent
            except InvalidInput as err:
                named = re.findall(r"(\w+)\.jpg", str(err))  # every picture the sentence names
                if not named or retake == RETAKES:
                    return None, retake, spent
                for card_id in named:
                    element = "back" if card_id == "BACK" else element_id(deck.card(card_id).face)
                    cv2.imwrite(str(Path(folder) / f"{card_id}.jpg"), picture_of(rng, render_card(design, element), kind))
    return None, RETAKES, spent


def table_photos(design: str, deck, count: int, seed: int) -> list[tuple[bytes, set[str]]]:
    """``count`` JPEG photos of a table with ten cards of ``design``, and the cards in each."""
    rng = np.random.default_rng(seed)
    photos = []
    for _ in range(count):
        faces = [deck.faces[i] for i in rng.choice(len(deck.faces), 10, replace=False)]
        picture, placed = photo_of_table(rng, [render_card(design, element_id(face)) for face in faces])
        ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 90])
        photos.append((data.tobytes(), {str(face) for face in faces[:len(placed)]}))
    return photos


def read_all(photos, matcher: Matcher, work: int) -> dict:
    right = wrong = unknown = 0
    seconds = []
    for data, truth in photos:
        started = time.perf_counter()
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        found = read_cards(image, matcher, work=work)
        seconds.append(time.perf_counter() - started)
        named = [reading.card.id for _, reading in found if reading.card is not None]
        right += len(set(named) & truth)
        wrong += sum(card_id not in truth for card_id in named)
        unknown += len(truth - set(named))
    return {"right": right, "cards": sum(len(t) for _, t in photos), "wrong": wrong, "unknown": unknown,
            "median": statistics.median(seconds), "worst": max(seconds)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--designs", nargs="*", help="designs to measure (default: every installed pack)")
    parser.add_argument("--kinds", nargs="*", choices=KINDS, default=list(KINDS), help="enrolment kinds (default all)")
    parser.add_argument("--photos", type=int, default=3, help="12-megapixel table photos per design (default 3)")
    parser.add_argument("--seed", type=int, default=int(time.time()) % 10000, help="seed of the pictures (default: new)")
    parser.add_argument("--naive", action="store_true", help="also time the naive approach (full resolution)")
    args = parser.parse_args(argv)
    deck = get_deck("standard")
    designs = args.designs or [d for d in installed_designs() if d not in SKIP]
    print(f"seed {args.seed}; {args.photos} photos of 4000x3000 per design, ten cards each; one core, "
          f"timings inflated by whatever else runs")
    rows = []
    for design in designs:
        photos = table_photos(design, deck, args.photos, args.seed)
        for kind in args.kinds:
            enrolment, retakes, took = enrol(design, kind, deck, args.seed)
            if enrolment is None:
                print(f"{design:24s} {kind:7s} not enrolled after {retakes} retakes")
                rows.append((design, kind, None))
                continue
            ours = read_all(photos, Matcher(enrolment), 1000)
            line = (f"{design:24s} {kind:7s} enrolled in {took:5.1f} s of CPU, {retakes} retaken; "
                    f"named {ours['right']}/{ours['cards']}, unknown {ours['unknown']}, wrong {ours['wrong']}; "
                    f"{ours['median']:.2f} s per photo (worst {ours['worst']:.2f})")
            if args.naive:
                naive = read_all(photos, Matcher(enrolment), 100000)
                line += f"; naive {naive['median']:.2f} s (named {naive['right']}, wrong {naive['wrong']})"
            print(line, flush=True)
            rows.append((design, kind, ours))
    for label, group in (("tuned", [d for d in designs if d in DESIGNS]), ("untuned", [d for d in designs if d not in DESIGNS])):
        scored = [(d, k, r) for d, k, r in rows if d in group]
        if not scored:
            continue
        share = [(r["right"] / r["cards"] if r else 0.0, d, k) for d, k, r in scored]
        worst = min(share)
        total = [r for _, _, r in scored if r]
        print(f"{label}: {len(group)} designs, named {sum(r['right'] for r in total)}/{sum(r['cards'] for r in total)}, "
              f"wrong {sum(r['wrong'] for r in total)}, worst {worst[1]} from {worst[2]} ({100 * worst[0]:.0f}%), "
              f"slowest photo {max((r['worst'] for r in total), default=0):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
