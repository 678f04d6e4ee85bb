"""Training and test corners for the corner index model (:mod:`vision.faces.index_reader`):
card corners as the table camera sees them, each labelled with its rank (or "no index") and suit.

Cards come from two sources:

- the KDE card designs Debian installs (:mod:`vision.faces.designs`) whose corners carry a
  standard index (:data:`STANDARD_DESIGNS`; oxygen's three and xskat-german do not);
- cards drawn here (:func:`font_card`): the index of a real deck (rank above suit, now and then
  suit beside rank, in red or black, at the sizes and places real decks print it, now and then
  the French or German letters 1/V/B/D/R), in each font installed here (``fc-list``: DejaVu,
  Liberation, FreeFont and URW's 35, :data:`FONT_PACKAGES`), with a pip or a court card's frame
  beside it, and the same index turned round in the bottom-right corner; jokers, JOKER written
  down the corner (:func:`joker_corners`). In training a :data:`RESHAPE_SHARE` of the glyphs are
  reshaped before they are printed (:func:`_reshaped_ink`: strokes thickened or thinned,
  stretched, sheared, turned, warped), so that the model learns a glyph's topology, not one
  font's style.

Each card is then seen as the camera sees it (:func:`camera_corner`): 150-260 px long at 1080p,
in perspective and turned a little, its outline found a pixel or two off, now and then the next
card of a fan lying over its far side, with lens blur, sensor noise, light falling off, a colour
cast, glare and JPEG; and warped upright as the
recogniser warps it (:func:`vision.faces.features.warp_upright`), the model's corner cut by
:func:`vision.faces.index_reader.corner_input`. Corners with no index (card backs, jokers, the
middle of a card, the table, a corner mostly covered, drawn jokers) are labelled "no index".

The split: :data:`HELD_OUT` designs and :data:`HELD_OUT_FONTS` are never trained on; the
benchmark measures on them. :data:`CALIBRATION_FONTS` are never trained on nor measured on. The
thresholds are calibrated (:func:`calibration_views`, whole cards) on the calibration fonts and on
other views of the held-out designs and fonts (:func:`held_out_views`). Everything is drawn from
seeded generators: the same seed gives the same corners.
"""

from __future__ import annotations

import functools
import subprocess
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.cards import parse_card
from vision.faces.designs import RENDER_WIDTH, element_id, render_card
from vision.faces.features import turned, warp_upright
from vision.faces.index_reader import INPUT, RANKS, SUITS, corner_input

#: The KDE designs whose corners carry a standard index (rank above one of the four suits).
STANDARD_DESIGNS = ("ancient-egyptians", "dondorf", "gm-paris", "jolly-royal", "konqi-modern", "nicu-ornamental",
                    "nicu-white", "penguins", "standard", "tigullio-international", "xskat-french")
#: Designs never trained on: calibrated and measured on (nicu-white with nicu-ornamental, so no
#: design of that family is seen in training).
HELD_OUT = ("gm-paris", "jolly-royal", "nicu-ornamental", "nicu-white", "penguins")
TRAIN_DESIGNS = tuple(d for d in STANDARD_DESIGNS if d not in HELD_OUT)
#: Designs whose corners show no standard index: every corner of theirs is "no index".
NON_STANDARD = ("oxygen", "oxygen-air", "oxygen-white", "xskat-german")
#: Fonts never trained on (their file names): a bold serif of DejaVu's and URW's Century Schoolbook.
HELD_OUT_FONTS = ("DejaVuSerif-Bold.ttf", "C059-Bold.otf")
#: Fonts never trained on nor measured on: the thresholds are calibrated on them (besides other
#: views of the held-out designs and fonts): URW's Bookman Demi (a bold serif) and Gothic Demi (a
#: geometric sans).
CALIBRATION_FONTS = ("URWBookman-Demi.otf", "URWGothic-Demi.otf")
#: The Debian packages of the fonts cards are drawn in (deploy/system_packages.sh installs them).
FONT_PACKAGES = ("fonts-dejavu-core", "fonts-dejavu-extra", "fonts-liberation", "fonts-freefont-ttf", "fonts-urw-base35")
#: Fonts that draw symbols where letters are asked for, or no index a deck prints.
_NOT_INDEX_FONTS = ("Math", "Symbol", "D050000L")
#: Label of the rank head for "no index here".
NONE_RANK = len(RANKS) - 1
CARD_SIZE = (RENDER_WIDTH, round(RENDER_WIDTH * 88 / 63))
_SUIT_GLYPHS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
#: The letters real decks print for the ace and the court cards, besides A, J, Q, K.
_FOREIGN = {"A": ("1",), "J": ("V", "B"), "Q": ("D",), "K": ("R",)}
_RED = {"H", "D"}
#: The "rank" :func:`font_card` draws a joker for.
JOKER = "joker"


@dataclass(frozen=True)
class View:
    """One card as the camera sees it, warped upright (:data:`vision.faces.features.UPRIGHT`
    px, BGR), with the card it shows (None: no index there) and where it came from."""

    upright: np.ndarray
    card: str | None
    source: str


@dataclass(frozen=True)
class Corner:
    """One sample: the model's input (``INPUT`` height x width, float32), its rank label (an
    index of :data:`RANKS`), its suit label (of :data:`SUITS`; -1 for no index), and where it
    came from (a design or a font file)."""

    pixels: np.ndarray
    rank: int
    suit: int
    source: str


@functools.lru_cache(maxsize=1)
def _installed_fonts() -> tuple[Path, ...]:
    """The font files installed here (``fc-list``) that draw the ranks (A, J, Q, K, D, R, V, B,
    the digits) and the four suit symbols, TrueType or OpenType."""
    listed = subprocess.run(["fc-list", ":charset=30-39 41 42 44 4a 4b 51 52 56 2660 2663 2665 2666", "file"],
                            capture_output=True, text=True, check=False).stdout
    files = sorted({Path(line.split(":")[0]) for line in listed.splitlines() if line.strip()})
    return tuple(f for f in files if f.suffix.lower() in (".ttf", ".otf") and not any(n in f.name for n in _NOT_INDEX_FONTS))


def fonts(held_out: bool = False, *, calibration: bool = False) -> list[Path]:
    """The font files installed here that draw an index (:func:`_installed_fonts`), less the
    held-out and the calibration fonts (the training fonts); or only the held-out ones; or
    (``calibration``) only the calibration ones."""
    if calibration:
        return [f for f in _installed_fonts() if f.name in CALIBRATION_FONTS]
    if held_out:
        return [f for f in _installed_fonts() if f.name in HELD_OUT_FONTS]
    return [f for f in _installed_fonts() if f.name not in HELD_OUT_FONTS + CALIBRATION_FONTS]


def _suit_fonts() -> list[Path]:
    """The fonts :func:`drawn_card` draws a suit symbol in by default (every font but the
    held-out ones: the benchmark's cards as they were drawn before the calibration fonts were
    set apart)."""
    return [f for f in _installed_fonts() if f.name not in HELD_OUT_FONTS]


@functools.lru_cache(maxsize=256)
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


#: The share of glyphs of a training card drawn reshaped (:func:`_reshaped_ink`).
RESHAPE_SHARE = 0.6
#: The font size a reshaped glyph is drawn at before it is shrunk to its height.
_RESHAPE_SIZE = 96


def _glyph(text: str, font: Path, height: int, colour: tuple[int, int, int], squeeze: float, bold: int = 0,
           reshape: np.random.Generator | None = None) -> np.ndarray:
    """``text`` drawn in ``font`` ``height`` pixels tall (its ink), ``squeeze`` times as wide,
    its strokes ``bold`` pixels thicker (at 1.5 times its height): an RGBA image cropped to its ink.
    With ``reshape`` (a generator) a :data:`RESHAPE_SHARE` of glyphs are drawn reshaped
    (:func:`_reshaped_ink`); without it no random number is drawn."""
    size = max(int(height * 1.5), 8)
    if reshape is not None and reshape.random() < RESHAPE_SHARE:
        ink = _reshaped_ink(text, font, round(bold * _RESHAPE_SIZE / size), reshape)
    else:
        face = _font(str(font), size)
        left, top, right, bottom = face.getbbox(text, stroke_width=bold)
        image = Image.new("L", (right - left + 4, bottom - top + 4), 0)
        ImageDraw.Draw(image).text((2 - left, 2 - top), text, font=face, fill=255, stroke_width=bold, stroke_fill=255)
        ink = np.asarray(image)
    ys, xs = np.nonzero(ink > 20)
    if len(xs) == 0:
        return np.zeros((height, height // 2, 4), np.uint8)
    ink = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    w = max(1, round(ink.shape[1] * height / ink.shape[0] * squeeze))
    ink = cv2.resize(ink, (w, height), interpolation=cv2.INTER_AREA)
    rgba = np.zeros((*ink.shape, 4), np.uint8)
    rgba[..., :3], rgba[..., 3] = colour, ink
    return rgba


def _reshaped_ink(text: str, font: Path, bold: int, rng: np.random.Generator) -> np.ndarray:
    """``text`` drawn big in ``font`` (grey ink on black, uncropped), its shape changed as other
    fonts change it while its topology stays: strokes thickened or thinned (its outline moved
    out or in along the signed distance to it, thinning by at most 0.4 of the thickest stroke's
    half width, so no stroke breaks; thickening by at most 4 % of its height, so no counter
    closes), stretched wider or narrower, sheared (slanted either way), turned a little, and
    warped by a smooth random field (the curves of another font's hand)."""
    face = _font(str(font), _RESHAPE_SIZE)
    left, top, right, bottom = face.getbbox(text, stroke_width=bold)
    tall = max(bottom - top, 1)
    pad = _RESHAPE_SIZE // 2
    image = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    ImageDraw.Draw(image).text((pad - left, pad - top), text, font=face, fill=255, stroke_width=bold, stroke_fill=255)
    inside = (np.asarray(image) > 127).astype(np.uint8)
    depth = cv2.distanceTransform(inside, cv2.DIST_L2, 5)
    signed = depth - cv2.distanceTransform(1 - inside, cv2.DIST_L2, 5)
    stem = float(depth.max())  # half the thickest stroke's width
    move = rng.uniform(-0.4 * stem, min(0.8 * stem, 0.04 * tall))
    ink = np.clip(signed + move + 0.5, 0, 1).astype(np.float32)
    h, w = ink.shape
    stretch = np.exp(rng.uniform(np.log(0.8), np.log(1.25)))
    shear = rng.uniform(-0.25, 0.25)
    angle = np.radians(rng.uniform(-4, 4))
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    linear = rot @ np.array([[stretch, -shear], [0.0, 1.0]])
    centre = np.array([w / 2, h / 2])
    affine = np.hstack([linear, (centre - linear @ centre)[:, None]]).astype(np.float32)
    ink = cv2.warpAffine(ink, affine, (w, h), flags=cv2.INTER_LINEAR, borderValue=0)
    amplitude = rng.uniform(0, 0.035) * tall
    field = [cv2.resize(rng.normal(0, amplitude, (4, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
             for _ in range(2)]
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    ink = cv2.remap(ink, xs + field[0], ys + field[1], cv2.INTER_LINEAR, borderValue=0)
    return (ink * 255).astype(np.uint8)


def _paste(card: np.ndarray, glyph: np.ndarray, x: int, y: int) -> None:
    """Lay ``glyph`` (RGBA) on ``card`` (BGR) with its top-left at x, y (clipped to the card)."""
    h, w = glyph.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, card.shape[1]), min(y + h, card.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    part = glyph[y0 - y:y1 - y, x0 - x:x1 - x]
    alpha = part[..., 3:4].astype(np.float32) / 255
    bgr = part[..., 2::-1].astype(np.float32)
    card[y0:y1, x0:x1] = (card[y0:y1, x0:x1] * (1 - alpha) + bgr * alpha).astype(np.uint8)


def font_card(rank: str, suit: str | None, font: Path, rng: np.random.Generator, suit_font: Path | None = None, *,
              reshape: bool = False) -> np.ndarray:
    """A card face (BGR, :data:`CARD_SIZE`) with the index of ``rank`` ``suit`` in its top-left
    corner and, turned round, its bottom-right, laid out as a real deck's (the suit below the
    rank, now and then beside it), in ``font`` (the suit symbol in ``suit_font``, default the same).
    ``rank`` :data:`JOKER` (no suit) draws a joker: the word where the index would be (:func:`_joker_index`).
    With ``reshape`` (training) the index's glyphs are now and then reshaped (:func:`_glyph`);
    without it the card is drawn as before (the same random numbers drawn)."""
    w, h = CARD_SIZE
    paper = rng.uniform(225, 255) - rng.uniform(0, 18, 3) * (rng.random() < 0.3)
    card = np.empty((h, w, 3), np.uint8)
    card[:] = np.clip(paper, 0, 255).astype(np.uint8)
    if suit in _RED or (suit is None and rng.random() < 0.5):
        colour = tuple(int(v) for v in (rng.uniform(150, 235), rng.uniform(0, 40), rng.uniform(0, 50)))
    else:
        dark = rng.uniform(0, 50)
        colour = (int(dark), int(dark), int(dark + rng.uniform(0, 30) * (rng.random() < 0.2)))
    index = card.copy()
    shapes = rng if reshape else None
    if rank == JOKER:
        _joker_index(index, font, colour, rng, shapes)
    else:
        _index(index, rank, suit, font, suit_font, colour, rng, shapes)
    # The index, and the same turned round in the bottom-right corner (the card's two halves).
    card[:h // 2] = index[:h // 2]
    card[h - h // 2:] = index[:h // 2][::-1, ::-1]
    _decorate(card, suit, rank, font, colour, rng)
    if rng.random() < 0.4:  # a border printed around the face
        inset = int(w * rng.uniform(0.015, 0.04))
        cv2.rectangle(card, (inset, inset), (w - inset, h - inset), colour if rng.random() < 0.5 else (40, 40, 40),
                      int(rng.integers(1, 3)))
    return card


def _place(rng: np.random.Generator) -> tuple[float, int]:
    """Where an index is printed: its centre line from the card's left edge, and its top (px)."""
    return CARD_SIZE[0] * rng.uniform(0.065, 0.15), int(CARD_SIZE[1] * rng.uniform(0.02, 0.06))


def _index(index: np.ndarray, rank: str, suit: str, font: Path, suit_font: Path | None, colour,
           rng: np.random.Generator, reshape: np.random.Generator | None = None) -> None:
    """Print a card's index on ``index`` (a face, BGR): the rank (now and then a foreign letter),
    the suit symbol below it (now and then beside it)."""
    w, h = CARD_SIZE
    text = rank
    if rank in _FOREIGN and rng.random() < 0.2:
        text = str(rng.choice(_FOREIGN[rank]))
    rank_h = int(h * np.exp(rng.uniform(np.log(0.055), np.log(0.18))))  # small indices as often as big ones
    squeeze = rng.uniform(0.55, 0.8) if text == "10" else rng.uniform(0.75, 1.15)
    bold = int(rng.integers(1, 3)) if rng.random() < 0.2 else 0
    label = _glyph(text, font, rank_h, colour, squeeze, bold, reshape)
    pip_h = int(min(rank_h * rng.uniform(0.5, 0.95), h * 0.13))
    pip = _glyph(_SUIT_GLYPHS[suit], suit_font or font, pip_h, colour, rng.uniform(0.85, 1.15), reshape=reshape)
    column, top = _place(rng)
    if rng.random() < 0.15:  # the suit beside the rank
        left = int(max(column - label.shape[1] / 2, 2))
        _paste(index, label, left, top)
        _paste(index, pip, left + label.shape[1] + int(w * rng.uniform(0.0, 0.03)), top + int(rng.uniform(0, 0.3) * rank_h))
    else:
        _paste(index, label, int(column - label.shape[1] / 2), top)
        _paste(index, pip, int(column - pip.shape[1] / 2), top + rank_h + int(h * rng.uniform(0.0, 0.03)))


def _joker_index(index: np.ndarray, font: Path, colour, rng: np.random.Generator,
                 reshape: np.random.Generator | None = None) -> None:
    """Print a joker's word where a card prints its index, as real decks do: J, O, K, E, R one
    above the other (Bicycle's, nicu's), now and then the word turned to run down the card."""
    column, top = _place(rng)
    size = int(CARD_SIZE[1] * rng.uniform(0.035, 0.075))
    if rng.random() < 0.25:
        word = np.ascontiguousarray(np.rot90(_glyph("JOKER", font, size, colour, rng.uniform(0.8, 1.1), reshape=reshape), -1))
        _paste(index, word, int(column - word.shape[1] / 2), top)
        return
    gap = int(size * rng.uniform(0.1, 0.4))
    for letter in "JOKER":
        glyph = _glyph(letter, font, size, colour, rng.uniform(0.8, 1.15), reshape=reshape)
        _paste(index, glyph, int(column - glyph.shape[1] / 2), top)
        top += size + gap


def _decorate(card: np.ndarray, suit: str | None, rank: str, font: Path, colour, rng: np.random.Generator) -> None:
    """What lies beside the index on a real card: a pip of a number card, or a court card's (or a joker's) frame."""
    w, h = CARD_SIZE
    if rank in ("J", "Q", "K", JOKER) and rng.random() < 0.8:
        x0, y0 = int(w * rng.uniform(0.2, 0.3)), int(h * rng.uniform(0.08, 0.18))
        cv2.rectangle(card, (x0, y0), (w - x0, h - y0), colour, int(rng.integers(1, 4)))
        art = rng.integers(0, 255, (6, 4, 3)).astype(np.uint8)
        inside = cv2.resize(art, (w - 2 * x0 - 8, h - 2 * y0 - 8), interpolation=cv2.INTER_CUBIC)
        card[y0 + 4:h - y0 - 4, x0 + 4:w - x0 - 4] = inside
    elif suit is not None and rank not in ("J", "Q", "K") and rng.random() < 0.8:
        size = int(h * rng.uniform(0.09, 0.14))
        pip = _glyph(_SUIT_GLYPHS[suit], font, size, colour, 1.0)
        _paste(card, pip, int(w * rng.uniform(0.22, 0.3)), int(h * rng.uniform(0.1, 0.2)))


def _table(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A patch of table (felt, wood or cloth), BGR."""
    base = rng.uniform(20, 200, 3)
    noise = cv2.resize(rng.normal(0, rng.uniform(3, 25), (max(shape[0] // 8, 2), max(shape[1] // 8, 2), 3)),
                       (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
    return np.clip(base + noise, 0, 255).astype(np.uint8)


def camera_corner(card: np.ndarray, rng: np.random.Generator, *, cover: bool = False, fan: bool = False) -> np.ndarray:
    """The model's input for the top-left corner of ``card`` (a BGR face of any size) seen by the
    table camera (the module docstring): ``cover`` lays something (another card, a hand) over
    most of the corner, ``fan`` the next card of a fan over the card's far side (the index shows)."""
    return corner_input(camera_upright(card, rng, cover=cover, fan=fan, whole=False))


def camera_upright(card: np.ndarray, rng: np.random.Generator, *, cover: bool = False, fan: bool = False,
                   whole: bool = True, length: float | None = None) -> np.ndarray:
    """``card`` (a BGR face of any size) as the table camera sees it, ``length`` px long (default
    150-260 at random), warped upright as the recogniser warps it (:data:`vision.faces.features.UPRIGHT` px); with
    ``whole`` False only its top-left part is drawn (the rest repeats its edge); ``cover`` and
    ``fan`` as :func:`camera_corner`'s."""
    length = rng.uniform(150, 260) if length is None else length
    w, h = length * 63 / 88, length
    margin = 12
    tilt = rng.uniform(-0.05, 0.05, (4, 2)) * (w, h)  # perspective and the outline of a camera off vertical
    angle = np.radians(rng.uniform(-8, 8))
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    rect = np.float32([(0, 0), (w, 0), (w, h), (0, h)]) + tilt
    centre = np.float32([w / 2, h / 2])
    quad = ((rect - centre) @ rot.T + centre + margin).astype(np.float32)
    # Only the corner's part of the picture is read: unless ``whole``, the picture is made that far alone.
    reach = quad.max(axis=0) + margin if whole else np.repeat((quad[0] + 0.5 * (quad[2] - quad[0])).max() + margin, 2)
    size = (int(reach[0]), int(reach[1]))
    src = np.float32([(0, 0), (card.shape[1], 0), (card.shape[1], card.shape[0]), (0, card.shape[0])])
    view = _table((size[1], size[0]), rng)
    cv2.warpPerspective(card, cv2.getPerspectiveTransform(src, quad), size, dst=view,
                        flags=cv2.INTER_AREA, borderMode=cv2.BORDER_TRANSPARENT)
    if cover:
        _cover(view, quad, rng)
    if fan:
        _fan_cover(view, quad, rng)
    view = _camera(view, quad, rng)
    found = quad + np.clip(rng.normal(0, 1.0, (4, 2)), -2.5, 2.5).astype(np.float32)  # the outline a pixel or two off
    return warp_upright(view, found)


def _cover(view: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> None:
    """Lay a card or a hand over most of the top-left corner of the card in ``quad``."""
    corner = quad[0]
    along, down = quad[1] - quad[0], quad[3] - quad[0]
    reach = rng.uniform(0.35, 0.6)
    start = corner - 0.2 * along - 0.2 * down
    poly = np.float32([start, start + (reach + 0.2) * along + rng.uniform(-0.1, 0.1) * down,
                       start + (reach + 0.2) * (along + down), start + (reach + 0.2) * down]).astype(np.int32)
    colour = (rng.uniform(60, 200), rng.uniform(90, 210), rng.uniform(140, 240)) if rng.random() < 0.5 \
        else tuple(rng.uniform(200, 255, 3))
    cv2.fillConvexPoly(view, poly, tuple(float(c) for c in colour))


def _fan_cover(view: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> None:
    """Lay the next card of a fan over the far side of the card in ``quad``: its edge crosses the
    card slanted, right of where any index is printed (0.38 of the card's width or more across
    the index's height), with a thin shadow along it."""
    top_x = rng.uniform(0.4, 0.75)
    slant = rng.uniform(-0.3, 0.3)  # across the card's width, per card height
    bottom_x = top_x + slant
    if top_x + 0.5 * slant < 0.38:
        bottom_x = top_x
    corners = np.float32([(top_x, -0.1), (1.3, -0.1), (1.3, 1.1), (bottom_x, 1.1)])
    to_view = cv2.getPerspectiveTransform(np.float32([(0, 0), (1, 0), (1, 1), (0, 1)]), quad.astype(np.float32))
    poly = cv2.perspectiveTransform(corners[None], to_view)[0]
    shade = tuple(float(c) for c in rng.uniform(20, 80, 3))
    cv2.polylines(view, [np.round(poly[[0, 3]] - (2, 0)).astype(np.int32)], False, shade, int(rng.integers(1, 3)))
    cv2.fillConvexPoly(view, np.round(poly).astype(np.int32), tuple(float(c) for c in rng.uniform(190, 255, 3)))
    edge = np.round(poly[[0, 3]]).astype(np.int32)
    if rng.random() < 0.6:  # the next card's printed border or its index, near its edge
        inset = (quad[1] - quad[0]) * rng.uniform(0.03, 0.08)
        cv2.polylines(view, [np.round(poly[[0, 3]] + inset).astype(np.int32)], False,
                      tuple(float(c) for c in rng.uniform(0, 200, 3)), int(rng.integers(1, 3)))
    cv2.polylines(view, [edge], False, tuple(float(c) for c in rng.uniform(120, 200, 3)), 1)


def _camera(view: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A real camera's picture of ``view``: light falling off, a colour cast, glare, lens and
    motion blur, sensor noise and JPEG."""
    h, w = view.shape[:2]
    image = view.astype(np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    slope = rng.uniform(-0.4, 0.4, 2) / np.float32([w, h])
    light = rng.uniform(0.55, 1.15) * (1 + slope[0] * (xs - w / 2) + slope[1] * (ys - h / 2))
    image *= light[..., None] * rng.uniform(0.85, 1.15, 3)
    if rng.random() < 0.3:  # glare: a bright soft spot, often over the corner
        cx, cy = quad[0] + rng.uniform(-10, 60, 2)
        radius = rng.uniform(8, 40)
        spot = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * radius ** 2))
        image += spot[..., None] * rng.uniform(40, 160)
    sigma = rng.uniform(0, 1.5)
    if sigma > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    if rng.random() < 0.15:  # a little motion
        length = int(rng.integers(2, 5))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        image = cv2.filter2D(image, -1, cv2.warpAffine(kernel, rot, (length, length)))
    image += rng.normal(0, rng.uniform(0, 9), image.shape)
    image = np.clip(image, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 95))])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def _card_label(rank: str, suit: str) -> tuple[int, int]:
    return RANKS.index(rank), SUITS.index(suit)


def _faces():
    for suit in SUITS:
        for rank in RANKS[:-1]:
            yield rank, suit


@functools.lru_cache(maxsize=1024)
def _design_card(design: str, rank: str, suit: str) -> np.ndarray:
    return render_card(design, element_id(parse_card(rank + suit)))


#: The share of training corners with the next card of a fan over the card's far side.
FAN_SHARE = 0.15
#: The share of a design's training corners drawn with its index bigger (:func:`zoomed`).
ZOOM_SHARE = 0.3


def zoomed(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``face`` with its top-left part blown up to the whole card, 1 to 1.5 times: the index
    bigger and further in, as decks with big indices print it (only the top-left corner is read)."""
    h, w = face.shape[:2]
    zoom = rng.uniform(1.0, 1.5)
    return cv2.resize(face[:round(h / zoom), :round(w / zoom)], (w, h), interpolation=cv2.INTER_LINEAR)


def design_corners(designs, per_card: int, rng: np.random.Generator, *, cover_share: float = 0.0) -> list[Corner]:
    """``per_card`` camera corners of each of the 52 cards of each design; a ``cover_share`` of
    them mostly covered (labelled no index), a :data:`FAN_SHARE` under the next card of a fan, a
    :data:`ZOOM_SHARE` with the index bigger."""
    out = []
    for design in designs:
        for rank, suit in _faces():
            card = _design_card(design, rank, suit)
            for _ in range(per_card):
                covered = rng.random() < cover_share
                r, s = (NONE_RANK, -1) if covered else _card_label(rank, suit)
                face = zoomed(card, rng) if rng.random() < ZOOM_SHARE else card
                out.append(Corner(camera_corner(face, rng, cover=covered, fan=rng.random() < FAN_SHARE), r, s, design))
    return out


def drawn_card(rank: str, suit: str, font: Path, rng: np.random.Generator, *, reshape: bool = False,
               suit_fonts: list[Path] | None = None) -> np.ndarray:
    """:func:`font_card`, its suit symbol now and then in another of ``suit_fonts`` (default
    :func:`_suit_fonts`); ``reshape`` as :func:`font_card`'s."""
    every = _suit_fonts() if suit_fonts is None else suit_fonts
    suit_font = font if rng.random() < 0.5 or not every else every[int(rng.integers(len(every)))]
    return font_card(rank, suit, font, rng, suit_font, reshape=reshape)


def font_corners(font_files, per_card: int, rng: np.random.Generator) -> list[Corner]:
    """``per_card`` camera corners of each of the 52 cards drawn in each font (each drawn afresh:
    its layout, colours and decoration differ every time, its glyphs now and then reshaped, the
    suit symbol now and then in another training font), a :data:`FAN_SHARE` under a fan's next card."""
    out, every = [], fonts()
    for font in font_files:
        for rank, suit in _faces():
            for _ in range(per_card):
                card = drawn_card(rank, suit, font, rng, reshape=True, suit_fonts=every)
                out.append(Corner(camera_corner(card, rng, fan=rng.random() < FAN_SHARE), *_card_label(rank, suit), font.name))
    return out


def joker_corners(font_files, per_font: int, rng: np.random.Generator) -> list[Corner]:
    """``per_font`` jokers drawn in each font (JOKER down the corner, :func:`_joker_index`, its
    letters now and then reshaped), labelled no index, a :data:`FAN_SHARE` under a fan's next card."""
    out = []
    for font in font_files:
        for _ in range(per_font):
            card = font_card(JOKER, None, font, rng, reshape=True)
            out.append(Corner(camera_corner(card, rng, fan=rng.random() < FAN_SHARE), NONE_RANK, -1, font.name))
    return out


def no_index_corners(designs, count: int, rng: np.random.Generator) -> list[Corner]:
    """``count`` corners that show no index: backs and jokers of ``designs``, every card of a
    design without a standard index, the middle of a card turned into the corner's place, and
    bare table."""
    sources = [render_card(d, e) for d in designs for e in ("back", "red_joker", "black_joker") if _has(d, e)]
    out = []
    for i in range(count):
        kind = i % 4
        if kind == 0 and sources:
            card = sources[int(rng.integers(len(sources)))]
        elif kind == 1:  # the middle of a card, where the corner would be
            design = designs[int(rng.integers(len(designs)))]
            rank, suit = RANKS[int(rng.integers(13))], SUITS[int(rng.integers(4))]
            face = _design_card(design, rank, suit)
            fh, fw = face.shape[:2]
            x, y = int(rng.uniform(0.25, 0.5) * fw), int(rng.uniform(0.25, 0.5) * fh)
            card = cv2.resize(face[y:, x:], (fw, fh))
        elif kind == 2:  # a blank card, or a card with only a faint border
            card = np.full((CARD_SIZE[1], CARD_SIZE[0], 3), int(rng.uniform(200, 255)), np.uint8)
            if rng.random() < 0.5:
                inset = int(rng.integers(4, 20))
                cv2.rectangle(card, (inset, inset), (CARD_SIZE[0] - inset, CARD_SIZE[1] - inset),
                              tuple(float(c) for c in rng.uniform(0, 200, 3)), int(rng.integers(1, 4)))
        else:
            card = _table((CARD_SIZE[1], CARD_SIZE[0]), rng)
        out.append(Corner(camera_corner(card, rng), NONE_RANK, -1, "no index"))
    return out


def non_standard_corners(designs, per_card: int, rng: np.random.Generator) -> list[Corner]:
    """Camera corners of designs without a standard index, all labelled no index."""
    out = []
    for design in designs:
        for rank, suit in _faces():
            card = _design_card(design, rank, suit)
            out.extend(Corner(camera_corner(card, rng), NONE_RANK, -1, design) for _ in range(per_card))
    return out


def training_set(seed: int = 1, *, per_design_card: int = 20, per_font_card: int = 3, jokers_per_font: int = 20,
                 no_index: int = 6000) -> list[Corner]:
    """The training corners: the training designs, every training font (:func:`fonts`: not the
    held-out nor the calibration ones), jokers drawn in them, corners with no index (of the
    training designs and two of the non-standard ones)."""
    rng = np.random.default_rng(seed)
    return (design_corners(TRAIN_DESIGNS, per_design_card, rng, cover_share=0.08)
            + font_corners(fonts(), per_font_card, rng)
            + no_index_corners(TRAIN_DESIGNS, no_index, rng)
            + non_standard_corners(("oxygen", "xskat-german"), 2, rng)
            + joker_corners(fonts(), jokers_per_font, rng))


def held_out_views(seed: int, per_card: int = 6) -> list[View]:
    """Whole cards nobody trained on, as the camera sees them: ``per_card`` views of each card of
    the held-out designs and fonts, and views that show no index (backs and jokers of the
    held-out designs, blank cards, bare table, the cards of the non-standard designs not trained on)."""
    rng = np.random.default_rng(seed)
    out = []
    for source in HELD_OUT + tuple(f.name for f in fonts(held_out=True)):
        out.extend(View(camera_upright(card, rng), card_id, source) for card_id, card in source_cards(source, per_card, rng))
    backs = [render_card(d, e) for d in HELD_OUT for e in ("back", "red_joker", "black_joker") if _has(d, e)]
    for i in range(52 * per_card // 2):
        if i % 3 == 0:
            card = backs[int(rng.integers(len(backs)))]
        elif i % 3 == 1:
            card = np.full((CARD_SIZE[1], CARD_SIZE[0], 3), int(rng.uniform(200, 255)), np.uint8)
        else:
            card = _table((CARD_SIZE[1], CARD_SIZE[0]), rng)
        out.append(View(camera_upright(card, rng), None, "no index"))
    for design in ("oxygen-air", "oxygen-white"):
        out.extend(View(camera_upright(card, rng), None, design) for _, card in source_cards(design, max(per_card // 3, 1), rng))
    return out


def calibration_views(seed: int, per_card: int = 6) -> list[View]:
    """The views the thresholds are calibrated on: :func:`held_out_views` and, drawn after them,
    ``per_card`` views of each card drawn in each calibration font (:data:`CALIBRATION_FONTS`,
    never trained on nor measured on) and as many jokers drawn in them as a font has cards."""
    out = held_out_views(seed, per_card)
    rng = np.random.default_rng([seed, 1])
    for font in fonts(calibration=True):
        out.extend(View(camera_upright(card, rng), card_id, font.name) for card_id, card in source_cards(font.name, per_card, rng))
        out.extend(View(camera_upright(font_card(JOKER, None, font, rng), rng), None, "jokers")
                   for _ in range(52 * per_card // 4))
    return out


#: The source of :func:`source_cards` that gives jokers nobody trained on: the held-out designs'
#: and jokers drawn in the held-out fonts.
JOKERS = "jokers"


def source_cards(source: str, per_card: int, rng: np.random.Generator):
    """(card id, face) pairs: each of the 52 cards of ``source`` (a design, or a font file's
    name: drawn afresh each time) ``per_card`` times; for :data:`JOKERS`, as many jokers (card id None)."""
    drawn = {f.name: f for f in _installed_fonts()}
    if source == JOKERS:
        designed = [render_card(d, e) for d in HELD_OUT for e in ("red_joker", "black_joker") if _has(d, e)]
        held = fonts(held_out=True)
        for n in range(52 * per_card):
            yield None, designed[n % len(designed)] if n % 2 else font_card(JOKER, None, held[n // 2 % len(held)], rng)
        return
    for rank, suit in _faces():
        for _ in range(per_card):
            face = drawn_card(rank, suit, drawn[source], rng) if source in drawn else _design_card(source, rank, suit)
            yield rank + suit, face


def _has(design: str, element: str) -> bool:
    try:
        render_card(design, element)
    except Exception:  # a design without jokers
        return False
    return True


def view_corners(views: list[View]) -> tuple[np.ndarray, np.ndarray]:
    """The model's inputs for both index corners of each view (2n x height x width: as laid,
    then turned round, view by view) and each corner's label (the card id, or None)."""
    pixels = np.stack([corner_input(u) for v in views for u in (v.upright, turned(v.upright))])
    return pixels.astype(np.float32), np.array([v.card for v in views for _ in range(2)], dtype=object)


def arrays(corners: list[Corner]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Inputs (n x 1 x height x width), rank labels and suit labels of ``corners``."""
    pixels = np.stack([c.pixels for c in corners]).reshape(-1, 1, INPUT[1], INPUT[0]).astype(np.float32)
    return pixels, np.array([c.rank for c in corners]), np.array([c.suit for c in corners])


if __name__ == "__main__":  # a contact sheet of samples, to look at
    import sys

    samples = training_set(int(sys.argv[1]) if len(sys.argv) > 1 else 1, per_design_card=1, per_font_card=1, no_index=40)
    rng = np.random.default_rng(0)
    picked = [samples[i] for i in rng.choice(len(samples), 160, replace=False)]
    tiles = [cv2.cvtColor(np.clip(c.pixels * 50 + 128, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR) for c in picked]
    for tile, c in zip(tiles, picked):
        cv2.putText(tile, f"{RANKS[c.rank] or '-'}{SUITS[c.suit] if c.suit >= 0 else ''}", (1, INPUT[1] - 3),
                    cv2.FONT_HERSHEY_PLAIN, 0.7, (0, 0, 255), 1)
    rows = [np.hstack(tiles[i:i + 20]) for i in range(0, len(tiles), 20)]
    cv2.imwrite("corner_samples.png", cv2.resize(np.vstack(rows), None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST))
    print(f"{len(samples)} corners; corner_samples.png")
