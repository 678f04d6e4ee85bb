"""The camera pipeline: frames in, table events and sentences out. The one entry point the
application needs.

>>> pipeline = Pipeline(load_vision_config({"deck": "standard"}))      # doctest: +SKIP
>>> inputs = pipeline.process(frame, now=time.monotonic())             # doctest: +SKIP

Per frame (a :class:`vision.frames.Frame`, decoded only as far as needed, or an array): the
change map (:mod:`vision.changes`) says which cells changed and are still; only those regions
are read by the recogniser, each as hard as it takes (:mod:`vision.regions`: enlarged, and
averaged over the frames it stayed still), which a decode of every full frame cannot afford.
Cards already known are followed for free while the cells under their marker show them, and
their footprints (:mod:`vision.footprints`) say when one is gone rather than covered. A card
read in two places at once is said, and the tracker (:mod:`vision.tracker`) turns the
sightings into :class:`TableEvent` values. What the pipeline has to tell the table comes back with
the frame's events, as :class:`~engine.table_events.Notice` values (each sentence at most every
:data:`SAY_AGAIN_AFTER` seconds), so the table hears the camera on one road.

A card back (faces with the back enrolled) is a face-down card
(:class:`engine.table_events.FaceDown`): followed like a card, under a placeholder identity
the pipeline gives it (:meth:`Pipeline.face_down_card`), never a card of the deck.

How a card is told in a region is the recogniser's (:mod:`vision.recognisers`: markers or faces,
chosen once from the config): the pipeline hands it each region to read as a
:class:`vision.recognisers.Region` and follows the cards it names.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

from engine.decks import PhysicalCard
from engine.table_events import FaceDown, Notice, TableEvent
from vision.calibration import Calibration, load_calibration
from vision.changes import ChangeMap
from vision.config import VisionConfig
from vision.footprints import GONE, SEEN, Footprint, MotionLabels
from vision.frames import BadFrame, Frame
from vision.recognisers import Found, Known, Recogniser, Region, extent, make_recogniser, undisturbed
from vision.regions import Box, RegionReader
from vision.tracker import Sighting, Tracker
from vision.zones import ZoneMap

log = logging.getLogger(__name__)

#: How far around a card motion may carry it away (its footprint's surroundings), in marker sides.
SURROUNDINGS = 1.6
#: Above this share of the frame, decode the frame whole rather than region by region.
WHOLE_FRAME_SHARE = 0.6
#: The same sentence is said again when it happens again ("I can't read the card in front of
#: Seat 2" for the next card), but not more often than this, in seconds of frame time.
SAY_AGAIN_AFTER = 3.0
#: A code that is not one of this deck's cards is said at most this often.
FOREIGN_AGAIN_AFTER = 10.0
FOREIGN = "A code on the table is not one of this deck's cards: it is ignored"
#: A table quiet for a while is looked at once every this many frames at most (every other frame
#: after the first quiet frame, then every third): a hand that comes is seen this many frames
#: later at most, and from then on more often.
QUIET_EVERY = 3


def table_events(inputs: list[TableEvent | Notice]) -> list[TableEvent]:
    """The table events among what :meth:`Pipeline.process` returned (its sentences left out),
    for a reader of the camera that only wants the cards."""
    return [item for item in inputs if isinstance(item, TableEvent)]


@dataclass
class PipelineStats:
    """Counters since the pipeline started: ``decodes`` regions read (``decoded_pixels`` in
    grey crops in all), ``views`` decoder calls on them (a region may be tried enlarged, then
    averaged), ``foreign_codes`` codes of no card of the deck."""

    frames: int = 0
    decodes: int = 0
    views: int = 0
    decoded_pixels: int = 0
    foreign_codes: int = 0
    duplicates: int = 0
    bad_frames: int = 0
    #: Frames not looked at while nothing waits: a quiet table, a hand moving clear of cards (see :meth:`Pipeline.process`).
    skipped: int = 0


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


class Pipeline:
    """Turns camera frames into table events for one table.

    :param config: the ``[vision]`` settings.
    :param recogniser: a recogniser to use instead of the one the config names
        (:func:`vision.recognisers.make_recogniser`).
    :param calibration: a calibration to use instead of the config's calibration file.
    :param zones: a zone map to use instead of the config's zones.
    :raises InvalidInput: for zones in mm without a calibration, or a bad calibration file.
    :raises OSError: when the calibration file or what the recogniser needs is missing (a
        decoder's library, an enrolment).
    """

    def __init__(self, config: VisionConfig | None = None, *, recogniser: Recogniser | None = None,
                 calibration: Calibration | None = None, zones: ZoneMap | None = None) -> None:
        self.config = config or VisionConfig()
        self.recogniser = recogniser or make_recogniser(self.config)
        traits = self.traits = self.recogniser.traits
        if calibration is None and self.config.calibration is not None:
            calibration = load_calibration(self.config.calibration)
        self.calibration = calibration
        self.zones = zones or ZoneMap(self.config.zones, units=self.config.zone_units,
                                      image_to_table=None if calibration is None else calibration.image_to_table)
        self.tracker = Tracker(place_after=self.config.place_after, remove_after=self.config.remove_after)
        self.changes = ChangeMap(attempts=traits.attempts, backoff=traits.backoff)
        self.reader = RegionReader(enlarge=traits.enlarge, cell=self.changes.cell)
        #: The last frame foresaw that this one reads a region (see :meth:`_events`).
        self._reading = True
        #: Frames not to look at from now on (a quiet table), and quiet frames looked at in a row.
        self._idle, self._quiet_looks = 0, 0
        self.known: dict[str, KnownCard] = {}
        #: How sure the recogniser was of each card it named, when it says (faces do).
        self.confidence: dict[str, float] = {}
        self.stats = PipelineStats()
        self._saying: dict[str, float] = {}   # this frame's sentences, each with how often it may be said
        self._said: dict[str, float] = {}     # each sentence said, and when
        self.sightings: list[Sighting] = []
        self._size: tuple[int, int] | None = None
        self._zone_cells: np.ndarray | None = None
        self._face_downs = 0
        #: Why the last frame that could not be used was refused.
        self.refusal = ""

    def process(self, frame: Frame | np.ndarray, now: float) -> list[TableEvent | Notice]:
        """Take one frame (a :class:`Frame`, or a BGR or grey array) taken at ``now`` (monotonic
        seconds) and return the table events it decides, in order, then the sentences it has for
        the table (:class:`Notice`, source "camera"; one said less than :data:`SAY_AGAIN_AFTER`
        seconds before is not said again).

        A frame that cannot be used (not an image, another size than the calibration's or than
        the frames before, a damaged JPEG) gives no events: it is counted in
        ``stats.bad_frames``, its reason kept in :attr:`refusal` and said, and the next frame
        goes on as if it had not come. Nothing a frame holds makes this raise.

        While the table is quiet (the frame before showed nothing moving, nothing unlike its
        reference, every card followed seen where it lies, no event waiting), the next frame is
        not looked at, not even decoded (counted in ``stats.skipped``), then two of every three
        while it stays quiet: a hand that comes, or a card laid, is seen two frames later at most.
        A hand that only moves over the table (nothing it passed lies still, every card seen
        where it lies) is looked at every other frame; anything else, every frame.
        """
        events = self._events(frame, now)
        return [*events, *self._notices(now)]

    def warn(self, sentence: str, every: float | None = None) -> None:
        """Say ``sentence`` to the table with this frame's events, unless it was said less than
        ``every`` seconds (:data:`SAY_AGAIN_AFTER` unless given) before."""
        self._saying[sentence] = SAY_AGAIN_AFTER if every is None else every

    def _notices(self, now: float) -> list[Notice]:
        notices = []
        for sentence, every in self._saying.items():
            if now - self._said.get(sentence, -float("inf")) >= every:
                self._said[sentence] = now
                log.warning(sentence)
                notices.append(Notice(sentence[:1].upper() + sentence[1:], "camera"))
        self._saying.clear()
        return notices

    def _events(self, frame: Frame | np.ndarray, now: float) -> list[TableEvent]:
        if self._idle:
            self._idle -= 1
            self.stats.skipped += 1
            return []
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
            self.warn(f"a camera frame could not be used: {err}")
            return []
        self.stats.frames += 1
        self.reader.begin_frame(frame.shape, self.changes.moving)
        detected: dict[str, tuple[Found, np.ndarray]] = {}
        known: dict[str, Known] | None = None
        boxes = self._boxes(frame.shape)
        for box, busy in boxes:
            if busy and self.stats.frames % self.traits.busy_every:
                continue  # something moves there: a later frame is soon enough
            if known is None:  # the cards known do not change before the frame's regions are all read
                known = {cid: Known(k.card, k.corners, k.center, k.zone, k.footprint, self.changes)
                         for cid, k in self.known.items()}
            for found, under in self._read(self._region(frame, box, busy, known)):
                self._note(detected, found, under)
        # A region will most likely be read in the next frame: a still patch waits, or the next
        # frame reads where something moves and something does (busy patches wait in between).
        self._reading = self.changes.pending(busy=False) or (
            (self.stats.frames + 1) % self.traits.busy_every == 0
            and (any(busy for _, busy in boxes) or self.changes.pending()))
        for found, under in detected.values():
            self._follow(found, under)
        gone = self._judge(detected, now)
        # A card is seen where it lies when read there this frame, or when its footprint shows
        # it and nothing moves inside its outline (it may be sliding away, its middle unchanged).
        moving = bool(self.changes.moving.any())
        self.sightings = [Sighting(k.card, k.zone, k.center) for cid, k in self.known.items()
                          if k.footprint.state == SEEN
                          and (cid in detected or not (moving and k.footprint.stirred(self.changes)))]
        events = self.tracker.update(self.sightings, now, gone, {cid for cid, k in self.known.items() if k.present})
        for cid in gone:
            # What its place shows now is the table: the next card laid there hides that.
            self.changes.explain(self.known.pop(cid).footprint.outline & self.changes.still)
        self._pace(bool(events or gone))
        return events

    def _pace(self, decided: bool) -> None:
        """How many of the next frames not to look at. While nothing waits (no event decided or
        waiting, nothing to read: no cell unlike its reference lies still), a table where nothing
        moves either and every card is seen where it lies, or covered by something lying still
        (a resting hand), is looked at every other frame, then every :data:`QUIET_EVERY` frames
        while it stays quiet; a hand that only moves over the table (nothing it passed lies
        still, every card seen where it lies) every other frame; and so is a hand pushing cards
        along (every card seen where it lies or under the hand, none of their places clear) while
        no read is foreseen: a card under a hand cannot be read, and its trail is followed across
        two frames as across one. Not for a recogniser that reads every frame where something
        moves (``Traits.busy_every`` 1: faces)."""
        settled = not decided and self.tracker.settled
        idle = settled and not self.changes.dirty.any()
        # A card covered by something lying still (a resting hand) waits for it to move; one
        # whose place is clear waits for its trail, which the next frame may end.
        held = all(k.footprint.state == SEEN or k.footprint.clear_since is None for k in self.known.values())
        quiet = idle and self.changes.quiet and held
        self._quiet_looks = self._quiet_looks + 1 if quiet else 0
        if quiet:
            self._idle = min(self._quiet_looks, QUIET_EVERY - 1)
            return
        # (Reads that must agree over frames, asking every frame where something moves, get them.)
        seen = all(k.footprint.state == SEEN for k in self.known.values())
        pushed = held and not seen and settled and not self._reading
        self._idle = int(self.traits.busy_every > 1 and ((idle and seen) or pushed))

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
            if known.footprint.judge(self.changes, now, labels, footprints, self.traits.linger, self._table()) == GONE:
                gone.add(cid)
        return gone

    def _table(self) -> np.ndarray | None:
        """The change cells inside some zone (None without zones: the whole frame is the table)."""
        if self._zone_cells is None and self.zones.polygons:
            mask = np.zeros(self.changes.small.shape, np.uint8)
            polygons = [np.round(p / self.changes.cell).astype(np.int32) for p in self.zones.image_polygons().values()]
            self._zone_cells = cv2.fillPoly(mask, polygons, 1).view(bool)
        return self._zone_cells

    def _boxes(self, shape: tuple[int, int]) -> list[tuple[Box, bool]]:
        """The regions to decode and whether each is busy (see :meth:`ChangeMap.regions`):
        patches of dirty cells, each grown to take in whole any known marker it touches (a card
        half uncovered by a leaving hand is decoded whole). The first frame is read whole,
        whatever stands out in it: the recogniser sees the table as it was when the camera
        started (the faces recogniser keeps it as its empty table), and a card lying there
        whose outline hardly shows is read all the same."""
        boxes = [(self._grow(box, shape), busy) for box, busy in self.changes.regions()]
        area = sum((x1 - x0) * (y1 - y0) for (x0, y0, x1, y1), _ in boxes)
        if self.stats.frames == 1 or area > WHOLE_FRAME_SHARE * shape[0] * shape[1]:
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

    def _region(self, frame: Frame, box: Box, busy: bool, known: dict[str, Known]) -> Region:
        """Region ``box`` of ``frame`` as the recogniser is handed it."""
        return Region(frame, box, busy, number=self.stats.frames, changes=self.changes, reader=self.reader, known=known,
                      to_table=None if self.calibration is None else self.calibration.image_to_table,
                      locate=self.zones.locate, warn=self.warn, face_down=self.face_down_card)

    def _read(self, region: Region) -> list[tuple[Found, np.ndarray]]:
        """The cards the recogniser names in ``region``, each with what its footprint's cells
        showed before it was read there (the reference, as the table was). A region read in
        vain counts a try (:meth:`ChangeMap.failed`; where something moves, the recogniser may
        wait for something new to come to rest, :meth:`ChangeMap.tried`)."""
        try:
            found = self.recogniser.read(region)
        except BadFrame as err:  # a JPEG whose eighth decoded but not its whole: nothing to read
            self.refusal = str(err)
            return []
        finally:
            self.stats.decoded_pixels += region.tally.pixels
            self.stats.views += region.tally.views
            self.stats.foreign_codes += region.tally.foreign
            if region.tally.foreign:
                self.warn(FOREIGN, FOREIGN_AGAIN_AFTER)
        self.stats.decodes += 1
        if not region.busy:
            self.changes.failed(region.box, region.held)
        elif self.traits.busy_waits:
            self.changes.tried(region.box)
        for card in found:
            if card.confidence is not None:
                self.confidence[card.card.id] = card.confidence
        return [(card, self.changes.reference(self._footprint_cells(card))) for card in found]

    def _footprint_cells(self, found: Found) -> np.ndarray:
        """The cells of a card's footprint: as far around its quad as the recogniser says
        (:attr:`vision.recognisers.Traits.footprint_reach`)."""
        return np.flatnonzero(self.changes.cells(extent(found.corners, self.traits.footprint_reach)))

    def _note(self, detected: dict, found: Found, under: np.ndarray) -> None:
        """Keep one sighting per card this frame; a second one elsewhere is a duplicated card."""
        other = detected.get(found.card.id)
        if other is None:
            detected[found.card.id] = (found, under)
            return
        if np.linalg.norm(np.subtract(other[0].center, found.center)) > found.side:
            self._duplicate(found.card)

    def _follow(self, found: Found, under: np.ndarray) -> None:
        card = found.card
        known = self.known.get(card.id)
        distance = np.inf if known is None else np.linalg.norm(np.subtract(known.center, found.center))
        if known is not None and undisturbed(known.footprint, self.changes) and distance > found.side:
            self._duplicate(card)  # the card still lies where it was, unchanged: this is a second copy
            return
        cells = self._footprint_cells(found)
        present = self.changes.unmoved(cells) if known is None else known.present
        outline = self.changes.cells(extent(found.corners, *self.traits.card_reach))
        since = self.stats.frames
        if known is not None and distance < found.side / 2:
            # Read again where it lay: it still hides what it hid, and lies there since it came.
            cells, under, since = known.footprint.cells, known.footprint.under, known.footprint.since
        elif known is not None:
            # Moved: what its old place shows now, still, is the table (or the card it lay on).
            self.changes.vacate(known.footprint.outline & ~outline)
        area = self.changes.cells(extent(found.corners, SURROUNDINGS))
        footprint = Footprint.lay(self.changes, cells, outline, area, under, guessed=present,
                                  side=found.side / self.changes.cell, since=since)
        self.known[card.id] = KnownCard(card, found.corners, footprint, found.center, self.zones.locate(found.center),
                                        present)

    def _duplicate(self, card: PhysicalCard | FaceDown) -> None:
        self.stats.duplicates += 1
        self.warn(f"card {card.id} is seen in two places at once: is there a duplicated card on the table?")
