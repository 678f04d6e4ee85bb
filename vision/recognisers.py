"""One recogniser protocol: how the pipeline asks which cards lie in a changed region of a frame.

The pipeline (:mod:`vision.pipeline`) owns the frames, the change map, the cards it follows and
the tracker. A recogniser owns only how a card is told: markers (QR or ArUco codes,
:mod:`vision.marker_recogniser`) or the printed faces of a user's own deck
(:mod:`vision.faces.recogniser`). The pipeline chooses one from the config (``[vision]
recognition``, :data:`RECOGNISERS`) and hands it each changed region as a :class:`Region`:

- the region itself (``frame``, ``box``, ``busy``: something still moves in it), its grey crop
  and the views of it worth decoding (enlarged, averaged over the frames it lay still);
- the change map's view of it: the cells of a polygon, which are dirty and still, ``explain``
  (these cells are accounted for), ``hold`` (a card read there waits for its reads to agree:
  no read in vain);
- the cards known on the table (:class:`Known`: where each lies, and whether it lies there
  undisturbed), ``locate`` (the zone of an image point), ``to_table`` (the calibration);
- ``warn`` (a sentence for the table, returned with the frame's events), ``face_down`` (the placeholder identity of a card back
  read at a point), ``foreign`` (a code of no card of this deck, counted).

The recogniser answers with the cards it names there (:class:`Found`), each by the quadrilateral
the pipeline follows it by: a marker's own corners, or a card's outline shrunk to the marker a
card of its size would carry (the card reaches :attr:`Traits.card_reach` of that quad's sides around it).
It says how the pipeline should pace it with :class:`Traits`. It never reaches into the
pipeline, and the pipeline never asks what kind of recogniser it has.

Adding a recogniser: one module with a class that has ``traits``, ``read(region)`` and
``outlines()`` and a function ``recogniser(config)`` that makes it, and one line in
:data:`RECOGNISERS` (see docs/vision.md).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

import numpy as np

from engine.decks import PhysicalCard
from engine.errors import InvalidInput
from engine.table_events import FaceDown
from vision.changes import ChangeMap
from vision.footprints import SEEN, Footprint
from vision.frames import Frame
from vision.regions import Box, RegionReader

if TYPE_CHECKING:
    from vision.config import VisionConfig

log = logging.getLogger(__name__)

#: The recognisers a config may name (``[vision] recognition``): each the module whose
#: ``recogniser(config)`` makes it.
RECOGNISERS: dict[str, str] = {
    "markers": "vision.marker_recogniser",
    "faces": "vision.faces.recogniser",
}

#: How far a card reaches from its quad's centre, in quad sides across and along the quad (a
#: 42 mm marker in the middle of a 63 x 88 mm card), with a little margin for the cell grid.
CARD_REACH = (0.8, 1.1)


def extent(corners: np.ndarray, across: float, along: float | None = None) -> np.ndarray:
    """The quadrilateral around a quad's centre reaching ``across`` and ``along`` quad sides
    (half-widths) along the quad's own axes."""
    along = across if along is None else along
    centre = corners.mean(axis=0)
    u = (corners[1] - corners[0] + corners[2] - corners[3]) / 2
    v = (corners[3] - corners[0] + corners[2] - corners[1]) / 2
    return np.array([centre + sx * across * u + sy * along * v for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))],
                    dtype=np.float32)


@dataclass(frozen=True)
class Traits:
    """How the pipeline paces a recogniser (the defaults are a marker's)."""

    #: How far a card's footprint (:mod:`vision.footprints`) reaches around its quad, in quad sides.
    footprint_reach: float = 0.4
    #: How far the card itself reaches around its quad, in quad sides across and along it.
    card_reach: tuple[float, float] = CARD_REACH
    #: Seconds a card slid away takes to be named where it landed: its old place waits this long
    #: after the motion ends before it counts as gone.
    linger: float = 0.0
    #: A region where something moves is read every ``busy_every`` frames.
    busy_every: int = 2
    #: A region where something moves, read in vain, is read again only once something new comes
    #: to rest in it. False for reads that must agree over frames, beside a hand that moves.
    busy_waits: bool = True
    #: Reads of a patch nobody explains before it is taken as the table.
    attempts: int = ChangeMap.ATTEMPTS
    #: A still patch read in vain is read again only after as many frames as it has been read
    #: (:class:`vision.changes.ChangeMap`'s ``backoff``), and only when a marker's worth of its
    #: cells shows something new. False for reads that must agree frame after frame.
    backoff: bool = True
    #: The region's views include it enlarged (small QR codes; ArUco cells are large already).
    enlarge: bool = True


@dataclass(frozen=True, eq=False)
class Found:
    """A card a recogniser names in a region: the ``card`` (or a face-down card), the
    quadrilateral it is followed by (``corners`` in frame pixels, see :attr:`Traits.card_reach`), and
    how sure the recogniser is (``confidence``, None when it does not say)."""

    card: PhysicalCard | FaceDown
    corners: np.ndarray
    confidence: float | None = None

    @property
    def center(self) -> tuple[float, float]:
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)

    @property
    def side(self) -> float:
        """The length of the quad's first side, in pixels."""
        return float(np.linalg.norm(self.corners[1] - self.corners[0]))


class Outline(NamedTuple):
    """A card outline a recogniser read, for drawing: its ``quad``, a ``label`` and a BGR ``colour``."""

    quad: np.ndarray
    label: str
    colour: tuple[int, int, int]


@dataclass
class Tally:
    """What reading a region cost and met, for the pipeline's counters: grey ``pixels`` cut out,
    ``views`` decoded, ``foreign`` codes (of no card of the deck) read."""

    pixels: int = 0
    views: int = 0
    foreign: int = 0


class Known:
    """A card the pipeline follows, as a recogniser sees it: the ``card``, its quad
    (``corners``), ``center`` and ``zone``."""

    __slots__ = ("card", "corners", "center", "zone", "_footprint", "_changes")

    def __init__(self, card: PhysicalCard | FaceDown, corners: np.ndarray, center: tuple[float, float],
                 zone: str | None, footprint: Footprint, changes: ChangeMap) -> None:
        self.card, self.corners, self.center, self.zone = card, corners, center, zone
        self._footprint, self._changes = footprint, changes

    @property
    def undisturbed(self) -> bool:
        """It still lies where it was read, seen, and nothing there changed since (another copy
        of it read elsewhere is a second card, not this one moved)."""
        return undisturbed(self._footprint, self._changes)


def undisturbed(footprint: Footprint, changes: ChangeMap) -> bool:
    """The card of ``footprint`` is seen and no cell of its footprint changed since explained."""
    return footprint.state == SEEN and changes.is_clean(footprint.cells)


class Region:
    """One changed region of one frame, as the pipeline hands it to its recogniser.

    :param frame: the frame (its grey and colour decoded only as far as asked).
    :param box: the region (x0, y0, x1, y1) in frame pixels.
    :param busy: something still moves in it (only cards lying still count).
    :param number: the frame's number since the pipeline started.
    :param known: the cards the pipeline follows, by id.
    :param to_table: the calibration's image-to-table homography (None without a calibration).

    What reading it cost is counted in :attr:`tally`.
    """

    def __init__(self, frame: Frame, box: Box, busy: bool, *, number: int, changes: ChangeMap,
                 reader: RegionReader, known: Mapping[str, Known], to_table: np.ndarray | None,
                 locate: Callable[[tuple[float, float]], str | None], warn: Callable[[str, float | None], None],
                 face_down: Callable[[tuple[float, float], float], FaceDown]) -> None:
        self.frame, self.box, self.busy, self.number = frame, box, busy, number
        self.known, self.to_table = known, to_table
        self.tally = Tally()
        #: The cells (a mask of the whole frame, or None) where a card read waits for its reads to agree.
        self.held: np.ndarray | None = None
        self._changes, self._reader = changes, reader
        self._locate, self._warn, self._face_down = locate, warn, face_down

    # The region's pixels.

    def grey(self) -> np.ndarray:
        """The region in grey (contiguous).

        :raises BadFrame: when the frame's JPEG cannot be decoded (the pipeline skips the region).
        """
        grey = np.ascontiguousarray(self.frame.grey_region(self.box))
        self.tally.pixels += grey.size
        return grey

    def views(self, grey: np.ndarray) -> Iterator[tuple[np.ndarray, float]]:
        """The images of the region's ``grey`` crop worth decoding, best value first, each with
        the factor it was enlarged by (:meth:`vision.regions.RegionReader.views`; a busy region
        gets the cheap views only). Lazy: stop once the region is explained."""
        for view in self._reader.views(grey, self.box, average=not self.busy):
            self.tally.views += 1
            yield view

    # The change map's view of it.

    @property
    def cell(self) -> int:
        """The side of a change cell, in pixels."""
        return self._changes.cell

    @property
    def dirty(self) -> np.ndarray:
        """The cells (of the whole frame) that changed, lie still and nobody explained yet."""
        return self._changes.dirty

    @property
    def still(self) -> np.ndarray:
        """The cells (of the whole frame) where nothing moved lately."""
        return self._changes.still

    def cells(self, polygon: np.ndarray) -> np.ndarray:
        """The cell mask of a polygon in frame pixels."""
        return self._changes.cells(polygon)

    def cell_pixels(self, cells: np.ndarray) -> np.ndarray:
        """The pixels of the region that lie in the cells ``cells`` (a mask of the whole frame)."""
        x0, y0, x1, y1 = self.box
        cell = self.cell
        cx0, cy0, cx1, cy1 = x0 // cell, y0 // cell, -(-x1 // cell), -(-y1 // cell)
        part = np.zeros((cy1 - cy0, cx1 - cx0), bool)
        inside = cells[cy0:cy1, cx0:cx1]
        part[:inside.shape[0], :inside.shape[1]] = inside
        pixels = np.repeat(np.repeat(part, cell, axis=0), cell, axis=1)
        return pixels[y0 - cy0 * cell:y1 - cy0 * cell, x0 - cx0 * cell:x1 - cx0 * cell]

    def is_still(self, cells: np.ndarray) -> bool:
        """Nothing moved lately in ``cells`` (a mask or flat cell indices)."""
        return self._changes.is_still(cells)

    def has_dirty(self, *, solid: bool = False) -> bool:
        """Some cell of the region is still unexplained; with ``solid``, only such cells in a
        block of 3 x 3 count (what is left is too thin to hold a marker)."""
        return self._changes.has_dirty(self.box, solid=solid)

    def explain(self, cells: np.ndarray) -> None:
        """The cells of ``cells`` are accounted for (a card lies there, or nothing worth reading):
        what they show now is the reference."""
        self._changes.explain(cells)

    def hold(self, cells: np.ndarray) -> None:
        """A card was read in ``cells`` (a mask of the whole frame) and waits for its reads to
        agree: the read was not in vain there, and counts no try (:meth:`vision.changes.ChangeMap.failed`)."""
        self.held = cells.copy() if self.held is None else self.held | cells

    # The table around it.

    def locate(self, point: tuple[float, float]) -> str | None:
        """The zone an image point lies in (None: outside every zone)."""
        return self._locate(point)

    def warn(self, message: str, every: float | None = None) -> None:
        """Tell the table ``message`` (a sentence for a person), unless it was said less than
        ``every`` seconds before (the pipeline's pace for its own sentences unless given)."""
        self._warn(message, every)

    def face_down(self, centre: tuple[float, float], side: float) -> FaceDown:
        """The placeholder identity of a card back read at image point ``centre`` (its side
        ``side`` px): the face-down card known there, or one carried here, or a new one."""
        return self._face_down(centre, side)

    def foreign(self, reason: str) -> None:
        """A code of no card of this deck was read (counted in the pipeline's ``foreign_codes``)."""
        self.tally.foreign += 1
        log.debug("ignoring a foreign code: %s", reason)


class Recogniser(Protocol):
    """Names the cards in the changed regions of frames (see the module's docstring)."""

    traits: Traits

    def read(self, region: Region) -> list[Found]:
        """The cards named in ``region``; explains the cells it accounts for."""
        ...

    def outlines(self) -> list[Outline]:
        """The outlines read lately that are not cards the pipeline follows (a card it cannot
        name, a card not named yet), for drawing."""
        ...


def recogniser_names() -> tuple[str, ...]:
    """The names ``[vision] recognition`` may take."""
    return tuple(RECOGNISERS)


def make_recogniser(config: VisionConfig) -> Recogniser:
    """The recogniser ``config.recognition`` names, made for ``config``.

    :raises InvalidInput: for a name no recogniser has, or a config the recogniser refuses.
    :raises OSError: when what the recogniser needs is missing (a decoder's library, an enrolment).
    """
    try:
        module = RECOGNISERS[config.recognition]
    except KeyError:
        raise InvalidInput(f"no recogniser called {config.recognition!r}: choose one of "
                           f"{', '.join(recogniser_names())}") from None
    return importlib.import_module(module).recogniser(config)
