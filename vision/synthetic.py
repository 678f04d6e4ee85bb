"""The synthetic table camera: printable cards rendered into a perspective view of a table.

A :class:`SyntheticCamera` follows a script of moves (:mod:`vision.script`) and renders the frame
seen at any time, on demand: felt with a lighting gradient and a glare spot, cards (the very
images :mod:`vision.render` prints) rotated and partly overlapping, hands that bring, slide and
pick up cards or hover over them, sensor noise and defocus. Table coordinates are millimetres
with the origin at the table centre, x to the right and y towards seat 1 (the bottom of the
image); the same frame as the calibration mat, so :attr:`SyntheticCamera.homography` is a
perfect calibration.

Rendering is cheap enough for a demo: card images are drawn once and cached, the backdrop
(felt, light, glare) is computed once per resolution, a frame whose scene did not change
reuses the previous composite, and noise comes from a small pool of precomputed fields.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from engine.decks import Deck, get_deck
from engine.errors import InvalidInput
from vision.markers import MAT_MARKER_CENTRES, MAT_MARKER_IDS, MAT_MARKER_MM, aruco_modules
from vision.render import CARD_MARKER_MM, CARD_MM, CardArt
from vision.script import OFF_TABLE, Hand, Move, Place, Remove
from vision.table_layout import default_layout

#: The part of the table the synthetic camera sees, in millimetres, centred on the origin.
TABLE_MM = (900.0, 520.0)
RESOLUTIONS = {"720p": (1280, 720), "1080p": (1920, 1080)}


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


#: The zones of the synthetic table, in mm: four seats and a centre (see :mod:`vision.table_layout`).
DEFAULT_ZONES = default_layout(4, ("centre",))
_SLOT_STEP = 66.0   # mm between the centres of cards laid side by side in a zone
_HAND_TRAVEL = 0.25
_HAND_HALF_WIDTH, _HAND_FINGERS, _HAND_PALM = 52.0, 108.0, 62.0   # mm from the palm centre (see _draw_hand)
_NOISE_PAD = 32     # noise fields are this much larger than the frame: each frame takes a shifted window
_MOTION_STEPS = 3   # instants of an exposure averaged for motion blur
_FLICKER_HZ = 3.3   # the beat of a 30 fps exposure against 50 Hz mains light


@dataclass(frozen=True)
class Effects:
    """What makes the picture hard: ``lighting`` (fraction the light falls off across the
    table), ``glare`` (grey levels added at the centre of a glare spot), ``noise`` (sensor noise
    sigma, grey levels), ``blur`` (defocus sigma, image pixels), ``hands`` (hands bring, slide and
    take cards), ``jitter`` (cards land off-centre and rotated), ``motion`` (exposure time in
    seconds: what moves during it is smeared, as a hand or a sliding card is in a real frame) and
    ``flicker`` (the share by which the exposure swings frame to frame, as a webcam's auto
    exposure under mains lighting)."""

    lighting: float = 0.35
    glare: float = 80.0
    noise: float = 4.0
    blur: float = 0.7
    hands: bool = True
    jitter: bool = True
    motion: float = 0.0
    flicker: float = 0.0


@dataclass(frozen=True)
class Pose:
    """Where a card lies: centre (x, y) in table mm and rotation in degrees."""

    x: float
    y: float
    angle: float

    def towards(self, other: "Pose", f: float) -> "Pose":
        return Pose(self.x + (other.x - self.x) * f, self.y + (other.y - self.y) * f,
                    self.angle + (other.angle - self.angle) * f)


@dataclass(frozen=True)
class _Key:
    t: float
    pose: Pose | None
    glide: bool = False


@dataclass(frozen=True)
class _HandPass:
    t0: float
    t1: float
    start: tuple[float, float]
    points: tuple[tuple[float, float, float, float], ...]  # (t, x, y, wobble) waypoints
    shade: int


def table_homography(resolution: tuple[int, int], view: float = 1.0) -> np.ndarray:
    """The table-mm to image-px homography of the synthetic camera at ``resolution``: a camera
    above seat 1, tilted so the far edge of the table looks narrower, seeing ``view`` times
    :data:`TABLE_MM` (1.4: a camera hung higher, seeing a 1.26 m wide strip of table)."""
    w, h = resolution
    half_w, half_h = view * TABLE_MM[0] / 2, view * TABLE_MM[1] / 2
    table = np.float32([(-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h)])
    image = np.float32([(0.09 * w, 0.03 * h), (0.91 * w, 0.03 * h), (w - 1, 0.985 * h), (0, 0.985 * h)])
    return cv2.getPerspectiveTransform(table, image)


def _map(homography: np.ndarray, points) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, homography).reshape(-1, 2)


def zone_centre(polygon) -> tuple[float, float]:
    """The centre of a zone polygon (the mean of its corners)."""
    pts = np.asarray(polygon, dtype=float)
    return float(pts[:, 0].mean()), float(pts[:, 1].mean())


@functools.lru_cache(maxsize=4)
def _backdrop(resolution: tuple[int, int], effects: Effects, variant: int):
    """Felt, light and glare for one resolution: (background BGR, gain, glare add, noise pool)."""
    w, h = resolution
    rng = np.random.default_rng(1000 + variant)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    lx, ly = rng.uniform(0, w), rng.uniform(-0.3 * h, 0.3 * h)
    dist = np.hypot(xx - lx, yy - ly) / math.hypot(w, h)
    gain = (1.0 - effects.lighting * dist).astype(np.float32)
    gx, gy, gs = rng.uniform(0.2 * w, 0.8 * w), rng.uniform(0.2 * h, 0.8 * h), 0.06 * w
    glare = (effects.glare * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * gs * gs))).astype(np.float32)
    texture = cv2.resize(rng.normal(0, 6, (h // 16 + 1, w // 16 + 1)).astype(np.float32), (w, h))
    felt = np.float32([40, 105, 45])[None, None, :] + texture[:, :, None]
    background = np.clip(felt * gain[:, :, None] + glare[:, :, None], 0, 255).astype(np.uint8)
    pool = []
    for unit in (_unit_noise(resolution) if effects.noise > 0 else ()):
        field = unit * np.float32(effects.noise)
        pool.append((np.clip(field, 0, 255).astype(np.uint8), np.clip(-field, 0, 255).astype(np.uint8)))
    return background, gain, glare, pool


@functools.lru_cache(maxsize=2)
def _unit_noise(resolution: tuple[int, int]) -> list[np.ndarray]:
    """Two fields of unit Gaussian noise, a little larger than the frame, drawn once per
    resolution (the slow part of a backdrop); frames read them through shifted windows."""
    w, h = resolution
    rng = np.random.default_rng(2000)
    return [rng.standard_normal((h + _NOISE_PAD, w + _NOISE_PAD, 3), np.float32) for _ in range(2)]


class SyntheticCamera:
    """A simulated overhead camera over a table where ``script`` happens.

    :param deck: the deck whose cards are played (a :class:`Deck` or its name).
    :param marker: "qr" or "aruco".
    :param script: the moves (see :func:`vision.script.parse_script`).
    :param resolution: (width, height), or "720p" / "1080p".
    :param zones: zone name to polygon in table mm (default :data:`DEFAULT_ZONES`).
    :param effects: lighting, glare, noise, blur, hands, jitter.
    :param seed: varies jitter, glare position, hands and noise.
    :param mat: draw the calibration mat in the middle of the table.
    :param view: how much table the camera sees, in multiples of :data:`TABLE_MM` (more is a
        higher camera: fewer pixels per marker module).
    :param card_image: draws a card's face instead of the printable marked card: called with the
        physical card and pixels per mm, returns a BGR image (a real deck design, for faces).
    :raises InvalidInput: for an unknown deck, card, zone or resolution, or an impossible script
        (removing a card that is not on the table, placing one that already is).
    """

    def __init__(self, deck: Deck | str, marker: str, script: list[Move] | tuple = (), *,
                 resolution: tuple[int, int] | str = "1080p", zones: dict | None = None,
                 effects: Effects = Effects(), seed: int = 0, mat: bool = False,
                 view: float = 1.0, card_image=None) -> None:
        if not 0.5 <= view <= 3.0:
            raise InvalidInput(f"the camera view {view:g} is out of range: give 0.5 to 3 times the table")
        self.deck = deck if isinstance(deck, Deck) else get_deck(deck)
        if isinstance(resolution, str):
            if resolution not in RESOLUTIONS:
                raise InvalidInput(f"no resolution {resolution!r}: choose one of {', '.join(RESOLUTIONS)}")
            resolution = RESOLUTIONS[resolution]
        self.resolution = (int(resolution[0]), int(resolution[1]))
        self.zones = dict(DEFAULT_ZONES if zones is None else zones)
        self.effects, self.seed, self.mat = effects, seed, mat
        self.art = CardArt(self.deck, marker)
        self.card_image = card_image or self.art.card_bgr
        self.homography = table_homography(self.resolution, view)
        self._view = view
        self._px_per_mm = self.resolution[0] / (view * TABLE_MM[0])
        self._sprite_ppm = round(1.4 * self._px_per_mm, 2)
        self._sprites: dict[str, np.ndarray] = {}
        self._keys: dict[str, list[_Key]] = {}
        self._hands: list[_HandPass] = []
        self._rng = random.Random(seed)
        for move in sorted(script, key=lambda m: m.t):
            self.add(move)
        self._background, self._gain, self._glare, self._noise = _backdrop(self.resolution, effects, seed % 4)
        if mat:
            self._background = self._background.copy()
            self._draw_mat(self._background)
        self._composites: dict[tuple, np.ndarray] = {}
        self._frames = 0

    # -- the script -------------------------------------------------------------------------

    def _pose_now(self, card: str) -> Pose | None:
        keys = self._keys.get(card)
        return keys[-1].pose if keys else None

    def _slots(self, zone: str) -> list[tuple[float, float]]:
        """Where cards land in ``zone``, as offsets from its centre: the middle first, then outwards,
        in as many columns (and rows, when the zone is tall enough) as fit without overlapping."""
        pts = np.asarray(self.zones[zone], dtype=float)
        half_w = (pts[:, 0].max() - pts[:, 0].min()) / 2
        half_h = (pts[:, 1].max() - pts[:, 1].min()) / 2
        side = max(0, int((half_w - 36) // _SLOT_STEP))
        columns = [0.0] + [sign * _SLOT_STEP * k for k in range(1, side + 1) for sign in (1, -1)]
        rows = (-48.0, 48.0) if half_h >= 96 else (0.0,)
        return sorted(((dx, dy) for dy in rows for dx in columns), key=lambda o: (abs(o[0]), o[1]))

    def _free_slot(self, zone: str, t: float) -> tuple[float, float]:
        slots = self._slots(zone)
        taken = set()
        for card, keys in self._keys.items():
            pose = keys[-1].pose
            if pose is not None and self.zone_of(pose.x, pose.y) == zone:
                taken.add(self._slot_of(zone, pose, slots))
        return slots[next((i for i in range(len(slots)) if i not in taken), len(taken) % len(slots))]

    def _slot_of(self, zone: str, pose: Pose, slots) -> int:
        cx, cy = zone_centre(self.zones[zone])
        return min(range(len(slots)), key=lambda i: abs(cx + slots[i][0] - pose.x) + abs(cy + slots[i][1] - pose.y))

    def _landing(self, zone: str, t: float, x=None, y=None, angle=None) -> Pose:
        if zone not in self.zones:
            raise InvalidInput(f"the script names zone {zone!r}, but the table has {', '.join(self.zones)}")
        cx, cy = zone_centre(self.zones[zone])
        jitter = self.effects.jitter
        dx, dy = self._free_slot(zone, t) if x is None or y is None else (0.0, 0.0)
        if x is None:
            x = cx + dx + (self._rng.uniform(-6, 6) if jitter else 0)
        if y is None:
            y = cy + dy + (self._rng.uniform(-8, 8) if jitter else 0)
        if angle is None:
            angle = self._rng.uniform(-10, 10) if jitter else 0.0
        return Pose(x, y, angle)

    def add(self, move: Move) -> None:
        """Add one move to the script (moves may keep coming while frames are taken, in time order).

        :raises InvalidInput: for a move that cannot happen (see the class docstring).
        """
        if isinstance(move, Hand):
            self._add_hand(move.t, move.t + move.duration, self._target(move.target, move.t), hover=True,
                           still=move.still)
            return
        self.deck.card(move.card)
        current = self._pose_now(move.card)
        if isinstance(move, Place):
            if current is not None:
                raise InvalidInput(f"the script places {move.card} at {move.t:g} s, but it is already on the table")
            pose = self._landing(move.zone, move.t, move.x, move.y, move.angle)
            self._keys.setdefault(move.card, []).append(_Key(move.t, pose))
            self._add_hand(move.t - _HAND_TRAVEL, move.t + _HAND_TRAVEL, (pose.x, pose.y))
            return
        if current is None:
            raise InvalidInput(f"the script moves {move.card} at {move.t:g} s, but it is not on the table")
        if isinstance(move, Remove):
            self._keys[move.card].append(_Key(move.t, None))
            self._add_hand(move.t - _HAND_TRAVEL, move.t + _HAND_TRAVEL, (current.x, current.y))
        else:
            target = self._off_table(current) if move.zone == OFF_TABLE else self._landing(move.zone, move.t)
            self._keys[move.card][-1:] = [self._keys[move.card][-1], _Key(move.t, current, glide=True)]
            self._keys[move.card].append(_Key(move.t + move.duration, target))
            self._add_hand(move.t - _HAND_TRAVEL, move.t + move.duration + _HAND_TRAVEL,
                           (current.x, current.y), glide_to=(move.t, move.t + move.duration, (target.x, target.y)))

    def _off_table(self, pose: Pose) -> Pose:
        """Where a card swept off the table from ``pose`` ends: past the nearest edge of the view."""
        half_w, half_h = self._view * TABLE_MM[0] / 2 + CARD_MM[1], self._view * TABLE_MM[1] / 2 + CARD_MM[1]
        edges = [Pose(pose.x, half_h, pose.angle), Pose(pose.x, -half_h, pose.angle),
                 Pose(-half_w, pose.y, pose.angle), Pose(half_w, pose.y, pose.angle)]
        return min(edges, key=lambda e: math.hypot(e.x - pose.x, e.y - pose.y))

    def _target(self, target: str, t: float) -> tuple[float, float]:
        if target in self.zones:
            return zone_centre(self.zones[target])
        pose = self.pose_at(target.upper(), t)
        if pose is None:
            raise InvalidInput(f"the script passes a hand over {target!r}, which is neither a zone nor a card on the table")
        return pose.x, pose.y

    def _add_hand(self, t0: float, t1: float, at: tuple[float, float], *, hover: bool = False,
                  still: bool = False, glide_to: tuple | None = None) -> None:
        if not self.effects.hands:
            return
        x, y = at
        half_w, half_h = TABLE_MM[0] / 2, TABLE_MM[1] / 2
        edges = [(x, half_h + 150), (x, -half_h - 150), (-half_w - 150, y), (half_w + 150, y)]
        start = min(edges, key=lambda e: math.hypot(e[0] - x, e[1] - y))
        # A hand holding a card covers its edge nearest the player; a hovering hand covers it all.
        offset = 0.0 if hover else 45.0
        norm = math.hypot(start[0] - x, start[1] - y) or 1.0
        ox, oy = (start[0] - x) / norm * offset, (start[1] - y) / norm * offset
        travel = min(_HAND_TRAVEL, (t1 - t0) / 3)
        points = [(t0 + travel, x + ox, y + oy, 0.0 if still else 1.0)]
        if glide_to is not None:
            g0, g1, (tx, ty) = glide_to
            points = [(g0, x + ox, y + oy, 0.0), (g1, tx + ox, ty + oy, 0.0)]
        points.append((t1 - travel, points[-1][1], points[-1][2], 0.0 if still else 1.0 if hover else 0.3))
        self._hands.append(_HandPass(t0, t1, start, tuple(points), self._rng.randint(-25, 25)))

    def pose_at(self, card: str, t: float) -> Pose | None:
        """Where ``card`` lies at time ``t``, or None when it is not on the table."""
        keys = self._keys.get(card, ())
        pose = None
        for i, key in enumerate(keys):
            if key.t > t:
                break
            pose = key.pose
            if key.glide and i + 1 < len(keys) and t < keys[i + 1].t:
                nxt = keys[i + 1]
                return pose.towards(nxt.pose, (t - key.t) / (nxt.t - key.t))
        return pose

    def cards_at(self, t: float) -> dict[str, Pose]:
        """Every card on the table at time ``t`` with its pose."""
        poses = {card: self.pose_at(card, t) for card in self._keys}
        return {card: pose for card, pose in poses.items() if pose is not None}

    def zone_of(self, x: float, y: float) -> str | None:
        """The zone containing the table point (x, y) mm, or None."""
        for name, polygon in self.zones.items():
            if cv2.pointPolygonTest(np.float32(polygon), (float(x), float(y)), False) >= 0:
                return name
        return None

    def hidden(self, card: str, t: float) -> bool:
        """True when a hand covers part of ``card``'s marker at time ``t`` (the hand taken as
        its bounding box: palm and fingers)."""
        pose = self.pose_at(card, t)
        return pose is not None and self.covers(pose, t)

    def covers(self, pose: Pose, t: float) -> bool:
        """True when a hand covers part of the marker of a card lying at ``pose`` at time ``t``."""
        a = math.radians(pose.angle)
        reach = CARD_MARKER_MM / 2 * (abs(math.cos(a)) + abs(math.sin(a)))
        for hand in self._hands:
            at = self._hand_at(hand, t)
            if at is not None and abs(at[0] - pose.x) < reach + _HAND_HALF_WIDTH and \
                    at[1] - _HAND_FINGERS - reach < pose.y < at[1] + _HAND_PALM + reach:
                return True
        return False

    def in_clear_view(self, card: str, t: float, hold: float = 0.5) -> float:
        """The first time from ``t`` when ``card`` lies on the table with no hand over its marker
        for ``hold`` seconds (the time a tracker can first be asked to have seen it), or
        infinity if that never happens within ten seconds."""
        step, start = 0.05, t
        for i in range(int(10 / step)):
            now = t + i * step
            if self.pose_at(card, now) is None or self.hidden(card, now):
                start = now + step
            elif now - start >= hold:
                return start
        return math.inf

    # -- rendering --------------------------------------------------------------------------

    def _hand_at(self, hand: _HandPass, t: float) -> tuple[float, float] | None:
        if not hand.t0 <= t <= hand.t1:
            return None
        track = [(hand.t0, *hand.start, 0.0), *hand.points, (hand.t1, *hand.start, 0.0)]
        for (ta, xa, ya, wa), (tb, xb, yb, _) in zip(track, track[1:]):
            if ta <= t <= tb:
                f = 0.0 if tb == ta else (t - ta) / (tb - ta)
                wobble = 6.0 * wa * math.sin(19.0 * t + hand.shade)
                return xa + (xb - xa) * f + wobble, ya + (yb - ya) * f + 0.6 * wobble
        return None

    def _scene(self, t: float) -> tuple:
        cards = tuple(sorted(
            ((self._keys_order(card, t), card, round(p.x, 2), round(p.y, 2), round(p.angle, 2))
             for card, p in self.cards_at(t).items())))
        hands = tuple((h.shade, *(round(v, 1) for v in pos)) for h in self._hands
                      if (pos := self._hand_at(h, t)) is not None)
        return cards, hands

    def _keys_order(self, card: str, t: float) -> float:
        """When ``card`` was last laid down before ``t``: later cards lie on top of earlier ones,
        also when a card comes back to the table after being picked up."""
        keys = self._keys[card]
        laid = keys[0].t
        for before, key in zip(keys, keys[1:]):
            if key.t > t:
                break
            if before.pose is None and key.pose is not None:
                laid = key.t
        return laid

    def frame_at(self, t: float) -> np.ndarray:
        """The BGR frame the camera sees at time ``t`` seconds (a new array each call)."""
        keys = [self._scene(t)]
        if self.effects.motion > 0:
            keys += [self._scene(t - self.effects.motion * k / (_MOTION_STEPS - 1)) for k in range(1, _MOTION_STEPS)]
        frame = self._composite(keys[0]).copy()
        if any(key != keys[0] for key in keys):  # something moved during the exposure: smear it
            mean = frame.astype(np.float32)
            for key in keys[1:]:
                mean += self._composite(key)
            frame = (mean / len(keys)).astype(np.uint8)
        if self.effects.flicker > 0:
            swing = math.sin(2 * math.pi * _FLICKER_HZ * t) + 0.5 * math.sin(2 * math.pi * 1.7 * _FLICKER_HZ * t + 1)
            cv2.convertScaleAbs(frame, dst=frame, alpha=1.0 + self.effects.flicker * swing / 1.5)
        if self._noise:
            # A pool of fields, each read through a window shifted frame by frame: sensor noise
            # that is new in every frame (averaging frames reduces it) at no cost per frame.
            plus, minus = self._noise[self._frames % len(self._noise)]
            h, w = frame.shape[:2]
            dy, dx = (self._frames * 7) % _NOISE_PAD, (self._frames * 13) % _NOISE_PAD
            cv2.add(frame, plus[dy:dy + h, dx:dx + w], dst=frame)
            cv2.subtract(frame, minus[dy:dy + h, dx:dx + w], dst=frame)
        self._frames += 1
        return frame

    def _composite(self, key: tuple) -> np.ndarray:
        """The noiseless picture of a scene, from a small cache (an unchanged scene, or the
        instants of one exposure, are drawn once)."""
        if key not in self._composites:
            if len(self._composites) >= 2 * _MOTION_STEPS:
                del self._composites[next(iter(self._composites))]
            self._composites[key] = self._compose(*key)
        return self._composites[key]

    def _compose(self, cards: tuple, hands: tuple) -> np.ndarray:
        frame = self._background.copy()
        for _, card, x, y, angle in cards:
            self._draw_card(frame, card, Pose(x, y, angle))
        for shade, x, y in hands:
            self._draw_hand(frame, x, y, shade)
        if self.effects.blur > 0:
            cv2.GaussianBlur(frame, (0, 0), self.effects.blur, dst=frame)
        return frame

    def _sprite(self, card: str) -> np.ndarray:
        # Cached on the camera, not in a global cache that would keep every camera alive.
        if card not in self._sprites:
            bgr = self.card_image(self.deck.card(card), self._sprite_ppm)
            alpha = np.zeros(bgr.shape[:2], np.uint8)
            cv2.rectangle(alpha, (0, 0), (bgr.shape[1] - 1, bgr.shape[0] - 1), 255, -1)
            self._sprites[card] = cv2.merge([*cv2.split(bgr), alpha])
        return self._sprites[card]

    def _draw_card(self, frame: np.ndarray, card: str, pose: Pose) -> None:
        sprite = self._sprite(card)
        sh, sw = sprite.shape[:2]
        a = math.radians(pose.angle)
        cos, sin = math.cos(a), math.sin(a)
        hw, hh = CARD_MM[0] / 2, CARD_MM[1] / 2
        corners = [(pose.x + dx * cos - dy * sin, pose.y + dx * sin + dy * cos)
                   for dx, dy in ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh))]
        quad = _map(self.homography, corners)
        self._blend(frame, sprite, np.float32([(0, 0), (sw, 0), (sw, sh), (0, sh)]), quad, lit=True)

    def _blend(self, frame: np.ndarray, sprite: np.ndarray, src: np.ndarray, quad: np.ndarray, *, lit: bool) -> None:
        h, w = frame.shape[:2]
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            return
        matrix = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
        warped = cv2.warpPerspective(sprite, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=0).astype(np.float32)
        alpha = warped[:, :, 3:4] / 255.0
        colour = warped[:, :, :3]
        if lit:
            colour = colour * self._gain[y0:y1, x0:x1, None] + self._glare[y0:y1, x0:x1, None]
        roi = frame[y0:y1, x0:x1]
        roi[:] = np.clip(roi * (1 - alpha) + colour * alpha, 0, 255).astype(np.uint8)

    def _draw_hand(self, frame: np.ndarray, x: float, y: float, shade: int) -> None:
        centre = _map(self.homography, [(x, y), (x + 1, y)])
        scale = float(np.linalg.norm(centre[1] - centre[0]))
        cx, cy = centre[0]
        skin = (int(125 + shade), int(160 + shade), int(205 + shade))
        palm = (int(cx), int(cy))
        cv2.ellipse(frame, palm, (int(52 * scale), int(62 * scale)), 0, 0, 360, skin, -1, cv2.LINE_AA)
        for i, dx in enumerate((-36, -12, 12, 36)):
            tip = (int(cx + dx * scale), int(cy - (70 + 8 * (i % 2)) * scale))
            cv2.ellipse(frame, tip, (int(9 * scale), int(30 * scale)), 0, 0, 360, skin, -1, cv2.LINE_AA)
        shadow = tuple(int(c * 0.85) for c in skin)
        cv2.ellipse(frame, palm, (int(40 * scale), int(48 * scale)), 0, 200, 340, shadow, int(3 * scale), cv2.LINE_AA)

    def _draw_mat(self, frame: np.ndarray) -> None:
        half = MAT_MARKER_MM / 2
        sheet = _map(self.homography, _rect(-140, -100, 140, 100))
        cv2.fillConvexPoly(frame, sheet.astype(np.int32), (235, 235, 235), cv2.LINE_AA)
        for marker_id, (mx, my) in zip(MAT_MARKER_IDS, MAT_MARKER_CENTRES):
            cells = np.where(aruco_modules(marker_id), 0, 255).astype(np.uint8)
            tile = cv2.resize(cells, (120, 120), interpolation=cv2.INTER_NEAREST)
            sprite = cv2.merge([tile, tile, tile, np.full_like(tile, 255)])
            quad = _map(self.homography, _rect(mx - half, my - half, mx + half, my + half))
            self._blend(frame, sprite, np.float32([(0, 0), (120, 0), (120, 120), (0, 120)]), quad, lit=False)


def expected_events(camera: SyntheticCamera, script: list[Move]) -> list[tuple[str, str, str, float]]:
    """The table events a perfect tracker reports for ``script`` on ``camera``'s table:
    (kind, card id, zone, time of the move), in time order. Cards outside every zone give none."""
    events = []
    for move in sorted(script, key=lambda m: m.t):
        if isinstance(move, Hand):
            continue
        if isinstance(move, Place):
            pose = camera.pose_at(move.card, move.t)
            events.append(("placed", move.card, camera.zone_of(pose.x, pose.y), move.t))
        elif isinstance(move, Remove):
            pose = camera.pose_at(move.card, move.t - 1e-6)
            events.append(("removed", move.card, camera.zone_of(pose.x, pose.y), move.t))
        else:
            before = camera.pose_at(move.card, move.t - 1e-6)
            after = camera.pose_at(move.card, move.t + move.duration)
            old, new = camera.zone_of(before.x, before.y), camera.zone_of(after.x, after.y)
            if move.zone == OFF_TABLE:
                events.append(("removed", move.card, old, move.t + move.duration))
            elif old != new:
                events.append(("moved", move.card, new, move.t + move.duration))
    return [e for e in events if e[2] is not None]
