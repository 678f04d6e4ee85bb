"""The recogniser for unmarked cards: finds the cards that arrived in a changed region, reads
their faces, and names a card only when it is sure.

The pipeline hands it each changed region (:meth:`FaceRecogniser.read`, a
:class:`vision.recognisers.Region`). For each card-shaped patch (:mod:`vision.faces.finder`) it
warps the card upright, reads it (:class:`vision.faces.matcher.Matcher`), and names the card once
``agree`` reads in a row on still frames agree. A card read as unknown that often, or a face already lying
elsewhere on the table, is refused with a sentence for the table ("I can't read the card in
front of Seat 2: lift it and lay it again") and never becomes a sighting. A card back, once
``agree`` reads agree, is a face-down card (:class:`engine.table_events.FaceDown`): a sighting
with a placeholder identity, never a card of the deck.

Only the regions that changed are looked at, and the frame's colour only inside a card found
there (:meth:`vision.frames.Frame.colour` of the card's box, for sources that deliver grey
frames), so a quiet frame costs nothing here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.decks import PhysicalCard
from vision.faces.features import UPRIGHT, corner_masks, describe, face_shown, order_quad, turned, warp_upright
from vision.faces.index_reader import STANDARD_INDEX, IndexReader, reads_standard_index
from vision.faces.finder import (Backdrop, DeckSize, arrivals, card_patches, cards_of_patch, quad_mask, refine_quad,
                                 true_to_size)
from vision.faces.matcher import Matcher, Reading
from vision.faces.store import Enrolment
from vision.frames import Frame
from vision.recognisers import Found, Known, Outline, Region, Traits

log = logging.getLogger(__name__)

#: The pipeline follows a card by the quad it is found by, reaching CARD_REACH of its sides:
#: a face card's quad is its outline shrunk by this factor, so the two agree.
_MARKER_SHARE = 1 / 2.2


#: A reading this confident, with every corner and the whole face in view, names its card at once;
#: any other needs ``agree`` reads in a row.
SURE_AT_ONCE = 0.98
#: An outline read as a card not yet named is read again for this many frames even when its
#: patch is no longer card-shaped (a hand coming near joins it).
PENDING_FRAMES = 8
#: Outlines remembered (for agreement over frames, and for drawing).
SEEN_KEPT = 64
#: Two reads are of one outline when their centres lie within this share of a card's side.
SAME_PLACE = 0.15
#: The confidence a card needs that was fitted by its corners in a patch of several cards
#: (an outline a few millimetres off the card can read as another card of its colour).
GUESSED_SURE = 0.95


@dataclass
class Seen:
    """A card outline the recogniser has read: its ``quad`` (frame px), ``card`` (None: unknown or
    face down), ``confidence``, how many reads agreed on it (``count``; a read naming no card in
    between neither counts nor breaks that, but counts in ``misses``), and every card its reads
    have named (two names: the card is refused, never guessed)."""

    quad: np.ndarray
    card: PhysicalCard | None
    confidence: float
    count: int = 1
    face_down: bool = False
    refused: bool = False
    named: frozenset = frozenset()  # every card the reads of this outline have named
    at: int = 0  # the number of the frame of the last read
    others: list = field(default_factory=list)  # the cards fitted with it in its patch at the last read
    misses: int = 0  # reads that named no card
    confirmed: bool = False  # its card was named to the pipeline


def zone_words(zone: str | None) -> str:
    """A zone as the table says it: "seat2" -> "Seat 2", "centre" -> "the centre"."""
    if zone is None:
        return "outside the play areas"
    if zone.startswith("seat") and zone[4:].isdigit():
        return f"in front of Seat {zone[4:]}"
    return f"in the {zone}"


class FaceRecogniser:
    """Recognises unmarked cards by their faces against an enrolled deck.

    :param enrolment: the deck's references (:class:`vision.faces.store.Enrolment`), or for a
        standard-index deck nobody enrolled the corner index model's reader
        (:class:`vision.faces.index_reader.IndexReader`).
    :param agree: reads in a row that must name the same card.
    :param unknown_after: unreadable reads of one card before the table is told.
    """

    def __init__(self, enrolment: Enrolment | IndexReader, *, agree: int = 2, unknown_after: int = 4) -> None:
        self.enrolment = enrolment
        # A deck nobody enrolled is read by its corner indices alone (vision.faces.index_reader).
        self.matcher = None if isinstance(enrolment, IndexReader) else Matcher(enrolment)
        self.agree, self.unknown_after = agree, unknown_after
        self.traits = Traits(
            # A card's footprint (:mod:`vision.footprints`) reaches most of the card, its white
            # border included: the middle of a court card can look like the table in grey.
            footprint_reach=0.9,
            # A card slid away is named where it landed after ``agree`` still frames: its old
            # place waits this long after the motion ends before it counts as gone (one ``moved``).
            linger=0.2,
            # Reads must agree over frames, and a card can lie still beside a hand that moves: a
            # region where something moves is read every frame, read in vain or not.
            busy_every=1, busy_waits=False,
            # Reads of a patch nobody explains before the pipeline takes it as the table: enough
            # for a card to be refused in words (a hand resting on the table costs no more).
            attempts=unknown_after + 1)
        self.backdrop = Backdrop()
        self.deck_size = DeckSize()
        self.seen: dict[tuple[int, int], Seen] = {}
        self.reads = self.refusals = 0
        self._frame = -1  # the number of the frame of the last region read

    @property
    def face_down(self) -> list[Seen]:
        return [s for s in self.seen.values() if s.face_down]

    def outlines(self) -> list[Outline]:
        """For drawing (``cardtable vision watch``): each outline read lately, its label (the face
        and confidence, "unknown" or "face down") and a BGR colour."""
        drawn = []
        for seen in self.seen.values():
            if seen.face_down:
                drawn.append(Outline(seen.quad, "face down", (200, 160, 60)))
            elif seen.card is not None:
                drawn.append(Outline(seen.quad, f"{seen.card.id} {seen.confidence:.2f}", (60, 200, 60)))
            elif seen.refused:
                drawn.append(Outline(seen.quad, "unknown", (40, 40, 230)))
        return drawn

    def read(self, region: Region) -> list[Found]:
        """The cards named in ``region``; explains their cells and tells the table about cards
        it cannot name."""
        frame, box = region.frame, region.box
        grey = frame.grey()
        if not self.backdrop.ready(grey):
            region.explain(np.ones_like(region.dirty))
            return []
        x0, y0, x1, y1 = box
        if self._frame != region.number:
            self._frame = region.number
            self._forget_gone(region.known)
        to_table = region.to_table
        # Where something moves (a hand passing) nothing is new yet, but a card found may reach
        # under it: the corners it hides are not read, those lying still are.
        moving = region.cell_pixels(~region.still) if region.busy else np.zeros((y1 - y0, x1 - x0), bool)
        mask, reach = arrivals(grey[y0:y1, x0:x1], self.backdrop.grey[y0:y1, x0:x1], self.backdrop.empty[y0:y1, x0:x1],
                               self._arrived(region) & ~moving)
        support = None
        if to_table is not None:  # where a card found may reach: anything new, the cards read, what moves
            support = (reach.view(bool) | self.backdrop.laid(box) | moving, (x0, y0))
        found, read = [], []
        offset = np.float32([x0, y0])
        for contour, shaped in card_patches(mask):
            outline = None if shaped is None else shaped + offset
            cards = cards_of_patch(contour + offset.astype(np.int32), outline, to_table, self.deck_size.sizes, support=support)
            for i, quad in enumerate(cards):
                measured = quad is outline  # a whole card's outline, not a card fitted at its corners
                # Moved onto the card's edges, which a line printed along them may hide a pixel
                # or two all round: then made a card's size about its centre.
                quad = refine_quad(grey, quad)
                quad = order_quad(quad if to_table is None else true_to_size(quad, to_table, self.deck_size.sizes))
                read.append(quad.mean(axis=0))
                got = self._read(region, quad, mask, cards[:i] + cards[i + 1:], measured=measured)
                if got is not None:
                    found.append(got)
            if not region.has_dirty():
                break
        for seen in self._pending(region, read):
            # A card read once, whose patch is now joined by a hand nearby: its outline read again.
            got = self._read(region, seen.quad, mask, seen.others, expect=seen.card)
            if got is not None:
                found.append(got)
        return found

    def _forget_gone(self, known: dict[str, Known]) -> None:
        """Once a frame, before its first region (the cards named in a frame join the cards
        known only after all its regions are read): the cards gone leave the backdrop, and
        their outlines' records, so the next card laid there starts afresh."""
        self.backdrop.keep_only(known)
        self.seen = {k: s for k, s in self.seen.items()
                     if not (s.confirmed and s.card is not None and s.card.id not in known)}

    def _pending(self, region: Region, read: list[np.ndarray]) -> list[Seen]:
        """The outlines in the region read lately as a card not yet named, not read again this
        frame, with cells changed and lying still (those that move are hidden when it is read)."""
        x0, y0, x1, y1 = region.box
        pending = []
        for seen in self.seen.values():
            (qx0, qy0), (qx1, qy1) = seen.quad.min(axis=0), seen.quad.max(axis=0)
            if seen.card is None or seen.refused or seen.card.id in region.known \
                    or region.number - seen.at > PENDING_FRAMES or qx0 < x0 or qy0 < y0 or qx1 > x1 or qy1 > y1:
                continue
            side = float(np.linalg.norm(seen.quad[1] - seen.quad[0]))
            if any(np.linalg.norm(centre - seen.quad.mean(axis=0)) <= SAME_PLACE * side for centre in read):
                continue
            cells = region.cells(seen.quad)
            if region.dirty[cells].any():  # what moves over it is hidden when it is read
                pending.append(seen)
        return pending

    @staticmethod
    def _arrived(region: Region) -> np.ndarray:
        """The pixels of the region where something may have arrived: its dirty cells, grown by
        a cell to take in a card's edge but not into the inside of cards already known (a cell
        on a known card's edge, which a card laid against it covers only partly, may not change
        enough to be dirty)."""
        dirty = region.dirty
        known = np.zeros(dirty.shape, np.uint8)
        for card in region.known.values():
            centre = card.corners.mean(axis=0)
            known |= region.cells(centre + (card.corners - centre) / _MARKER_SHARE).view(np.uint8)
        inside = cv2.erode(known, np.ones((3, 3), np.uint8)).view(bool)
        grown = cv2.dilate(dirty.view(np.uint8), np.ones((3, 3), np.uint8)).view(bool)
        return region.cell_pixels(grown & ~(inside & ~dirty))

    def _read(self, region: Region, quad: np.ndarray, mask: np.ndarray, others: list[np.ndarray] = (),
              expect: PhysicalCard | None = None, measured: bool = False) -> Found | None:
        """Read the card in ``quad``. ``others``: the other cards fitted in its patch of cards
        (:func:`vision.faces.finder.fit_cards`): its outline may be a few millimetres off, so it
        must read surely. They, and the cards named that overlap it, may lie on it: the corners
        they reach are not read. ``mask``: the region's pixels where something new lies.
        ``expect``: the card an outline read before was read as; a reading of anything else is
        not counted (something may lie on it now). ``measured``: the outline is a whole card's,
        whose size tells the deck's (:class:`DeckSize`)."""
        upright = self._upright(region.frame, quad)
        # Parts of the outline that are not new (another card on top, a hand) are hidden.
        hidden = warp_upright(mask, quad - np.float32(region.box[:2])) == 0
        to_upright = cv2.getPerspectiveTransform(quad, np.float32([(0, 0), (UPRIGHT[0], 0), UPRIGHT, (0, UPRIGHT[1])]))
        for other in [*others, *self.backdrop.neighbours(quad)]:
            hidden |= quad_mask(hidden.shape, cv2.perspectiveTransform(other.reshape(-1, 1, 2).astype(np.float32), to_upright))
        visible, shown = corner_masks(hidden), face_shown(hidden)
        if self.matcher is None:
            reading = self.enrolment.read(upright, visible)
        else:
            reading = self.matcher.read((describe(upright, visible), describe(turned(upright), visible[::-1])),
                                        (visible, visible[::-1]), (shown, shown[::-1, ::-1]))
        if others and reading.card is not None and reading.confidence < GUESSED_SURE:
            reading = Reading(None, reading.confidence, why=f"a card fitted in a patch of cards, read unsurely as {reading.card.id}")
        if expect is not None and reading.card != expect:
            return None
        settled = region.is_still(region.cells(quad))
        if reading.card is None and not settled:
            return None  # beside a hand moving, only a read that names a card speaks
        self.reads += 1
        seen = self._remember(quad, reading, region.number, others, settled)
        centre = tuple(float(v) for v in quad.mean(axis=0))
        zone = region.locate(centre)
        if reading.face_down:
            return self._face_down(region, quad, seen, others)
        if reading.card is None:
            log.debug("card at %s unread: %s", centre, reading.why)
            if seen.misses >= self.unknown_after:
                self._refuse(region, seen, f"I can't read the card {zone_words(zone)}: lift it and lay it again")
            return None
        if len(seen.named) > 1:  # reads of one card named two cards: trust neither
            self._refuse(region, seen, f"I can't read the card {zone_words(zone)}: lift it and lay it again")
            return None
        if seen.count < self.agree and not (reading.confidence >= SURE_AT_ONCE and visible.all() and not others):
            return None
        known = region.known.get(reading.card.id)
        if known is not None and known.undisturbed and \
                np.hypot(*np.subtract(known.center, centre)) > 0.5 * np.linalg.norm(quad[1] - quad[0]):
            self._refuse(region, seen, f"I can't read the card {zone_words(zone)}: the {reading.card.face.name} "
                         f"already lies {zone_words(known.zone)}; lift it and lay it again")
            return None
        self._lay(region, reading.card.id, quad, others)
        if measured and region.to_table is not None:
            self.deck_size.note(quad, region.to_table)
        seen.confirmed = True
        return Found(reading.card, _followed_by(quad), reading.confidence)

    def _face_down(self, region: Region, quad: np.ndarray, seen: Seen, others: list[np.ndarray]) -> Found | None:
        """A card back read ``seen.count`` times in a row: once ``agree`` reads agree, a face-down
        card with the placeholder identity the pipeline gives it
        (:meth:`vision.recognisers.Region.face_down`), laid like a named card (:meth:`_lay`)."""
        if seen.count < self.agree:
            return None
        centre = quad.mean(axis=0)
        card = region.face_down((float(centre[0]), float(centre[1])), float(np.linalg.norm(quad[1] - quad[0])))
        self._lay(region, card.id, quad, others)
        return Found(card, _followed_by(quad))

    def _lay(self, region: Region, key: str, quad: np.ndarray, others: list[np.ndarray]) -> None:
        """Card ``key`` (named, or face down) lies in ``quad``: its cells are explained and it is
        laid on the backdrop, except what another card of the patch reaches (that card may lie
        on top, and stays to be read)."""
        region.explain(self._own_cells(region, quad, others))
        self.backdrop.lay(key, region.frame.grey(), quad, others)

    @staticmethod
    def _own_cells(region: Region, quad: np.ndarray, others: list[np.ndarray]) -> np.ndarray:
        """The cells of ``quad`` that none of the ``others`` of its patch reach (they may lie on
        it, and stay to be read)."""
        cells = region.cells(quad)
        return cells & ~np.any([region.cells(o) for o in others], axis=0) if others else cells

    @staticmethod
    def _upright(frame: Frame, quad: np.ndarray) -> np.ndarray:
        """The card inside ``quad`` upright, in colour: the frame's colour of the card's box alone
        (a grey frame converts only when asked, see :meth:`vision.frames.Frame.colour`)."""
        x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        return warp_upright(frame.colour((int(x0), int(y0), int(x1), int(y1))), quad - np.float32([x0, y0]))

    def _remember(self, quad: np.ndarray, reading: Reading, at: int = 0, others: list[np.ndarray] = (),
                  settled: bool = True) -> Seen:
        """The outline's record, updated with this reading: an outline read before is one whose
        centre lies within :data:`SAME_PLACE` of a card side of this one's. A read beside a hand
        moving (not ``settled``) counts towards agreement but names no card that would make a
        later read a contradiction."""
        centre = quad.mean(axis=0)
        reach = SAME_PLACE * float(np.linalg.norm(quad[1] - quad[0]))
        near = [(float(np.linalg.norm(s.quad.mean(axis=0) - centre)), k) for k, s in self.seen.items()]
        near = [k for d, k in sorted(near) if d <= reach]
        key = near[0] if near else tuple(int(v) for v in centre)
        old = self.seen.get(key)
        if old is not None and old.refused:
            old = None  # read again after being refused: the card was laid again, start afresh
        named = set() if old is None else set(old.named)
        for card in (reading.card, reading.face_says) if settled else ():  # a face that vetoed the corners names its card
            if card is not None:
                named.add(card.id)
        unsure = reading.card is None and not reading.face_down
        misses = (0 if old is None else old.misses) + unsure
        if unsure and old is not None and old.card is not None:
            # An unsure read between sure ones neither counts nor breaks their agreement.
            card, confidence, count = old.card, old.confidence, old.count
        else:
            same = old is not None and (old.card == reading.card and old.face_down == reading.face_down)
            card, confidence, count = reading.card, reading.confidence, old.count + 1 if same else 1
        seen = Seen(quad, card, confidence, count, reading.face_down, named=frozenset(named), at=at,
                    others=list(others), misses=misses)
        self.seen.pop(key, None)
        self.seen[key] = seen
        while len(self.seen) > SEEN_KEPT:  # the oldest outlines are forgotten
            self.seen.pop(next(iter(self.seen)))
        return seen

    def _refuse(self, region: Region, seen: Seen, message: str) -> None:
        region.explain(self._own_cells(region, seen.quad, seen.others))
        seen.refused = True
        self.refusals += 1
        region.warn(message, every=0.0)    # once a card laid: said again each time it is laid again


def _followed_by(quad: np.ndarray) -> np.ndarray:
    """The quad the pipeline follows a card of outline ``quad`` by (see :data:`_MARKER_SHARE`)."""
    centre = quad.mean(axis=0)
    return (centre + (quad - centre) * _MARKER_SHARE).astype(np.float32)


def recogniser(config) -> FaceRecogniser:
    """The face recogniser for a ``[vision]`` config: its enrolled deck (``faces``), checked
    against the config's ``deck``, or the corner index model for ``faces = "standard-index"``.

    :raises OSError: when the enrolment file is missing.
    :raises InvalidInput: when it is not an enrolment, or of another deck.
    """
    from engine.errors import InvalidInput

    if reads_standard_index(config.faces):
        if config.deck != "standard":
            raise InvalidInput(f'faces = "{STANDARD_INDEX}" reads a standard 52-card deck, but [vision] deck is '
                               f"{config.deck!r}: enrol that deck (cardtable enroll faces)")
        return FaceRecogniser(IndexReader(deck=config.deck))
    enrolment = Enrolment.load(config.faces)
    if enrolment.deck.name != config.deck:
        raise InvalidInput(f"{config.faces} enrols a {enrolment.deck.title}, but [vision] deck is {config.deck!r}")
    return FaceRecogniser(enrolment)
