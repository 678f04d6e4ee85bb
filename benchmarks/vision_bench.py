"""Benchmark of the camera pipeline on scripted synthetic scenes, against the naive loops.

Scenes come in six kinds (:data:`KINDS`, :func:`scene_script`), each run on as many scenes:

- **mixed** (issue 12's scene): four to six cards laid in random zones (one pair partly on top
  of each other), a hand hovering over a card, in a third of the scenes a hand resting still on a
  card for up to 10 s, cards slid to another zone (the top card of the pair off the one below, a
  slide across two zones), sometimes a card swept off the edge, and a pickup;
- **long slides**: three of four cards pushed 300-1,200 px to another zone under a flat hand for
  0.6-2.5 s, half of them with the hand then resting on the card for up to 2 s;
- **off cards**: two pairs laid partly on each other, each top card pushed off the one below to
  another zone under the hand, then a lower card after it;
- **piles**: three to five counted cards in the centre pushed together under hands into a fanned
  pile in a seat's zone, squared up (each marker still showing), then picked up at once;
- **wood flicker**: the mixed scene on a wooden table, exposure flicker of 8-15 % and light
  drifting unevenly across the table by 10-25 %;
- **laid table**: the camera starts on a table where four cards lie (``present``), two of them
  partly on each other, the others each in a zone of its own, then a hand hovers, one is picked
  up, one pushed to another zone, a new card laid (each where no card lies).

Half the scenes end one second after their last pickup. Each scene draws its camera and light
from the ranges of a real table (:data:`CONDITIONS`, justified in docs/vision.md): how much
table the camera sees, sensor noise, defocus, glare, light falloff, motion blur (the exposure
time), exposure flicker, light drift, MJPG compression, felt or wood. A quarter of the scenes
carry foreign codes in a zone: a lower-case look-alike of a card's payload and a web address.
Seeds are drawn afresh on every run (printed; ``--seed`` runs the same scenes again), so no
figure can be tuned scene by scene.

Every frame is recorded as a JPEG file, as a USB camera sends it, and read back through the
folder source, so each loop pays for reading and decoding as it would live:

- the pipeline with the product's default settings (``VisionConfig()``: no ``place_after``
  wait, removals by evidence, ``remove_after`` only as the last resort);
- the naive zxing loop: read the file in grey, zxing-cpp on the whole frame, a tracker with the
  timeouts such a loop needs (placed after 0.25 s, removed after 3 s unseen);
- the naive pyzbar loop: the same with pyzbar (on a sample of the scenes: it is slow);
- on a sample, the pipeline fed the MJPG bytes from memory (a live USB camera: no file read).

It prints recall per event kind (placed, moved, removed, present), false events (false removals
apart), cards lying there at start reported as laid (refused on resume), foreign codes turned into
cards, the delay of each event after the card came to rest (placed, moved) or its place came
clear (removed), and CPU per frame on one core (OpenCV single-threaded, process time) on quiet
frames and around arrivals, for all scenes and for each kind, each kind's CPU against the naive
zxing loop's on the same files, the worst kind, then PASS or FAIL for each target. QR decks run
at 1080p, ArUco decks at 720p.

    .venv/bin/python benchmarks/vision_bench.py              # 4 QR scenes of each kind + 6 ArUco, ~15 min on 2 busy cores
    .venv/bin/python benchmarks/vision_bench.py --quick      # 1 QR scene of each kind + 2 ArUco, ~4 min
    .venv/bin/python benchmarks/vision_bench.py --seed 755159 --kinds "long slides"   # scenes again
    .venv/bin/python benchmarks/vision_bench.py --profile --kinds "long slides" --scenes 2 --aruco-scenes 0

``--profile`` also prints where the pipeline's process time goes, by class of frame (not looked
at, quiet, settling, a hand moving, around an arrival): reading the file, the eighth and whole
JPEG decodes, the change map, the region views, the decoder (and its calls per frame),
footprints, tracker (:class:`Probe`).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from engine.decks import get_deck  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.decoders import make_decoder  # noqa: E402
from vision.frames import Frame  # noqa: E402
from vision.markers import ForeignMarker, card_for_aruco, card_for_payload  # noqa: E402
from vision.pipeline import Pipeline, table_events  # noqa: E402
from vision.sim.script import BEFORE, OFF_TABLE, Hand, Place, Remove, Slide  # noqa: E402
from vision.sources import ImageFolderSource  # noqa: E402
from vision.sim.synthetic import DEFAULT_ZONES, Effects, SyntheticCamera, expected_events, zone_centre  # noqa: E402
from vision.tracker import Sighting, Tracker  # noqa: E402
from vision.zones import ZoneMap  # noqa: E402

#: What a naive loop needs to survive a hand passing over a card: the old product defaults.
NAIVE_PLACE_AFTER, NAIVE_REMOVE_AFTER = 0.25, 3.0
#: An event counts when reported within this long after its card came to rest or its place clear.
WINDOW = 1.5
#: A card has come to rest in view when its marker has been clear of hands this long (three
#: frames at 15 fps): a marker that shows for an instant between the hand that slid the card and
#: a hand that comes to rest on it is not a card at rest in view.
CLEAR_VIEW = 0.2

#: The range each scene draws its conditions from (uniformly): the camera's view in multiples of
#: the 900 x 520 mm synthetic table, the Effects fields, and the JPEG quality of the recording.
CONDITIONS = {"view": (1.0, 1.4), "noise": (3.0, 7.0), "blur": (0.6, 1.2), "glare": (40.0, 140.0),
              "lighting": (0.25, 0.5), "motion": (0.01, 0.033), "flicker": (0.0, 0.08), "drift": (0.0, 0.1),
              "quality": (70, 92)}
#: What the "flicker on wood" scenes draw instead: a wooden table under mains light and daylight.
WOOD_FLICKER = {"flicker": (0.08, 0.15), "drift": (0.1, 0.25)}
#: The kinds of scene (see :func:`scene_script`), each run on as many scenes.
KINDS = ("mixed", "long slides", "off cards", "piles", "wood flicker", "laid table")
#: Foreign codes stuck in zone seat2 in every fourth scene (no card of the scene goes there).
FOREIGN = ("ct1:standard:5h", "HTTP://EXAMPLE.COM/CT1:STANDARD:5H")


def scene_conditions(kind: str, seed: int) -> tuple[float, Effects, int]:
    """The camera view, the effects and the JPEG quality of scene ``seed`` of ``kind``: felt or
    wood at random, always wood with strong flicker and drifting light for "wood flicker"."""
    rng = random.Random(seed * 7919 + 1)
    ranges = {**CONDITIONS, **(WOOD_FLICKER if kind == "wood flicker" else {})}
    drawn = {key: round(rng.uniform(lo, hi), 3) for key, (lo, hi) in ranges.items()}
    surface = "wood" if kind == "wood flicker" or rng.random() < 0.5 else "felt"
    effects = Effects(surface=surface, **{k: v for k, v in drawn.items() if k not in ("quality", "view")})
    return drawn["view"], effects, int(drawn["quality"])


def scene_script(kind: str, seed: int, deck_name: str, foreign: bool) -> tuple[list, float]:
    """A random scene of ``kind`` and its length in seconds: "mixed" (and "wood flicker", the
    same on a wooden table under changing light) is :func:`mixed_script`; the others are
    :func:`long_slides`, :func:`off_cards`, :func:`piles` and :func:`laid_table`."""
    rng = random.Random(seed)
    cards = rng.sample([c.id for c in get_deck(deck_name).cards], 6)
    zones = [z for z in DEFAULT_ZONES if not (foreign and z == "seat2")]
    if kind in ("mixed", "wood flicker"):
        return mixed_script(rng, cards, zones)
    return {"long slides": long_slides, "off cards": off_cards, "piles": piles, "laid table": laid_table}[kind](
        rng, cards, zones)


def _covered_slide(rng: random.Random, t: float, card: str, zone: str, **place) -> tuple[list, float]:
    """A card pushed along under a flat hand for 0.6-2.5 s (a quick shove across the table, or a
    slow push), then, half the time, the hand resting on it where it stopped for up to 2 s; the
    moves and when the hand has gone."""
    duration = round(rng.uniform(0.6, 2.5), 2)
    moves = [Slide(round(t, 2), card, zone, duration, covered=True, **place)]
    t += duration + 0.4
    if rng.random() < 0.5:
        rest = round(rng.uniform(0.8, 2.0), 1)
        moves.append(Hand(round(t - 0.3, 2), rest, card, still=True))
        t += rest
    return moves, t + 0.3


def long_slides(rng: random.Random, cards: list[str], zones: list[str]) -> tuple[list, float]:
    """Four cards laid, three of them slid 300-1,200 px to another zone under the hand, a pickup."""
    moves, t, where = [], 0.3, {}
    for card in cards[:4]:
        where[card] = rng.choice(zones)
        moves.append(Place(round(t, 2), card, where[card]))
        t += rng.uniform(0.5, 0.8)
    for card in rng.sample(cards[:4], 3):
        where[card] = rng.choice([z for z in zones if z != where[card]])
        slid, t = _covered_slide(rng, t + 0.3, card, where[card])
        moves += slid
    moves.append(Remove(round(t, 2), rng.choice(cards[:4])))
    return moves, t + rng.choice([1.0, 2.5])


def off_cards(rng: random.Random, cards: list[str], zones: list[str]) -> tuple[list, float]:
    """Two pairs of cards laid partly on each other; each top card slid off the one below to
    another zone under the hand; then a lower card slid after it; a pickup."""
    moves, t = [], 0.3
    pair_zones = rng.sample([z for z in ("seat1", "seat3", "centre") if z in zones], 2)
    for zone, (lower, upper) in zip(pair_zones, (cards[:2], cards[2:4])):
        cx, cy = zone_centre(DEFAULT_ZONES[zone])
        moves.append(Place(round(t, 2), lower, zone, x=cx - 60, y=cy, angle=rng.uniform(-5, 5)))
        moves.append(Place(round(t + 0.7, 2), upper, zone, x=cx - 60 + rng.uniform(46, 52), y=cy + rng.uniform(-12, 12),
                           angle=rng.uniform(-8, 8)))
        t += 1.4
    for zone, upper in zip(pair_zones, (cards[1], cards[3])):
        slid, t = _covered_slide(rng, t + 0.3, upper, rng.choice([z for z in zones if z != zone]))
        moves += slid
    slid, t = _covered_slide(rng, t + 0.3, cards[0], rng.choice([z for z in zones if z != pair_zones[0]]))
    moves += slid
    moves.append(Remove(round(t, 2), cards[2]))
    return moves, t + rng.choice([1.0, 2.5])


def piles(rng: random.Random, cards: list[str], zones: list[str]) -> tuple[list, float]:
    """Three to five counted cards in the centre pushed together under hands into a fanned pile
    in a seat's zone, squared up (turned by 1.5 degrees at most: each marker still showing; a
    card turned further at 57 mm from the next has its marker's corner under it), then the pile
    picked up at once."""
    count = rng.randint(3, 5)
    moves, t = [], 0.3
    for card in cards[:count]:
        moves.append(Place(round(t, 2), card, "centre"))
        t += rng.uniform(0.5, 0.8)
    zone = rng.choice([z for z in ("seat1", "seat3") if z in zones])
    cx, cy = zone_centre(DEFAULT_ZONES[zone])
    duration, t = round(rng.uniform(1.0, 2.0), 2), t + 0.4
    x0 = cx - 57 * (count - 1) / 2
    for i, card in enumerate(cards[:count]):
        moves.append(Slide(round(t, 2), card, zone, duration, covered=True, x=round(x0 + 57 * i + rng.uniform(-3, 3), 1),
                           y=round(cy + rng.uniform(-6, 6), 1), angle=round(rng.uniform(-1.5, 1.5), 1)))
    t += duration + 1.2
    moves += [Remove(round(t, 2), card) for card in cards[:count]]
    return moves, t + rng.choice([1.0, 2.5])


def laid_table(rng: random.Random, cards: list[str], zones: list[str]) -> tuple[list, float]:
    """The camera starts on a table where four cards lie (the Pi restarted mid-game), two of them
    partly on each other: a hand hovers over one, one is picked up, one slid to another zone under
    the hand, a new card laid."""
    lying = cards[:4]
    # Each card at rest in a zone of its own but the pair's: a card laid or slid to a zone's
    # centre where another lies would hide its marker, a card nobody can read.
    lower, upper = lying[2:]
    pair_zone = rng.choice([z for z in ("seat1", "seat3", "centre") if z in zones])
    where = dict(zip(lying[:2], rng.sample([z for z in zones if z != pair_zone], 2)))
    moves = [Place(BEFORE, card, zone) for card, zone in where.items()]
    # The other two lie partly on each other, as a card played onto the one before, the lower
    # one's marker in view.
    where[lower] = where[upper] = pair_zone
    cx, cy = zone_centre(DEFAULT_ZONES[pair_zone])
    moves += [Place(BEFORE, lower, pair_zone, x=cx - 60, y=cy, angle=rng.uniform(-3, 3)),
              Place(BEFORE, upper, pair_zone, x=cx - 60 + rng.uniform(56, 60), y=cy + rng.uniform(-12, 12),
                    angle=rng.uniform(-3, 3))]
    t = rng.uniform(0.8, 1.5)
    moves.append(Hand(round(t, 2), 1.5, rng.choice(lying)))
    t += 2.0
    taken, slid = rng.sample(lying, 2)
    moves.append(Remove(round(t, 2), taken))
    del where[taken]
    target = rng.choice([z for z in zones if z not in where.values()])
    moved, t = _covered_slide(rng, t + 1.0, slid, target)
    moves += moved
    where[slid] = target
    moves.append(Place(round(t, 2), cards[4], rng.choice([z for z in zones if z not in where.values()])))
    return moves, t + 2.0


def mixed_script(rng: random.Random, cards: list[str], zones: list[str]) -> tuple[list, float]:
    """The scene of issue 12 (see the module docstring)."""
    cards = cards[:rng.randint(4, 6)]
    moves, t = [], 0.3
    # A pair laid partly on top of each other (the top one covering the lower one's corner).
    pair_zone = rng.choice(["seat1", "seat3", "centre"])
    cx, cy = zone_centre(DEFAULT_ZONES[pair_zone])
    lower, upper = cards[:2]
    moves.append(Place(t, lower, pair_zone, x=cx - 60, y=cy, angle=rng.uniform(-5, 5)))
    t += rng.uniform(0.5, 0.8)
    moves.append(Place(round(t, 2), upper, pair_zone, x=cx - 60 + rng.uniform(46, 52), y=cy + rng.uniform(-12, 12),
                       angle=rng.uniform(-8, 8)))
    t += rng.uniform(0.5, 0.8)
    others = [z for z in zones if z != pair_zone]
    for card in cards[2:]:
        moves.append(Place(round(t, 2), card, rng.choice(others)))
        t += rng.uniform(0.45, 0.8)
    t += 0.3
    moves.append(Hand(round(t, 2), 2.0, rng.choice(cards)))
    t += 2.4
    if rng.random() < 1 / 3:  # a hand resting still on a card
        rest = round(rng.uniform(4.0, 10.0), 1)
        moves.append(Hand(round(t, 2), rest, rng.choice(cards), still=True))
        t += rest + 0.5
    # The top card of the pair slides off the one below, to another zone.
    moves.append(Slide(round(t, 2), upper, rng.choice(others), 0.5))
    t += 1.3
    if "seat2" in zones and "seat4" in zones and rng.random() < 0.5:
        card = cards[2]
        moves.append(Slide(round(t, 2), card, "seat2", 0.5))
        moves.append(Slide(round(t + 1.3, 2), card, "seat4", 0.9))  # across the centre
        t += 3.0
    remaining = [c for c in cards if c != upper]
    if rng.random() < 0.3:
        card = remaining.pop(rng.randrange(len(remaining)))
        moves.append(Slide(round(t, 2), card, OFF_TABLE, 0.5))
        t += 1.4
    moves.append(Remove(round(t, 2), rng.choice(remaining)))
    return moves, t + (1.0 if rng.random() < 0.5 else 2.5)


#: The parts of the pipeline's cost on a frame that ``--profile`` tells apart.
PARTS = ("read file", "decode small", "decode full", "decode colour", "change map", "region views", "decoder",
         "footprints", "tracker", "other")
#: The classes of frame ``--profile`` tells apart: not looked at; nothing changed for half a
#: second; nothing changed since the frame before, but something did less than half a second ago;
#: a hand (or a card it carries) moving; from 0.3 s before a card lands to 0.6 s after.
CLASSES = ("skipped", "quiet", "settling", "hand moving", "arrival")
#: A frame whose scene has not changed for this long is quiet, not settling.
SETTLED = 0.5
_DECODES = {cv2.IMREAD_GRAYSCALE: "decode full", cv2.IMREAD_COLOR: "decode colour"}


class Probe:
    """Process time of each part (:data:`PARTS`) of the pipeline's work on one frame, each part's
    own (a JPEG decoded inside a region's read counts as the decode, not as the read), and the
    decoder calls. The parts' methods are wrapped on the instances the pipeline uses (the frame
    decode on :class:`Frame`, in this worker process only); nothing else changes."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.parts: dict[str, float] = defaultdict(float)
        self.calls, self.active, self._stack = 0, False, []
        self._wrap(Frame, "_decode", lambda frame, flags, size: _DECODES.get(flags, "decode small"))
        for name in ("observe", "regions", "pending"):
            self._wrap(pipeline.changes, name, "change map")
        self._wrap(pipeline.recogniser, "read", "region views")
        decoder = getattr(pipeline.recogniser, "decoder", None)
        if decoder is not None:
            self._wrap(decoder, "decode", "decoder", count=True)
        for name in ("_judge", "_follow"):
            self._wrap(pipeline, name, "footprints")
        self._wrap(pipeline.tracker, "update", "tracker")

    def _wrap(self, owner: object, name: str, part, count: bool = False) -> None:
        original = getattr(owner, name)

        def timed(*args, **kwargs):
            if not self.active:
                return original(*args, **kwargs)
            start = time.process_time()
            self._stack.append(0.0)
            try:
                return original(*args, **kwargs)
            finally:
                spent, inner = time.process_time() - start, self._stack.pop()
                self.parts[part if isinstance(part, str) else part(*args, **kwargs)] += spent - inner
                self.calls += count
                if self._stack:
                    self._stack[-1] += spent

        setattr(owner, name, timed)

    def frame(self, total: float, read: float) -> dict:
        """This frame's figures (``total`` its process time, ``read`` of it the file's), and a
        fresh start for the next."""
        parts = {**self.parts, "read file": read}
        parts["other"] = total - sum(parts.values())
        out, self.calls = {"parts": parts, "calls": self.calls}, 0
        self.parts = defaultdict(float)
        return out


class NaiveLoop:
    """What a user would write: read each file in grey, decode the whole frame, feed a tracker."""

    def __init__(self, decoder: str, deck: str, zones: ZoneMap) -> None:
        self.decoder, self.deck, self.zones = make_decoder(decoder), get_deck(deck), zones
        self.tracker = Tracker(place_after=NAIVE_PLACE_AFTER, remove_after=NAIVE_REMOVE_AFTER)

    def process(self, path: Path, now: float) -> list:
        gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        sightings = {}
        for found in self.decoder.decode(gray):
            try:
                card = card_for_aruco(found.value, self.deck) if isinstance(found.value, int) \
                    else card_for_payload(found.value, self.deck)
            except ForeignMarker:
                continue
            sightings[card.id] = Sighting(card, self.zones.locate(found.center), found.center)
        return self.tracker.update(list(sightings.values()), now)


def stick_foreign(frame: np.ndarray, camera: SyntheticCamera) -> None:
    """Two foreign QR codes printed on stickers lying in zone seat2."""
    import segno

    cx, cy = zone_centre(DEFAULT_ZONES["seat2"])
    for i, text in enumerate(FOREIGN):
        qr = segno.make_qr(text, error="m", boost_error=False)
        modules = np.array([list(row) for row in qr.matrix], dtype=bool)
        tile = cv2.copyMakeBorder(np.where(modules, 0, 255).astype(np.uint8), 4, 4, 4, 4, cv2.BORDER_CONSTANT, value=255)
        tile = cv2.resize(tile, (tile.shape[1] * 8, tile.shape[0] * 8), interpolation=cv2.INTER_NEAREST)
        half, y = 25.0, cy - 50 + 100 * i
        quad = cv2.perspectiveTransform(np.float32([[(cx - half, y - half), (cx + half, y - half), (cx + half, y + half),
                                                     (cx - half, y + half)]]), camera.homography)[0]
        h, w = tile.shape
        matrix = cv2.getPerspectiveTransform(np.float32([(0, 0), (w, 0), (w, h), (0, h)]), quad)
        warped = cv2.warpPerspective(cv2.cvtColor(tile, cv2.COLOR_GRAY2BGR), matrix, frame.shape[1::-1],
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(1, 1, 1))
        mask = warped.any(axis=2) & ~(warped == 1).all(axis=2)
        frame[mask] = warped[mask]


def clear_of_hands(camera: SyntheticCamera, pose, t: float) -> float:
    """The first time from ``t`` when no hand covers the marker of a card lying at ``pose``."""
    while camera.covers(pose, t) and t < 1e3:
        t += 0.01
    return t


def ground_truth(camera: SyntheticCamera, script: list) -> list[tuple[str, str, str, float, float]]:
    """Expected events as (kind, card, zone, earliest, reference time): the reference time is
    when the card came to rest clear of hands for :data:`CLEAR_VIEW` (placed, moved; measured
    from the start of that view) or its place came clear (removed)."""
    truth = []
    for kind, card, zone, t in expected_events(camera, script):
        if kind == "removed":
            pose = camera.pose_at(card, t - 1e-3) if camera.pose_at(card, t + 1e-3) is None else \
                next(camera.pose_at(card, m.t - 1e-3) for m in script if isinstance(m, Slide) and m.card == card
                     and math.isclose(m.t + m.duration, t))
            reference = clear_of_hands(camera, pose, t)
        else:
            reference = camera.in_clear_view(card, max(t, 0.0), hold=CLEAR_VIEW)
        truth.append((kind, card, zone, t - 1.0, reference))
    return truth


def score(truth: list, observed: list) -> dict:
    """Match observed events to the expected ones by kind, card and zone, within :data:`WINDOW`
    of the reference time; the delays of the matched ones (and in ``timed``, each with its kind,
    card and reference time); the rest are false events."""
    unmatched = list(observed)
    result = {"expected": {}, "matched": {}, "delays": {}, "false": 0, "false_removals": 0, "foreign": 0,
              "refused": 0, "missed": [], "unexpected": [], "timed": []}
    for kind, card, zone, earliest, reference in truth:
        result["expected"][kind] = result["expected"].get(kind, 0) + 1
        hit = next((e for e in unmatched if e.kind == kind and e.card.id == card and e.zone == zone
                    and earliest <= e.time <= reference + WINDOW), None)
        if hit is None:
            result["missed"].append(f"{kind} {card} {zone} at {reference:.2f} s")
            continue
        unmatched.remove(hit)
        result["matched"][kind] = result["matched"].get(kind, 0) + 1
        result["delays"].setdefault(kind, []).append(max(0.0, hit.time - reference))
        result["timed"].append((kind, card, reference, max(0.0, hit.time - reference)))
    expected_cards = {card for _, card, *_ in truth}
    result["false"] = len(unmatched)
    result["unexpected"] = [f"{e.kind} {e.card.id} {e.zone} at {e.time:.2f} s" for e in unmatched]
    result["false_removals"] = sum(1 for e in unmatched if e.kind == "removed")
    result["foreign"] = sum(1 for e in unmatched if e.card.id not in expected_cards)
    # A card lying there at start reported as laid: the controller refuses it on resume.
    present = {card for kind, card, *_ in truth if kind == "present"}
    result["refused"] = sum(1 for e in unmatched if e.kind == "placed" and e.card.id in present)
    return result


def run_scene(job: tuple) -> dict:
    kind, seed, deck, marker, resolution, fps, loops, live, profile = job
    cv2.setNumThreads(1)
    foreign = marker == "qr" and seed % 4 == 1
    script, duration = scene_script(kind, seed, deck, foreign)
    view, effects, quality = scene_conditions(kind, seed)
    camera = SyntheticCamera(deck, marker, script, resolution=resolution, seed=seed, view=view, effects=effects)
    calibration = Calibration(np.linalg.inv(camera.homography), camera.resolution, 0.0)
    config = VisionConfig(deck=deck, marker=marker, zones=DEFAULT_ZONES)     # the defaults a user gets
    pipeline = Pipeline(config, calibration=calibration)
    naive = {name: NaiveLoop(name, deck, pipeline.zones) for name in loops}
    live_pipeline = Pipeline(config, calibration=calibration) if live else None
    probe = Probe(pipeline) if profile else None
    folder = Path(tempfile.mkdtemp(prefix="vision-bench-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    try:
        kinds, classes, previous, changed_at, recorded = [], [], None, 0.0, []
        arrivals = [m.t for m in script if isinstance(m, Place)]
        for i in range(int(duration * fps)):
            now = i / fps
            frame = camera.frame_at(now)
            if foreign:
                stick_foreign(frame, camera)
            data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()
            (folder / f"{i:06d}.jpg").write_bytes(data)
            recorded.append(data if live else None)
            scene = camera.scene.snapshot(now)
            arrival = any(t - 0.3 <= now < t + 0.6 for t in arrivals)
            kinds.append("quiet" if scene == previous else "arrival" if arrival else "other")
            changed_at = changed_at if scene == previous else now
            classes.append("arrival" if arrival else "hand moving" if changed_at == now else
                           "settling" if now - changed_at < SETTLED else "quiet")
            previous = scene
        cpu = {name: [] for name in ["pipeline", *naive, *(["live"] if live else [])]}
        events = {name: [] for name in cpu}
        profiled = []
        with ImageFolderSource(folder, fps) as source:
            index = 0
            while True:
                start = time.process_time()
                got = source.read()
                if got is None:
                    break
                read, skipped = time.process_time() - start, pipeline.stats.skipped
                if probe:
                    probe.active = True
                events["pipeline"] += table_events(pipeline.process(*got))
                cpu["pipeline"].append(time.process_time() - start)
                if probe:
                    probe.active = False
                    profiled.append({**probe.frame(cpu["pipeline"][-1], read),
                                     "class": "skipped" if pipeline.stats.skipped > skipped else classes[index]})
                for name, loop in naive.items():
                    start = time.process_time()
                    events[name] += loop.process(source.paths[index], got[1])
                    cpu[name].append(time.process_time() - start)
                if live:
                    start = time.process_time()
                    events["live"] += table_events(live_pipeline.process(Frame(jpeg=recorded[index]), got[1]))
                    cpu["live"].append(time.process_time() - start)
                index += 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    truth = ground_truth(camera, script)
    return {"kind": kind, "seed": seed, "cpu": cpu, "kinds": kinds, "profile": profiled,
            "scores": {n: score(truth, ev) for n, ev in events.items()},
            "rest": any(isinstance(m, Hand) and m.still for m in script)}


def _pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


EVENT_KINDS = ("placed", "moved", "removed", "present")


def summarise(title: str, results: list[dict], names: list[str]) -> dict:
    print(f"\n{title}: {len(results)} scenes, {sum(len(r['kinds']) for r in results)} frames "
          f"({sum(r['rest'] for r in results)} with a hand resting on a card)")
    print(f"{'loop':<9} {'placed':>9} {'moved':>7} {'removed':>8} {'present':>8} {'false':>6} {'false rm':>8} "
          f"{'refused':>7} {'foreign':>7} {'place/move ms (p95)':>20} {'removed ms (p95)':>17} {'quiet ms':>9} "
          f"{'arrive ms':>10} {'mean ms':>8}")
    out = {}
    for name in names:
        rows = [r for r in results if name in r["scores"]]
        exp, hit, delays = {}, {}, {}
        totals = {"false": 0, "false_removals": 0, "foreign": 0, "refused": 0}
        quiet, arrive, every = [], [], []
        for r in rows:
            s = r["scores"][name]
            for k, v in s["expected"].items():
                exp[k] = exp.get(k, 0) + v
            for k, v in s["matched"].items():
                hit[k] = hit.get(k, 0) + v
            for k, v in s["delays"].items():
                delays.setdefault(k, []).extend(v)
            for k in totals:
                totals[k] += s[k]
            for seconds, kind in zip(r["cpu"][name], r["kinds"]):
                every.append(seconds * 1000)
                (quiet if kind == "quiet" else arrive if kind == "arrival" else []).append(seconds * 1000)
        rest_delays = [d * 1000 for k in ("placed", "moved") for d in delays.get(k, [])]
        removed_delays = [d * 1000 for d in delays.get("removed", [])]
        kept = sum(hit.get(k, 0) for k in ("placed", "moved"))
        wanted = sum(exp.get(k, 0) for k in ("placed", "moved"))
        out[name] = {**totals, "recall": kept / max(1, wanted),
                     "each": {k: hit.get(k, 0) / exp[k] for k in EVENT_KINDS if exp.get(k)},
                     "removed_recall": hit.get("removed", 0) / max(1, exp.get("removed", 0)),
                     "rest": (_pct(rest_delays, 50), _pct(rest_delays, 95)),
                     "removed": (_pct(removed_delays, 50), _pct(removed_delays, 95)),
                     "quiet": _pct(quiet, 50), "arrive": _pct(arrive, 50), "mean": statistics.fmean(every) if every else float("nan")}
        o = out[name]
        per = {k: f"{hit.get(k, 0)}/{exp.get(k, 0)}" for k in EVENT_KINDS}
        print(f"{name:<9} {per['placed']:>9} {per['moved']:>7} {per['removed']:>8} {per['present']:>8} "
              f"{totals['false']:>6} {totals['false_removals']:>8} {totals['refused']:>7} {totals['foreign']:>7} "
              f"{o['rest'][0]:>12.0f} ({o['rest'][1]:>4.0f}) {o['removed'][0]:>9.0f} ({o['removed'][1]:>4.0f}) "
              f"{o['quiet']:>9.2f} {o['arrive']:>10.2f} {o['mean']:>8.2f}")
    for r in results:
        s = r["scores"]["pipeline"]
        if s["missed"] or s["unexpected"]:
            print(f"  pipeline, {r['kind']} scene {r['seed']}: missed {s['missed'] or 'nothing'}; "
                  f"unexpected {s['unexpected'] or 'nothing'}")
    return out


def print_profile(title: str, results: list[dict]) -> None:
    """Where the pipeline's process time goes (``--profile``), by class of frame
    (:data:`CLASSES`): each class's share of the frames and of the time, the mean ms per frame of
    each part (:data:`PARTS`), decoder calls per frame, and the share of frames decoded whole."""
    frames = [f for r in results for f in r["profile"]]
    if not frames:
        return
    total = sum(sum(f["parts"].values()) for f in frames)
    short = {"read file": "read", "decode small": "dec/8", "decode full": "dec full", "decode colour": "dec col",
             "change map": "changes", "region views": "views", "decoder": "decoder", "footprints": "footprt",
             "tracker": "tracker", "other": "other"}
    print(f"\nprofile, {title}: {len(results)} scenes, {len(frames)} frames; ms of process time per frame, "
          f"mean, by class of frame; calls: decoder calls per frame; whole: frames decoded whole")
    print(f"{'class':<12} {'frames':>7} {'time':>5} {'ms':>6} " + " ".join(f"{short[p]:>8}" for p in PARTS)
          + f" {'calls':>6} {'whole':>6}")
    for name in CLASSES:
        rows = [f for f in frames if f["class"] == name]
        if not rows:
            continue
        spent = [sum(f["parts"].values()) for f in rows]
        parts = [statistics.fmean(f["parts"].get(p, 0.0) for f in rows) * 1000 for p in PARTS]
        whole = sum(f["parts"].get("decode full", 0.0) > 0 for f in rows) / len(rows)
        print(f"{name:<12} {len(rows) / len(frames):>7.0%} {sum(spent) / total:>5.0%} {statistics.fmean(spent) * 1000:>6.2f} "
              + " ".join(f"{v:>8.2f}" for v in parts)
              + f" {statistics.fmean(f['calls'] for f in rows):>6.2f} {whole:>6.0%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run: one QR scene of each kind, 2 ArUco scenes")
    parser.add_argument("--scenes", type=int, default=4, help="QR scenes at 1080p of each kind (default 4)")
    parser.add_argument("--kinds", nargs="*", choices=KINDS, default=list(KINDS), help="the kinds of scene to run")
    parser.add_argument("--aruco-scenes", type=int, default=6, help="ArUco scenes at 720p (default 6)")
    parser.add_argument("--pyzbar-every", type=int, default=6, help="run the pyzbar loop on every Nth scene (default 6)")
    parser.add_argument("--live-every", type=int, default=3, help="time the live MJPG source on every Nth scene")
    parser.add_argument("--fps", type=float, default=15.0, help="frames per second of the scenes (default 15)")
    parser.add_argument("--seed", type=int, help="the first scene's seed (default: drawn afresh, and printed)")
    parser.add_argument("--profile", action="store_true",
                        help="also print where the pipeline's time goes, by class of frame (QR scenes)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="scenes run in parallel")
    args = parser.parse_args(argv)
    if args.quick:
        args.scenes, args.aruco_scenes, args.pyzbar_every, args.live_every = 1, 2, 3, 3
    base = random.SystemRandom().randrange(1, 10**6) if args.seed is None else args.seed
    print(f"scene seeds from {base} (run these scenes again with --seed {base})", flush=True)
    started = time.monotonic()
    qr_jobs = []
    for k, kind in enumerate(args.kinds):
        for i in range(args.scenes):
            n = len(qr_jobs)
            qr_jobs.append((kind, base + 1000 * k + i, "standard", "qr", "1080p", args.fps,
                            ("zxing", "pyzbar") if n % args.pyzbar_every == 0 else ("zxing",), n % args.live_every == 0,
                            args.profile))
    aruco_jobs = [("mixed", base + 10_000 + i, "its15", "aruco", "720p", args.fps, (), False, False)
                  for i in range(args.aruco_scenes)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        qr = list(pool.map(run_scene, qr_jobs))
        aruco = list(pool.map(run_scene, aruco_jobs))
    print(f"vision benchmark: scenes at {args.fps:g} fps recorded as JPEG files and read back through the folder "
          f"source; one core per scene (OpenCV single-threaded); the pipeline with the default settings "
          f"(place_after {VisionConfig().place_after:g} s, remove_after {VisionConfig().remove_after:g} s as a last "
          f"resort); the naive loops with place_after {NAIVE_PLACE_AFTER} s, remove_after {NAIVE_REMOVE_AFTER} s")
    print("conditions drawn per scene: " + ", ".join(f"{k} {lo:g}-{hi:g}" for k, (lo, hi) in CONDITIONS.items())
          + "; felt or wood; wood flicker scenes: wood, " + ", ".join(f"{k} {lo:g}-{hi:g}" for k, (lo, hi) in WOOD_FLICKER.items()))
    print("delays: after the card came to rest clear of hands (placed, moved) or its place came clear (removed); "
          "ms: CPU per frame including reading and decoding the JPEG; quiet: nothing changed; arrive: from 0.3 s "
          "before a card lands to 0.6 s after; live: MJPG bytes from memory, as from a USB camera; refused: a card "
          "lying there when the camera started reported as laid (the controller refuses it on resume)")
    full = summarise("QR deck at 1080p, all scenes", qr, ["pipeline", "zxing"])
    per_kind = {kind: summarise(f"QR deck at 1080p, {kind}", [r for r in qr if r["kind"] == kind], ["pipeline", "zxing"])
                for kind in args.kinds}
    sample = [r for r in qr if "pyzbar" in r["scores"]]
    same = summarise("QR deck at 1080p, the pyzbar sample", sample, ["pipeline", "zxing", "pyzbar"])
    live = summarise("QR deck at 1080p, the live sample", [r for r in qr if "live" in r["scores"]], ["pipeline", "live"])
    aruco_out = summarise("ArUco deck (its15) at 720p", aruco, ["pipeline"])
    p, z, b, a, lv = full["pipeline"], full["zxing"], same["pyzbar"], aruco_out["pipeline"], live["live"]
    print("\nby scene kind (pipeline): the least recall of placed, moved, removed and present; CPU per frame "
          "(mean) against the naive zxing loop's on the same files")
    ratios = {}
    for kind, out in per_kind.items():
        least = min(out["pipeline"]["each"].values(), default=1.0)
        ratios[kind] = out["pipeline"]["mean"] / out["zxing"]["mean"]
        print(f"  {kind:<13} recall {least:7.2%}  false {out['pipeline']['false']:>2}  refused {out['pipeline']['refused']:>2}  "
              f"CPU {out['pipeline']['mean']:5.2f} ms against {out['zxing']['mean']:5.2f} ms ({ratios[kind]:.2f}x)  "
              f"quiet {out['pipeline']['quiet']:.2f} ms")
    if args.profile:
        print_profile("QR deck at 1080p, all scenes", qr)
        for kind in args.kinds:
            print_profile(f"QR deck at 1080p, {kind}", [r for r in qr if r["kind"] == kind])
    worst = max(per_kind, key=lambda kind: (1 - min(per_kind[kind]["pipeline"]["each"].values(), default=1.0),
                                            per_kind[kind]["pipeline"]["false"], ratios[kind]))
    print(f"  worst scene kind: {worst}")
    print("\ntargets (the pipeline, default settings)")
    each = {k: v for k, v in p["each"].items()}
    checks = [
        *[(f"{k} recall >= 99.5% (QR 1080p)", v >= 0.995, f"{v:.2%}") for k, v in each.items()],
        ("placed and moved recall >= 99.5% (ArUco 720p)", a["recall"] >= 0.995, f"{a['recall']:.2%}"),
        ("every removal found (ArUco 720p)", a["removed_recall"] == 1.0, f"{a['removed_recall']:.2%}"),
        ("zero false events", p["false"] + a["false"] == 0, f"QR {p['false']}, ArUco {a['false']}"),
        ("zero false removals (hands resting up to 10 s)", p["false_removals"] + a["false_removals"] == 0,
         f"QR {p['false_removals']}, ArUco {a['false_removals']}"),
        ("zero cards refused on resume (laid table)", p["refused"] == 0, f"{p['refused']}"),
        ("zero foreign codes as cards", p["foreign"] == 0, f"{p['foreign']}"),
        ("removed <= 0.5 s median after the place is clear", p["removed"][0] <= 500,
         f"{p['removed'][0]:.0f} ms (p95 {p['removed'][1]:.0f})"),
        ("placed/moved <= 150 ms median after rest", p["rest"][0] <= 150, f"{p['rest'][0]:.0f} ms (p95 {p['rest'][1]:.0f})"),
        ("CPU per frame <= half the naive zxing loop's, every kind", max(ratios.values()) <= 0.5,
         f"worst {max(ratios, key=ratios.get)} {max(ratios.values()):.2f}x"),
        ("median CPU incl. JPEG read, quiet frame <= 3 ms (1080p)", p["quiet"] <= 3,
         f"{p['quiet']:.2f} ms (zxing loop {z['quiet']:.2f}, pyzbar loop {b['quiet']:.2f})"),
        ("median CPU incl. JPEG read, arrival <= 15 ms (1080p)", p["arrive"] <= 15,
         f"{p['arrive']:.2f} ms (zxing loop {z['arrive']:.2f}, pyzbar loop {b['arrive']:.2f})"),
        ("live MJPG source, median CPU quiet / arrival", lv["quiet"] <= 3 and lv["arrive"] <= 15,
         f"{lv['quiet']:.2f} / {lv['arrive']:.2f} ms"),
    ]
    width = max(len(text) for text, _, _ in checks)
    for text, ok, value in checks:
        print(f"  {'PASS' if ok else 'FAIL'}  {text:<{width}}  {value}")
    print(f"\nscene seeds from {base}; wall time {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
