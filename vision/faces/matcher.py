"""A seen card against the enrolled deck: which card, and how sure.

Independent signals, all of which must agree before a card is named (:meth:`Matcher.read`):

- the corner indices: normalised correlation of the visible corner patches with every enrolled
  card, in both orientations, the best few again with each corner aligned; the best card's
  misfit against the second best's;
- the whole face (pips, court art), whose best match must be the same card;
- the colour of the print (red or black), when the frame's colour is at hand: it takes the other
  colour's cards out of the running, and when it says neither, a red card and a black one are
  not told apart by the grey signals alone (the reading is unknown).

The confidence grows as the best card's misfit shrinks against the second best's; a reading below :data:`THRESHOLD`, or
with any signal disagreeing, is no card at all. The recogniser (vision.faces.recogniser) adds the last signal, agreement
over several frames.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from engine.decks import PhysicalCard
from vision.faces.features import (CORNERS, DETAIL, FACE, Features, corner_patch, corner_search, corner_vector, describe,
                                   middle_grey, plane_basis, turned)
from vision.faces.store import Enrolment
from vision.faces.way_round import one_way_round

#: Cards scored again with each corner aligned, and how far (px of the upright view) it may shift.
CANDIDATES, REACH = 6, 4
#: At most this many cards that the corners cannot rule out are told apart two by two: the best
#: by the corners and those the whole face looks most like (see :func:`ahead_of_all`).
FIELD = 5
#: Scales of the enrolled corners tried when aligning them.
SCALES = (0.95, 1.0, 1.05)
#: A corner with less than this share of a card's corner ink is blank (some designs print the
#: index in two corners only): it weighs nothing.
BLANK = 0.15
#: On the pixels where the best two cards differ, the view must correlate this much better with
#: the best for a certain reading (confidence 1; 0 at no difference).
APART_SURE = 0.5
#: Blurs (px) tried on the enrolled images to match the camera's softer view.
GAP_BLURS = (0.0, 0.8, 1.6, 2.4)
#: How far (px of the whole face, in half pixels) the view is moved onto each of two cards it
#: tells apart (:data:`FACE`, and :data:`DETAIL` at twice the size): an outline a pixel or two
#: off the card moves the pips across the few pixels where two suits of a rank differ.
FACE_REACH = 1
#: How far (px of the whole face, :data:`FACE`) a view is moved onto each card's face before the
#: whole face is judged unlike the card's (:meth:`Matcher._faces_moved`): an outline up to 4 %
#: of the card's length off it.
FACE_SHIFT = 2
#: Two corners are compared on the pixels where the enrolled images differ by this share of
#: the most they differ, or more (the suit's pip, the rank's digit) ...
DIFFER_MOST = 0.5
#: ... and two whole faces by this share: their differences spread (the shape of each pip, a
#: court card's pip and decoration), and the few pixels where they differ most may be one
#: pip's edge, a pixel off (oxygen-air's JD, in grey its JS but for the pip and a pale swash,
#: fitted the JS there).
FACE_DIFFER = 0.25
#: A face with at least this share shown (the rest hidden under another card) still speaks.
FACE_SHOWN = 0.5
#: A signal telling the best two apart by less than this abstains.
ABSTAIN = 0.05
#: The whole face overrules the corners when it tells the best two apart by this much at least,
#: and twice as clearly as they do the other way.
FACE_OVERRULES = 0.5
#: The confidence a reading needs to name a card.
THRESHOLD = 0.5
#: The misfit of the best card's aligned corners (1 - correlation) over the second best's: at
#: RATIO_SURE or less a reading is certain (confidence 1), at RATIO_NONE or more it says nothing.
RATIO_SURE, RATIO_NONE = 0.25, 0.75
#: Below this aligned corner correlation a card is not the enrolled one at all (see :meth:`Matcher._print_fit`).
LEAST_SCORE = 0.9
#: A view's corner patch (blurred grey) lying within this many grey levels all over shows no
#: print: glare washed it out to the camera's white.
WASHED_OUT = 4.0
#: The whole face of the named card may correlate this much less than the best face (two pip
#: cards of one rank differ only in the pips' shape).
FACE_SLACK = 0.06
#: The whole face must fit the named card better than this many runners-up, on the pixels where
#: each differs from it (the pips of a 3 of spades against the 3 of clubs).
FACE_RIVALS = 3
#: The whole face of the named card, fully in view, correlates at least this well with its
#: enrolled face (a card of another deck with the same corner does not).
FACE_LEAST = 0.78
#: A pip card whose corners and whole face, turned 180 degrees, fit another suit of its rank
#: (of its colour) within this of how well they fit the card named is not known
#: (:meth:`Matcher._other_way_round`).
WAYS_APART = 0.03
#: Print this red (share of the corner print) is a red suit's, and this little a black suit's.
RED, BLACK = 0.2, 0.05
#: The shares of red print of a deck's red cards and its black cards lie this far apart at least.
COLOUR_GAP = 0.2
#: A black card's thin red ornament spreads with the camera's blur: its share of the print
#: grows by up to this share of itself (nicu-ornamental's JS, 0.45 as enrolled, 0.50 blurred
#: by 1.6 px).
BLUR_GROWTH = 0.25
#: A face that correlates this well with the enrolled back, and this much better than with any
#: enrolled face, is a face-down card (on the four tuned designs' scenes: backs 0.5-0.99 with
#: faces 0.4 below at least, a third of them covered in part; faces 0.36 at most with the back,
#: 0.3 less than with a face at least).
BACK_LEAST, BACK_AHEAD = 0.5, 0.2
#: ... and whose corners in view correlate this well with the back's on average (the tuned
#: designs' backs in the scenes, 0.72-0.96 a corner; the back of another deck, 0.22-0.57).
BACK_CORNERS = 0.7
#: A back seen in colour is also compared softened by this much (px of the whole face,
#: :data:`FACE`) and moved onto the enrolled one: a back's fine lines (xskat-french's) soften
#: away at the camera's blur, and an outline a few pixels off moves them across one another
#: (its back in a scene correlated 0.39 with the enrolled one, its corners -0.3 to 0.02; so
#: compared, 0.84 and 0.5-0.87; a fine lattice, standard's, is known sharp, not softened) ...
BACK_BLUR = 1.5
#: ... and its corners softened by this much (px of the upright view), each where it fits best ...
BACK_CORNER_BLUR = 1.5
#: ... and its colour (Lab a and b, the mean over what shows) must lie this near the enrolled
#: back's over the same pixels: softened, backs alike in layout are alike in grey (a blue
#: lattice, a green sparkle).
BACK_TINT = 16.0
#: A back is known by this share of its face at least (one pattern all over: a card laid on it
#: often hides more than half).
BACK_SHOWN = 0.3
#: A back whose middle varies by at most PLAIN_BACK grey levels (about the plane that fits it,
#: :func:`vision.faces.features.middle_grey`), enrolled, is plain (oxygen-air's black, 0; every
#: other design's back 13 or more, every face 20 or more), and a view of it shows it plain when
#: its middle varies by at most PLAIN_VIEW where it shows (the camera's noise, what a glare
#: leaves once its slope is taken out) and lies within PLAIN_LEVEL grey levels of the back's (a
#: face's white paper is plain too where its pips are covered).
PLAIN_BACK, PLAIN_VIEW, PLAIN_LEVEL = 5.0, 12.0, 60.0


#: A corner shows the suits where the difference between two suits of a rank correlates this
#: well (median) with that difference at the other ranks: the same symbols' difference at the
#: same place (index corners of the 16 designs: 0.25-0.98), not a rank printed alone with
#: per-card decoration (oxygen's sparkles: within 0.06 of 0).
SUIT_SHOWN = 0.15
#: ... and a corner where it correlates less than this prints no suit at all, however unlike
#: two photos of it are: a rank printed alone measures at most 0.07, a suit printed 0.10 or more
#: however faint in a photo's noise (60 enrolments of the 15 installed designs: clean, phone
#: photos, crops, scans, one photo of the deck; see :attr:`Matcher.index_corners`).
SUIT_PRINTED = 0.08
#: How far (px of the upright view) a card's corner is moved onto its rank's to see whether the
#: corner shows the suits (:func:`suits_shown`).
SUIT_REACH = 3
#: Two cards whose corner correlates this much are alike there: the same picture (a rank printed
#: alone; two suits of one rank printed small still differ by 0.005 or more).
ALIKE = 0.999
#: How many parts of a corner :meth:`Matcher._on_part` keeps its cards' side for.
PARTS_KEPT = 32
#: Rows and columns of each corner patch.
CORNER_SHAPES = [(rows.stop - rows.start, cols.stop - cols.start) for rows, cols in CORNERS]


@dataclass(frozen=True)
class Reading:
    """What the matcher made of one view of a card: the ``card`` (None: unknown), its
    ``confidence`` (0-1), whether it is ``face_down``, ``turned`` (read upside down) and the
    ``why`` of an unknown reading (for logs and tests)."""

    card: PhysicalCard | None
    confidence: float
    face_down: bool = False
    turned: bool = False
    why: str = ""
    face_says: PhysicalCard | None = None  # the card the whole face, every corner in view, named in vetoing the corners
    unsure: PhysicalCard | None = None  # the card read, not named since not sure enough for where it was found
    score: float = 0.0  # the aligned corner correlation of the card named (or read unsurely)


class Matcher:
    """Reads upright card views against ``enrolment``."""

    def __init__(self, enrolment: Enrolment) -> None:
        self.enrolment = enrolment
        deck = enrolment.deck
        self.cards = [deck.card(card_id) for card_id in enrolment.cards]
        ranks = [getattr(card.face, "rank", None) for card in self.cards]
        card_suits = [getattr(card.face, "suit", None) for card in self.cards]   # None for a card of none
        #: The cards' features, all one way round (a card photographed upside down is turned).
        features = self._features = one_way_round(list(enrolment.cards.values()), ranks)
        self._corners = np.stack([f.corners for f in features]).reshape(len(features), 4, -1)
        self._face = np.stack([f.face for f in features])
        #: The whole faces at :data:`DETAIL`, where two cards are told apart by them (a deck
        #: enrolled before they were kept: at :data:`FACE`).
        self._detail = np.stack([f.detail for f in features]) if features and all(f.detail is not None for f in features) else None
        #: The whole faces, and the enrolled back's, softened as a back is compared (:meth:`_is_back`).
        self._soft_faces = np.stack([_soften(f.reshape(FACE[1], FACE[0]), BACK_BLUR).ravel() for f in self._face]) \
            if features else np.zeros((0, FACE[0] * FACE[1]), np.float32)
        back = enrolment.back
        self._back_face = None if back is None else _soften(back.face.reshape(FACE[1], FACE[0]), BACK_BLUR).ravel()
        #: How much print each corner of the back carries, and the corners that carry some: a
        #: plain corner (ancient-egyptians' back is plain but for a picture at its foot) is like
        #: any plain patch by chance, and says nothing; a corner with little print (the rounded
        #: corner of oxygen-air's border, its light's slope across it) says little.
        self._back_ink = None if back is None else np.linalg.norm(back.corners.reshape(4, -1), axis=1)
        self._back_printed = None if back is None else self._back_ink >= BLANK
        red = np.array([np.nan if f.redness is None else f.redness for f in features])
        #: Each card's colour (1 red, 0 black, NaN not known) and the shares of red print up to
        #: which a view is black and from which it is red (see :func:`colours`).
        self._red, self._black_to, self._red_from = colours(red, card_suits)
        self._corner_norms = np.einsum("nkp,nkp->nk", self._corners, self._corners)
        #: How well each corner shows the suits (:func:`suits_shown`), as the enrolled deck
        #: shows them, and the corners that show them: a corner of a deck enrolled from photos
        #: may show its suit and not be seen to (nicu-white's shows a sliver of it, which an
        #: outline a pixel off moves out).
        suits = suits_shown(self._corners, ranks, card_suits)
        self.suit_shown = suits >= SUIT_SHOWN
        #: The corners that name a card alone: inked on every card (a pip near a corner of some
        #: cards is no index), no two cards alike there (a design that prints the rank in one
        #: corner and the suit in another names no card by either), and a suit printed there
        #: (:data:`SUIT_PRINTED`: photos of a rank printed alone are never alike, each lit and
        #: cut its own way, and a deck from phone photos of oxygen's took its rank's corner for
        #: an index, which left its fanned hand's top card unread); and the corner opposite it
        #: one too: a card's index is printed at both ends, to be read either way round (a
        #: suit printed alone, the same on every card of the suit, is never alike in two
        #: photos either: oxygen-white's diamond in its bottom-left corner, from phone photos,
        #: named a 2D the 3D). A card whose face hardly shows is read by its corners only when
        #: one of these is in view.
        unit = self._corners / np.sqrt(np.maximum(self._corner_norms, 1e-12))[:, :, None]
        alike = np.array([(lambda g: (g - 2 * np.eye(len(g))).max())(unit[:, k] @ unit[:, k].T) for k in range(4)])
        inked = (np.sqrt(self._corner_norms) >= BLANK).all(axis=0)
        index = inked & (alike < ALIKE) & ~(suits < SUIT_PRINTED)
        self.index_corners = tuple(int(k) for k in np.flatnonzero(index & index[::-1]))
        self._same_rank = {i: [j for j, other in enumerate(ranks) if other == rank and j != i]
                           for i, rank in enumerate(ranks) if rank is not None}
        #: Each corner of the deck's cards on average (each card's weighed alike), as matched
        #: (:func:`_template`): where the deck prints its index, what a view's corners are
        #: registered on before every card is compared with them (:meth:`_registered_corners`).
        self._mean_corners = [_template(unit[:, k].mean(axis=0).reshape(CORNER_SHAPES[k])) if len(unit) else None
                              for k in range(4)]
        self._patches: dict[tuple[int, int, float], tuple[np.ndarray, np.ndarray]] = {}
        self._parts: dict[tuple[int, bytes], tuple[np.ndarray, np.ndarray]] = {}

    def corner_scores(self, query: Features, visible: np.ndarray, part: np.ndarray | None = None) -> np.ndarray:
        """Normalised correlation of the ``visible`` corners of ``query`` with every card; with
        ``part`` (the pixels of the one visible corner's patch that show), on those alone."""
        q = query.corners.reshape(4, -1)
        if part is not None:
            k = int(np.flatnonzero(visible)[0])
            return self._on_part(k, q[k], part.ravel())
        dots = np.einsum("nkp,kp->nk", self._corners, q)[:, visible].sum(axis=1)
        q_norm = float(np.einsum("kp,kp->k", q, q)[visible].sum())
        ref_norm = self._corner_norms[:, visible].sum(axis=1)
        return dots / np.sqrt(np.maximum(ref_norm * q_norm, 1e-12))

    def _unaligned(self, view: Features, visible: np.ndarray, part: np.ndarray | None) -> np.ndarray:
        """Every card's :meth:`corner_scores`, the better of the view's corners where they lie
        and registered on the deck's (:meth:`_registered_corners`): the best few are aligned
        card by card after (:meth:`_aligned`), and a corner whose outline is a few pixels off
        (a fanned card's, fitted from its one end that shows) matches its own card's thin
        strokes no better than another's until it is moved onto them."""
        scores = self.corner_scores(view, visible, part)
        moved = self._registered_corners(view, visible, part)
        return scores if moved is None else np.maximum(scores, self.corner_scores(moved, visible, part))

    def _registered_corners(self, view: Features, visible: np.ndarray, part: np.ndarray | None) -> Features | None:
        """The view with each ``visible`` corner patch taken where the deck's average corner
        there fits it best, within :data:`REACH` px (on the ``part`` that shows, when given): an
        outline off the card moves every card's index alike. None without the view's picture."""
        if view.soft is None or not self.cards:
            return None
        corners = view.corners.reshape(4, -1).copy()
        for k in np.flatnonzero(visible):
            search, mean = corner_search(view, k, REACH), self._mean_corners[k]
            h, w = mean.shape
            if search.shape[0] < h or search.shape[1] < w:
                continue
            mask = None if part is None else part.astype(np.float32)
            fits = np.nan_to_num(cv2.matchTemplate(search, mean, cv2.TM_CCOEFF_NORMED, mask=mask), nan=-1.0)
            x, y = cv2.minMaxLoc(fits)[3]
            patch = search[y:y + h, x:x + w]
            corners[k] = corner_vector(patch)
        return replace(view, corners=corners.ravel())

    def corner_likeness(self, patch: np.ndarray, corner: int, part: np.ndarray | None = None) -> float:
        """How like any enrolled card's corner ``corner`` the corner patch ``patch`` is (from
        :func:`vision.faces.features.corner_features`), either way round (the card may lie
        turned: its corner ``3 - corner`` turned then lies there): the best normalised
        correlation, before any alignment; on the pixels of ``part`` alone when given."""
        rows, cols = CORNER_SHAPES[corner]
        turned = patch.reshape(rows, cols)[::-1, ::-1].ravel()
        if part is not None:
            return max(float(self._on_part(k, view, mask.ravel()).max())
                       for k, view, mask in ((corner, patch, part), (3 - corner, turned, part[::-1, ::-1])))
        return max(float((self._corners[:, k] @ view / np.sqrt(np.maximum(self._corner_norms[:, k], 1e-12))).max())
                   for k, view in ((corner, patch), (3 - corner, turned)))

    def _on_part(self, k: int, view: np.ndarray, part: np.ndarray) -> np.ndarray:
        """Every card's correlation with ``view`` of its corner ``k`` on the pixels of ``part``
        (flat), the cards' side of it made once for each part (:data:`PARTS_KEPT` kept): a
        fanned card's guesses, turned and moved about its corner, mostly show the same part."""
        key = (k, part.tobytes())
        if key not in self._parts:
            if len(self._parts) >= PARTS_KEPT:
                del self._parts[next(iter(self._parts))]
            self._parts[key] = _centred(self._corners[:, k], part)
        return _correlations(self._corners[:, k], view, part, centred=self._parts[key])

    def read_view(self, upright: np.ndarray, visible: np.ndarray | None = None, shown: np.ndarray | None = None,
                  part: np.ndarray | None = None) -> Reading:
        """Read the card of an ``upright`` view (:func:`vision.faces.features.warp_upright`), both
        ways round, from the corners ``visible`` and the face pixels ``shown`` (default all), and
        with one corner visible, the pixels of its patch that show (``part``, default all: a
        fanned card's corner with the next card's edge across it): the same call as the
        corner-index reader's (:meth:`vision.faces.index_reader.IndexReader.read_view`), so a
        recogniser or the still reader holds either."""
        if visible is None:
            return self.read((describe(upright), describe(turned(upright))))
        return self.read((describe(upright, visible), describe(turned(upright), visible[::-1])), (visible, visible[::-1]),
                         None if shown is None else (shown, shown[::-1, ::-1]),
                         None if part is None else (part, part[::-1, ::-1]))

    def read(self, views: tuple[Features, Features], visible: tuple[np.ndarray, np.ndarray] | None = None,
             shown: tuple[np.ndarray, np.ndarray] | None = None, parts: tuple[np.ndarray, np.ndarray] | None = None) -> Reading:
        """Read a card from its two upright views (as laid, and turned 180 degrees), each with
        the corners that are ``visible`` (default all), the pixels of its whole face (a
        :data:`FACE`-sized mask, default all) that are ``shown`` (where a corner is hidden, the
        rest of the face still speaks) and, with one corner visible, the pixels of its patch
        that show (``parts``, default all)."""
        parts = parts or (None, None)
        if visible is None:
            visible = (np.ones(4, bool), np.ones(4, bool))
        if self._is_back(views, visible, shown):
            return Reading(None, 1.0, face_down=True)
        if not any(v.any() for v in visible):
            return Reading(None, 0.0, why="every corner is hidden")
        # Corners, with too little of the face shown to speak, name a card only where one of
        # them names a card alone (:attr:`index_corners`): a pip in the corner of some cards is
        # no index, nor a suit printed without the rank (oxygen-white's ace of spades, seen by
        # its foot alone, was named the jack of spades), nor a rank without the suit.
        face_hidden = shown is not None and all(m.mean() < FACE_SHOWN for m in shown)
        alone = [face_hidden and not vis[list(self.index_corners)].any() for vis in visible]
        if all(no or not vis.any() for no, vis in zip(alone, visible)):
            return Reading(None, 0.0, why="the corners in view name no card without the face")
        scored = [self._unaligned(view, vis, part) if vis.any() and not no else np.full(len(self.cards), -1.0)
                  for view, vis, part, no in zip(views, visible, parts, alone)]
        faces = [self._face @ view.face for view in views]
        # Which way round: by the aligned corners (unaligned, an outline a pixel or two off
        # the card can favour the wrong way round) and the face, or by the corners alone when
        # the face hardly shows (a card showing one corner: the rest is other cards).
        aligned = [self._aligned(self._by_colour(score, view), view, vis, part) if score.max() > -1 else (score, {})
                   for score, view, vis, part in zip(scored, views, visible, parts)]
        face_counts = shown is None or all(v.all() for v in visible) or any(m.mean() >= FACE_SHOWN for m in shown)
        side = int(np.argmax([a.max() + (f.max() if face_counts else 0.0) for (a, _), f in zip(aligned, faces)]))
        scores, fits = aligned[side]
        scores = self._by_colour(scores, views[side])  # the other suits of the rank were rescored too
        order = [int(i) for i in np.argsort(scores)[::-1]]
        best, second = order[0], order[1]
        ratio = (1 - float(scores[best])) / max(1 - float(scores[second]), 1e-6)
        confidence = float(np.clip((RATIO_NONE - ratio) / (RATIO_NONE - RATIO_SURE), 0, 1))
        whole = all(v.all() for v in visible)
        seen = None if shown is None or whole else shown[side]
        face_speaks = whole or (seen is not None and seen.mean() >= FACE_SHOWN)
        # The best two told apart where they differ, by the corners and the face (as much of it
        # as is shown); the one the view fits better there is the reading. A signal that hardly
        # tells the two apart (the small pips of a whole face) abstains.
        on_face = self._on_face(views[side], seen) if face_speaks else None
        # No corner in view shows the suit (oxygen-air prints it in the pips alone): which suit
        # of the rank it is, is the face's to say.
        suit_unseen = face_speaks and not (visible[side] & self.suit_shown).any()
        chosen = self._suit_by_face(best, scores, on_face) if suit_unseen else None
        if chosen:
            best, second = chosen
            order = [best, second] + [i for i in order if i not in (best, second)]
        elif whole:
            # Ranks and suits whose small indices the view fits nearly alike (a digit is a few
            # pixels of a corner: xskat-german's 3H fitted the 5H 0.991, the 2H 0.987, its own
            # 0.985; oxygen's 3C the 3D, 2S, 3S and itself within 0.01): of the cards the
            # corners cannot rule out, the one told apart from each of the others as better,
            # by the corners where the two differ and the face, is the reading; the one it is
            # told apart from by the least is what it must be told from.
            field = [best] + sorted((i for i in order[1:] if (1 - float(scores[best])) / max(1 - float(scores[i]), 1e-6) > RATIO_SURE),
                                    key=lambda i: -float(faces[side][i]))[:FIELD - 1]
            ahead = ahead_of_all(field, lambda a, b: self._verdict(a, b, fits, on_face, visible[side]))
            if ahead is not None:
                best, second = ahead
                order = [best, second] + [i for i in order if i not in (best, second)]
        told, apart = self._apart(best, second, fits, on_face, visible[side], face_speaks)
        if len(apart) == 2 and apart[0] * apart[1] < 0:
            sure = whole and max(float(scores[best]), float(scores[second])) >= LEAST_SCORE
            return Reading(None, 0.0, turned=bool(side), face_says=self.cards[best if apart[1] > 0 else second] if sure else None,
                           why=f"the corners and the face disagree between {self.cards[best].id} and {self.cards[second].id} "
                               f"(corners {apart[0]:+.2f}, face {apart[1]:+.2f})")
        if apart:
            if np.mean(apart) < 0:
                best, second = second, best
                order[:2] = [best, second]
                # Another rank now (the 3D's corners, seen soft, before the face's 2D): its suit
                # is the face's to say too.
                chosen = self._suit_by_face(best, scores, on_face) if suit_unseen and second not in self._same_rank.get(best, ()) else None
                if chosen:
                    best = chosen[0]
                    order = [best] + [i for i in order if i != best]
            confidence = float(np.clip(abs(np.mean(apart)) / APART_SURE, 0, 1))
        elif told:  # where the best two differ, the view fits either: how well they fit elsewhere says nothing
            confidence = min(confidence, float(np.clip(max(map(abs, told)) / APART_SURE, 0, 1)))
        if not face_speaks:
            # Corners alone: a third card fitting nearly as well as the best (three ranks of
            # one suit, their small digits alike when blurred) must be told apart too.
            for rival in order[2:]:
                if confidence < THRESHOLD or (1 - float(scores[best])) / max(1 - float(scores[rival]), 1e-6) <= RATIO_SURE:
                    break
                gap = _told_apart(fits.get(best), fits.get(rival))
                if gap is not None:
                    confidence = min(confidence, float(np.clip(gap / APART_SURE, 0, 1)))
        score = float(scores[best])
        if self._colour_unclear(best, second, views[side]):
            return Reading(None, min(confidence, THRESHOLD / 2), turned=bool(side), score=score,
                           unsure=self.cards[best] if score >= LEAST_SCORE else None,
                           why=f"the colour of the print does not tell the {self.cards[best].id} from the {self.cards[second].id}")
        why = self._disagreement(best, scores, views[side], faces[side] if whole else None)
        by_face = [int(i) for i in np.argsort(faces[side])[::-1][:FACE_RIVALS + 1] if i != best]
        face_says = None
        for rival in dict.fromkeys(order[1:1 + FACE_RIVALS] + by_face) if face_speaks and not why else ():
            if (on_face(best, rival) or 0.0) <= -ABSTAIN:
                why = f"the whole face looks more like the {self.cards[rival].id} than the {self.cards[best].id}"
                face_says = self.cards[rival] if whole else None
                break
        for rival in self._same_rank.get(best, ()) if not (why or face_speaks or (visible[side] & self.suit_shown).any()) else ():
            # Another suit of the rank fitting nearly as well, and no corner in view that
            # shows the suit (a corner printing the rank alone, or a picture, differs between
            # two suits by decoration only), nor the face: the suit is not known.
            if (1 - score) / max(1 - float(scores[rival]), 1e-6) > RATIO_SURE:
                why = f"nothing in view shows whether it is the {self.cards[best].id} or the {self.cards[rival].id}"
                break
        if score < LEAST_SCORE and self._print_fit(best, fits.get(best)) < LEAST_SCORE:
            # Nothing like a card, by its corners weighed by their ink or by their print
            # (:meth:`_print_fit`: oxygen-air's thin rank, blurred in glare, fits 0.94, and its
            # corners' pale ornament, washed out, nothing): its face names no card either.
            why, face_says = f"no enrolled card looks like it (best {score:.2f})", None
        if why:
            return Reading(None, min(confidence, THRESHOLD / 2), turned=bool(side), why=why, face_says=face_says)
        if confidence < THRESHOLD:
            return Reading(None, confidence, turned=bool(side), score=score, unsure=self.cards[best],
                           why=f"too unsure ({confidence:.2f}) between {self.cards[best].id} and {self.cards[second].id}")
        turned_scores = self._by_colour(aligned[1 - side][0], views[1 - side])
        other_way = self._other_way_round(views, faces, turned_scores, side, best, score) if whole else None
        if other_way is not None:
            return Reading(None, THRESHOLD / 2, turned=bool(side), score=score, unsure=self.cards[best],
                           why=f"it looks like the {self.cards[best].id} one way round and the {self.cards[other_way].id} the other")
        return Reading(self.cards[best], confidence, turned=bool(side), score=score)

    def _apart(self, a: int, b: int, fits: dict, on_face, visible: np.ndarray, face_speaks: bool) -> tuple[list, list]:
        """How much better the view fits card ``a`` than ``b`` where the two differ: by the
        corners (their ``fits``, those ``visible``) and by the face (``on_face``, when it
        speaks), each 1 for ``a`` exactly to -1 for ``b``; those that tell at all, and those
        that tell by :data:`ABSTAIN` or more (the face's and the corners' summed where the face
        clearly overrules)."""
        # Two suits of a rank: corners that show no suit (a rank printed alone, decoration)
        # differ by noise alone, and say nothing of which it is.
        corners_tell = a not in self._same_rank.get(b, ()) or bool((visible & self.suit_shown).any())
        told = [gap for gap in (_told_apart(fits.get(a), fits.get(b)) if corners_tell else None,
                                on_face(a, b) if face_speaks else None)
                if gap is not None]
        apart = [gap for gap in told if abs(gap) >= ABSTAIN]
        if len(apart) == 2 and apart[0] * apart[1] < 0 and abs(apart[1]) >= max(FACE_OVERRULES, 2 * abs(apart[0])):
            # The big pips of a face shown tell two suits apart better than the small ones of a
            # corner or two: a face clearly for one, corners hardly for the other, is the face's.
            apart = [apart[0] + apart[1]]
        return told, apart

    def _verdict(self, a: int, b: int, fits: dict, on_face, visible: np.ndarray) -> float:
        """By the corners and the whole face (:meth:`_apart`), how much better the view fits
        card ``a`` than ``b``: above 0 for ``a``, below for ``b``, 0 when the two are not told
        apart or the corners and the face disagree."""
        apart = self._apart(a, b, fits, on_face, visible, True)[1]
        return 0.0 if not apart or (len(apart) == 2 and apart[0] * apart[1] < 0) else float(np.mean(apart))

    def _suit_by_face(self, best: int, scores: np.ndarray, on_face) -> tuple[int, int] | None:
        """Which suit of the rank of ``best`` the face says, when no corner in view shows the
        suit: a suit the face puts below another (by :data:`ABSTAIN` at least, ``on_face``) is
        out; of those left (of the suits still in the running, by ``scores``), the best fitting
        leads (one left: the face has said it), and the next is what it must be told from. The
        card that leads and that next one, or None when ``best`` still leads."""
        if best not in self._same_rank:
            return None
        suits = [best] + sorted((j for j in self._same_rank[best] if scores[j] > -1), key=lambda j: -float(scores[j]))
        left = [c for c in suits if all((on_face(d, c) or 0.0) < ABSTAIN for d in suits if d != c)]
        if not left or left[0] == best:
            return None
        return left[0], (left[1:] or [best])[0]

    def _other_way_round(self, views: tuple[Features, Features], faces: list[np.ndarray], turned_scores: np.ndarray,
                         side: int, best: int, score: float) -> int | None:
        """The pip card of another suit of the rank of ``best`` (read from ``views[side]``, its
        corners fitting at ``score``) that the view turned round fits as well, or None: by
        its corners (``turned_scores``, the other colour's out of the running) and its whole
        face within :data:`WAYS_APART`, and by the face where the two differ, better. A
        standard card's corners are the same either way round, and its pips say which way up
        it lies: a club upside down, soft, looks like a spade (dondorf's AC, enrolled from a
        phone photo and seen soft, fitted the AS turned round better than the AC as laid). A
        court's art is no pips."""
        rank = getattr(self.cards[best].face, "rank", None)
        if rank is None or rank > 10:
            return None
        other = 1 - side
        rivals = [j for j in self._same_rank.get(best, ())
                  if turned_scores[j] >= score - WAYS_APART and faces[other][j] >= faces[side][best] - WAYS_APART]
        for rival in sorted(rivals, key=lambda j: -float(faces[other][j])):
            if (self._on_face(views[other], None)(rival, best) or 0.0) >= ABSTAIN:
                return rival
        return None

    def _on_face(self, view: Features, shown: np.ndarray | None):
        """How much better the whole face of ``view`` (its ``shown`` pixels, a :data:`FACE`
        mask; default all) fits one card than another, as a function of the two cards'
        indices: on the pixels where the two differ most, 1 exactly the first, -1 exactly the
        second, None when they hardly differ (:func:`_gap_of`). At :data:`DETAIL` (at
        :data:`FACE` for a deck enrolled without it), the view registered on each card's face
        on its own: registered on what two cards share, a spade moves towards a club."""
        if self._detail is not None and view.detail is not None:
            refs, image, size, reach = self._detail, view.detail, DETAIL, 2 * FACE_REACH
            shown = None if shown is None else cv2.resize(shown.astype(np.uint8), DETAIL, interpolation=cv2.INTER_NEAREST) > 0
        else:
            refs, image, size, reach = self._face, view.face, FACE, FACE_REACH
        image = image.reshape(size[1], size[0])
        registered: dict[int, np.ndarray] = {}

        def on(index: int) -> np.ndarray:
            if index not in registered:
                registered[index] = _registered(image, refs[index], shown, reach)
            return registered[index]

        def gap(a: int, b: int) -> float | None:
            return _gap_over([(on(a), refs[a].reshape(image.shape), refs[b].reshape(image.shape), on(b), shown)], FACE_DIFFER)
        return gap

    def _is_back(self, views: tuple[Features, Features], visible: tuple[np.ndarray, np.ndarray],
                 shown: tuple[np.ndarray, np.ndarray] | None) -> bool:
        """A view of the enrolled back, either way round: on the pixels of the face ``shown``
        (all by default; a card laid partly on a back hides the rest, and at least
        :data:`BACK_SHOWN` must show), it correlates :data:`BACK_LEAST` with the back at least,
        and :data:`BACK_AHEAD` more than with any enrolled face (a dark face framed in white,
        as oxygen's, looks much like a dark back framed in white; or, ahead by less, when its
        corners fit the back as surely better than any face's fit them as a card is named
        against the next, :data:`RATIO_SURE`); and its ``visible`` corners
        that the back prints on correlate :data:`BACK_CORNERS` with the back's on average, each
        weighed by how much print the back has there (the back of another deck, a lattice or a
        picture framed alike, is as like it in the small whole face; a plain corner says
        nothing, and with none printed in view the face speaks alone). So compared sharp, or, in colour, softened (:data:`BACK_BLUR`,
        :data:`BACK_CORNER_BLUR`); in colour, what shows must be the colour of the enrolled back
        there (:data:`BACK_TINT`). A plain back's face (:data:`PLAIN_BACK`) correlates with
        anything by chance: for it, the view's face must be as plain and as dark or light where
        it shows (:data:`PLAIN_VIEW`) instead."""
        back = self.enrolment.back
        if back is None:
            return False
        plain = self.enrolment.back_middle is not None and self.enrolment.back_middle[1] <= PLAIN_BACK
        for view, visible_corners, mask in zip(views, visible, (None, None) if shown is None else shown):
            mask = np.ones(view.face.size, bool) if mask is None else mask.ravel()
            if mask.mean() < BACK_SHOWN or not visible_corners.any():
                continue
            seen = visible_corners & self._back_printed
            # Sharp, in grey, as enrolled: a back's own fine pattern (a lattice) ...
            ways = [(_correlations(back.face[None], view.face, mask, FACE)[0],
                     _correlations(back.corners.reshape(4, -1)[seen], view.corners.reshape(4, -1)[seen]),
                     _correlations(self._face, view.face, mask, FACE).max())]
            alike = True
            if back.tint is not None and view.tint is not None:
                # ... or, in colour, softened and moved onto the back (fine lines blurred and a
                # pixel off), whose colour over what shows the view's must share.
                face = _soften(view.face.reshape(FACE[1], FACE[0]), BACK_BLUR)
                moved = _registered(face, self._back_face, mask.reshape(face.shape), FACE_REACH).ravel()
                ways.append((_correlations(self._back_face[None], moved, mask, FACE)[0],
                             np.array([self._back_corner(k, view) for k in np.flatnonzero(seen)]),
                             _correlations(self._soft_faces, face.ravel(), mask, FACE).max()))
                alike = np.linalg.norm(view.tint.reshape(-1, 2)[mask].mean(axis=0) -
                                       back.tint.reshape(-1, 2)[mask].mean(axis=0)) <= BACK_TINT
            if not alike:
                continue
            grey = middle_grey(view.soft, mask) if plain and view.soft is not None else None
            as_plain = grey is not None and grey[1] <= PLAIN_VIEW and abs(grey[0] - self.enrolment.back_middle[0]) <= PLAIN_LEVEL
            best_face = None   # how well the best face's corners fit the view's, found once when asked
            for score, corners, cards in ways:
                fit = np.average(corners, weights=self._back_ink[seen]) if seen.any() else None
                if fit is not None and fit < BACK_CORNERS:
                    continue
                if as_plain if plain else score >= BACK_LEAST and score - cards >= BACK_AHEAD:
                    return True
                # A back like the faces in the whole face (oxygen's, dark and framed as they are)
                # is told from them as a card is told from the next: its corners fit it surely
                # better than any face's fit them, and the face fits it better too.
                if not plain and fit is not None and score >= BACK_LEAST and score > cards:
                    best_face = self._best_corners(view, visible_corners) if best_face is None else best_face
                    if 1 - fit <= RATIO_SURE * (1 - best_face):
                        return True
        return False

    def _best_corners(self, view: Features, visible: np.ndarray) -> float:
        """How well the best enrolled face's corners fit the ``visible`` corners of a view, each
        aligned where it fits best (:meth:`_aligned`), as a face is named."""
        return float(self._aligned(self._unaligned(view, visible, None), view, visible)[0].max())

    def _back_corner(self, corner: int, view: Features) -> float:
        """How well the enrolled back's corner fits the view's, both softened by
        :data:`BACK_CORNER_BLUR`, where it fits best within :data:`REACH` px."""
        patch = _soften(corner_patch(self.enrolment.back, corner), BACK_CORNER_BLUR)
        search = _soften(corner_search(view, corner, REACH), BACK_CORNER_BLUR)
        return float(cv2.matchTemplate(search, patch, cv2.TM_CCOEFF_NORMED).max())

    def _aligned(self, scores: np.ndarray, view: Features, visible: np.ndarray,
                 part: np.ndarray | None = None) -> tuple[np.ndarray, dict]:
        """``scores`` with the best :data:`CANDIDATES` cards scored again corner by corner, each
        enrolled corner at the shift (up to :data:`REACH` px) where it fits the view best, each
        corner weighed by how much ink it has (a blank corner weighs nothing), on the ``part``
        of the one visible corner that shows when given; and per card rescored, its corners'
        (view patch at that shift, enrolled patch, pixels compared) triples."""
        fits: dict[int, list] = {}
        if view.soft is None:
            return scores, fits
        scores = scores.copy()
        corners = [k for k in range(4) if visible[k]]
        searched = {k: corner_search(view, k, REACH) for k in corners}
        top = [int(i) for i in np.argsort(scores)[::-1][:CANDIDATES]]
        # The outline may be a little off the card's size: the scale at which either of the
        # best two candidates fits best is used for every card, so that their fits compare
        # (the first one's alone, taken before alignment, may be the card of another suit, and
        # favours it).
        tried = {s: {i: self._fit(i, searched, s, part) for i in top[:2]} for s in SCALES}
        scale = max(SCALES, key=lambda s: max(score for score, _ in tried[s].values()))
        # The same rank in the other suits too, of the best card as it was before alignment and
        # as it is after: the suit's pip is small in a corner, and a card whose outline is a
        # few pixels off fits no card unaligned (nicu-white's 3S, unaligned behind six others,
        # was named the 3C once the 3C alone of its rank was aligned).
        pending = list(dict.fromkeys(top + self._same_rank.get(top[0], [])))
        while pending:
            index = pending.pop(0)
            score, fits[index] = tried[scale].get(index) or self._fit(index, searched, scale, part)
            if fits[index]:
                scores[index] = score
            if not pending:
                best = int(np.argmax(scores))
                pending = [j for j in self._same_rank.get(best, []) if j not in fits]
        return scores, fits

    def _fit(self, index: int, searched: dict, scale: float, part: np.ndarray | None = None) -> tuple[float, list]:
        """Card ``index``'s inked corners, at ``scale``, each where it fits the ``searched``
        view corner best (on the ``part`` that shows, when given): their fit weighed by ink,
        and the (corner, view patch, enrolled patch, pixels compared) quadruples. The view patch
        is taken where the corner fits best to a tenth of a pixel (the peak's parabola about the
        best whole shift, as the whole face is, :func:`_registered`): two ranks printed a few
        pixels high (xskat-german's 3 and 5, soft) differ by less than a pixel of their strokes,
        and a corner fitted half a pixel off favours one or the other by chance."""
        total = weight = 0.0
        pairs = []
        for k, view in searched.items():
            ink = float(np.sqrt(self._corner_norms[index, k]))
            if ink < BLANK:
                continue
            patch, template = self._scaled_patch(index, k, scale)
            h, w = patch.shape
            if h > view.shape[0] or w > view.shape[1]:
                continue
            mask = None if part is None else cv2.resize(part.astype(np.float32), (w, h), interpolation=cv2.INTER_NEAREST)
            fits = cv2.matchTemplate(view, template, cv2.TM_CCOEFF_NORMED, mask=mask)
            if mask is not None:  # a window the mask leaves flat fits nothing
                fits = np.nan_to_num(fits, nan=-1.0)
            _, top, _, (x, y) = cv2.minMaxLoc(fits)
            total += ink * top
            weight += ink
            dx, dy = _peak_about(fits, x, y)
            seen = cv2.getRectSubPix(np.asarray(view, np.float32), (w, h), (x + (w - 1) / 2 + dx, y + (h - 1) / 2 + dy)) \
                if dx or dy else view[y:y + h, x:x + w]
            pairs.append((k, seen, patch, None if mask is None else mask > 0))
        return (total / weight if weight > 0 else 0.0), pairs

    def _print_fit(self, index: int, pairs: list | None) -> float:
        """How well card ``index``'s corners, aligned (``pairs``: :meth:`_fit`'s), fit the view,
        each weighed by its share of the card's corner print (its energy, as the corners'
        correlation together weighs them, :meth:`corner_scores`), but those the camera saw flat
        (within :data:`WASHED_OUT` grey levels): a design's pale ornament in a corner weighs
        as little as it shows, and a corner glare washed out to white shows nothing."""
        total = weight = 0.0
        for k, view, patch, shown in pairs or ():
            view = np.asarray(view, np.float32)
            seen = view if shown is None else view[shown]
            if seen.size == 0 or float(np.ptp(seen)) < WASHED_OUT:
                continue
            energy = float(self._corner_norms[index, k])
            total += energy * float(_correlations(np.asarray(patch, np.float32).ravel()[None], view.ravel(),
                                                  None if shown is None else shown.ravel())[0])
            weight += energy
        return total / weight if weight > 0 else 0.0

    def _scaled_patch(self, index: int, corner: int, scale: float) -> tuple[np.ndarray, np.ndarray]:
        """Card ``index``'s enrolled corner patch at ``scale``, and as matched (:func:`_template`):
        made once."""
        key = (index, corner, scale)
        if key not in self._patches:
            patch = corner_patch(self._features[index], corner)
            if scale != 1:
                patch = cv2.resize(patch, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
            self._patches[key] = (patch, _template(patch))
        return self._patches[key]

    def _by_colour(self, scores: np.ndarray, view: Features) -> np.ndarray:
        """``scores`` with the cards of the other colour out of the running, when the view's print
        is clearly red or clearly black (a card whose enrolled colour is not known stays in)."""
        colour = self._colour(view.redness)
        if colour is None:
            return scores
        return np.where(~np.isnan(self._red) & (self._red != colour), -1.0, scores)

    def _colour_unclear(self, best: int, second: int, view: Features) -> bool:
        """Whether the best two cards are of different colours while the view's colour says
        neither: the grey signals alone then decided between a red card and a black one, which
        on a design whose suits differ mostly in colour (its pips alike in grey) they cannot."""
        a, b = self._red[best], self._red[second]
        return not np.isnan(a) and not np.isnan(b) and a != b and self._colour(view.redness) is None

    def _colour(self, redness: float | None) -> bool | None:
        """A view's print red (True) or black (False) by the share of it that is red, or None:
        not measured, or in between (glare, a print partly hidden)."""
        if redness is None or self._black_to < redness < self._red_from:
            return None
        return redness >= self._red_from

    def _faces_moved(self, view: Features) -> np.ndarray:
        """How well the whole face of ``view`` fits each card's enrolled face, moved onto it by
        up to :data:`FACE_SHIFT` px (:func:`_registered`; the plane that fits it best taken out,
        as enrolled): an outline a few pixels off the card (its white border lost against a
        pale cloth, its shadow or the card below taken in) moves the whole print off the enrolled
        one's, and a face as detailed as a court's fits its own card no better than another."""
        image = view.face.reshape(FACE[1], FACE[0])
        moved = np.stack([_registered(image, face, None, FACE_SHIFT).ravel() for face in self._face])
        plane = plane_basis(image.shape)   # (made once a shape)
        moved -= (moved @ plane) @ plane.T
        return np.einsum("ij,ij->i", moved, self._face) / np.maximum(np.linalg.norm(moved, axis=1), 1e-9)

    def _disagreement(self, best: int, scores: np.ndarray, view: Features, faces: np.ndarray | None) -> str:
        """Why the other signals do not name the same card as the corners ("" when they do)."""
        colour = self._colour(view.redness)
        if colour is not None and not np.isnan(self._red[best]) and colour != self._red[best]:
            return "the colour of the print does not match"
        if faces is not None and (faces[best] < faces.max() - FACE_SLACK or faces[best] < FACE_LEAST):
            faces = self._faces_moved(view)
        if faces is not None and faces[best] < faces.max() - FACE_SLACK:
            return "the whole face looks like another card"
        if faces is not None and faces[best] < FACE_LEAST:
            return f"the whole face does not look like the enrolled one ({faces[best]:.2f})"
        return ""


def ahead_of_all(field: list[int], apart) -> tuple[int, int] | None:
    """The card of ``field`` that is told apart as better than each of the others (``apart(a,
    b)``: above 0 for ``a``, below for ``b``, 0 when they are not told apart), and the one
    it is ahead of by the least; None when no card is ahead of all (two not told apart, or
    each beaten by another)."""
    if len(field) < 2:
        return None
    gaps: dict[tuple[int, int], float] = {}

    def gap(a: int, b: int) -> float:
        if (b, a) in gaps:
            return -gaps[(b, a)]
        if (a, b) not in gaps:
            gaps[(a, b)] = float(apart(a, b))
        return gaps[(a, b)]

    leader = field[0]
    for other in field[1:]:
        if gap(leader, other) < 0:
            leader = other
    margins = {other: gap(leader, other) for other in field if other != leader}
    if min(margins.values()) <= 0:
        return None
    return leader, min(margins, key=margins.get)


def colours(redness: np.ndarray, suits=None) -> tuple[np.ndarray, float, float]:
    """The colour of each enrolled card (1 red, 0 black, NaN not known) from the share of its
    print that is red, the share up to which a view is black and the share from which it is
    red. A red-and-black deck's cards fall in two groups, far apart: where the widest gap
    between the shares is :data:`COLOUR_GAP` or more, the cards above its middle are red (the
    black cards of some designs carry a red ornament in their corners, a fifth of the print or
    more); a view is black up to :data:`BLACK` or the black cards' most grown by
    :data:`BLUR_GROWTH`, whichever is more, and red from :data:`RED` or a tenth above that,
    whichever is more. A deck with no such gap is not red
    and black (German suits: green, yellow, red, with every share between): no card's colour
    is known. With the cards' ``suits``, a card of another colour than most of its suit's
    (a court card whose picture's red reaches into the corner) has none either."""
    colour = np.full(len(redness), np.nan)
    known = np.sort(redness[~np.isnan(redness)])
    if len(known) < 2 or np.diff(known).max() < COLOUR_GAP:
        return colour, BLACK, RED
    gap = int(np.argmax(np.diff(known)))
    colour[~np.isnan(redness)] = redness[~np.isnan(redness)] > (known[gap] + known[gap + 1]) / 2
    for suit in set(suits or ()) - {None}:
        mine = np.array([s == suit for s in suits]) & ~np.isnan(colour)
        red = colour[mine].mean() if mine.any() else 0.5
        if red != 0.5:
            colour[mine & (colour != round(red))] = np.nan
    black_to = max(BLACK, float(known[gap]) * (1 + BLUR_GROWTH))
    return colour, black_to, max(RED, black_to + 0.1)


def suits_shown(corners: np.ndarray, ranks: list, suits: list) -> np.ndarray:
    """How well each corner shows the suits (``corners``: cards x 4 x pixels, with the cards'
    ``ranks`` and ``suits``): for every two suits, how well the difference between the two
    cards of a rank looks like their difference at the other ranks (median correlation, the
    least over the suits): the same symbols at the same place, not a rank printed alone
    with per-card decoration (:data:`SUIT_SHOWN`, :data:`SUIT_PRINTED`). Measured over the
    deck, not a card: a court card's picture adds its own differences to its index's. Measured
    on the corners as enrolled and again with each card's corner moved onto its rank's
    (:func:`_on_ranks`), the better taken: each photo of a card is cut a pixel or two its own
    way and lit its own way, and the suits' differences are then lost under those of the
    cutting and the light (a phone-photo enrolment of nicu-white, jolly-royal, konqi-modern,
    nicu-ornamental or either xskat showed no corner to print the suit; moved and fitted,
    0.12-0.67 where the suit is printed, 0.04 at most where the rank is printed alone, 0.09
    where a pip's sliver shows). NaN (not measured) for a deck of fewer than three ranks in
    two suits."""
    least = np.maximum(_suits_alike(corners, ranks, suits), _suits_alike(_on_ranks(corners, ranks), ranks, suits, fitted=True))
    return np.where(np.isfinite(least), least, np.nan)


def _suits_alike(corners: np.ndarray, ranks: list, suits: list, fitted: bool = False) -> np.ndarray:
    """For each corner, the least over every two suits of the median correlation between their
    cards' differences at each two ranks (see :func:`suits_shown`); infinite where no two suits
    share three ranks. ``fitted``: each difference taken with the second card scaled to fit the
    first (light that differs between two photos is no difference of print)."""
    index = {(rank, suit): i for i, (rank, suit) in enumerate(zip(ranks, suits)) if rank is not None and suit is not None}
    suit_set = sorted({suit for _, suit in index})
    least = np.full(corners.shape[1], np.inf)
    for a, mine in enumerate(suit_set):
        for other in suit_set[a + 1:]:
            both = sorted(rank for rank, suit in index if suit == mine and (rank, other) in index)
            if len(both) < 3:
                continue
            first, second = (corners[[index[(rank, suit)] for rank in both]] for suit in (mine, other))
            gain = np.einsum("rkp,rkp->rk", first, second) / np.maximum(np.einsum("rkp,rkp->rk", second, second), 1e-12) \
                if fitted else np.ones(first.shape[:2])
            differ = first - gain[:, :, None] * second
            differ = differ - differ.mean(axis=2, keepdims=True)
            differ /= np.maximum(np.linalg.norm(differ, axis=2, keepdims=True), 1e-12)
            for k in range(corners.shape[1]):
                likeness = differ[:, k] @ differ[:, k].T
                least[k] = min(least[k], float(np.median(likeness[~np.eye(len(both), dtype=bool)])))
    return least


def _on_ranks(corners: np.ndarray, ranks: list) -> np.ndarray:
    """``corners`` (cards x 4 x pixels) with each card's corner moved, within
    :data:`SUIT_REACH` px, onto the mean of its rank's there (twice: the mean of the moved
    corners the second time), the plane of the light taken out, each of unit length."""
    moved = np.array(corners, np.float32, copy=True)
    for k, shape in enumerate(CORNER_SHAPES):
        basis = plane_basis(shape)
        for rank in {rank for rank in ranks if rank is not None}:
            mine = [i for i, other in enumerate(ranks) if other == rank]
            patches = shifted = [_template(corners[i, k].reshape(shape)) for i in mine]
            for _ in range(2):
                mean = np.mean(shifted, axis=0).ravel()
                shifted = [_registered(patch, mean, None, SUIT_REACH) for patch in patches]
            for i, patch in zip(mine, shifted):
                flat = patch.ravel() - basis @ (basis.T @ patch.ravel())
                moved[i, k] = flat / max(float(np.linalg.norm(flat)), 1e-9)
    return moved


def _misfit(view: np.ndarray, ref: np.ndarray, where: np.ndarray, shown: np.ndarray | None = None) -> float:
    """Mean squared misfit on ``where`` of ``view`` to ``ref`` scaled and shifted to fit it best
    over the whole patch, or its ``shown`` pixels (light and contrast differ between the
    enrolment and the table)."""
    ref, view = np.asarray(ref, np.float32), np.asarray(view, np.float32)
    fit = slice(None) if shown is None else shown
    r, v = ref[fit], view[fit]
    centred = r - r.mean()
    slope = float(centred.ravel() @ (v - v.mean()).ravel()) / max(float(centred.ravel() @ centred.ravel()), 1e-12)
    return float(np.mean((view[where] - (slope * (ref[where] - r.mean()) + v.mean())) ** 2))


def _unexplained(references: np.ndarray, view: np.ndarray, shown: np.ndarray) -> np.ndarray:
    """The mean squared misfit of ``view`` on its ``shown`` pixels to each row of
    ``references`` scaled and shifted to fit it best (:func:`_misfit` over those pixels)."""
    seen = np.asarray(view, np.float32)[shown]
    return float(seen.var()) * (1 - _correlations(references, view.ravel(), shown.ravel()) ** 2)


def _correlations(references: np.ndarray, views: np.ndarray, mask: np.ndarray | None = None,
                  face: tuple[int, int] | None = None, centred: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Normalised correlation of each row of ``references`` with ``views`` (one vector for all,
    or one row each), on the pixels of ``mask`` (default all). For faces (``face``: their
    width and height), the plane that fits each best on those pixels is taken out, not only
    its mean (:func:`vision.faces.features.unlit`: the light's slope is no print), fitted on
    what shows: the plane a face shown in part was enrolled or seen without was fitted over
    the whole, the card lying on it included (ancient-egyptians' fanned card, 59 % of it in
    view, was taken for a card face down). ``centred``: :func:`_centred` of ``references``
    on that mask, made before (:meth:`Matcher._on_part`)."""
    plane = None
    if mask is not None and face is not None and not mask.all():
        plane = plane_basis((face[1], face[0]), mask)
    refs, lengths = centred or _centred(references, mask, plane)
    seen, seen_lengths = _centred(views, mask, plane)
    products = refs @ seen[0] if len(seen) == 1 else np.einsum("ij,ij->i", refs, seen)
    return products / np.maximum(lengths * seen_lengths, 1e-9)


def _centred(vectors: np.ndarray, mask: np.ndarray | None = None, plane: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``vectors`` on the pixels of ``mask`` (default all) less their mean, or
    first less their best fit in the span of ``plane``'s columns, and their lengths: each side
    of :func:`_correlations`."""
    rows = np.atleast_2d(vectors)
    if mask is not None and not mask.all():
        rows = rows[:, mask]
        if plane is not None:
            rows = rows - (rows @ plane) @ plane.T
    rows = rows - rows.mean(axis=1, keepdims=True)
    return rows, np.linalg.norm(rows, axis=1)


def _template(patch: np.ndarray) -> np.ndarray:
    """An enrolled patch (unit length over its card's corners: a few hundredths a pixel) spread
    over 0-255 to be matched: so faint, OpenCV's correlation loses it to rounding and fits a
    window exactly (1.0) where nothing fits (oxygen-white's KD fitted a KH's corner so)."""
    return cv2.normalize(np.asarray(patch, np.float32), None, 0, 255, cv2.NORM_MINMAX)


def _soften(image: np.ndarray, sigma: float) -> np.ndarray:
    image = np.asarray(image, np.float32)
    return cv2.GaussianBlur(image, (0, 0), sigma) if sigma > 0 else image


def _gap_over(pairs: list[tuple], most: float = DIFFER_MOST) -> float | None:
    """On the pixels where enrolled images ``a`` and ``b`` differ most (among those ``shown``,
    default all) over several patches at once, each (view, a, b, view_b, shown), how much
    better ``view`` fits ``a`` than ``view_b`` fits ``b``: 1 is exactly ``a``, -1 exactly
    ``b``, 0 either. None when they hardly differ anywhere. The pixels compared differ by
    ``most`` of the most that any differs, or more."""
    return _gap_of([_softened(*pair) for pair in pairs], most)


def _softened(view: np.ndarray, a: np.ndarray, b: np.ndarray, view_b: np.ndarray, shown: np.ndarray | None) -> tuple:
    """A patch of :func:`_gap_over` with its enrolled images ``a`` and ``b`` softened alike to
    the camera's blur (as much as makes the two fit their views best together, so blur does
    not decide between them, nor which is asked about first), and where they differ."""
    everywhere = np.ones(a.shape, bool) if shown is None else shown
    soft_a, soft_b = (np.stack([_soften(image, sigma).ravel() for sigma in GAP_BLURS]) for image in (a, b))
    blur = int(np.argmin(_unexplained(soft_a, view, everywhere) + _unexplained(soft_b, view_b, everywhere)))
    a, b = soft_a[blur].reshape(a.shape), soft_b[blur].reshape(b.shape)
    return view, a, b, view_b, shown, np.abs(a - b) * everywhere


def _gap_of(softened: list[tuple], most: float = DIFFER_MOST) -> float | None:
    """:func:`_gap_over` of patches already :func:`_softened`."""
    peak = max(float(differ.max()) for *_, differ in softened)
    wheres = [differ > most * peak for *_, differ in softened]
    if sum(int(where.sum()) for where in wheres) < 12 or peak < 1e-4:
        return None
    misfit_a = misfit_b = 0.0
    for (view, a, b, view_b, shown, _), where in zip(softened, wheres):
        if where.any():
            misfit_a += _misfit(view, a, where, shown) * where.sum()
            misfit_b += _misfit(view_b, b, where, shown) * where.sum()
    return (misfit_b - misfit_a) / max(misfit_a + misfit_b, 1e-9)


def _registered(view: np.ndarray, ref: np.ndarray, shown: np.ndarray | None, reach: int) -> np.ndarray:
    """The whole face ``view`` (an image) moved onto the enrolled face ``ref`` (flat, of the
    same size): by the shift up to ``reach`` px at which the two correlate best (on the
    ``shown`` pixels), to a tenth of a pixel (the peak's parabola about the best whole shift)."""
    image = view.astype(np.float32)
    h, w = image.shape
    inner = ref.reshape(h, w).astype(np.float32)[reach:h - reach, reach:w - reach]
    mask = None if shown is None else shown[reach:h - reach, reach:w - reach].astype(np.float32)
    fits = np.nan_to_num(cv2.matchTemplate(image, inner, cv2.TM_CCOEFF_NORMED, mask=mask), nan=-1.0)
    _, _, _, (x, y) = cv2.minMaxLoc(fits)
    dx, dy = np.add(_peak_about(fits, x, y), (x - reach, y - reach))
    if dx == dy == 0:
        return image
    return cv2.warpAffine(image, np.float32([[1, 0, -dx], [0, 1, -dy]]), (w, h), borderMode=cv2.BORDER_REPLICATE)


def _peak_about(fits: np.ndarray, x: int, y: int) -> tuple[float, float]:
    """Where about the best whole shift ``x``, ``y`` of a template's ``fits`` (-0.5 to 0.5 each
    way) they peak: :func:`_peak` across and down, 0 at the edge of the search."""
    return (_peak(fits[y, x - 1:x + 2]) if 0 < x < fits.shape[1] - 1 else 0.0,
            _peak(fits[y - 1:y + 2, x]) if 0 < y < fits.shape[0] - 1 else 0.0)


def _peak(three: np.ndarray) -> float:
    """Where between its neighbours (-0.5 to 0.5) the peak of three samples lies, the middle
    one the greatest (a parabola through them)."""
    left, middle, right = (float(v) for v in three)
    bend = left - 2 * middle + right
    return float(np.clip(0.5 * (left - right) / bend, -0.5, 0.5)) if bend < 0 else 0.0


def _told_apart(best: list | None, second: list | None) -> float | None:
    """How much better the view fits the best card than the second best on the pixels where
    those two cards differ (the suit's pip when they share a rank, the rank when they share a
    suit), see :func:`_gap_over`, over the corners both have ink in; None when there are none.
    Weighed two ways, which must agree, the weaker taken: over the pixels where the two differ
    most in all the corners (one corner showing the suit outweighs three printing the same
    rank or nothing, whose noise would vote), and as the mean of the corners' own (one corner
    differing in a faint picture line, or in per-card sparkles, does not decide alone)."""
    if not best or not second:
        return None
    second_by_corner = {k: (view, patch) for k, view, patch, _ in second}
    softened = [_softened(view, patch, second_by_corner[k][1], second_by_corner[k][0], shown)
                for k, view, patch, shown in best if k in second_by_corner]
    gaps = [gap for patch in softened if (gap := _gap_of([patch])) is not None]
    pooled = _gap_of(softened) if gaps else None
    if pooled is None:
        return None
    mean = float(np.mean(gaps))
    return float(np.sign(pooled) * min(abs(pooled), abs(mean))) if pooled * mean > 0 else 0.0
