"""The camera pipeline: frames in, table events out. The one entry point the application needs.

>>> pipeline = Pipeline(load_vision_config({"deck": "standard"}))      # doctest: +SKIP
>>> events = pipeline.process(frame, now=time.monotonic())             # doctest: +SKIP

Per frame: the change map (:mod:`vision.changes`) says which cells changed and are still; only
those regions are decoded, each as hard as it takes (:mod:`vision.regions`: enlarged, and
averaged over the frames it stayed still), which a decode of every full frame cannot afford. Cards already known are followed for free while the cells under
their marker stay unchanged. Decoded markers become cards (:mod:`vision.markers`), foreign codes
are counted and ignored, a card read in two places at once is a warning, and the tracker
(:mod:`vision.tracker`) turns the sightings into :class:`TableEvent` values.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass

import cv2
import numpy as np

from engine.decks import PhysicalCard, get_deck
from engine.errors import InvalidInput
from engine.table_events import TableEvent
from vision.calibration import Calibration, load_calibration
from vision.changes import ChangeMap
from vision.config import VisionConfig
from vision.decoders import Decoder, Detection, make_decoder
from vision.markers import MAT_MARKER_IDS, ForeignMarker, card_for_aruco, card_for_payload
from vision.regions import Box, RegionReader
from vision.tracker import Sighting, Tracker
from vision.zones import ZoneMap

log = logging.getLogger(__name__)

#: How far around a marker its card reaches, in marker sides (a 42 mm marker on an 88 mm card).
CARD_EXTENT = 2.2
#: Above this share of the frame, decode the frame whole rather than region by region.
WHOLE_FRAME_SHARE = 0.6


@dataclass
class PipelineStats:
    """Counters since the pipeline started: ``decodes`` regions decoded (``decoded_pixels``
    in all), ``views`` decoder calls on them (a region may be tried enlarged, then averaged)."""

    frames: int = 0
    decodes: int = 0
    views: int = 0
    decoded_pixels: int = 0
    foreign_codes: int = 0
    duplicates: int = 0


@dataclass
class KnownCard:
    """A card the pipeline has read: its marker ``corners`` (px), the cells under the marker,
    and whether it is ``visible`` (read, and its cells unchanged since)."""

    card: PhysicalCard
    corners: np.ndarray
    cells: np.ndarray
    center: tuple[float, float]
    zone: str | None
    visible: bool = True


def _extent(corners: np.ndarray, factor: float) -> np.ndarray:
    centre = corners.mean(axis=0)
    return centre + (corners - centre) * factor


class Pipeline:
    """Turns camera frames into table events for one table.

    :param config: the ``[vision]`` settings.
    :param decoder: a decoder to use instead of the one the config names.
    :param calibration: a calibration to use instead of the config's calibration file.
    :param zones: a zone map to use instead of the config's zones.
    :raises InvalidInput: for zones in mm without a calibration, or a bad calibration file.
    :raises OSError: when the calibration file or the decoder's library is missing.
    """

    def __init__(self, config: VisionConfig | None = None, *, decoder: Decoder | None = None,
                 calibration: Calibration | None = None, zones: ZoneMap | None = None) -> None:
        self.config = config or VisionConfig()
        self.deck = get_deck(self.config.deck)
        if decoder is None and self.config.recognition == "faces":
            from vision.faces.decoder import load_face_decoder

            decoder = load_face_decoder(self.config)
        self.decoder = decoder or make_decoder(self.config.effective_decoder)
        if calibration is None and self.config.calibration is not None:
            calibration = load_calibration(self.config.calibration)
        self.calibration = calibration
        self.zones = zones or ZoneMap(self.config.zones, units=self.config.zone_units,
                                      image_to_table=None if calibration is None else calibration.image_to_table)
        self.tracker = Tracker(place_after=self.config.place_after, remove_after=self.config.remove_after)
        self.changes = ChangeMap()
        self.reader = RegionReader(enlarge=self.decoder.name != "aruco", cell=self.changes.cell)
        self.known: dict[str, KnownCard] = {}
        self.stats = PipelineStats()
        self.warnings: deque[str] = deque(maxlen=20)
        self.sightings: list[Sighting] = []

    def process(self, frame: np.ndarray, now: float) -> list[TableEvent]:
        """Take one frame (BGR or grey) taken at ``now`` (monotonic seconds) and return the table
        events it decides, in order.

        :raises InvalidInput: when the frame size differs from the calibration's.
        """
        height, width = frame.shape[:2]
        if self.calibration is not None and (width, height) != tuple(self.calibration.image_size):
            w, h = self.calibration.image_size
            raise InvalidInput(f"the calibration was made at {w}x{h} but the camera gives "
                               f"{width}x{height}: calibrate again at this resolution")
        self.stats.frames += 1
        self.changes.observe(frame)
        self.reader.begin_frame((height, width), self.changes.moving)
        detected: dict[str, tuple[PhysicalCard, Detection]] = {}
        for box, busy in self._boxes((height, width)):
            if busy and self.stats.frames % 2:
                continue  # something moves there: every other frame is soon enough
            for card, detection in self._decode(frame, box, busy):
                self._note(detected, card, detection)
            if not busy:
                self._give_up(self.changes.failed(box))
        for card, detection in detected.values():
            self._follow(card, detection)
        self.sightings = [Sighting(k.card, k.zone, k.center) for k in self.known.values()
                          if k.visible and (k.card.id in detected or self.changes.is_clean(k.cells))]
        return self.tracker.update(self.sightings, now)

    def _boxes(self, shape: tuple[int, int]) -> list[tuple[Box, bool]]:
        """The regions to decode and whether each is busy (see :meth:`ChangeMap.regions`):
        patches of dirty cells, each grown to take in whole any known marker it touches (a card
        half uncovered by a leaving hand is decoded whole)."""
        boxes = [(self._grow(box, shape), busy) for box, busy in self.changes.regions()]
        area = sum((x1 - x0) * (y1 - y0) for (x0, y0, x1, y1), _ in boxes)
        if area > WHOLE_FRAME_SHARE * shape[0] * shape[1]:
            return [((0, 0, shape[1], shape[0]), any(busy for _, busy in boxes))]
        return boxes

    def _grow(self, box: tuple[int, int, int, int], shape: tuple[int, int]) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = box
        for known in self.known.values():
            (kx0, ky0), (kx1, ky1) = known.corners.min(axis=0), known.corners.max(axis=0)
            if kx0 < x1 and kx1 > x0 and ky0 < y1 and ky1 > y0:
                pad = 0.25 * (kx1 - kx0)
                x0, y0 = min(x0, int(kx0 - pad)), min(y0, int(ky0 - pad))
                x1, y1 = max(x1, int(kx1 + pad) + 1), max(y1, int(ky1 + pad) + 1)
        return max(x0, 0), max(y0, 0), min(x1, shape[1]), min(y1, shape[0])

    def _decode(self, frame: np.ndarray, box: Box, busy: bool) -> list[tuple[PhysicalCard, Detection]]:
        """Decode the region's views (:meth:`RegionReader.views`) until its dirty cells are all
        explained. A busy region gets the cheap views only, and only markers lying still count
        there: a card carried by a hand is not a sighting."""
        if hasattr(self.decoder, "read_region"):  # faces: the decoder finds and reads whole cards itself
            self.stats.decodes += 1
            return self.decoder.read_region(frame, box, busy, self)
        x0, y0, x1, y1 = box
        crop = frame[y0:y1, x0:x1]
        gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else np.ascontiguousarray(crop)
        self.stats.decodes += 1
        self.stats.decoded_pixels += gray.size
        cards = []
        for image, scale in self.reader.views(gray, box, average=not busy):
            self.stats.views += 1
            for found in self.decoder.decode(image):
                detection = found.shifted(x0, y0, scale)
                extent = self.changes.cells(_extent(detection.corners, CARD_EXTENT))
                if busy and not self.changes.is_still(self.changes.cells(detection.corners)):
                    continue
                self.changes.explain(extent)
                card = self._card(detection.value)
                if card is not None:
                    cards.append((card, detection))
            if not self.changes.has_dirty(box):
                break
        return cards

    def _card(self, value: str | int) -> PhysicalCard | None:
        try:
            if isinstance(value, int):
                if value in MAT_MARKER_IDS:
                    return None
                return card_for_aruco(value, self.deck)
            card = card_for_payload(value)
            if value.split(":")[1].lower() != self.deck.name:
                raise ForeignMarker(f"card {card.id} belongs to another deck ({value})")
            return card
        except ForeignMarker as err:
            self.stats.foreign_codes += 1
            log.debug("ignoring a foreign code: %s", err)
            return None

    def _note(self, detected: dict, card: PhysicalCard, detection: Detection) -> None:
        """Keep one detection per card this frame; a second one elsewhere is a duplicated card."""
        other = detected.get(card.id)
        if other is None:
            detected[card.id] = (card, detection)
            return
        if np.linalg.norm(np.subtract(other[1].center, detection.center)) > self._side(detection):
            self._duplicate(card)

    def _follow(self, card: PhysicalCard, detection: Detection) -> None:
        known = self.known.get(card.id)
        if known is not None and known.visible and self.changes.is_clean(known.cells) and \
                np.linalg.norm(np.subtract(known.center, detection.center)) > self._side(detection):
            self._duplicate(card)  # the card still lies where it was, unchanged: this is a second copy
            return
        self.known[card.id] = KnownCard(card, detection.corners, self.changes.cells(_extent(detection.corners, 0.8)),
                                        detection.center, self.zones.locate(detection.center))

    @staticmethod
    def _side(detection: Detection) -> float:
        return float(np.linalg.norm(detection.corners[1] - detection.corners[0]))

    def _duplicate(self, card: PhysicalCard) -> None:
        self.stats.duplicates += 1
        message = f"card {card.id} is seen in two places at once: is there a duplicated card on the table?"
        if message not in self.warnings:
            log.warning(message)
            self.warnings.append(message)

    def _give_up(self, cells: np.ndarray) -> None:
        if not cells.any():
            return
        for known in self.known.values():
            if known.visible and (known.cells & cells).any():
                known.visible = False
