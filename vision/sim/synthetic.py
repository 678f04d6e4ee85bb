"""The synthetic table camera: printable cards rendered into a perspective view of a table.

A :class:`SyntheticCamera` renders a :class:`vision.sim.scene.Scene` (what lies where as a script of
moves happens) into the frame seen at any time, on demand: felt with a lighting gradient and a
glare spot, cards (the very images :mod:`vision.render` prints) rotated and partly overlapping,
hands that bring, slide and pick up cards or hover over them, sensor noise and defocus. Table coordinates are millimetres
with the origin at the table centre, x to the right and y towards seat 1 (the bottom of the
image); the same frame as the calibration mat, so :attr:`SyntheticCamera.homography` is a
perfect calibration.

Rendering is cheap enough for a demo: card images are drawn once and cached, the backdrop
(felt, light, glare) is computed once per resolution, a frame whose scene did not change
reuses the previous composite, cards lying still are drawn and defocused once (a hand over them
is defocused where its blur reaches alone), and noise comes from a small pool of precomputed fields.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from engine.decks import Deck, get_deck
from engine.errors import InvalidInput
from vision.faces.finder import size_of_shape
from vision.markers import MAT_MARKER_CENTRES, MAT_MARKER_IDS, MAT_MARKER_MM, aruco_modules
from vision.render import CARD_MM, CardArt
from vision.sim.scene import DEFAULT_ZONES, TABLE_MM, Pose, Scene, expected_events, zone_centre
from vision.sim.script import Move

__all__ = ["DEFAULT_ZONES", "RESOLUTIONS", "TABLE_MM", "Effects", "Pose", "SyntheticCamera", "expected_events",
           "table_homography", "zone_centre"]

RESOLUTIONS = {"720p": (1280, 720), "1080p": (1920, 1080)}


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


_NOISE_PAD = 32     # noise fields are this much larger than the frame: each frame takes a shifted window
_MOTION_STEPS = 3   # instants of an exposure averaged for motion blur
_FLICKER_HZ = 3.3   # the beat of a 30 fps exposure against 50 Hz mains light
_DRIFT_PERIOD = 20.0  # seconds of a slow light change across the table
SURFACES = ("felt", "wood", "casino", "cloth")


@dataclass(frozen=True)
class Effects:
    """What makes the picture hard: ``lighting`` (fraction the light falls off across the
    table), ``glare`` (grey levels added at the centre of a glare spot), ``noise`` (sensor noise
    sigma, grey levels), ``blur`` (defocus sigma, image pixels), ``hands`` (hands bring, slide and
    take cards), ``jitter`` (cards land off-centre and rotated), ``motion`` (exposure time in
    seconds: what moves during it is smeared, as a hand or a sliding card is in a real frame) and
    ``flicker`` (the share by which the exposure swings frame to frame, as a webcam's auto
    exposure under mains lighting), ``surface`` (``"felt"``; ``"wood"``: planks with a grain
    that runs across the table, dark streaks and fine pores; ``"casino"``: felt printed with
    pale arcs, boxes and words, as a blackjack table; ``"cloth"``: a woven tablecloth of
    coloured checks with a printed flower) and ``drift`` (the share by which the
    light changes slowly and unevenly over the table, as daylight moving across a room: one side
    brightens while the other dims, over about twenty seconds)."""

    lighting: float = 0.35
    glare: float = 80.0
    noise: float = 4.0
    blur: float = 0.7
    hands: bool = True
    jitter: bool = True
    motion: float = 0.0
    flicker: float = 0.0
    surface: str = "felt"
    drift: float = 0.0

    def __post_init__(self) -> None:
        if self.surface not in SURFACES:
            raise InvalidInput(f"no table surface {self.surface!r}: choose one of {', '.join(SURFACES)}")


def table_homography(resolution: tuple[int, int], view: float = 1.0, tilt: float | None = None) -> np.ndarray:
    """The table-mm to image-px homography of the synthetic camera at ``resolution``: a camera
    above seat 1, tilted so the far edge of the table looks narrower, seeing ``view`` times
    :data:`TABLE_MM` (1.4: a camera hung higher, seeing a 1.26 m wide strip of table).

    ``tilt`` (degrees off vertical) makes it a pinhole camera as far from the table's centre as
    the view is wide, looking at the centre from above seat 1: the near side larger than the
    far one (at 30 degrees a card at the near edge looks 1.6 times as long as one at the far
    edge), the table fitted into the frame, its near edge at the bottom."""
    w, h = resolution
    half_w, half_h = view * TABLE_MM[0] / 2, view * TABLE_MM[1] / 2
    table = np.float32([(-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h)])
    if tilt is None:
        image = np.float32([(0.09 * w, 0.03 * h), (0.91 * w, 0.03 * h), (w - 1, 0.985 * h), (0, 0.985 * h)])
        return cv2.getPerspectiveTransform(table, image)
    a, distance = math.radians(tilt), 2 * half_w
    seen = np.float32([(x / (distance - y * math.sin(a)), y * math.cos(a) / (distance - y * math.sin(a)))
                       for x, y in table])
    span = seen.max(axis=0) - seen.min(axis=0)
    scale = min((w - 1) / span[0], 0.955 * h / span[1])
    image = (seen - [seen[:, 0].mean(), seen[:, 1].max()]) * scale + [(w - 1) / 2, 0.985 * h]
    return cv2.getPerspectiveTransform(table, image.astype(np.float32))


def _map(homography: np.ndarray, points) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, homography).reshape(-1, 2)


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
    surface = {"wood": _wood, "casino": _casino, "cloth": _cloth}.get(effects.surface, _felt)(w, h, rng)
    background = np.clip(surface * gain[:, :, None] + glare[:, :, None], 0, 255).astype(np.uint8)
    pool = []
    for unit in (_unit_noise(resolution) if effects.noise > 0 else ()):
        field = unit * np.float32(effects.noise)
        pool.append((np.clip(field, 0, 255).astype(np.uint8), np.clip(-field, 0, 255).astype(np.uint8)))
    return background, gain, glare, pool


def _felt(w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """Green felt with a soft mottle (BGR, float)."""
    texture = cv2.resize(rng.normal(0, 6, (h // 16 + 1, w // 16 + 1)).astype(np.float32), (w, h))
    return np.float32([40, 105, 45])[None, None, :] + texture[:, :, None]


def _wood(w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """A wooden table top (BGR, float): planks across the table, each its own shade, a grain of
    wavy dark streaks along them, and fine pores: contrast at every scale, as real wood has."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    plank = max(40, h // 6)
    shade = rng.uniform(-18, 18, h // plank + 2).astype(np.float32)[(yy // plank).astype(int)]
    warp = cv2.resize(rng.normal(0, 1, (h // 64 + 2, w // 64 + 2)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    grain = np.sin(yy * 0.45 + 6.0 * warp + 0.002 * xx * (1 + warp)) ** 8 * -38
    pores = cv2.GaussianBlur(rng.normal(0, 10, (h, w)).astype(np.float32), (0, 0), 1.0)
    tone = shade + grain + pores
    return np.float32([70, 115, 165])[None, None, :] + tone[:, :, None] * np.float32([0.6, 0.8, 1.0])[None, None, :]


def _casino(w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """Casino felt (BGR, float): the felt's mottle under printed pale lines (arcs round the
    dealer, the boxes of the places) and words in capitals, as on a blackjack table."""
    felt = _felt(w, h, rng)
    ink = np.zeros((h, w), np.uint8)
    cx, cy = w // 2, int(-0.35 * h)
    for radius in (0.75, 0.95, 1.02):
        cv2.ellipse(ink, (cx, cy), (int(radius * w * 0.6), int(radius * h)), 0, 20, 160, 255, 3, cv2.LINE_AA)
    for k in range(7):
        a = math.radians(35 + k * 110 / 6)
        x, y = int(cx + 0.6 * w * 1.1 * math.cos(a)), int(cy + h * 1.1 * math.sin(a))
        cv2.rectangle(ink, (x - 55, y - 40), (x + 55, y + 40), 255, 2, cv2.LINE_AA)
    words = ("BLACKJACK PAYS 3 TO 2", "DEALER MUST DRAW TO 16 AND STAND ON ALL 17S", "INSURANCE PAYS 2 TO 1")
    for k, text in enumerate(words):
        scale = rng.uniform(1.0, 1.6)
        size = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 2)[0]
        at = (int(cx - size[0] / 2 + rng.uniform(-0.2, 0.2) * w), int(rng.uniform(0.15, 0.9) * h))
        cv2.putText(ink, text, at, cv2.FONT_HERSHEY_DUPLEX, scale, 255, 2, cv2.LINE_AA)
    print_ = cv2.GaussianBlur(ink, (0, 0), 0.8).astype(np.float32)[:, :, None] / 255
    return felt * (1 - 0.8 * print_) + np.float32([150, 200, 210])[None, None, :] * 0.8 * print_


def _cloth(w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """A woven tablecloth (BGR, float): coloured checks in two widths, a fine weave, and a
    printed flower repeated over it."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    step = rng.uniform(40, 90)
    base, band = rng.uniform(60, 200, 3).astype(np.float32), rng.uniform(40, 220, 3).astype(np.float32)
    across = (np.sin(xx * math.pi / step) > 0.3).astype(np.float32)
    down = (np.sin(yy * math.pi / step) > 0.3).astype(np.float32)
    check = (0.5 * across + 0.5 * down)[:, :, None]
    weave = (np.sin(xx * 1.9) * np.sin(yy * 1.9) * 6)[:, :, None]
    cloth = base * (1 - check) + band * check + weave
    flower = tuple(float(c) for c in rng.uniform(30, 230, 3))
    pitch = int(3 * step)
    for y in range(pitch // 2, h, pitch):
        for x in range((y // pitch % 2) * pitch // 2, w, pitch):
            for k in range(5):
                a = 2 * math.pi * k / 5
                centre = (int(x + 12 * math.cos(a)), int(y + 12 * math.sin(a)))
                cv2.ellipse(cloth, centre, (11, 6), math.degrees(a), 0, 360, flower, -1, cv2.LINE_AA)
    return cloth


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
    :param script: the moves (see :func:`vision.sim.script.parse_script`).
    :param resolution: (width, height), or "720p" / "1080p".
    :param zones: zone name to polygon in table mm (default :data:`DEFAULT_ZONES`).
    :param effects: lighting, glare, noise, blur, hands, jitter.
    :param seed: varies jitter, glare position, hands and noise.
    :param mat: draw the calibration mat in the middle of the table.
    :param view: how much table the camera sees, in multiples of :data:`TABLE_MM` (more is a
        higher camera: fewer pixels per marker module).
    :param tilt: degrees the camera looks off vertical (see :func:`table_homography`).
    :param card_image: draws a card's face instead of the printable marked card: called with the
        physical card and pixels per mm, returns a BGR image (a real deck design, for faces).
    :raises InvalidInput: for an unknown deck, card, zone or resolution, or an impossible script
        (see :class:`vision.sim.scene.Scene`).

    What lies where is its :attr:`scene`; :meth:`add`, :meth:`pose_at`, :meth:`cards_at`,
    :meth:`zone_of`, :meth:`hidden`, :meth:`covers` and :meth:`in_clear_view` are the scene's.
    """

    def __init__(self, deck: Deck | str, marker: str, script: list[Move] | tuple = (), *,
                 resolution: tuple[int, int] | str = "1080p", zones: dict | None = None,
                 effects: Effects = Effects(), seed: int = 0, mat: bool = False,
                 view: float = 1.0, tilt: float | None = None, card_image=None) -> None:
        if not 0.5 <= view <= 3.0:
            raise InvalidInput(f"the camera view {view:g} is out of range: give 0.5 to 3 times the table")
        self.deck = deck if isinstance(deck, Deck) else get_deck(deck)
        if isinstance(resolution, str):
            if resolution not in RESOLUTIONS:
                raise InvalidInput(f"no resolution {resolution!r}: choose one of {', '.join(RESOLUTIONS)}")
            resolution = RESOLUTIONS[resolution]
        self.resolution = (int(resolution[0]), int(resolution[1]))
        self.effects, self.seed, self.mat = effects, seed, mat
        self.art = CardArt(self.deck, marker)
        self.card_image = card_image or self.art.card_bgr
        self.homography = table_homography(self.resolution, view, tilt)
        near = _map(self.homography, [(0, TABLE_MM[1] * view / 2), (1, TABLE_MM[1] * view / 2)])
        # The most a card is drawn at: the near edge of a tilted camera's view.
        self._px_per_mm = self.resolution[0] / (view * TABLE_MM[0]) if tilt is None else float(np.linalg.norm(near[1] - near[0]))
        self._sprite_ppm = round(1.4 * self._px_per_mm, 2)
        self._sprites: dict[str, np.ndarray] = {}
        self.scene = Scene(zones, script, deck=self.deck, jitter=effects.jitter, hands=effects.hands, seed=seed,
                           view=view)
        self.zones = self.scene.zones
        self.add, self.pose_at, self.cards_at = self.scene.add, self.scene.pose_at, self.scene.cards_at
        self.zone_of, self.hidden, self.covers = self.scene.zone_of, self.scene.hidden, self.scene.covers
        self.in_clear_view = self.scene.in_clear_view
        self._background, self._gain, self._glare, self._noise = _backdrop(self.resolution, effects, seed % 4)
        if mat:
            self._background = self._background.copy()
            self._draw_mat(self._background)
        self._composites: dict[tuple, np.ndarray] = {}
        self._laid: tuple[tuple, np.ndarray, np.ndarray] | None = None
        self._frames = 0
        self._slope: np.ndarray | None = None

    # -- rendering --------------------------------------------------------------------------

    def frame_at(self, t: float) -> np.ndarray:
        """The BGR frame the camera sees at time ``t`` seconds (a new array each call)."""
        keys = [self.scene.snapshot(t)]
        if self.effects.motion > 0:
            keys += [self.scene.snapshot(t - self.effects.motion * k / (_MOTION_STEPS - 1)) for k in range(1, _MOTION_STEPS)]
        if any(key != keys[0] for key in keys):  # something moved during the exposure: smear it
            total = cv2.add(self._composite(keys[0]), self._composite(keys[1]), dtype=cv2.CV_16U)
            for key in keys[2:]:
                cv2.add(total, self._composite(key), dst=total, dtype=cv2.CV_16U)
            frame = (total // len(keys)).astype(np.uint8)    # the mean, rounded down
        else:
            frame = self._composite(keys[0]).copy()
        if self.effects.drift > 0:
            frame = self._drifted(frame, t)
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

    def _drifted(self, frame: np.ndarray, t: float) -> np.ndarray:
        """``frame`` under light that changes slowly and unevenly: a gain across the table that
        tilts one way, then the other, over :data:`_DRIFT_PERIOD` seconds."""
        if self._slope is None:   # made once
            w, h = self.resolution
            across = np.linspace(-1.0, 1.0, w, dtype=np.float32)[None, :] * 0.8
            down = np.linspace(-1.0, 1.0, h, dtype=np.float32)[:, None] * 0.5
            self._slope = across + down
        swing = self.effects.drift * math.sin(2 * math.pi * t / _DRIFT_PERIOD)
        gain = np.multiply(self._slope, np.float32(swing))
        gain += np.float32(1.0)
        lit = cv2.merge([gain] * 3)             # the gain on each colour, then the light under it, in place
        cv2.multiply(frame, lit, dtype=cv2.CV_32F, dst=lit)
        np.floor(lit, out=lit)
        return cv2.convertScaleAbs(lit)

    def _composite(self, key: tuple) -> np.ndarray:
        """The noiseless picture of a scene, from a small cache (an unchanged scene, or the
        instants of one exposure, are drawn once)."""
        if key not in self._composites:
            if len(self._composites) >= 2 * _MOTION_STEPS:
                del self._composites[next(iter(self._composites))]
            self._composites[key] = self._compose(*key)
        return self._composites[key]

    def _compose(self, cards: tuple, hands: tuple) -> np.ndarray:
        """The table with ``cards`` and ``hands``, defocused. Only the pixels a hand's blur
        reaches are blurred again: each a blur of the sharp picture around it, so the frame is
        the very one a blur of the whole picture gives."""
        sharp, blurred = self._cards_laid(cards)
        if not hands:
            return blurred.copy()
        frame = sharp.copy()
        boxes = [self._draw_hand(frame, x, y, shade) for shade, x, y in hands]
        if self.effects.blur <= 0:
            return frame
        out = blurred.copy()
        reach = math.ceil(4 * self.effects.blur) + 1      # past the kernel's radius (3 sigma for 8-bit pictures)
        h, w = frame.shape[:2]
        for x0, y0, x1, y1 in boxes:
            ix0, iy0, ix1, iy1 = max(x0 - reach, 0), max(y0 - reach, 0), min(x1 + reach, w), min(y1 + reach, h)
            ox0, oy0, ox1, oy1 = max(ix0 - reach, 0), max(iy0 - reach, 0), min(ix1 + reach, w), min(iy1 + reach, h)
            if ix0 < ix1 and iy0 < iy1:
                around = cv2.GaussianBlur(frame[oy0:oy1, ox0:ox1], (0, 0), self.effects.blur)
                out[iy0:iy1, ix0:ix1] = around[iy0 - oy0:iy1 - oy0, ix0 - ox0:ix1 - ox0]
        return out

    def _cards_laid(self, cards: tuple) -> tuple[np.ndarray, np.ndarray]:
        """The table with ``cards`` laid on it before hands and noise, sharp and defocused: kept
        while they lie still (a hand moving over still cards draws none of them again)."""
        if self._laid is None or self._laid[0] != cards:
            frame = self._background.copy()
            for _, card, x, y, angle in cards:
                self._draw_card(frame, card, Pose(x, y, angle))
            blurred = cv2.GaussianBlur(frame, (0, 0), self.effects.blur) if self.effects.blur > 0 else frame
            self._laid = (cards, frame, blurred)
        return self._laid[1], self._laid[2]

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
        # The card of the size its picture's shape names: a poker card, or a narrower bridge card.
        hw, hh = (value / 2 for value in (size_of_shape(sw / sh) or CARD_MM))
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

    def _draw_hand(self, frame: np.ndarray, x: float, y: float, shade: int) -> tuple[int, int, int, int]:
        """Draws a hand whose palm is at table point (``x``, ``y``); returns the box of the
        pixels it may have changed (x0, y0, x1, y1), unclipped."""
        centre = _map(self.homography, [(x, y), (x + 1, y)])
        scale = float(np.linalg.norm(centre[1] - centre[0]))
        cx, cy = centre[0]
        skin = (int(125 + shade), int(160 + shade), int(205 + shade))
        palm = (int(cx), int(cy))
        ellipses = [(palm, (int(52 * scale), int(62 * scale)))]
        ellipses += [((int(cx + dx * scale), int(cy - (70 + 8 * (i % 2)) * scale)), (int(9 * scale), int(30 * scale)))
                     for i, dx in enumerate((-36, -12, 12, 36))]
        for middle, axes in ellipses:
            cv2.ellipse(frame, middle, axes, 0, 0, 360, skin, -1, cv2.LINE_AA)
        shadow = tuple(int(c * 0.85) for c in skin)
        cv2.ellipse(frame, palm, (int(40 * scale), int(48 * scale)), 0, 200, 340, shadow, int(3 * scale), cv2.LINE_AA)
        edge = 2 + int(3 * scale)              # anti-aliasing, and the shadow's width
        return (min(m[0] - a[0] for m, a in ellipses) - edge, min(m[1] - a[1] for m, a in ellipses) - edge,
                max(m[0] + a[0] for m, a in ellipses) + edge + 1, max(m[1] + a[1] for m, a in ellipses) + edge + 1)

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

