"""Enrolment: show the deck to cardtable once, and keep its references (:mod:`vision.faces.store`).

From a folder of card images (:func:`enrol_from_images`: photos, scans or crops named by face,
``AS.jpg``, ``10H.png``, optionally ``BACK.png``), from one photo of the deck laid out
(:func:`enrol_from_photo`), or from the camera, card by card (:class:`CameraEnrolment`: the
caller says which card to lay, it checks each and can be resumed from a half-filled enrolment
file) or in rows (:mod:`vision.faces.rows`). Every card found is checked the one way
(:func:`cut_out`: cut on its edge, print in a corner); all check that no two cards look alike
(two scans of the same card) and, when finishing, that the whole deck is there.
"""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np

from engine.decks import Deck, PhysicalCard
from engine.errors import InvalidInput
from vision.faces.features import Features, describe, middle_grey, order_quad, turned, turned_features, warp_upright
from vision.faces.finder import Backdrop, card_outlines, new_patches, refine_quad, shape_of
from vision.faces.still import FOLLOWED, edge_followed, find_card, find_cards, inked_corners, work_across
from vision.faces.store import Enrolment
from vision.frames import Frame

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
#: Two pictures whose corners and whole faces both correlate this well are of one card. The
#: corners alone do not say it: a design that prints a big pip beside the index, or the rank
#: alone in a corner, has different cards alike there (xskat's 5C and 8C: 0.996, faces 0.64);
#: two pictures of one card are alike all over (faces above 0.97 through a camera's blur and
#: light, different cards of Debian's designs at most 0.96 where their corners are this alike).
ALIKE, FACE_ALIKE = 0.995, 0.97


def card_quad(image: np.ndarray, *, face: bool = True) -> np.ndarray | None:
    """The outline of the card in a photo or scan of one card's ``face`` or back
    (:func:`vision.faces.still.find_card`: the card lying anywhere on any surface, or the whole
    image when it is the card cut to its edge), ordered as
    :func:`vision.faces.features.order_quad` orders; None when no card is found."""
    return find_card(image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), face=face)


#: What to do about a card refused from a picture (see :func:`cut_out`).
PHOTOGRAPH_AGAIN = ("photograph it again face up, whole, on a plain background that differs from the card, "
                    "filling at least a third of the picture")


#: A back's outline found in its picture is a frame printed inside a margin of the card's own
#: paper, the picture being the back cut to its edge, when the outline's shape is off the deck's
#: cards' by this share at least while the picture's is within :data:`CUT_SHAPE` of it, and the
#: outline fills :data:`FRAME_FILLS` of the picture (xskat-french's back, a braid framed inside
#: a white margin, drawn on white: its frame 0.62 short side over long, the faces and the
#: picture 0.64-0.65; a card lying in a photo or a scan fills a small part of it).
FRAME_SHAPE, CUT_SHAPE, FRAME_FILLS = 0.025, 0.01, 0.6


def card_view(image: np.ndarray, file_name: str, *, face: bool = True,
              shape: float | None = None) -> tuple[np.ndarray, float]:
    """The upright colour view of the one card of a picture, checked (:func:`cut_out`; a back,
    ``face`` False, may be plain: it holds no index), and the card's shape in the picture
    (:func:`vision.faces.finder.shape_of`). With the ``shape`` of the deck's cards, an outline of
    another shape that fills most of a picture of that shape is a frame printed on the card,
    and the picture is taken whole (:func:`printed_frame`).

    :raises InvalidInput: naming the file and saying what to do.
    """
    image = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    quad = card_quad(image, face=face)
    if quad is None:
        raise InvalidInput(f"I could not find the card in {file_name}: photograph it on a plain background, "
                           f"filling at least a third of the picture")
    if shape is not None and printed_frame(quad, image.shape[:2], shape):
        h, w = image.shape[:2]
        quad = order_quad(np.float32([(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)]))
    return cut_out(image, quad, f" in {file_name}", PHOTOGRAPH_AGAIN, index=face), shape_of(quad)


def printed_frame(quad: np.ndarray, size: tuple[int, int], shape: float) -> bool:
    """Whether ``quad``, found in a picture of ``size`` (height, width), is a frame printed
    inside the card's edge rather than the card, the deck's cards being of ``shape``: a back
    printed inside a white margin and drawn on white shows no edge but its frame's, and
    enrolled so, it matches no card lying face down (the camera sees the card's edge on the
    table). The back is the same card as the faces: see :data:`FRAME_SHAPE`."""
    h, w = size
    whole = min(h, w) / max(h, w)
    return (abs(shape_of(quad) - shape) >= FRAME_SHAPE * shape and abs(whole - shape) <= CUT_SHAPE * shape
            and cv2.contourArea(np.float32(quad)) >= FRAME_FILLS * h * w)


def cut_out(image: np.ndarray, quad: np.ndarray, where: str, again: str, *, index: bool = True) -> np.ndarray:
    """The upright colour view of the card found at ``quad`` in ``image`` (BGR), checked as
    every enrolment checks a card, from pictures, from one photo of the deck or from the
    camera: its outline follows the card's edge all round
    (:func:`vision.faces.still.edge_followed`) and print shows in a corner at least (a card's
    index; some designs print one). An outline off the card's edge (askew, or taking in its
    shadow or a neighbour) gives a reference the card itself, seen whole on the table, fits
    less well than another card of its rank: it would be named that card.

    :param where: where the card was found, as said after "the card" (" in 10C.jpg", or "").
    :param again: what to do, said after what is wrong.
    :param index: whether print must show in a corner (a back may be plain).
    :raises InvalidInput: saying what is wrong and ``again``.
    """
    if edge_followed(image, quad) < FOLLOWED:
        raise InvalidInput(f"I found the card{where} only askew or cut off its edges: {again}")
    view = warp_upright(image, order_quad(quad))
    if index and inked_corners(view) < 1:
        raise InvalidInput(f"the card I found{where} shows no index in its corners: {again}")
    return view


def features_of_image(image: np.ndarray) -> Features:
    """The features of a card image (a scan or photo of one card), held portrait.

    :raises InvalidInput: when no card is found in it.
    """
    return describe(card_view(image, "the image")[0])


#: File names of card images: a rank word or letter and a suit word or letter, in either
#: order, with or without "of" between ("AS", "10h", "king_club", "1_spade", "king_of_spades",
#: "Queen of Diamonds"). Rank 1 is the ace (the names Debian's card designs give).
_RANK_WORDS = {"ace": "A", "one": "A", "1": "A", "jack": "J", "queen": "Q", "king": "K", "ten": "10",
               "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
               "nine": "9", "t": "10"}
_SUIT_WORDS = {"spade": "S", "spades": "S", "heart": "H", "hearts": "H", "diamond": "D", "diamonds": "D",
               "club": "C", "clubs": "C"}


def _card_text(stem: str) -> str:
    """A file name's card in the deck's text ("king_of_spades" -> "KS"), or the name squeezed."""
    words = [w for w in re.split(r"[\s_\-.]+", stem.strip().lower()) if w and w != "of"]
    ranks = [w for w in words if w in _RANK_WORDS or w.isdigit()]
    suits = [w for w in words if w in _SUIT_WORDS]
    if len(words) == 2 and len(ranks) == 1 and len(suits) == 1:
        return _RANK_WORDS.get(ranks[0], ranks[0]).upper() + _SUIT_WORDS[suits[0]]
    return "".join(words).upper()


#: File names of cards a deck does not play (jokers, extra cards): skipped with a note.
EXTRA = re.compile(r"joker|^jk|^extra|^blank|^rules|^advert", re.IGNORECASE)


def face_id(stem: str, deck: Deck) -> str:
    """The card id a file name gives ("as" -> "AS", "t-h" -> "10H", "10h" -> "10H",
    "king_club" -> "KC", "1_spade" -> "AS", "king_of_spades" -> "KS"), or "BACK".

    :raises InvalidInput: when the name is no card of the deck.
    """
    text = _card_text(stem)
    if text == "BACK":
        return text
    try:
        return deck.card(str(deck.parse_face(text))).id
    except (InvalidInput, ValueError, KeyError):
        raise InvalidInput(f"the file name {stem!r} names no card of the {deck.title}: "
                           f"name card images AS, 10H, QD or king_of_spades, 10_club, ... "
                           f"(BACK for the back)") from None


def check_unlike(enrolment: Enrolment, card_id: str, features: Features) -> None:
    """Refuse a card that looks like one already enrolled, in its corners and its whole face (a
    second picture of the same card); cards alike in their corners only are told apart, or not,
    by :func:`check_told_apart`.

    :raises InvalidInput: naming both cards.
    """
    for other_id, other in enrolment.cards.items():
        if other_id != card_id and float(features.corners @ other.corners) >= ALIKE \
                and float(features.face @ other.face) >= FACE_ALIKE:
            raise InvalidInput(f"the pictures of {card_id} and {other_id} look alike: is one of them "
                               f"a second picture of the same card?")


def checked_view(enrolment: Enrolment, card_id: str, upright: np.ndarray) -> Features:
    """The features of a card seen by the camera (its upright view), after checking that it
    looks like no card already enrolled, in either orientation: a card laid upside down is the
    same card. It is kept the same way round as the cards of its rank already enrolled
    (:func:`same_way_round`).

    :raises InvalidInput: naming both cards (see :func:`check_unlike`).
    """
    features = describe(upright)
    for view in (features, describe(turned(upright))):
        check_unlike(enrolment, card_id, view)
    return same_way_round(enrolment, card_id, features)


def same_way_round(enrolment: Enrolment, card_id: str, features: Features) -> Features:
    """``features`` as laid, or turned 180 degrees when that way round its whole face looks
    more like the cards of the same rank already enrolled (the court art of a design, the odd
    pip of a seven). A card read on the table is tried both ways round against references that
    are all one way round; a reference enrolled upside down, among upright ones, makes the
    faces of a rank disagree. The first card of a rank enrolled sets the way for its rank."""
    rank = getattr(enrolment.deck.card(card_id).face, "rank", None)
    others = [other.face for other_id, other in enrolment.cards.items()
              if other_id != card_id and getattr(enrolment.deck.card(other_id).face, "rank", None) == rank]
    if not others or rank is None:
        return features
    others = np.stack(others)
    # Turning a view reverses each feature vector (turned_features).
    if float((others @ features.face[::-1]).sum()) <= float((others @ features.face).sum()):
        return features
    return turned_features(features)


def table_outline(frame: Frame, quad: np.ndarray) -> np.ndarray:
    """``quad`` (a rough outline in a camera ``frame``, of a patch that differs from the empty
    table) with its sides moved onto the card's edges, ordered so that the card's top is
    towards the top of the picture (see :func:`vision.faces.features.order_quad`)."""
    return order_quad(refine_quad(frame.grey(), quad))


#: What to do about a card refused on the table (see :func:`cut_out`).
LAY_AGAIN = "lay it flat and whole in view, apart from anything else"


class Stillness:
    """Whether what lies on the table has stopped moving: fed the centres of the outlines seen
    in each frame, it answers True once, when they have stayed within ``reach`` pixels for
    ``frames`` frames in a row (and again only after they move)."""

    def __init__(self, frames: int, reach: float = 3.0) -> None:
        self.frames, self.reach = frames, reach
        self._count, self._last = 0, None

    def update(self, centres: np.ndarray) -> bool:
        centres = np.asarray(centres, np.float32).reshape(-1, 2)
        last, self._last = self._last, centres
        # Each centre near one of the last frame's (in any order: a row's cards sort unsteadily).
        same = last is not None and len(centres) == len(last) and len(centres) > 0 and \
            bool(np.linalg.norm(centres[:, None] - last[None], axis=2).min(axis=1).max() < self.reach)
        self._count = self._count + 1 if same else 0
        return self._count == self.frames


def check_complete(enrolment: Enrolment) -> None:
    """:raises InvalidInput: listing the cards that are still missing."""
    missing = enrolment.missing
    if missing:
        raise InvalidInput(f"{len(missing)} of the {len(enrolment.deck.cards)} cards are missing: "
                           f"{', '.join(missing[:12])}{' ...' if len(missing) > 12 else ''}")


def as_the_camera_sees(upright: np.ndarray) -> np.ndarray:
    """An enrolled card's upright view as the table camera gives it: fewer pixels (a card about
    100 px wide), a little soft, the outline a pixel off."""
    w, h = upright.shape[1], upright.shape[0]
    small = cv2.resize(upright, (w * 3 // 4, h * 3 // 4), interpolation=cv2.INTER_AREA)
    shifted = cv2.warpAffine(small, np.float32([[1.01, 0, -0.8], [0, 1.01, -0.6]]), small.shape[1::-1],
                             borderMode=cv2.BORDER_REPLICATE)
    return cv2.GaussianBlur(cv2.resize(shifted, (w, h), interpolation=cv2.INTER_LINEAR), (0, 0), 0.8)


#: Share of an enrolled deck that may read as unknown when checked (:func:`check_told_apart`).
UNSURE = 0.25


def check_told_apart(enrolment: Enrolment, views: dict[str, np.ndarray]) -> None:
    """Check that each enrolled card, seen as the camera sees it (:func:`as_the_camera_sees`),
    reads back as itself against the rest of the deck.

    :raises InvalidInput: when a card reads as another, or too many read as nothing, naming
        them and saying what to do.
    """
    from vision.faces.matcher import Matcher

    matcher = Matcher(enrolment)
    wrong, unsure = [], []
    for card_id, view in views.items():
        seen = as_the_camera_sees(view)
        reading = matcher.read_view(seen)
        if reading.card is None:
            unsure.append(card_id)
        elif reading.card.id != card_id:
            wrong.append(f"{card_id} reads as the {reading.card.id}")
    if wrong or len(unsure) > UNSURE * len(views):
        said = wrong[:6] + ([f"{len(unsure)} cards read as none ({', '.join(unsure[:6])}"
                             f"{' ...' if len(unsure) > 6 else ''})"] if unsure else [])
        raise InvalidInput(f"the cards enrolled cannot be told apart: {'; '.join(said)}; "
                           f"check that each picture shows the card its name says, face up and whole")


def enrol_from_images(folder: str | Path, deck: Deck, name: str, *, say=None) -> Enrolment:
    """Enrol a whole deck from a folder of card images named by face (``AS.jpg``,
    ``king_club.png``, ...): photos, scans or crops of one card each (see
    :func:`card_view`), checked card by card and as a deck (:func:`check_told_apart`). Jokers
    and extra cards are skipped, each with a note to ``say`` (a callable taking a sentence).

    :raises OSError: when the folder or an image cannot be read.
    :raises InvalidInput: for a file named after no card, a card given twice, a picture in
        which no card is found, two cards alike (every such picture named at once, so that
        one retake serves them all), cards not told apart, or a missing card.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise OSError(f"no folder of card images at {folder}")
    enrolment = Enrolment(deck, name)
    seen: dict[str, str] = {}
    views: dict[str, np.ndarray] = {}
    back = None
    problems = []  # every picture that cannot be used, said at once: one retake for them all
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        if EXTRA.search(path.stem):
            if say is not None:
                say(f"skipped {path.name}: the {deck.title} has no such card")
            continue
        try:
            card_id = face_id(path.stem, deck)
            if card_id in seen:
                raise InvalidInput(f"{card_id} is given twice: {seen[card_id]} and {path.name}")
            seen[card_id] = path.name
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise OSError(f"cannot read the image {path}")
            if card_id == "BACK":
                back = (image, path.name)  # once the faces say the cards' shape
                continue
            view, shape = card_view(image, path.name)
            features = describe(view)
            check_unlike(enrolment, card_id, features)
        except InvalidInput as err:
            problems.append(str(err))
            continue
        enrolment.cards[card_id] = features
        enrolment.shapes[card_id] = shape
        views[card_id] = view
    if back is not None:
        try:
            features = describe(card_view(*back, face=False, shape=enrolment.shape)[0])
            enrolment.back, enrolment.back_middle = features, middle_grey(features.soft)
        except InvalidInput as err:
            problems.append(str(err))
    if problems:
        raise InvalidInput("; ".join(problems))
    check_complete(enrolment)
    check_told_apart(enrolment, views)
    enrolment.views.update(views)
    return enrolment


def enrol_from_design(design: str, deck: Deck, name: str, folder: str | Path) -> Enrolment:
    """Enrol a design installed by Debian's KDE card data (:mod:`vision.faces.designs`): its
    cards and its back are rendered into ``folder`` and enrolled as clean images, so a newcomer
    can try faces without a deck (a card laid face down is a face-down card).

    :raises InvalidInput: when no such design is installed, listing those that are.
    """
    from vision.faces.designs import installed_designs, write_deck_images

    if design not in installed_designs():
        raise InvalidInput(f"no card design {design!r} is installed: try one of {', '.join(installed_designs())}")
    write_deck_images(design, folder, deck.faces, back=True)
    return enrol_from_images(folder, deck, name)


def enrol_from_photo(image: np.ndarray, deck: Deck, name: str) -> Enrolment:
    """Enrol a whole deck from one photo of it laid out in rows (:func:`layout_rows`: 4 rows of
    13, spades, hearts, diamonds, clubs, each from the ace to the king, left to right, a
    finger's width apart, face up, the right way up as the photo looks at them): every card
    found (:func:`vision.faces.still.find_cards`), placed by its row and column
    (:func:`vision.faces.rows.assign_slots`), each checked, then the deck as a whole.

    :raises InvalidInput: saying each card missing or out of place, or the cards not told apart.
    """
    from vision.faces.rows import Blob, RowsEnrolment, layout_rows

    frame = Frame.of(image)
    rows = layout_rows(deck)
    across = max(map(len, rows))
    found = find_cards(frame.colour(), work=work_across(across))
    blobs = [Blob(cv2.boundingRect(np.int32(np.round(quad))), quad) for quad in found]
    walk = RowsEnrolment(Enrolment(deck, name), grid=(across, len(rows)))
    problems = walk.offer(frame, blobs)
    if problems:
        raise InvalidInput("; ".join(problems))
    check_told_apart(walk.enrolment, walk.enrolment.views)
    return walk.enrolment


class CameraEnrolment:
    """Enrolment from the camera, one card at a time, in deck order, resumable.

    The caller shows :attr:`current` to the user, finds the card laid on the table in a frame
    (an upright view, see :func:`vision.faces.features.warp_upright`) and calls :meth:`offer`.

    :param enrolment: a new or half-filled enrolment (resuming where it stopped).
    """

    def __init__(self, enrolment: Enrolment) -> None:
        self.enrolment = enrolment

    @property
    def current(self) -> PhysicalCard | None:
        missing = self.enrolment.missing
        return self.enrolment.deck.card(missing[0]) if missing else None

    @property
    def progress(self) -> tuple[int, int]:
        return len(self.enrolment.cards), len(self.enrolment.deck.cards)

    def prompt(self) -> str:
        card = self.current
        done, total = self.progress
        if card is None:
            return f"all {total} cards are enrolled"
        return f"({done}/{total}) lay the {card.face.name} ({card.id}) face up in the middle of the table"

    def offer(self, upright: np.ndarray, shape: float | None = None) -> str:
        """Enrol the card seen (upright view, portrait; ``shape``: its outline's, when known) as
        :attr:`current`; returns a sentence.

        :raises InvalidInput: when it looks like a card already enrolled (laid twice).
        """
        card = self.current
        if card is None:
            return self.prompt()
        self.enrolment.cards[card.id] = checked_view(self.enrolment, card.id, upright)
        self.enrolment.views[card.id] = upright
        if shape is not None:
            self.enrolment.shapes[card.id] = shape
        return f"enrolled {card.id}"


def enrol_from_camera(frames, walk: CameraEnrolment, say, *, steady: int = 5, save=None) -> None:
    """Guide an enrolment from camera frames: the first frame is the empty table; for each card
    :meth:`CameraEnrolment.prompt` is said, the card laid alone is read once it has lain still
    for ``steady`` frames, checked and enrolled (``save`` is called after each card, so an
    interruption loses nothing), and the next card is asked for once the table is clear again.

    :param frames: an iterable of frames (:class:`vision.frames.Frame` or BGR arrays).
    :param say: called with each sentence for the user.
    """
    def read(frame: Frame, quads: list[np.ndarray]) -> str:
        if len(quads) != 1:
            return WAIT
        try:
            quad = table_outline(frame, quads[0])
            say(walk.offer(cut_out(frame.colour(), quad, "", LAY_AGAIN), shape_of(quad)))
            if save is not None:
                save()
        except InvalidInput as err:
            say(f"{err}; take it away and lay the {walk.current.id}")
        return DONE if walk.current is None else CLEAR

    guide(frames, walk.prompt, say, steady=steady, read=read,
          find=lambda mask: [(quad.mean(axis=0), quad) for quad in card_outlines(mask)])


#: What a guided enrolment does once it has read the table (see :func:`guide`).
WAIT, CLEAR, DONE = "wait", "clear", "done"


def guide(frames, prompt, say, *, steady: int, find, read) -> None:
    """The loop of a guided enrolment from camera frames: the first frame is the empty table,
    ``prompt()`` is said, and in each frame ``find(mask)`` lists what lies on the table (as
    (centre, thing) pairs; ``mask``: what differs from the empty table). Once that has lain
    still for ``steady`` frames, ``read(frame, things)`` answers :data:`WAIT` (for the table to
    change), :data:`CLEAR` (wait until nothing lies there, then say ``prompt()`` again) or
    :data:`DONE`."""
    still, clearing = Stillness(steady), False
    say(prompt())
    for frame, mask in on_empty_table(frames):
        found = find(mask)
        if clearing:
            clearing = bool(found)
            if not clearing:
                say(prompt())
            continue
        if still.update([centre for centre, _ in found]):
            step = read(frame, [thing for _, thing in found])
            if step == DONE:
                return
            clearing = step == CLEAR


def on_empty_table(frames):
    """(frame, mask of what differs from the empty table) for each of ``frames`` after the
    first, which is the empty table; frames are :class:`vision.frames.Frame` or BGR arrays."""
    backdrop = Backdrop()
    for frame in frames:
        frame = Frame.of(frame)
        grey = frame.grey()
        if backdrop.ready(grey):
            yield frame, new_patches(grey, backdrop.grey, np.ones(grey.shape, bool))
