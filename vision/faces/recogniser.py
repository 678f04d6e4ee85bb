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

import functools
import logging
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from engine.decks import PhysicalCard
from vision.faces.features import (CORNERS, FACE, INSET, UPRIGHT, UPRIGHT_OUTLINE, corner_features, corner_masks, face_shown, order_quad,
                                   shown_part, shows_whole, warp_upright)
from vision.faces.index_reader import (INDEX_CORNERS, STANDARD_INDEX, CornerModel, IndexReader, index_view, ink_clash, likeliest,
                                       reads_standard_index, shipped_model)
from vision.faces.finder import (DIFFERENCE, SAME_OUTLINE, Backdrop, DeckSize, arrivals, card_patches, cards_of_patch, cleaned,
                                 filled, fine_arrivals, lies_on, quad_mask, refine_quad, shown_corners, true_to_size)
from vision.faces.edges_inside import straight_edges
from vision.faces.matcher import Matcher, Reading
from vision.faces.still import read_cards
from vision.faces.store import Enrolment
from vision.frames import Frame
from vision.recognisers import Found, Known, Outline, Region, Traits

log = logging.getLogger(__name__)

#: The pipeline follows a card by the quad it is found by: a face card's quad is its outline
#: shrunk by this factor, the card reaching half its inverse of the quad's sides all round
#: (:attr:`vision.recognisers.Traits.card_reach`; a marker's card reaches less across).
_MARKER_SHARE = 1 / 2.2


#: A reading this confident, with every corner and the whole face in view, names its card at once;
#: any other needs ``agree`` reads in a row.
SURE_AT_ONCE = 0.98
#: An outline read as a card not yet named is read again for this many frames even when its
#: patch is no longer card-shaped (a hand coming near joins it).
PENDING_FRAMES = 8
#: Edge pixels for each pixel round its box that make what stands out from the table in the
#: first frame card-like (see :func:`_sharp_edged`).
SHARP = 0.5
#: Outlines remembered (for agreement over frames, and for drawing).
SEEN_KEPT = 64
#: Two reads are of one outline when their centres lie within this share of a card's side;
#: two reads of a card by the corner it shows alone, when their indices do within SAME_INDEX
#: (a fan's next card shows its index 7 mm or more along, 0.11 of a card's side).
SAME_PLACE, SAME_INDEX = 0.15, 0.075
#: The confidence a card needs that was fitted by its corners in a patch of several cards
#: (an outline a few millimetres off the card can read as another card of its colour).
GUESSED_SURE = 0.95
#: A guess at a card showing one corner alone is read only when that corner correlates this well
#: with some enrolled card's, before any alignment (most guesses are no card at all).
SHOWN_LIKENESS = 0.6
#: At most this many patches of a region, the largest, are looked at for cards showing a corner
#: each in one frame (see :meth:`FaceRecogniser._read_patches`).
SHOWN_PATCHES = 8
#: At most this many guesses at cards showing a corner, in a patch, the likeliest as first
#: guessed, are moved to where they look most like a card (see :meth:`FaceRecogniser._read_shown`).
SHOWN_FITTED = 40
#: A card read by one corner alone needs its aligned corner correlation this high (the matcher
#: asks 0.9 of a card seen whole).
SHOWN_LEAST = 0.96
#: ... and fit its corner this much better than any other card read unsurely at that corner by
#: another guess (the guesses at one corner differ by a few pixels and degrees: the one that
#: fits best is the corner).
SHOWN_RIVAL = 0.03
#: A card read by one corner alone, unsurely or not clearly enough, is named when the corner
#: index model reads the same card in that corner this surely (:meth:`FaceRecogniser._index_reads`;
#: the model names a card alone at 0.99994, with no enrolled corner beside).
INDEX_AGREES = 0.99
#: A card named whose rank the corner index model reads in another suit this surely (and the
#: card itself nowhere) is not named (:meth:`FaceRecogniser._look`): a doubt needs less than an
#: agreement, a card not named being unknown, never wrong (nicu-ornamental's KC, its club's top
#: lobe at the corner patch's edge, named the KS while the model read the KC at 0.985).
INDEX_DOUBTS = 0.9
#: Such a guess is turned about its corner by these degrees, and shifted by these pixels of the
#: upright view (:meth:`FaceRecogniser._fitted_guess`), when it looks this much like a card's
#: corner as found.
SHOWN_TURNS = ((-12.0, -8.0, -4.0, 0.0, 4.0, 8.0, 12.0), (-2.0, 0.0, 2.0))
SHOWN_SHIFTS, SHOWN_TRY = ((-6, 6), (-2, 2)), 0.35
#: The turns of a guess at a card's side seen across the patch: its direction is known to a
#: degree, where its corner lies along the side less well.
SIDED_TURNS = ((0.0,), (-1.0, 0.0, 1.0))
#: A card that showed one corner alone is followed by its outline shrunk this much about its
#: middle: the cards on it are not its footprint, nor what is inside a card known.
SHOWN_FOLLOWED = 0.12
#: A region whose empty table is as light as a card's paper in grey (within the difference that
#: makes a pixel new) over this share of it is looked at in colour too (:meth:`FaceRecogniser._in_colour`).
LIGHT_TABLE = 0.05
#: A card named that a card named later was laid on is still there while this share of it, at
#: least, shows as it was laid (:meth:`FaceRecogniser._read_covered`): the strip of a fanned
#: card beside the next, 12 mm of 63 turned a little, is 15 % of it.
COVERED_SHOWS = 0.1
#: A card named before by its whole outline whose centre lies within this share of a card's
#: short side of a card being read (a card dealt a few millimetres onto it, a fan dealt card by
#: card) hides none of it: the card read came later, and lies on it. (A card named by the one
#: corner it showed may have come with it: a fan laid at once names its cards by their corners
#: while its bottom card, read whole, is not yet named.)
DEALT_ONTO = 0.25
#: Where a cell's pixels came out this share lighter than the table and as many darker, something
#: came there though its mean stayed the table's; up to this many such cells beyond the cells the
#: change map saw change are taken in (see :meth:`FaceRecogniser._arrived`): a corner index
#: reaches a fifth of a card's short side, 37 px of a card 260 px long, five cells.
MIXED, MIXED_REACH = 0.1, 6
#: ... lighter than the table anywhere within this many pixels, or darker (see :meth:`FaceRecogniser._mixed`).
NEAR_PX = 2
#: The gaps (px) closed in the arrivals a card showing one corner is found in (see :func:`arrivals`).
FINE_CLOSE = 3


@dataclass
class Seen:
    """A card outline the recogniser has read: its ``quad`` (frame px), ``card`` (None: unknown or
    face down), ``confidence``, how many reads agreed on it (``count``; a read naming no card in
    between neither counts nor breaks that, but counts in ``misses`` until a read names one), and
    every card its reads have named (two names: the card is refused, never guessed)."""

    quad: np.ndarray
    card: PhysicalCard | None
    confidence: float
    count: int = 1
    face_down: bool = False
    refused: bool = False
    named: frozenset = frozenset()  # every card the reads of this outline have named
    at: int = 0  # the number of the frame of the last read
    others: list = field(default_factory=list)  # the cards fitted with it in its patch at the last read
    misses: int = 0  # reads in a row that named no card (a sure read in between: the card is readable)
    tries: int = 0  # reads lying still, whatever they named (as many leave its cells to be given up as the table)
    confirmed: bool = False  # its card was named to the pipeline
    shows: int | None = None  # the one corner of the card that showed (a fanned hand's), or None
    end: np.ndarray | None = None  # how far the side running from that corner showed (frame px)
    rivalled: bool = False  # read by that corner while another guess there read another card (:meth:`FaceRecogniser._read_shown`)


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
        #: What reads a card's upright view: the enrolled deck's matcher, or the corner-index reader.
        self.reader = enrolment if self.matcher is None else self.matcher
        self.agree, self.unknown_after = agree, unknown_after
        self.traits = Traits(
            # A card's footprint (:mod:`vision.footprints`) reaches most of the card, its white
            # border included: the middle of a court card can look like the table in grey.
            footprint_reach=0.9,
            # The card is its outline: a card dealt onto part of it covers what its own print
            # covers (:mod:`vision.footprints`).
            card_reach=(0.5 / _MARKER_SHARE, 0.5 / _MARKER_SHARE),
            # A card slid away is named where it landed after ``agree`` still frames: its old
            # place waits this long after the motion ends before it counts as gone (one ``moved``).
            linger=0.2,
            # Reads must agree over frames, and a card can lie still beside a hand that moves: a
            # region where something moves is read every frame, read in vain or not.
            busy_every=1, busy_waits=False, backoff=False,
            # Reads of a patch nobody explains before the pipeline takes it as the table: enough
            # for a card to be refused in words (a hand resting on the table costs no more).
            attempts=unknown_after + 1)
        self.backdrop = Backdrop()
        # One deck, one size: before a card is measured on the table, the shape its cards had in
        # the pictures they were enrolled from names it (a deck nobody enrolled: any size).
        self.deck_size = DeckSize(shape=None if self.matcher is None else enrolment.shape)
        self.seen: dict[tuple, Seen] = {}
        self.reads = self.refusals = 0
        self._refused: list[tuple[Seen, str]] = []   # the outlines refused in the region being read, and why
        self._laid_at: dict[str, int] = {}  # the number of the frame each card named was laid on the backdrop in
        self._frame = -1  # the number of the frame of the last region read
        #: The first frame's number, and the cards named lying then, each with its outline.
        self._lying: tuple[int, list[tuple[Found, np.ndarray]]] = (-1, [])
        #: The first frame, and where the table was guessed under what stood out there and was not
        #: named at once (see :meth:`_settle`).
        self._first: np.ndarray | None = None
        self._provisional: np.ndarray | None = None

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
            self.backdrop.keep_colour(frame.colour())
            self._first, self._provisional = grey.copy(), np.zeros(grey.shape, bool)
            self._lying = (region.number, self._on_the_table(region))
        if self._lying[0] == region.number:
            return self._lying_in(region)
        x0, y0, x1, y1 = box
        if self._frame != region.number:
            self._frame = region.number
            self._forget_gone(region.known, grey)
            self._settle(region)
        # Where something moves (a hand passing) nothing is new yet, but a card found may reach
        # under it: the corners it hides are not read, those lying still are.
        moving = region.cell_pixels(~region.still) if region.busy else np.zeros((y1 - y0, x1 - x0), bool)
        crops = (grey[y0:y1, x0:x1], self.backdrop.grey[y0:y1, x0:x1], self.backdrop.empty[y0:y1, x0:x1],
                 self._arrived(region) & ~moving, self.backdrop.guessed(box))
        mask, reach = arrivals(*crops)
        found, read, patches = self._read_patches(region, mask, reach, moving, crops)
        if patches and not read and not found and not region.busy:
            # Nothing card-shaped where something new lies still: a card on a light coloured
            # cloth may be as light as the cloth in grey, not in colour.
            apart = self.backdrop.colour_apart(frame.colour(box), crops[0], box)
            if apart is not None:
                apart &= ~moving
                mask, reach = (cleaned(m.view(bool) | apart) for m in (mask, reach))
                found, read, _ = self._read_patches(region, mask, reach, moving, crops, shown=False)
        for seen in self._pending(region, read):
            # A card read once, whose patch is now joined by a hand nearby: its outline read again.
            got = self._read(region, seen.quad, mask, seen.others, expect=seen.card)
            if got is not None:
                found.append(got)
        found += self._read_shown_again(region, mask, {f.card.id for f in found})
        found += self._read_piles(region, read, {f.card.id for f in found})
        found += self._read_covered(region, {f.card.id for f in found})
        self._tell_refusals(region, found)
        return found

    def _read_patches(self, region: Region, mask: np.ndarray, reach: np.ndarray, moving: np.ndarray,
                      crops: tuple, *, shown: bool = True) -> tuple[list[Found], list[np.ndarray], int]:
        """The cards named in the patches of ``mask`` (what is new in the region; ``reach``:
        what differs from the empty table; ``moving``: where something moves; ``crops``: what
        :func:`vision.faces.finder.arrivals` was given), the centres of the outlines read, and
        how many patches there were. ``shown``: cards showing one corner alone are looked for
        too (not in colour: the cloth's checks there make patches whose straight stretches
        guess cards, and one guess named a card that was not there)."""
        grey, to_table, (x0, y0) = region.frame.grey(), region.to_table, region.box[:2]
        support = None
        if to_table is not None:  # where a card found may reach: anything new, the cards read, what moves
            support = (reach.view(bool) | self.backdrop.laid(region.box) | moving, (x0, y0))
        found, read, fine, coloured = [], [], None, None
        offset = np.float32([x0, y0])
        patches = card_patches(mask)
        # A busy cloth in glare stands out in patches by the hundred while the table is learnt
        # (the camera started on it): the largest few alone are looked at for cards showing a
        # corner each (a fanned hand is one large patch).
        fanned = set(sorted(range(len(patches)), key=lambda i: -cv2.contourArea(patches[i][0]))[:SHOWN_PATCHES])
        for number, (contour, shaped) in enumerate(patches):
            outline = None if shaped is None else shaped + offset
            cards = cards_of_patch(contour + offset.astype(np.int32), outline, to_table, self.deck_size.sizes, support=support,
                                   ends=self.matcher is None or not self.matcher.index_corners)
            a_card = False  # the patch is one card's outline, and reads as a card (named, unsurely, or its back)
            for i, quad in enumerate(cards):
                measured = quad is outline  # a whole card's outline, not a card fitted at its corners
                # Moved onto the card's edges, which a line printed along them may hide a pixel
                # or two all round: then made a card's size about its centre.
                quad = refine_quad(grey, quad)
                quad = order_quad(quad if to_table is None else true_to_size(quad, to_table, self.deck_size.sizes))
                read.append(quad.mean(axis=0))
                reading, visible = self._look(region, quad, mask, cards[:i] + cards[i + 1:])
                if reading.card is None and not reading.face_down:
                    quad, reading, visible = self._as_read_before(region, quad, mask, cards[:i] + cards[i + 1:], (reading, visible))
                a_card = measured and (reading.card is not None or reading.unsure is not None or reading.face_down)
                got = self._decide(region, quad, reading, visible, cards[:i] + cards[i + 1:], measured=measured)
                if got is not None:
                    found.append(got)
            # A patch shaped like one card but read as none may be cards showing a corner each:
            # what is left of a fan when the card on top of it is named.
            if shown and to_table is not None and not a_card and number in fanned:
                fine = fine if fine is not None else fine_arrivals(arrivals(*crops, close=FINE_CLOSE)[0], mask)
                coloured = coloured or self._in_colour(region, support, mask, moving, crops)
                found += self._read_shown(region, _fine_contour(contour, fine) + offset.astype(np.int32), cards, coloured, mask,
                                          {f.card.id for f in found})
            if not region.has_dirty():
                break
        return found, read, len(patches)

    def _in_colour(self, region: Region, support: tuple, mask: np.ndarray, moving: np.ndarray, crops: tuple) -> tuple:
        """``support`` (where a card found in the region may reach, :func:`vision.faces.finder.shown_corners`)
        with where the frame differs from the empty table in colour, on a table as light as the
        new cards' paper in grey (over :data:`LIGHT_TABLE` of the region: a pale checked cloth,
        on which a fan's lower half does not differ in grey): elsewhere grey says it all, and
        the colour is not decoded. ``crops``: the region's grey and tables, as
        :func:`vision.faces.finder.arrivals` was given them."""
        grey, empty = crops[0], crops[2]
        new = grey[::2, ::2][mask[::2, ::2].view(bool)]   # every other pixel says as much
        paper = float(np.percentile(new, 90)) if new.size else 255.0
        if np.mean(np.abs(empty[::2, ::2].astype(np.int16) - paper) <= DIFFERENCE) < LIGHT_TABLE:
            return support
        apart = self.backdrop.colour_apart(region.frame.colour(region.box), grey, region.box)
        return support if apart is None else (support[0] | (apart & ~moving), support[1])

    def _as_read_before(self, region: Region, quad: np.ndarray, mask: np.ndarray, others: list[np.ndarray],
                        looked: tuple[Reading, np.ndarray]) -> tuple[np.ndarray, Reading, np.ndarray]:
        """``quad`` read as no card (``looked``: its reading and the corners seen), or where an
        outline read as a card not yet named lies (within :data:`SAME_PLACE`, in the last
        :data:`PENDING_FRAMES`) fitted otherwise (a corner :data:`vision.faces.finder.SAME_OUTLINE`
        of a side off), that outline when it reads the same card again: a patch's outline moves
        with what is new around it, and a white card's edge on a pale card hardly shows (a side
        fitted to the line of its index instead of its edge reads no card)."""
        side, centre = float(np.linalg.norm(quad[1] - quad[0])), quad.mean(axis=0)
        for seen in self.seen.values():
            if seen.card is None or seen.confirmed or seen.refused or seen.shows is not None or \
                    region.number - seen.at > PENDING_FRAMES or np.linalg.norm(seen.quad.mean(axis=0) - centre) > SAME_PLACE * side or \
                    np.linalg.norm(seen.quad - quad, axis=1).max() <= SAME_OUTLINE * side:
                continue
            reading, visible = self._look(region, seen.quad, mask, others)
            if reading.card == seen.card:
                return seen.quad, reading, visible
        return (quad, *looked)

    def _read_piles(self, region: Region, read: list[np.ndarray], named_here: set[str]) -> list[Found]:
        """The cards laid squarely on a card named (a discard pile): the new card's white lies on
        the white of the card below, so nothing of it is new but where their print differs, no
        patch of it is card-shaped, and its corners would be taken as hidden. Where a card named
        lies, its place changed and lies still again, and no card was read this frame, its
        outline (moved onto the edges) is read again, all of it in view: when that names another
        card surely (:data:`SURE_AT_ONCE`), that card lies on it, read as any card is (the record
        of the card below, whose print no longer shows, is dropped)."""
        found = []
        x0, y0, x1, y1 = region.box
        grey = region.frame.grey()
        for key, seen in list(self.seen.items()):
            card = seen.card
            if card is None or not seen.confirmed or seen.shows is not None or card.id not in region.known:
                continue
            centre = seen.quad.mean(axis=0)
            side = float(np.linalg.norm(seen.quad[1] - seen.quad[0]))
            cells = region.cells(seen.quad)
            if not (x0 <= centre[0] < x1 and y0 <= centre[1] < y1) or region.known[card.id].undisturbed \
                    or any(np.linalg.norm(c - centre) <= SAME_PLACE * side for c in read) \
                    or not region.dirty[cells].any() or not region.is_still(cells):
                continue
            quad = order_quad(refine_quad(grey, seen.quad))
            reading = self.reader.read_view(self._upright(region.frame, quad))
            if reading.card is None or reading.card == card or reading.card.id in named_here \
                    or reading.confidence < SURE_AT_ONCE:
                continue
            self.seen.pop(key, None)
            got = self._decide(region, quad, reading, np.ones(4, bool))
            if got is not None:
                found.append(got)
                named_here.add(got.card.id)
        return found

    def _read_covered(self, region: Region, named_here: set[str]) -> list[Found]:
        """The cards named that another card named later was laid on (the next card of a fan
        dealt one by one covers half of the one before, whose footprint then looks gone), found
        again where they lie by what still shows of them, in the :data:`PENDING_FRAMES` after a
        card was laid on them and once nothing moves over what shows of them (a card slid away
        later still shows as it was laid where its plain face has moved a little): where no
        card laid on it reaches, the frame still shows the card as it was laid (the table as explained,
        :class:`vision.faces.finder.Backdrop`), over :data:`COVERED_SHOWS` of the card at least.
        Such a card is still there, covered in part (the pipeline keeps it,
        :mod:`vision.footprints`); one whose part in view changed is left to its footprint."""
        found = []
        x0, y0, x1, y1 = region.box
        grey = region.frame.grey()
        for seen in self.seen.values():
            card = seen.card
            known = None if card is None or card.id in named_here else region.known.get(card.id)
            cx, cy = seen.quad.mean(axis=0)
            if not seen.confirmed or known is None or known.undisturbed or not (x0 <= cx < x1 and y0 <= cy < y1):
                continue
            on_top = self.backdrop.laid_on(card.id)
            lately = any(region.number - self._laid_at.get(key, -PENDING_FRAMES) <= PENDING_FRAMES for key in on_top)
            # What shows of it lies still (the hand that dealt the card on it may still move
            # over the rest: once it has gone, nothing is new, and no region is read again).
            if lately and region.is_still(self._own_cells(region, seen.quad, list(on_top.values()))) and \
                    self.backdrop.shows(card.id, grey, list(on_top.values()), COVERED_SHOWS):
                found.append(Found(card, _followed_by(seen.quad, SHOWN_FOLLOWED if seen.shows is not None else _MARKER_SHARE),
                                   seen.confidence))
        return found

    def _on_the_table(self, region: Region) -> list[tuple[Found, np.ndarray]]:
        """The cards lying when the camera starts, named in its first frame as in a still photo
        (:func:`vision.faces.still.read_cards`: no empty table to compare with yet), each with its
        outline: a card read surely, or a card back (a face-down card). Each is laid on the
        backdrop over a guess of the table under it (:meth:`Backdrop.guess_under`) and followed
        like any card."""
        grey, named = region.frame.grey(), []
        for quad, reading in read_cards(region.frame.colour(), self.reader):
            quad = order_quad(quad if region.to_table is None else true_to_size(quad, region.to_table, self.deck_size.sizes))
            if reading.face_down:
                centre = tuple(float(v) for v in quad.mean(axis=0))
                card = region.face_down(centre, float(np.linalg.norm(quad[1] - quad[0])))
            elif reading.card is not None and reading.confidence >= SURE_AT_ONCE:
                card = reading.card
            else:
                continue
            self.backdrop.guess_under(quad)
            self.backdrop.lay(card.id, grey, quad)
            self._remember(quad, reading, region.number).confirmed = True
            named.append((Found(card, _followed_by(quad), None if reading.face_down else reading.confidence), quad))
        return named

    def _lying_in(self, region: Region) -> list[Found]:
        """Of the cards named lying when the camera started, those in ``region``. What else
        stands out from the table there (:attr:`Region.dirty` on a first frame: cards partly on
        others, a card not read surely) is left new, over a guess of the table under it, to be
        read as cards laid are (a card partly on another fitted at its corners), or said."""
        x0, y0, x1, y1 = region.box
        named = [(card, quad) for card, quad in self._lying[1] if x0 <= card.center[0] < x1 and y0 <= card.center[1] < y1]
        own = np.any([region.cells(quad) for _, quad in named], axis=0) if named else np.zeros_like(region.dirty)
        rest = _sharp_edged(region.frame.grey(), region.dirty & ~own, region.cell)
        # A card's edge may run in a cell beside those that stand out (a sliver of its border
        # changes a cell too little): the table is guessed a cell beyond them, or the card's
        # patch would end at a line printed on it, and be fitted there.
        rest = cv2.dilate(rest.view(np.uint8), np.ones((3, 3), np.uint8)).view(bool) & ~own
        if rest.any():
            pixels = region.cell_pixels(rest)
            self.backdrop.guess(region.box, pixels)
            x0, y0, x1, y1 = region.box
            self._provisional[y0:y1, x0:x1] |= pixels
        region.explain(~rest)
        return [card for card, _ in named]

    def _settle(self, region: Region) -> None:
        """:data:`PENDING_FRAMES` after the first frame, what stood out there and was not read as
        a card by now (a phone, a printed line) is the table after all, as that frame showed it."""
        if self._provisional is not None and region.number >= self._lying[0] + PENDING_FRAMES:
            self.backdrop.restore(self._provisional, self._first)
            self._provisional = self._first = None

    def _read_shown(self, region: Region, contour: np.ndarray, fitted: list[np.ndarray], support, mask: np.ndarray,
                    named_here: set[str] = frozenset()) -> list[Found]:
        """The cards of a patch of cards (``contour``, frame px) that show one corner alone, as
        a fanned hand's do (:func:`vision.faces.finder.shown_corners`), named by that corner's
        index once it lies still. Of the guesses at every corner of the patch, only those whose
        corner looks like an enrolled card's (:data:`SHOWN_LIKENESS`) are read, by that corner
        alone and surely (:data:`GUESSED_SURE`), or as the card the corner index model reads
        there too (:meth:`_index_reads`); no other guess at that corner may name another
        card, or read one unsurely (or best, too unsure between it and another) by a corner
        fitting nearly as well (:data:`SHOWN_RIVAL`), unless the corner index model reads this
        card at both guesses, and a card read so is remembered there (were the corner to name
        another card later, neither would be trusted); a card named at two places is named by
        neither guess, and a card named already by its outline
        (``named_here`` this frame, or a card ``fitted`` in the patch), or lying named
        elsewhere (within :data:`SAME_PLACE` of it: the same card), by no guess (dondorf prints
        an index in each corner: a fanned card's bottom-left one, beside the side of the next
        card lying on it, read as the bottom-right index of a card guessed over the cards
        before); a guess
        where an outline was read as a card this frame (not yet agreed; within :data:`SAME_PLACE`)
        or a card was named (within :data:`vision.faces.finder.SAME_OUTLINE`) names no other card
        (a corner partly under the next card, read alone, can name another card than the
        outline it is a corner of; a 9 guessed the other way round reads as a 6).
        Whatever was guessed or fitted in the patch may lie on a card named so, but what its
        index shows on lies under it. (A deck nobody enrolled has no enrolled corner
        to compare with: its cards are named whole.)"""
        hull = cv2.convexHull(contour).reshape(-1, 2).astype(np.float32)
        if self.matcher is None or not region.is_still(region.cells(hull)):
            return []  # a hand moving: a card shows its corner once it lies still
        grey = region.frame.grey()
        guesses = []  # (corner point, quad, the corner that shows, how like a card's corner it is)
        read_whole = [seen.quad for seen in self.seen.values() if seen.card is not None and seen.shows is None
                      and (seen.confirmed or seen.card.id in named_here)]
        # Where an outline was read as a card this frame, or a card was named (whole, or by a
        # corner: its other corner read as another card is the card guessed the other way round),
        # no guess names another card.
        read_there = [(seen.quad, seen.card, SAME_OUTLINE if seen.confirmed else SAME_PLACE) for seen in self.seen.values()
                      if seen.card is not None and (seen.confirmed or (seen.shows is None and seen.at == region.number))]
        # Cards whose ends lie in line are told apart by their long sides across the patch.
        edges = straight_edges(grey, contour)
        for quad, point, end, sided in shown_corners(contour, region.to_table, self.deck_size.sizes, support, edges):
            if any(np.linalg.norm(whole - point, axis=1).min() <= SAME_PLACE * np.linalg.norm(whole[1] - whole[0])
                   for whole in read_whole):
                continue  # the corner of a card read by its outline
            quad = order_quad(quad)
            shows = _corner_at(quad, point)
            if shows not in self.matcher.index_corners:
                continue
            guesses.append((point, quad, shows, self._likeness(grey, quad, shows, end), end, sided))
        # Each guess moved to where its corner looks most like a card's, the SHOWN_FITTED
        # likeliest as first guessed only (a fan's guesses that are read lie among its likeliest
        # 25; a busy cloth in glare makes guesses by the hundred).
        likeliest = sorted(range(len(guesses)), key=lambda k: -guesses[k][3])[:SHOWN_FITTED]
        for k in likeliest:
            point, quad, shows, likeness, end, sided = guesses[k]
            likeness, quad = self._fitted_guess(grey, quad, point, shows, end, likeness, SIDED_TURNS if sided else SHOWN_TURNS)
            guesses[k] = (point, quad, shows, likeness, end, sided)
        looks = []  # (corner point, quad, the corner that shows, likeness, reading, how far its side shows)
        for point, quad, shows, likeness, end, _ in guesses:
            if likeness >= SHOWN_LIKENESS:
                reading, visible = self._look(region, quad, mask, shows=(shows, end))
                if visible.any():
                    looks.append((point, quad, shows, likeness, reading, end))
        if not looks:
            return []
        side = float(np.linalg.norm(looks[0][1][1] - looks[0][1][0]))
        whole = set(named_here) | {seen.card.id for seen in self.seen.values() if seen.confirmed and seen.shows is None and
                 any(np.linalg.norm(q.mean(axis=0) - seen.quad.mean(axis=0)) <= SAME_PLACE * side for q in fitted)}
        # A card its outline read this frame where the guess lies (to be named whole when a
        # second read agrees) is no card showing one corner: named so, it would be followed by
        # its middle alone, which the next card dealt on it covers.
        whole |= {look[4].card.id for look in looks if look[4].card is not None and self._read_whole_here(region, look[1], look[4].card)}
        named: dict[str, tuple] = {}
        blocked: dict[str, tuple] = {}
        for look in looks:
            _, quad, shows, _, reading, _ = look
            known = None if reading.card is None else region.known.get(reading.card.id)
            if reading.card is None or reading.card.id in whole or any(
                    card != reading.card and np.linalg.norm(q.mean(axis=0) - quad.mean(axis=0)) <= reach * side
                    for q, card, reach in read_there) or \
                    (known is not None and np.linalg.norm(np.subtract(known.center, quad.mean(axis=0))) > SAME_PLACE * side):
                continue
            # Another card read on the same index, named or unsurely (or best in a read too
            # unsure between two) by a corner fitting nearly as well (the guesses differ by a few
            # pixels and degrees), leaves it unnamed; a guess from the same corner of the patch
            # that read the index beside it (a card lying the other way) does not.
            index = index_centre(quad, shows)
            rivals = [(q, k, r) for _, q, k, _, r, _ in looks if np.linalg.norm(index_centre(q, k) - index) <= SAME_PLACE * side
                      and (r.card or r.unsure) not in (None, reading.card)]
            # A guess where the corner index model reads this card, as it does at this one, is
            # no rival (two readers that fail apart agree on this card at both guesses; a guess
            # a few pixels further off takes in the next card's index beside): read too unsure
            # between another card and this one, or read as this card's rank in another suit,
            # which the model doubted there (ancient-egyptians' JD, its guess 7 px and 1 degree
            # off read as the JH, fan 454025).
            def model_reads_it(at: np.ndarray, corner: int) -> bool:
                return _agreed(self._index_reads(self._upright(region.frame, at), np.arange(4) == corner)).get(corner) == reading.card.id

            if rivals and model_reads_it(quad, shows):
                rivals = [(q, k, r) for q, k, r in rivals if not model_reads_it(q, k)]
            rivals = [r for _, _, r in rivals]
            if any(r.card is not None or r.score > reading.score - SHOWN_RIVAL for r in rivals):
                # Unnamed, but remembered there: a card the corner names later is another
                # card than this read, and neither is trusted (:meth:`_decide`).
                blocked[reading.card.id] = look
                continue
            best = named.get(reading.card.id)
            if best is None or (reading.confidence, look[3]) > (best[4].confidence, best[3]):
                named[reading.card.id] = look
        for card, (_, quad, shows, _, reading, end) in blocked.items():
            if card not in named:
                self._remember(quad, reading, region.number, shows=shows, end=end).rivalled = True
        found = []
        for card, (point, quad, shows, _, reading, end) in named.items():
            if any(r.card is not None and r.card.id == card and np.linalg.norm(p - point) > 0.5 * side
                   and np.linalg.norm(q.mean(axis=0) - quad.mean(axis=0)) > 0.5 * side
                   and _depth(p, quad) < -SAME_PLACE * side for p, q, _, _, r, _ in looks):
                continue  # named at two places (not at two corners of this card: a design indexed in all four)
            index = index_centre(quad, shows)
            on_top = [q for q in [*fitted, *(q for p, q, *_ in guesses if np.linalg.norm(p - point) > SAME_PLACE * side)]
                      if not _inside(index, q)]
            got = self._decide(region, quad, reading, np.arange(4) == shows, on_top, shows=shows, end=end)
            if got is not None:
                found.append(got)
        return found

    def _read_shown_again(self, region: Region, mask: np.ndarray, named_here: set[str]) -> list[Found]:
        """The cards named once by the one corner they show (:meth:`_read_shown`) in the last
        :data:`PENDING_FRAMES`, not yet named twice nor read while another guess at the same index
        read another card (a rival there leaves both unnamed: read again alone, the guess would
        be named past its rival), read again this frame by that corner as it was
        guessed then, where the region lies still over it: the guesses at a patch's corners come
        from its outline, which moves with what is new around it (a card named beside, cells
        given up), and the guess that read a card once may not be made again."""
        found = []
        x0, y0, x1, y1 = region.box
        for seen in list(self.seen.values()):
            card = seen.card
            if seen.shows is None or card is None or seen.confirmed or seen.refused or seen.rivalled or seen.count >= self.agree \
                    or card.id in named_here or card.id in region.known or not 0 < region.number - seen.at <= PENDING_FRAMES:
                continue
            corner = corner_quad(seen.quad, seen.shows)
            cx, cy = corner.mean(axis=0)
            if not (x0 <= cx < x1 and y0 <= cy < y1) or not region.is_still(region.cells(corner)):
                continue
            reading, visible = self._look(region, seen.quad, mask, shows=(seen.shows, seen.end))
            if reading.card is None or self._read_whole_here(region, seen.quad, reading.card):
                continue  # read no better than before (it waits for a guess that reads it), or read whole
            got = self._decide(region, seen.quad, reading, visible, seen.others, shows=seen.shows, end=seen.end)
            if got is not None:
                found.append(got)
                named_here.add(got.card.id)
        return found

    def _read_whole_here(self, region: Region, quad: np.ndarray, card: PhysicalCard) -> bool:
        """Whether card ``card``, guessed in ``quad`` by a corner it shows, had its outline read
        as it this frame where the guess lies (within :data:`SAME_PLACE`), to be named whole
        when a second read agrees: no card showing one corner. Named so, it would be followed
        by its middle alone, which the next card dealt on it covers, and it would lie under
        whatever else was guessed in its patch, its face learnt nowhere else."""
        side, centre = float(np.linalg.norm(quad[1] - quad[0])), quad.mean(axis=0)
        return any(seen.card == card and seen.shows is None and not seen.confirmed and seen.at == region.number
                   and np.linalg.norm(centre - seen.quad.mean(axis=0)) <= SAME_PLACE * side for seen in self.seen.values())

    def _likeness(self, grey: np.ndarray, quad: np.ndarray, shows: int, end: np.ndarray) -> float:
        """How much corner ``shows`` of a guess at a card (``quad`` in ``grey``) looks like an
        enrolled card's, on the part the outline says shows (up to ``end``): the next card's
        edge, looked for in each guess's patch, would make their likenesses of different parts."""
        return self.matcher.corner_likeness(corner_features(grey, quad, shows), shows, shown_part(quad, shows, end))

    def _fitted_guess(self, grey: np.ndarray, quad: np.ndarray, point: np.ndarray, shows: int,
                      end: np.ndarray, likeness: float, turns=SHOWN_TURNS) -> tuple[float, np.ndarray]:
        """A guess at a card showing corner ``shows`` at ``point`` alone, its side from there
        showing up to ``end`` (the part of the corner compared,
        :func:`vision.faces.features.shown_part`), moved to where that corner looks most like an
        enrolled card's, and how much it looks like one there: the few millimetres of side a fanned card shows give its direction only roughly, and a
        rounded corner hides where its sides meet. Turned about the corner by each of
        ``turns`` degrees (:data:`SHOWN_TURNS`; :data:`SIDED_TURNS` for a guess at a side's
        edge, its direction known), each also with the corner moved across or along the card
        by each of :data:`SHOWN_SHIFTS` (px of the upright view), coarsely then finely, keeping
        what fits best; ``likeness``: the guess's own (:meth:`_likeness`)."""
        best = (likeness, quad)
        if best[0] < SHOWN_TRY:
            return best
        scale = float(np.linalg.norm(quad[1] - quad[0])) / UPRIGHT[0]
        def moved(start: np.ndarray, degrees: float, px: tuple[float, float]) -> np.ndarray:
            corner = start[int(np.argmin(np.linalg.norm(start - point, axis=1)))]
            turn = cv2.getRotationMatrix2D((float(corner[0]), float(corner[1])), degrees, 1.0)
            shift = sum(p * scale * (start[axis] - start[0]) / max(float(np.linalg.norm(start[axis] - start[0])), 1e-6)
                        for p, axis in zip(px, (1, 3)))
            return (start @ turn[:, :2].T + turn[:, 2] + shift).astype(np.float32)

        for stage, shifts in zip(turns, SHOWN_SHIFTS):  # coarsely, then finely
            start = best[1]
            for degrees in stage:  # each turn with the corner moved along either side
                for px in [(0.0, 0.0)] + [(p, 0.0) for p in shifts] + [(0.0, p) for p in shifts]:
                    if degrees == 0 and px == (0.0, 0.0):
                        continue  # the start itself, whose likeness is known
                    candidate = moved(start, degrees, px)
                    fit = self._likeness(grey, candidate, shows, end)
                    if fit > best[0]:
                        best = (fit, candidate)
        return best

    def _forget_gone(self, known: dict[str, Known], grey: np.ndarray) -> None:
        """Once a frame, before its first region (the cards named in a frame join the cards
        known only after all its regions are read): the cards gone leave the backdrop (frame
        ``grey`` shows the table under those that lay there when the camera started), and
        their outlines' records, so the next card laid there starts afresh."""
        self.backdrop.keep_only(known, grey)
        self._laid_at = {key: at for key, at in self._laid_at.items() if key in known}
        self.seen = {k: s for k, s in self.seen.items()
                     if not (s.confirmed and s.card is not None and s.card.id not in known)}

    def _pending(self, region: Region, read: list[np.ndarray]) -> list[Seen]:
        """The outlines in the region read lately as a card not yet named, not read again this
        frame, with cells changed and lying still (those that move are hidden when it is read)."""
        x0, y0, x1, y1 = region.box
        pending = []
        for seen in self.seen.values():
            (qx0, qy0), (qx1, qy1) = seen.quad.min(axis=0), seen.quad.max(axis=0)
            if seen.card is None or seen.refused or seen.shows is not None or seen.card.id in region.known \
                    or region.number - seen.at > PENDING_FRAMES or qx0 < x0 or qy0 < y0 or qx1 > x1 or qy1 > y1:
                continue
            side = float(np.linalg.norm(seen.quad[1] - seen.quad[0]))
            if any(np.linalg.norm(centre - seen.quad.mean(axis=0)) <= SAME_PLACE * side for centre in read):
                continue
            cells = region.cells(seen.quad)
            if region.dirty[cells].any():  # what moves over it is hidden when it is read
                pending.append(seen)
        return pending

    def _arrived(self, region: Region) -> np.ndarray:
        """The pixels of the region where something may have arrived: its dirty cells, grown by
        a cell to take in a card's edge and on through up to :data:`MIXED_REACH` cells whose
        pixels came out both lighter and darker than the table (:meth:`_mixed`), but not into
        the inside of cards already known (a cell on a known card's edge, which a card laid
        against it covers only partly, may not change enough to be dirty)."""
        dirty = region.dirty
        known = np.zeros(dirty.shape, np.uint8)
        for card in region.known.values():
            centre = card.corners.mean(axis=0)
            known |= region.cells(centre + (card.corners - centre) / _MARKER_SHARE).view(np.uint8)
        inside = cv2.erode(known, np.ones((3, 3), np.uint8)).view(bool)
        grown = cv2.dilate(dirty.view(np.uint8), np.ones((3, 3), np.uint8)).view(bool)
        mixed = self._mixed(region) & ~inside
        for _ in range(MIXED_REACH):
            more = cv2.dilate(grown.view(np.uint8), np.ones((3, 3), np.uint8)).view(bool) & mixed & ~grown
            if not more.any():
                break
            grown |= more
        return region.cell_pixels(grown & ~(inside & ~dirty))

    def _mixed(self, region: Region) -> np.ndarray:
        """The cells of the region (a mask of the whole frame's cells) where at least
        :data:`MIXED` of the pixels are lighter than the table as explained and as many darker
        (:data:`vision.faces.finder.DIFFERENCE`): something printed came there though the cell's
        mean, all the change map compares, stayed the table's (a big black index on white paper
        across a narrow strip of a fanned card averages to the grey of wood). A change of light
        makes a cell lighter or darker all over, never both."""
        cell, (height, width) = region.cell, region.dirty.shape
        x0, y0, x1, y1 = region.box
        cx0, cy0, cx1, cy1 = x0 // cell, y0 // cell, min(-(-x1 // cell), width), min(-(-y1 // cell), height)
        grey = region.frame.grey()
        box = (slice(cy0 * cell, cy1 * cell), slice(cx0 * cell, cx1 * cell))
        # Lighter than the table anywhere within NEAR_PX, or darker: the table's own print, and
        # a card's known, shifted a pixel or two (a camera that shakes) or blurred (a blur is an
        # average of the pixels about) is neither.
        soft, table = cv2.GaussianBlur(grey[box], (3, 3), 0), self.backdrop.grey[box]
        near = np.ones((2 * NEAR_PX + 1,) * 2, np.uint8)
        rows, cols = cy1 - cy0, cx1 - cx0
        shares = []
        for away in (cv2.subtract(soft, cv2.dilate(table, near)), cv2.subtract(cv2.erode(table, near), soft)):
            full = np.zeros((rows * cell, cols * cell), bool)   # the frame's last cells may be cut short
            full[:away.shape[0], :away.shape[1]] = away > DIFFERENCE
            shares.append(full.reshape(rows, cell, cols, cell).mean(axis=(1, 3)))
        lighter, darker = shares
        mixed = np.zeros((height, width), bool)
        mixed[cy0:cy1, cx0:cx1] = (lighter >= MIXED) & (darker >= MIXED)
        return mixed

    def _read(self, region: Region, quad: np.ndarray, mask: np.ndarray, others: list[np.ndarray] = (),
              expect: PhysicalCard | None = None) -> Found | None:
        """Read the card in ``quad``. ``others``: the other cards fitted in its patch of cards
        (:func:`vision.faces.finder.fit_cards`): its outline may be a few millimetres off, so it
        must read surely. They, and the cards named that overlap it, may lie on it: the corners
        they reach are not read. ``mask``: the region's pixels where something new lies.
        ``expect``: the card an outline read before was read as; a reading of anything else is
        not counted (something may lie on it now)."""
        reading, visible = self._look(region, quad, mask, others)
        return self._decide(region, quad, reading, visible, others, expect)

    def _look(self, region: Region, quad: np.ndarray, mask: np.ndarray, others: list[np.ndarray] = (),
              shows: tuple[int, np.ndarray] | None = None) -> tuple[Reading, np.ndarray]:
        """The matcher's reading of the card in ``quad`` and which of its corners it saw (see
        :meth:`_read`). ``shows``: the card shows that corner alone, its side from there up to
        the point given (:meth:`_read_shown`): the rest of it, under the ``others`` or not, says
        nothing, nor does the part of the corner past that point (:func:`vision.faces.features.shown_part`).
        The corner index model, a reader that fails apart from the matcher, has its say
        (:meth:`_index_reads`): a card whose rank it reads in another suit in an index corner in
        view, and the card itself in none, is not named, and a card read by one corner alone,
        unsurely, that it reads there too is."""
        upright = self._upright(region.frame, quad)
        if shows is None:
            # Parts of the outline that are not new (another card on top, a hand) are hidden,
            # and those of the cards it overlaps, but of those it clearly lies on and of cards
            # named whole before lying nearly where it lies (:data:`DEALT_ONTO`). Where it clearly
            # lies on a card named before (its edge shows across it, or the card named no
            # longer shows as laid where the two overlap: white on white, the edge hardly
            # shows), what is not new there is this card's print alike the print below (two
            # dark faces, two white borders), not hidden. What is not new
            # but lies inside what is, touching none of its edges, is the card's own print of
            # the table's grey (red pips on green felt): what covers a card comes over its edge.
            hidden = ~filled(warp_upright(mask, quad - np.float32(region.box[:2])) > 0)
            to_upright = cv2.getPerspectiveTransform(quad, UPRIGHT_OUTLINE)
            neighbours = self.backdrop.neighbours(quad, region.frame.grey())
            overlapping = [*others, *(q for q, *_ in neighbours)]
            side, centre = float(np.linalg.norm(quad[1] - quad[0])), quad.mean(axis=0)
            covering, below = np.zeros_like(hidden), np.zeros_like(hidden)

            def upright_mask(outline: np.ndarray) -> np.ndarray:
                return quad_mask(hidden.shape, cv2.perspectiveTransform(outline.reshape(-1, 1, 2).astype(np.float32), to_upright))

            for k, (other, under) in enumerate(zip(overlapping, lies_on(region.frame.grey(), quad, overlapping))):
                named = k >= len(others)
                _, on_it, print_gone, by_corner = neighbours[k - len(others)] if named else (other, [], False, False)
                under = under or print_gone
                if (under and not named) or (not under and named and not by_corner and
                                             np.linalg.norm(other.mean(axis=0) - centre) <= DEALT_ONTO * side):
                    continue
                where = upright_mask(other)
                for card in on_it:  # a card named covers nothing where a card laid on it since still lies
                    where &= ~upright_mask(card)
                if under:
                    below |= where
                else:
                    covering |= where
            hidden = (hidden & ~below) | covering
            visible = corner_masks(hidden)
            reading = self.reader.read_view(upright, visible, face_shown(hidden))
            whole = False
        else:
            # The one corner a card shows is read whether new or not (the patch lies still: no
            # hand is over it; a card named by its own corner and laid under it, :meth:`_lay`,
            # may have painted it over), on the part of it that shows; the face says nothing.
            shows, end = shows
            visible = np.arange(4) == shows
            patch = cv2.cvtColor(np.ascontiguousarray(upright[CORNERS[shows]]), cv2.COLOR_BGR2GRAY)
            reading = self.reader.read_view(upright, visible, np.zeros(FACE[::-1], bool), shown_part(quad, shows, end, patch))
            whole = shows_whole(quad, shows, end, patch)
        said = reading.card or reading.unsure
        # The model is asked when it may speak: of a card named, or of one corner read alone.
        asked = reading.card is not None or (shows is not None and said is not None)
        reads = self._index_reads(upright, visible) if asked and self.matcher is not None else {}
        indices, doubted = _agreed(reads), {card for card, _ in reads.values()}
        rank = None if reading.card is None else reading.card.id[:-1]
        if reading.card is not None and reading.card.id not in doubted and any(card[:-1] == rank for card in doubted):
            # The corner index model reads the card's rank in another suit in a corner in view
            # (:data:`INDEX_DOUBTS`), and the card in none: of two readers that fail apart, one is wrong, and which is
            # not known (an outline a few pixels off cuts the suit's pip at a corner patch's
            # edge, and the matcher told a spade from a club by its tip). The model is no judge
            # of a rank the matcher reads (it reads ancient-egyptians' 9C turned round as a 6C,
            # and can read two corners of one card as two cards).
            other = next(card for card in doubted if card[:-1] == rank)
            return Reading(None, min(reading.confidence, GUESSED_SURE / 2), why=f"the corner index reads the {other}, "
                           f"not the {reading.card.id}", unsure=reading.card, score=reading.score), visible
        if shows is not None and reading.card is not None and indices.get(shows) != reading.card.id and \
                not self.matcher.suit_shown[3 - shows if reading.turned else shows]:
            # One corner alone that the enrolled deck is not seen to show the suit in (a rank
            # printed alone, oxygen's; a deck from phone photos, its corners each lit and cut
            # their own way) names a card only where the corner index model reads the same card
            # there: oxygen's 2H, by its rank corner, was named the 2D (scene 961988).
            return Reading(None, min(reading.confidence, GUESSED_SURE / 2), why=f"one corner alone, which shows no suit "
                           f"the deck is seen to print there: not surely the {reading.card.id}", unsure=reading.card,
                           score=reading.score), visible
        if shows is not None and said is not None and (reading.card is None or reading.score < SHOWN_LEAST or
                                                        reading.confidence < GUESSED_SURE) \
                and indices.get(shows) == said.id:
            # The corner index model reads the same card there: two readers that fail apart
            # agree (a corner blurred, or partly under the next card, fits its enrolled corner
            # less well, not its rank and suit less like a rank and a suit).
            return replace(reading, card=said, confidence=max(reading.confidence, GUESSED_SURE), why=""), visible
        if shows is not None and reading.card is not None and reading.score < SHOWN_LEAST and not whole:
            # A corner partly under the next card (its index beside this one's) can read as
            # another card: only a corner like the enrolled one all over names it. A corner
            # that shows whole is read as a whole card's is (gm-paris's thin red 3, 0.956).
            reading = Reading(None, reading.confidence, why=f"one corner alone, not clearly the {reading.card.id}'s "
                                                            f"({reading.score:.2f})", unsure=reading.card, score=reading.score)
        if (others or shows is not None) and reading.card is not None and reading.confidence < GUESSED_SURE:
            reading = Reading(None, reading.confidence, why=f"a card fitted in a patch of cards, read unsurely as {reading.card.id}",
                              unsure=reading.card, score=reading.score)
        return reading, visible

    @staticmethod
    def _index_reads(upright: np.ndarray, visible: np.ndarray) -> dict[int, tuple[str, float]]:
        """The cards the corner index model (:mod:`vision.faces.index_reader`, trained on
        rendered designs and fonts, not on this table's enrolment) reads at least
        :data:`INDEX_DOUBTS` sure in the ``visible`` corners of an upright view (in colour) that
        are index corners as laid (the top left) or turned round (the bottom right), by corner,
        with how sure it is (:func:`_agreed`: those it is sure enough of to agree), but a card
        whose suit's colour is not the ink's there (the model reads grey: ancient-egyptians' QS,
        its bottom-right corner read as the QH at 0.9995); none when the model is missing."""
        model = _corner_model()
        corners = [k for k in INDEX_CORNERS if visible[k]]
        if not corners or model is None:
            return {}
        read = likeliest(model, [index_view(upright, k) for k in corners])
        return {k: (card, sure) for k, (card, sure) in zip(corners, read) if card is not None and sure >= INDEX_DOUBTS
                and not ink_clash(upright, np.arange(4) == k, card[-1])}

    def _decide(self, region: Region, quad: np.ndarray, reading: Reading, visible: np.ndarray,
                others: list[np.ndarray] = (), expect: PhysicalCard | None = None, measured: bool = False,
                shows: int | None = None, end: np.ndarray | None = None) -> Found | None:
        """What a ``reading`` of the card in ``quad`` tells the table (see :meth:`_read`);
        ``measured``: the outline is a whole card's, whose size tells the deck's
        (:class:`DeckSize`); ``shows``: the card showed that corner alone, its side up to ``end``
        (:meth:`_read_shown`)."""
        if expect is not None and reading.card != expect:
            return None
        if not visible.any():
            return None  # nothing of it new in view (under a card, or laid already): no read, no miss
        settled = region.is_still(region.cells(quad))
        if reading.card is None and not settled:
            return None  # beside a hand moving, only a read that names a card speaks
        side = float(np.linalg.norm(quad[1] - quad[0]))
        here = [known.card for known in region.known.values()
                if np.hypot(*np.subtract(known.center, quad.mean(axis=0))) <= SAME_PLACE * side]
        if reading.face_down and not visible.all() and here:
            # Where a card was named (by the one corner it showed), an outline fitted to it
            # that shows only its plain corners beside is that card, no back laid on it (a
            # card laid on it is new all over).
            return None
        if reading.card is None and not reading.face_down and any(
                seen.confirmed and seen.shows is not None and seen.card in here for seen in self.seen.values()):
            # Where a card was named by the one corner it showed, an outline fitted to it and
            # read as no card is that card, named: no card to refuse ("I can't read the card"
            # of nicu-ornamental's 10C, dealt on a fan and named by its corner, scene 367899).
            return None
        self.reads += 1
        seen = self._remember(quad, reading, region.number, others, settled, shows, end)
        centre = tuple(float(v) for v in quad.mean(axis=0))
        zone = region.locate(centre)
        if reading.face_down:
            return self._face_down(region, quad, seen, others)
        if reading.card is None:
            log.debug("card at %s unread: %s", centre, reading.why)
            if seen.misses >= self.unknown_after or seen.tries >= self.unknown_after:
                # Read in vain this often in a row, or as often as the pipeline tries before it
                # takes what is there for the table (:attr:`vision.recognisers.Traits.attempts`),
                # sure reads between (oxygen-air's 2H, its suit told by its colour now and not
                # then, named once in five reads): said, not dropped without a word.
                self._refuse(region, seen, f"I can't read the card {zone_words(zone)}: lift it and lay it again")
            return None
        if len(seen.named) > 1:  # reads of one card named two cards: trust neither
            self._refuse(region, seen, f"I can't read the card {zone_words(zone)}: lift it and lay it again")
            return None
        if seen.count < self.agree and not (reading.confidence >= SURE_AT_ONCE and visible.all() and not others):
            if shows is None:  # (not a corner guessed: a patch of guesses, each reading a card now and then, would be kept on)
                region.hold(region.cells(quad))  # its outline read, waiting for its reads to agree: not read in vain
            return None
        known = region.known.get(reading.card.id)
        if known is not None and known.undisturbed and \
                np.hypot(*np.subtract(known.center, centre)) > 0.5 * side:
            self._refuse(region, seen, f"I can't read the card {zone_words(zone)}: the {reading.card.face.name} "
                         f"already lies {zone_words(known.zone)}; lift it and lay it again", surely=True)
            return None
        self._lay(region, reading.card.id, quad, others, shows)
        if measured and region.to_table is not None:
            self.deck_size.note(quad, region.to_table)
        seen.confirmed = True
        return Found(reading.card, _followed_by(quad, SHOWN_FOLLOWED if shows is not None else _MARKER_SHARE),
                     reading.confidence)

    def _face_down(self, region: Region, quad: np.ndarray, seen: Seen, others: list[np.ndarray]) -> Found | None:
        """A card back read ``seen.count`` times in a row: once ``agree`` reads agree, a face-down
        card with the placeholder identity the pipeline gives it
        (:meth:`vision.recognisers.Region.face_down`), laid like a named card (:meth:`_lay`)."""
        if seen.count < self.agree:
            region.hold(region.cells(quad))  # read, waiting for its reads to agree: not read in vain
            return None
        centre = quad.mean(axis=0)
        card = region.face_down((float(centre[0]), float(centre[1])), float(np.linalg.norm(quad[1] - quad[0])))
        self._lay(region, card.id, quad, others)
        return Found(card, _followed_by(quad))

    def _lay(self, region: Region, key: str, quad: np.ndarray, others: list[np.ndarray], shows: int | None = None) -> None:
        """Card ``key`` (named, or face down) lies in ``quad``: its cells are explained and it is
        laid on the backdrop, except what another card of the patch reaches (that card may lie
        on top, and stays to be read). A card that showed one corner alone (``shows``) lies
        under whatever it overlaps but that corner."""
        region.explain(self._own_cells(region, quad, others))
        self.backdrop.lay(key, region.frame.grey(), quad, others, None if shows is None else corner_quad(quad, shows))
        self._laid_at[key] = region.number

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
                  settled: bool = True, shows: int | None = None, end: np.ndarray | None = None) -> Seen:
        """The outline's record, updated with this reading: an outline read before is one whose
        centre lies within :data:`SAME_PLACE` of a card side of this one's (of a card named whole:
        within :data:`vision.faces.finder.SAME_OUTLINE` of a side; of a card read by the same
        corner it shows, one whose index lies within :data:`SAME_INDEX` of this one's). A read beside a hand
        moving (not ``settled``) counts towards agreement but names no card that would make a
        later read a contradiction."""
        centre, side = quad.mean(axis=0), float(np.linalg.norm(quad[1] - quad[0]))

        def apart(seen: Seen) -> float:
            """How far ``seen`` lies from this read, by their centres, or as a share of SAME_PLACE
            by their indices, for two reads of one corner: a card read by that corner lies
            where its index does (two guesses at one corner, one lying turned a quarter, have
            their centres far apart; the next card's guess a few millimetres off may have its
            centre near). A guess at the card's other end is the same card by its centre."""
            if shows is None or seen.shows != shows:
                return float(np.linalg.norm(seen.quad.mean(axis=0) - centre))
            return float(np.linalg.norm(index_centre(seen.quad, shows) - index_centre(quad, shows))) * SAME_PLACE / SAME_INDEX

        # A card read by one corner is a guess of its own.
        near = [(apart(s), k) for k, s in self.seen.items() if (s.shows is None) == (shows is None)]
        # A card named whole is where it was named: an outline read a few millimetres off is
        # another card, dealt onto it (its record kept, the card under is looked for,
        # :meth:`_read_covered`). The guesses at a corner lie a few pixels apart: a corner read
        # near a card named by its corner is that corner again (another card read there
        # leaves both unnamed: a corner partly covered, a 5 read as a 3).
        near = [k for d, k in sorted(near)
                if d <= (SAME_OUTLINE if self.seen[k].confirmed and shows is None else SAME_PLACE) * side]
        key = near[0] if near else (*(int(v) for v in centre), shows)
        old = self.seen.get(key)
        if old is not None and old.refused:
            old = None  # read again after being refused: the card was laid again, start afresh
        named = set() if old is None else set(old.named)
        for card in (reading.card, reading.face_says) if settled else ():  # a face that vetoed the corners names its card
            if card is not None:
                named.add(card.id)
        unsure = reading.card is None and not reading.face_down
        misses = (0 if old is None else old.misses) + 1 if unsure else 0
        tries = (0 if old is None else old.tries) + int(settled)
        if unsure and old is not None and (old.card is not None or old.face_down):
            # An unsure read between sure ones (a card named, a back) neither counts nor breaks their agreement.
            card, confidence, count, face_down = old.card, old.confidence, old.count, old.face_down
        else:
            same = old is not None and (old.card == reading.card and old.face_down == reading.face_down)
            card, confidence, count, face_down = reading.card, reading.confidence, old.count + 1 if same else 1, reading.face_down
        # The outline's card, named to the pipeline before, is named still when read again as it.
        confirmed = old is not None and old.confirmed and (old.card, old.face_down) == (card, face_down)
        seen = Seen(quad, card, confidence, count, face_down, named=frozenset(named), at=at, others=list(others),
                    misses=misses, tries=tries, confirmed=confirmed, shows=shows, end=end)
        self.seen.pop(key, None)
        self.seen[key] = seen
        while len(self.seen) > SEEN_KEPT:  # the oldest outlines are forgotten
            self.seen.pop(next(iter(self.seen)))
        return seen

    def _refuse(self, region: Region, seen: Seen, message: str, *, surely: bool = False) -> None:
        """The card of outline ``seen`` is refused: told to the table with ``message`` once the
        region is read (:meth:`_tell_refusals`). A card read ``surely`` (one lying elsewhere
        already) would be refused again read again: its cells are explained. Those of a card not
        read are left to be given up as any are (:meth:`vision.changes.ChangeMap.failed`): its
        outline may be a guess, and a card laid since may lie in it (a fan's next card, read
        where the one under it was)."""
        if surely:
            region.explain(self._own_cells(region, seen.quad, seen.others))
        seen.refused = True
        self._refused.append((seen, message))

    def _tell_refusals(self, region: Region, found: list[Found]) -> None:
        """Tell the table the refusals of this read of ``region``, but of an outline where a card
        was named in the same read (``found``: a whole outline read as two cards, the card then
        named by the corner it shows), or a corner whose card's whole outline reads surely (a
        fanned corner guessed as two cards while the outline waits for a second read to agree):
        the table would hear "I can't read the card" of a card it is about to be told of."""
        named = [f.center for f in found]
        read_whole = [seen.quad.mean(axis=0) for seen in self.seen.values()
                      if seen.shows is None and seen.card is not None and not seen.refused]
        for seen, message in self._refused:
            centre, side = seen.quad.mean(axis=0), float(np.linalg.norm(seen.quad[1] - seen.quad[0]))
            if any(np.hypot(*np.subtract(where, centre)) <= SAME_PLACE * side
                   for where in named + (read_whole if seen.shows is not None else [])):
                continue
            self.refusals += 1
            region.warn(message, every=0.0)    # once a card laid: said again each time it is laid again
        self._refused = []


@functools.lru_cache(maxsize=1)
def _corner_model() -> CornerModel | None:
    """The shipped corner index model, loaded once; None, said once in the log, when it cannot
    be (the enrolled matcher then names one-corner reads alone)."""
    try:
        return shipped_model()
    except OSError as err:
        log.warning("%s", err)
        return None


def _agreed(reads: dict[int, tuple[str, float]]) -> dict[int, str]:
    """Of the corner index model's ``reads`` (:meth:`FaceRecogniser._index_reads`), the cards it
    reads surely enough to agree with the matcher (:data:`INDEX_AGREES`), by corner."""
    return {k: card for k, (card, sure) in reads.items() if sure >= INDEX_AGREES}


def _sharp_edged(grey: np.ndarray, cells: np.ndarray, cell: int) -> np.ndarray:
    """The patches of ``cells`` (a mask of the frame's cells) that have a card's sharp edges in
    frame ``grey``: at least :data:`SHARP` edge pixels for each pixel round their box (a card's
    outline alone gives about one; glare, a shadow, a vignette, none)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cells.view(np.uint8))
    kept = np.zeros_like(cells)
    for i in range(1, count):
        x, y, w, h, _ = stats[i]
        crop = grey[y * cell:(y + h) * cell, x * cell:(x + w) * cell]
        inside = np.repeat(np.repeat(labels[y:y + h, x:x + w] == i, cell, axis=0), cell, axis=1)[:crop.shape[0], :crop.shape[1]]
        edges = cv2.Canny(cv2.GaussianBlur(crop, (3, 3), 0), 50, 150).view(bool) & inside
        if edges.sum() >= SHARP * 2 * (crop.shape[0] + crop.shape[1]):
            kept |= labels == i
    return kept


def _fine_contour(contour: np.ndarray, fine: np.ndarray) -> np.ndarray:
    """The outline of patch ``contour`` (crop px) as mask ``fine`` (the same arrivals, their
    small gaps kept) draws it: its largest part within the patch."""
    within = np.zeros(fine.shape, np.uint8)
    cv2.drawContours(within, [contour], -1, 1, cv2.FILLED)
    parts, _ = cv2.findContours(fine & within, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(parts, key=cv2.contourArea) if parts else contour


def _corner_at(quad: np.ndarray, point: np.ndarray) -> int:
    """Which corner (:data:`vision.faces.features.CORNERS`) of ``quad`` (ordered) lies at ``point``."""
    return (0, 1, 3, 2)[int(np.argmin(np.linalg.norm(quad - point, axis=1)))]


def _from_upright(quad: np.ndarray, points) -> np.ndarray:
    """``points`` of the upright view of the card in ``quad`` (ordered), in frame px."""
    to_frame = cv2.getPerspectiveTransform(UPRIGHT_OUTLINE, quad)
    return cv2.perspectiveTransform(np.float32(points).reshape(-1, 1, 2), to_frame).reshape(-1, 2)


def index_centre(quad: np.ndarray, corner: int) -> np.ndarray:
    """The middle of corner patch ``corner`` of the card in ``quad`` (ordered), in frame px."""
    rows, cols = CORNERS[corner]
    return _from_upright(quad, [((cols.start + cols.stop) / 2, (rows.start + rows.stop) / 2)])[0]


def corner_quad(quad: np.ndarray, corner: int) -> np.ndarray:
    """The four corners of corner patch ``corner`` of the card in ``quad`` (ordered), reaching
    the card's edges, in frame px."""
    rows, cols = CORNERS[corner]
    x0, x1 = (0, cols.stop) if cols.start <= INSET else (cols.start, UPRIGHT[0])
    y0, y1 = (0, rows.stop) if rows.start <= INSET else (rows.start, UPRIGHT[1])
    return _from_upright(quad, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


def _depth(point: np.ndarray, quad: np.ndarray) -> float:
    """How far ``point`` lies inside ``quad`` (px; negative outside)."""
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32), (float(point[0]), float(point[1])), True)


def _inside(point: np.ndarray, quad: np.ndarray) -> bool:
    return _depth(point, quad) > 0


def _followed_by(quad: np.ndarray, share: float = _MARKER_SHARE) -> np.ndarray:
    """The quad the pipeline follows a card of outline ``quad`` by (see :data:`_MARKER_SHARE`):
    a card that showed one corner alone, by a small quad about its middle
    (:data:`SHOWN_FOLLOWED`), since the cards lying on it are no part of it."""
    centre = quad.mean(axis=0)
    return (centre + (quad - centre) * share).astype(np.float32)


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
