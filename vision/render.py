"""The card renderer: one drawing of each physical card, used by the printable PDF and by the
synthetic camera, so the cameras in the tests see exactly what a user prints.

Geometry (millimetres): a poker-size card, 63 x 88 mm with 3 mm rounded corners; the marker symbol
is 42 mm square in the centre (a QR version 1 symbol has 2 mm modules; an ArUco 4x4 marker has
7 mm cells), leaving 8 mm of white around it (at least four QR modules of quiet zone); a large
corner index (rank then suit, 11 mm tall) top left and, upside down, bottom right; the card id in
small type top right. A sticker is the marker alone at 36 mm with its quiet zone and the id.
"""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.cards import Card
from engine.decks import ITS15_COLOURS, Deck, ItsFace, PhysicalCard, get_deck
from vision.markers import marker_modules

CARD_MM = (63.0, 88.0)
CARD_CORNER_MM = 3.0
CARD_MARKER_MM = 42.0
INDEX_HEIGHT_MM = 11.0
STICKER_MARKER_MM = 36.0
STICKER_QUIET_MM = 3.5
STICKER_TEXT_MM = 5.0
STICKER_MM = (STICKER_MARKER_MM + 2 * STICKER_QUIET_MM, STICKER_MARKER_MM + 2 * STICKER_QUIET_MM + STICKER_TEXT_MM)

_RED, _BLACK = (200, 20, 30), (15, 15, 15)
_ITS_COLOURS = {"B": (120, 72, 30), "G": (20, 125, 50)}
_PLAYER_RGB = {"R": (205, 30, 35), "B": (30, 70, 190), "Y": (215, 170, 0), "P": (120, 40, 150), "O": (230, 110, 10)}
assert set(_PLAYER_RGB) == set(ITS15_COLOURS)


@functools.cache
def _font(px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=max(px, 6))


def _draw_suit(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, size: float, fill) -> None:
    """Draw a suit symbol ``size`` px tall centred on (cx, cy) from circles and polygons, so no
    font with suit glyphs is needed."""
    s = size / 2

    def circle(x: float, y: float, r: float) -> None:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)

    if suit == "D":
        draw.polygon([(cx, cy - s), (cx + 0.72 * s, cy), (cx, cy + s), (cx - 0.72 * s, cy)], fill=fill)
    elif suit == "H":
        circle(cx - 0.45 * s, cy - 0.4 * s, 0.52 * s)
        circle(cx + 0.45 * s, cy - 0.4 * s, 0.52 * s)
        draw.polygon([(cx - 0.95 * s, cy - 0.25 * s), (cx + 0.95 * s, cy - 0.25 * s), (cx, cy + s)], fill=fill)
    elif suit == "S":
        circle(cx - 0.45 * s, cy + 0.2 * s, 0.5 * s)
        circle(cx + 0.45 * s, cy + 0.2 * s, 0.5 * s)
        draw.polygon([(cx - 0.93 * s, cy + 0.08 * s), (cx + 0.93 * s, cy + 0.08 * s), (cx, cy - s)], fill=fill)
        draw.polygon([(cx, cy + 0.2 * s), (cx + 0.4 * s, cy + s), (cx - 0.4 * s, cy + s)], fill=fill)
    elif suit == "C":
        circle(cx, cy - 0.5 * s, 0.42 * s)
        circle(cx - 0.5 * s, cy + 0.12 * s, 0.42 * s)
        circle(cx + 0.5 * s, cy + 0.12 * s, 0.42 * s)
        draw.polygon([(cx, cy - 0.1 * s), (cx + 0.4 * s, cy + s), (cx - 0.4 * s, cy + s)], fill=fill)
    else:
        circle(cx, cy, 0.8 * s)


def _index(face: Card | ItsFace) -> tuple[str, str, tuple[int, int, int]]:
    """The corner index of a face: rank text, symbol (a suit letter, or "" for a dot) and colour."""
    if isinstance(face, Card):
        rank = str(face)[:-1]
        return rank, face.suit, _RED if face.suit in "HD" else _BLACK
    colour = _PLAYER_RGB[face.colour] if face.kind == "V" else _ITS_COLOURS[face.kind]
    return str(face.value), "", colour


def _paste_modules(image: Image.Image, modules: np.ndarray, left: float, top: float, size: float) -> None:
    """Paint boolean ``modules`` as a ``size`` px square at (left, top), module edges rounded to
    whole pixels so every module prints the same width to within a pixel."""
    n = modules.shape[0]
    edges = np.round(np.linspace(0, size, n + 1)).astype(int)
    index = np.searchsorted(edges, np.arange(edges[-1]), side="right") - 1
    pixels = np.where(modules[np.ix_(index, index)], 0, 255).astype(np.uint8)
    image.paste(Image.fromarray(pixels).convert("RGB"), (round(left), round(top)))


class CardArt:
    """Draws the cards of ``deck`` with ``marker`` ("qr" or "aruco") at any resolution.

    :raises InvalidInput: for an unknown deck or marker kind.
    """

    def __init__(self, deck: Deck | str, marker: str) -> None:
        self.deck = deck if isinstance(deck, Deck) else get_deck(deck)
        self.marker = marker
        marker_modules(self.deck.cards[0], self.deck, marker)

    @functools.lru_cache(maxsize=256)
    def card(self, card: PhysicalCard, px_per_mm: float) -> Image.Image:
        """The face of ``card`` as an RGB image, ``px_per_mm`` pixels per millimetre; white outside
        the rounded corners (print on white card stock)."""
        mm = lambda v: v * px_per_mm  # noqa: E731
        width, height = round(mm(CARD_MM[0])), round(mm(CARD_MM[1]))
        image = Image.new("RGB", (width, height), "white")
        draw = ImageDraw.Draw(image)
        draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=mm(CARD_CORNER_MM),
                               outline=(150, 150, 150), width=max(1, round(mm(0.3))))
        side = mm(CARD_MARKER_MM)
        _paste_modules(image, marker_modules(card, self.deck, self.marker),
                       (width - side) / 2, (height - side) / 2, side)
        corner = self._corner(card, px_per_mm)
        image.paste(corner, (round(mm(3.5)), round(mm(3.0))))
        flipped = corner.rotate(180)
        image.paste(flipped, (width - round(mm(3.5)) - flipped.width, height - round(mm(3.0)) - flipped.height))
        small = _font(round(mm(3.2)))
        draw.text((width - mm(4.0), mm(4.0)), card.id, fill=(90, 90, 90), font=small, anchor="ra")
        return image

    def _corner(self, card: PhysicalCard, px_per_mm: float) -> Image.Image:
        rank, symbol, colour = _index(card.face)
        height = round(INDEX_HEIGHT_MM * px_per_mm)
        font = _font(round(height / 0.72))
        text_width = round(draw_width(rank, font))
        gap = round(0.8 * px_per_mm)
        tile = Image.new("RGB", (text_width + gap + height, height + 2), "white")
        draw = ImageDraw.Draw(tile)
        draw.text((0, height), rank, fill=colour, font=font, anchor="ls")
        _draw_suit(draw, symbol, text_width + gap + height / 2, height / 2, height * 0.85, colour)
        return tile

    @functools.lru_cache(maxsize=128)
    def sticker(self, card: PhysicalCard, px_per_mm: float) -> Image.Image:
        """A marker label for ``card``, to stick on an existing card: the marker with its quiet
        zone and the card id underneath."""
        width, height = round(STICKER_MM[0] * px_per_mm), round(STICKER_MM[1] * px_per_mm)
        image = Image.new("RGB", (width, height), "white")
        quiet, side = STICKER_QUIET_MM * px_per_mm, STICKER_MARKER_MM * px_per_mm
        _paste_modules(image, marker_modules(card, self.deck, self.marker), quiet, quiet, side)
        draw = ImageDraw.Draw(image)
        label = f"{card.id}  {getattr(card.face, 'name', card.face)}"
        draw.text((width / 2, height - 1.2 * px_per_mm), label, fill=_BLACK,
                  font=_font(round(3.4 * px_per_mm)), anchor="ms")
        return image

    @functools.lru_cache(maxsize=256)
    def card_bgr(self, card: PhysicalCard, px_per_mm: float) -> np.ndarray:
        """:meth:`card` as an OpenCV BGR array (cached: the synthetic camera draws from this)."""
        return np.ascontiguousarray(np.asarray(self.card(card, px_per_mm))[:, :, ::-1])


def draw_width(text: str, font: ImageFont.FreeTypeFont) -> float:
    """Width in pixels of ``text`` drawn in ``font``."""
    return font.getlength(text)
