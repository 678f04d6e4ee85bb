"""Enrolment: show the deck to cardtable once, and keep its references (:mod:`vision.faces.store`).

From a folder of card images (:func:`enrol_from_images`: scans or straight-down photos named
by face, ``AS.jpg``, ``10H.png``, optionally ``BACK.png``), or from the camera, card by card
(:class:`CameraEnrolment`: the caller says which card to lay, it checks each and can be resumed
from a half-filled enrolment file). Both check that no two cards look alike (two scans of the
same card) and, when finishing, that the whole deck is there.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from engine.decks import Deck, PhysicalCard
from engine.errors import InvalidInput
from vision.faces.features import Features, describe, order_quad, turned, warp_upright
from vision.faces.store import Enrolment

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
#: Two enrolled cards whose corners correlate this well cannot be told apart.
ALIKE = 0.995


def card_quad(image: np.ndarray) -> np.ndarray:
    """The outline of the card in a photo or scan: the whole image when it has a card's
    proportions (a scan cropped to the card), else the largest card-shaped shape that stands
    out from the image's border colour."""
    h, w = image.shape[:2]
    whole = np.float32([(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)])
    if 1.2 <= max(w, h) / min(w, h) <= 1.75:
        return whole
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    border = np.concatenate([grey[0], grey[-1], grey[:, 0], grey[:, -1]])
    mask = (cv2.absdiff(grey, np.full_like(grey, int(np.median(border)))) > 40).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if contours:
        rect = cv2.minAreaRect(max(contours, key=cv2.contourArea))
        (rw, rh) = rect[1]
        if 0.3 * w * h < rw * rh < 0.97 * w * h and 1.2 < max(rw, rh) / max(min(rw, rh), 1) < 1.7:
            return cv2.boxPoints(rect).astype(np.float32)
    return whole


def features_of_image(image: np.ndarray) -> Features:
    """The features of a card image (a scan or photo of one card), held portrait."""
    return describe(warp_upright(image, order_quad(card_quad(image))))


def face_id(stem: str, deck: Deck) -> str:
    """The card id a file name gives ("as" -> "AS", "t-h" -> "10H", "10h" -> "10H"), or "BACK".

    :raises InvalidInput: when the name is no card of the deck.
    """
    text = stem.strip().upper().replace("-", "").replace("_", "").replace(" ", "")
    if text == "BACK":
        return text
    try:
        return deck.card(str(deck.parse_face(text))).id
    except (InvalidInput, ValueError):
        raise InvalidInput(f"the file name {stem!r} names no card of the {deck.title}: "
                           f"name card images AS, 10H, QD, ... (BACK for the back)") from None


def check_unlike(enrolment: Enrolment, card_id: str, features: Features) -> None:
    """Refuse a card that looks like one already enrolled (a second picture of the same card).

    :raises InvalidInput: naming both cards.
    """
    for other_id, other in enrolment.cards.items():
        if other_id != card_id and float(features.corners @ other.corners) >= ALIKE:
            raise InvalidInput(f"the pictures of {card_id} and {other_id} look alike: is one of them "
                               f"a second picture of the same card?")


def check_complete(enrolment: Enrolment) -> None:
    """:raises InvalidInput: listing the cards that are still missing."""
    missing = enrolment.missing
    if missing:
        raise InvalidInput(f"{len(missing)} of the {len(enrolment.deck.cards)} cards are missing: "
                           f"{', '.join(missing[:12])}{' ...' if len(missing) > 12 else ''}")


def enrol_from_images(folder: str | Path, deck: Deck, name: str) -> Enrolment:
    """Enrol a whole deck from a folder of card images named by face.

    :raises OSError: when the folder or an image cannot be read.
    :raises InvalidInput: for a file named after no card, a card given twice, two cards alike,
        or a missing card.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise OSError(f"no folder of card images at {folder}")
    enrolment = Enrolment(deck, name)
    seen: dict[str, str] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        card_id = face_id(path.stem, deck)
        if card_id in seen:
            raise InvalidInput(f"{card_id} is given twice: {seen[card_id]} and {path.name}")
        seen[card_id] = path.name
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise OSError(f"cannot read the image {path}")
        features = features_of_image(image)
        if card_id == "BACK":
            enrolment.back = features
            continue
        check_unlike(enrolment, card_id, features)
        enrolment.cards[card_id] = features
    check_complete(enrolment)
    return enrolment


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

    def offer(self, upright: np.ndarray) -> str:
        """Enrol the card seen (upright view, portrait) as :attr:`current`; returns a sentence.

        :raises InvalidInput: when it looks like a card already enrolled (laid twice).
        """
        card = self.current
        if card is None:
            return self.prompt()
        features = describe(upright)
        # Either orientation of a card already enrolled is the same card laid again.
        for view in (features, describe(turned(upright))):
            check_unlike(self.enrolment, card.id, view)
        self.enrolment.cards[card.id] = features
        return f"enrolled {card.id}"


def enrol_from_camera(frames, walk: CameraEnrolment, say, *, steady: int = 5, save=None) -> None:
    """Guide an enrolment from camera frames: the first frame is the empty table; for each card
    :meth:`CameraEnrolment.prompt` is said, the card laid alone is read once it has lain still
    for ``steady`` frames, checked and enrolled (``save`` is called after each card, so an
    interruption loses nothing), and the next card is asked for once the table is clear again.

    :param frames: an iterable of BGR frames.
    :param say: called with each sentence for the user.
    """
    from vision.faces.finder import card_outlines, new_patches

    empty = None
    still, last, waiting_clear = 0, None, False
    say(walk.prompt())
    for frame in frames:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        if empty is None:
            empty = cv2.GaussianBlur(grey, (3, 3), 0)
            continue
        mask = new_patches(grey, empty, np.ones(grey.shape, bool))
        quads = card_outlines(mask)
        if waiting_clear:
            waiting_clear = bool(mask.any())
            if not waiting_clear:
                say(walk.prompt())
            continue
        if len(quads) != 1:
            still, last = 0, None
            continue
        centre = quads[0].mean(axis=0)
        still = still + 1 if last is not None and np.linalg.norm(centre - last) < 3 else 0
        last = centre
        if still < steady:
            continue
        try:
            say(walk.offer(warp_upright(frame, order_quad(quads[0]))))
            if save is not None:
                save()
        except InvalidInput as err:
            say(f"{err}; take it away and lay the {walk.current.id}")
        still, last, waiting_clear = 0, None, True
        if walk.current is None:
            return
