"""The camera pipeline: frames in, table events out. The one entry point the application needs.

>>> pipeline = Pipeline(load_vision_config({"deck": "standard"}))      # doctest: +SKIP
>>> events = pipeline.process(frame, now=time.monotonic())             # doctest: +SKIP

Per frame (a :class:`vision.frames.Frame`, decoded only as far as needed, or an array): the
change map (:mod:`vision.changes`) says which cells changed and are still; only those regions
are decoded, each as hard as it takes (:mod:`vision.regions`: enlarged, and averaged over the
frames it stayed still), which a decode of every full frame cannot afford. Cards already known
are followed for free while the cells under their marker show them, and their footprints
(:mod:`vision.footprints`) say when one is gone rather than covered. Decoded markers become
cards (:mod:`vision.markers`), foreign codes are counted and ignored, a card read in two places
at once is a warning, and the tracker (:mod:`vision.tracker`) turns the sightings into
:class:`TableEvent` values.

A card back (a face decoder with the back enrolled) is a face-down card
(:class:`engine.table_events.FaceDown`): followed like a card, under a placeholder identity
the pipeline gives it (:meth:`Pipeline.face_down_card`), never a card of the deck.

Decoders are pluggable (:class:`vision.decoders.Decoder`: a grey image in, detections out); one
that needs colour gets it for a region from the frame (:meth:`vision.frames.Frame.colour`).
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass

import numpy as np

from engine.decks import PhysicalCard, get_deck
from engine.table_events import FaceDown, TableEvent
from vision.calibration import Calibration, load_calibration
from vision.changes import ChangeMap
from vision.config import VisionConfig
from vision.decoders import Decoder, Detection, make_decoder
from vision.footprints import GONE, SEEN, Footprint, MotionLabels
from vision.frames import BadFrame, Frame
from vision.markers import MAT_MARKER_IDS, ForeignMarker, card_for_aruco, card_for_payload
from vision.regions import Box, RegionReader
from vision.tracker import Sighting, Tracker
from vision.zones import ZoneMap

log = logging.getLogger(__name__)

#: How far a card reaches from its marker's centre, in marker sides across and along the marker
#: (a 42 mm marker in the middle of a 63 x 88 mm card), with a little margin for the cell grid.
CARD_REACH = (0.8, 1.1)
#: How far around a card motion may carry it away (its footprint's surroundings), in marker sides.
SURROUNDINGS = 1.6
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
    bad_frames: int = 0


@dataclass
class KnownCard:
    """A card the pipeline has read (or a face-down card): its marker ``corners`` (px) and its
    ``footprint`` (the cells under the marker, what they show and what they hid)."""

    card: PhysicalCard | FaceDown
    corners: np.ndarray
    footprint: Footprint
    center: tuple[float, float]
    zone: str | None
    #: Lying where it was read since the first frame: the table had it when the camera started.
    present: bool = False


def _extent(corners: np.ndarray, across: float, along: float | None = None) -> np.ndarray:
    """The quadrilateral around a marker's centre reaching ``across`` and ``along`` marker sides
    (half-widths) along the marker's own axes."""
    along = across if along is None else along
    centre = corners.mean(axis=0)
    u = (corners[1] - corners[0] + corners[2] - corners[3]) / 2
    v = (corners[3] - corners[0] + corners[2] - corners[1]) / 2
    return np.array([centre + sx * across * u + sy * along * v for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))],
                    dtype=np.float32)


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
        #: Seconds the decoder takes to name a card where it landed (see Footprint.judge).
        self.linger = getattr(self.decoder, "linger", 0.0)
        self.tracker = Tracker(place_after=self.config.place_after, remove_after=self.config.remove_after)
        #: A region where something moves is decoded every ``busy_every`` frames (a decoder that
        #: needs reads to agree over frames reads every one).
        self.busy_every = getattr(self.decoder, "busy_every", 2)
        # A decoder may say how often a patch it cannot explain is worth reading (``attempts``);
        # one whose reads must agree frame after frame reads a still patch in every frame.
        self.changes = ChangeMap(attempts=getattr(self.decoder, "attempts", ChangeMap.ATTEMPTS),
                                 backoff=self.busy_every > 1)
        #: The last frame read a region: the next one most likely will too (see :meth:`process`).
        self._reading = True
        self.reader = RegionReader(enlarge=self.decoder.name != "aruco", cell=self.changes.cell)
        self.known: dict[str, KnownCard] = {}
        self.stats = PipelineStats()
        self.warnings: deque[str] = deque(maxlen=20)
        self.sightings: list[Sighting] = []
        self._size: tuple[int, int] | None = None
        self._face_downs = 0
        #: Why the last frame that could not be used was refused.
        self.refusal = ""

    def process(self, frame: Frame | np.ndarray, now: float) -> list[TableEvent]:
        """Take one frame (a :class:`Frame`, or a BGR or grey array) taken at ``now`` (monotonic
        seconds) and return the table events it decides, in order.

        A frame that cannot be used (not an image, another size than the calibration's or than
        the frames before, a damaged JPEG) gives no events: it is counted in
        ``stats.bad_frames``, its reason kept in :attr:`refusal` and said once in
        :attr:`warnings`, and the next frame goes on as if it had not come. Nothing a frame holds
        makes this raise.
        """
        try:
            frame = Frame.of(frame)
            self._check_size(frame.size)
            if self._reading:
                # A region will most likely be read: decode the JPEG whole once and shrink that,
                # rather than decoding it twice (an eighth for the change map, then whole).
                frame.grey()
            self.changes.observe(frame.small(self.changes.cell), now)
        except BadFrame as err:
            self.stats.bad_frames += 1
            self.refusal = str(err)
            self._warn(f"a camera frame could not be used: {err}")
            return []
        self.stats.frames += 1
        self.reader.begin_frame(frame.shape, self.changes.moving)
        detected: dict[str, tuple[PhysicalCard, Detection, np.ndarray]] = {}
        boxes = self._boxes(frame.shape)
        for box, busy in boxes:
            if busy and self.stats.frames % self.busy_every:
                continue  # something moves there: a later frame is soon enough
            for card, detection, under in self._decode(frame, box, busy):
                self._note(detected, card, detection, under)
        self._reading = self.changes.pending() or (
            any(busy for _, busy in boxes) and (self.stats.frames + 1) % self.busy_every == 0)
        for card, detection, under in detected.values():
            self._follow(card, detection, under)
        gone = self._judge(detected, now)
        self.sightings = [Sighting(k.card, k.zone, k.center) for k in self.known.values()
                          if k.footprint.state == SEEN]
        events = self.tracker.update(self.sightings, now, gone, {cid for cid, k in self.known.items() if k.present})
        for cid in gone:
            # What its place shows now is the table: the next card laid there hides that.
            self.changes.explain(self.known.pop(cid).footprint.outline & self.changes.still)
        return events

    def face_down_card(self, centre: tuple[float, float], side: float) -> FaceDown:
        """The placeholder identity of a face-down card read at image point ``centre`` (its side
        ``side`` px): the face-down card known there, read again where it lay; else, the nearest
        face-down card that has left its place (its place shows what it hid: it was slid or
        carried here, one ``moved``); else a new one. All backs look alike: which face-down card
        is which is only known from where they lie."""
        downs = [k for k in self.known.values() if isinstance(k.card, FaceDown)]

        def distance(known: KnownCard) -> float:
            return float(np.hypot(*np.subtract(known.center, centre)))

        here = min(downs, key=distance, default=None)
        if here is not None and distance(here) < side / 2:
            return here.card
        left = [k for k in downs if k.footprint.state != SEEN and k.footprint.clear_since is not None]
        if left:
            return min(left, key=distance).card
        self._face_downs += 1
        return FaceDown(f"face-down-{self._face_downs}")

    def _check_size(self, size: tuple[int, int]) -> None:
        if self.calibration is not None and size != tuple(self.calibration.image_size):
            w, h = self.calibration.image_size
            raise BadFrame(f"the calibration was made at {w}x{h} but the camera gives "
                           f"{size[0]}x{size[1]}: calibrate again at this resolution")
        if self._size is not None and size != self._size:
            raise BadFrame(f"a frame of {size[0]}x{size[1]} among frames of {self._size[0]}x{self._size[1]}")
        self._size = size

    def _judge(self, detected: dict, now: float) -> set[str]:
        """Each known card not read this frame is seen, covered or gone (:mod:`vision.footprints`);
        the ids of the cards gone."""
        labels = MotionLabels(self.changes)
        footprints = [k.footprint for k in self.known.values()]
        gone = set()
        for cid, known in self.known.items():
            if cid in detected:
                continue
            if known.footprint.judge(self.changes, now, labels, footprints, self.linger) == GONE:
                gone.add(cid)
        return gone

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

    def _decode(self, frame: Frame, box: Box, busy: bool) -> list[tuple[PhysicalCard, Detection, np.ndarray]]:
        """Decode the region's views (:meth:`RegionReader.views`) until its dirty cells are all
        explained. A busy region gets the cheap views only, and only markers lying still count
        there: a card carried by a hand is not a sighting. Each card comes with what its marker
        cells showed before it was read there (the reference, as the table was)."""
        if hasattr(self.decoder, "read_region"):  # faces: the decoder finds and reads whole cards itself
            self.stats.decodes += 1
            found = [(card, detection, self.changes.reference(self._marker_cells(detection)))
                     for card, detection in self.decoder.read_region(frame, box, busy, self)]
            if not busy:
                self.changes.failed(box)
            return found
        x0, y0, x1, y1 = box
        try:
            gray = np.ascontiguousarray(frame.grey_region(box))
        except BadFrame as err:  # a JPEG whose eighth decoded but not its whole: nothing to read
            self.refusal = str(err)
            return []
        self.stats.decodes += 1
        self.stats.decoded_pixels += gray.size
        cards = []
        for image, scale in self.reader.views(gray, box, average=not busy):
            self.stats.views += 1
            for found in self.decoder.decode(image):
                detection = found.shifted(x0, y0, scale)
                if busy and not self.changes.is_still(self.changes.cells(detection.corners)):
                    continue
                under = self.changes.reference(self._marker_cells(detection))
                self.changes.explain(self.changes.cells(_extent(detection.corners, *CARD_REACH)))
                card = self._card(detection.value)
                if card is not None:
                    cards.append((card, detection, under))
            if not self.changes.has_dirty(box, solid=True):
                break  # what is left unexplained is too thin to be a marker: no other view reads it
        if not busy:
            self.changes.failed(box)
        else:
            self.changes.tried(box)
        return cards

    def _marker_cells(self, detection: Detection) -> np.ndarray:
        """The cells of a card's footprint: inside its marker, or for a decoder that says how far
        a card's footprint reaches (``footprint_reach``, in marker sides), that far."""
        return np.flatnonzero(self.changes.cells(_extent(detection.corners, getattr(self.decoder, "footprint_reach", 0.4))))

    def _card(self, value: str | int) -> PhysicalCard | None:
        try:
            if isinstance(value, int):
                if value in MAT_MARKER_IDS:
                    return None
                return card_for_aruco(value, self.deck)
            return card_for_payload(value, self.deck)
        except ForeignMarker as err:
            self.stats.foreign_codes += 1
            log.debug("ignoring a foreign code: %s", err)
            return None

    def _note(self, detected: dict, card: PhysicalCard | FaceDown, detection: Detection, under: np.ndarray) -> None:
        """Keep one detection per card this frame; a second one elsewhere is a duplicated card."""
        other = detected.get(card.id)
        if other is None:
            detected[card.id] = (card, detection, under)
            return
        if np.linalg.norm(np.subtract(other[1].center, detection.center)) > self._side(detection):
            self._duplicate(card)

    def _follow(self, card: PhysicalCard | FaceDown, detection: Detection, under: np.ndarray) -> None:
        known = self.known.get(card.id)
        distance = np.inf if known is None else np.linalg.norm(np.subtract(known.center, detection.center))
        if known is not None and known.footprint.state == SEEN and \
                self.changes.is_clean(known.footprint.cells) and distance > self._side(detection):
            self._duplicate(card)  # the card still lies where it was, unchanged: this is a second copy
            return
        cells = self._marker_cells(detection)
        present = self.changes.unmoved(cells) if known is None else known.present
        outline = self.changes.cells(_extent(detection.corners, *CARD_REACH))
        if known is not None and distance < self._side(detection) / 2:
            # Read again where it lay: it still hides what it hid.
            cells, under = known.footprint.cells, known.footprint.under
        elif known is not None:
            # Moved: what its old place shows now, still, is the table (or the card it lay on).
            self.changes.vacate(known.footprint.outline & ~outline)
        area = self.changes.cells(_extent(detection.corners, SURROUNDINGS))
        footprint = Footprint.lay(self.changes, cells, outline, area, under, guessed=present)
        self.known[card.id] = KnownCard(card, detection.corners, footprint,
                                        detection.center, self.zones.locate(detection.center), present)

    @staticmethod
    def _side(detection: Detection) -> float:
        return float(np.linalg.norm(detection.corners[1] - detection.corners[0]))

    def _duplicate(self, card: PhysicalCard | FaceDown) -> None:
        self.stats.duplicates += 1
        self._warn(f"card {card.id} is seen in two places at once: is there a duplicated card on the table?")

    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            log.warning(message)
            self.warnings.append(message)
