"""Real deck designs for tests, the benchmark and the demo: the SVG decks Debian installs with
``kdegames-card-data`` (``kdegames-card-data-kf5`` before trixie) in ``/usr/share/carddecks/svg-*/``,
rendered card by card with ``rsvg-convert`` and cached outside the repository (``$XDG_CACHE_HOME/cardtable/decks``).

Each design's SVG holds one element per card: ``1_club`` ... ``10_spade``, ``jack_heart``,
``queen_diamond``, ``king_spade``, ``back`` and, in some designs, jokers. ``rsvg-convert
--export-id`` exports an element's area from the page origin, so each rendering is cropped to
the card's own pixels (its alpha), and transparent corners are laid on white.
"""

from __future__ import annotations

import functools
import gzip
import os
import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from engine.cards import Card
from engine.errors import InvalidInput
from vision.faces.finder import CARD_SIZES_MM, size_of_shape

CARDDECKS = Path("/usr/share/carddecks")
#: Designs used by the tests and the benchmark: an ornate traditional one (dondorf), one with
#: small indices (tigullio-international), and two plain modern ones.
DESIGNS = ("dondorf", "tigullio-international", "nicu-white", "standard")
#: Card width in pixels of the cached renderings (about 4 px/mm for a 63 mm card).
RENDER_WIDTH = 252

_SUIT_NAMES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
_COURT = {11: "jack", 12: "queen", 13: "king"}


def element_id(face: Card | str) -> str:
    """The SVG element id of a card face (``Card('10H')`` -> "10_heart", ``Card('KS')`` ->
    "king_spade"); other names ("back", "black_joker") pass through."""
    if isinstance(face, str):
        return face
    return f"{_COURT.get(face.rank, face.rank)}_{_SUIT_NAMES[face.suit]}"


def svg_path(design: str) -> Path:
    """The SVG file of an installed design.

    :raises OSError: when the design is not installed, saying which package provides it.
    """
    folder = CARDDECKS / f"svg-{design}"
    files = sorted(folder.glob("*.svg*"))
    if not files:
        raise OSError(f"no card design {design!r} in {CARDDECKS}: sudo apt-get install kdegames-card-data "
                      "(kdegames-card-data-kf5 on Debian bookworm)")
    return files[0]


def installed_designs() -> list[str]:
    """The names of the card designs installed in :data:`CARDDECKS`."""
    return sorted(folder.name[4:] for folder in CARDDECKS.glob("svg-*") if any(folder.glob("*.svg*")))


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "cardtable" / "decks"


def _picture_box(svg: Path, element: str) -> tuple[float, float, float, float] | None:
    """The x, y, width and height of ``element`` when it is an embedded picture (an SVG
    ``<image>``, as konqi-modern and xskat-french draw every card), else None."""
    text = (gzip.open if svg.suffix == ".svgz" else open)(svg, "rt", encoding="utf-8").read()
    for tag in re.finditer(r"<image\b[^>]*>", text):
        attributes = dict(re.findall(r'([\w:-]+)="([^"]*)"', tag.group(0)))
        if attributes.get("id") == element and "transform" not in attributes:
            try:
                return tuple(float(attributes.get(k, 0)) for k in ("x", "y", "width", "height"))
            except ValueError:
                return None
    return None


def _render(svg: Path, element: str, zoom: float, out: Path) -> np.ndarray:
    """``element`` of ``svg`` drawn at ``zoom``, cropped to its own pixels. rsvg-convert cannot
    export an embedded picture by id ("has no dimensions"): such a card is cut from the whole page."""
    box = _picture_box(svg, element)
    command = ["rsvg-convert", "-z", f"{zoom:.4f}", "-o", str(out), str(svg)]
    result = subprocess.run(command if box else command[:1] + ["-i", element] + command[1:],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise OSError(f"rsvg-convert could not draw {element!r} of {svg}: {result.stderr.strip()}")
    image = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if image is not None and box:
        x, y, w, h = (round(v * zoom) for v in box)
        image = image[y:y + h, x:x + w]
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise OSError(f"rsvg-convert drew no card for {element!r} of {svg}")
    alpha = image[:, :, 3]
    ys, xs = np.nonzero(alpha > 8)
    if len(xs) == 0:
        raise InvalidInput(f"the design {svg.parent.name} has no element {element!r}")
    return image[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def write_image(path: Path, image: np.ndarray) -> None:
    """Write ``image`` to ``path`` whole or not at all: another process reading the cache (two
    test workers, a demo beside the tests) never sees half a file."""
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp{path.suffix}")
    if not cv2.imwrite(str(tmp), image):
        raise OSError(f"cannot write {path}")
    os.replace(tmp, path)


def render_card(design: str, element: str, width: int = RENDER_WIDTH) -> np.ndarray:
    """One card of ``design`` (an element id, see :func:`element_id`) as a BGR image ``width``
    pixels wide, transparent corners on white; cached on disk.

    :raises OSError: when the design is missing or rsvg-convert fails.
    :raises InvalidInput: when the design has no such element.
    """
    folder = cache_dir() / design / str(width)
    path = folder / f"{element}.png"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        svg = svg_path(design)
        tmp = folder / f".{element}.{os.getpid()}.tmp.png"
        try:
            natural = _render(svg, element, 1.0, tmp)
            card = _render(svg, element, width / natural.shape[1], tmp)
        finally:
            tmp.unlink(missing_ok=True)
        alpha = card[:, :, 3:4].astype(np.float32) / 255
        flat = (card[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
        write_image(path, flat)
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise OSError(f"cannot read the cached card {path}")
    return image


@functools.lru_cache(maxsize=None)
def printed_size(design: str) -> tuple[float, float]:
    """The size (short, long mm) of a deck printed with ``design``: the card size whose shape
    its art has (:func:`vision.faces.finder.size_of_shape`; a design drawn a bridge card's shape
    is printed on bridge cards), a poker card when its shape names none."""
    ace = render_card(design, "1_spade")
    return size_of_shape(ace.shape[1] / ace.shape[0]) or CARD_SIZES_MM[0]


def write_deck_images(design: str, folder: str | Path, cards, width: int = RENDER_WIDTH, *, back: bool = False) -> Path:
    """Write ``cards`` (faces such as ``Card('10H')``) of ``design`` as ``10H.png`` ... into
    ``folder``, as a user's scans would be, and with ``back`` the design's back as ``BACK.png``;
    returns the folder."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for card in cards:
        write_image(folder / f"{card}.png", render_card(design, element_id(card), width))
    if back:
        write_image(folder / "BACK.png", render_card(design, "back", width))
    return folder


class DesignArt:
    """Card images of one design for the synthetic camera: ``art(card, px_per_mm)`` gives the
    BGR face of a physical card at that scale, the size the design is printed (:func:`printed_size`;
    a callable :class:`vision.sim.synthetic.SyntheticCamera` takes as ``card_image``, drawing each
    card the shape of its picture); the cards whose ids are in ``face_down`` show the design's back."""

    def __init__(self, design: str, width: int = RENDER_WIDTH, *, face_down: Iterable[str] = ()) -> None:
        self.design, self.width, self.face_down = design, width, frozenset(face_down)
        self.size_mm = printed_size(design)

    @functools.lru_cache(maxsize=128)
    def __call__(self, card, px_per_mm: float) -> np.ndarray:
        image = render_card(self.design, "back" if card.id in self.face_down else element_id(card.face), self.width)
        size = (round(self.size_mm[0] * px_per_mm), round(self.size_mm[1] * px_per_mm))
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA)
