"""Marker payloads: which physical card a QR text or an ArUco id stands for.

QR payloads are ``CT<version>:<DECK>:<CARD ID>`` in upper case, for example ``CT1:STANDARD:10H``
or ``CT1:ITS15:V1R-3``: versioned, naming the deck, and unique per physical card (the card id
is the deck's physical id, so two It's 15 value cards with the same face differ). Every payload
uses only QR alphanumeric characters and fits a version 1 symbol (21 modules) at error level M.

ArUco decks use the dictionary ``DICT_4X4_100``: the marker id is the card's position in the
deck's card order (``engine.decks``), so the largest deck (54 cards) uses ids 0-53. ArUco
markers do not name the deck; the table config does. Ids 96-99 are the calibration mat.

>>> card_for_payload("CT1:STANDARD:10H").face
Card('10H')
>>> payload_for(get_deck("its15").card("V1R-3"), "its15")
'CT1:ITS15:V1R-3'
>>> card_for_aruco(0, "standard").id
'AS'
"""

from __future__ import annotations

import functools
import re

import numpy as np

from engine.decks import Deck, PhysicalCard, get_deck
from engine.errors import InvalidInput

PAYLOAD_VERSION = 1
PAYLOAD_PREFIX = "CT"
ARUCO_DICTIONARY = "DICT_4X4_100"
#: ArUco ids of the calibration mat corners: top-left, top-right, bottom-right, bottom-left.
MAT_MARKER_IDS = (96, 97, 98, 99)
#: Calibration mat geometry: marker side and marker centres in table mm (origin at the mat centre).
MAT_MARKER_MM = 50.0
MAT_MARKER_CENTRES = ((-105.0, -65.0), (105.0, -65.0), (105.0, 65.0), (-105.0, 65.0))
MARKER_KINDS = ("qr", "aruco")


class ForeignMarker(InvalidInput):
    """A code that is not a card of the deck in play: another deck, another application, garbage."""


def _deck(deck: Deck | str) -> Deck:
    return deck if isinstance(deck, Deck) else get_deck(deck)


def payload_for(card: PhysicalCard, deck: Deck | str) -> str:
    """The QR payload printed on ``card`` of ``deck``.

    :raises InvalidInput: when the card is not in the deck.
    """
    deck = _deck(deck)
    deck.card(card.id)
    return f"{PAYLOAD_PREFIX}{PAYLOAD_VERSION}:{deck.name.upper()}:{card.id}"


#: The shape of every payload ``print-deck`` writes; :func:`card_for_payload` then checks the
#: text is exactly the card's payload (no leading zero, no other spelling of a deck or card).
_PAYLOAD = re.compile(r"CT([1-9][0-9]{0,3}):([A-Z0-9]{1,16}):([A-Z0-9-]{1,8})", re.ASCII)


def card_for_payload(text: str, deck: Deck | str | None = None) -> PhysicalCard:
    """The physical card a QR payload names: exactly the text :func:`payload_for` writes (upper
    case, no spaces or other characters), nothing else.

    :param deck: the deck in play: a card of another deck is then foreign too.
    :raises ForeignMarker: for a payload that is not a cardtable card (another application's
        code, another spelling, a newer payload version, an unknown deck or card, a card of
        another deck than ``deck``), worded for a person. Never anything else, whatever the text.
    """
    if not isinstance(text, str):
        raise ForeignMarker(f"a marker payload is text, not {type(text).__name__}")
    shown = text if len(text) <= 40 else text[:37] + "..."
    match = _PAYLOAD.fullmatch(text)
    if match is None:
        raise ForeignMarker(f"code {shown!r} is not a cardtable card")
    version, deck_name, card_id = match.groups()
    if int(version) != PAYLOAD_VERSION:
        raise ForeignMarker(
            f"card code {shown!r} uses marker version {version}; this cardtable reads version {PAYLOAD_VERSION}"
        )
    try:
        named = get_deck(deck_name.lower())
        card = named.card(card_id)
    except InvalidInput as err:
        raise ForeignMarker(f"card code {shown!r} names no card we know: {err}") from None
    if payload_for(card, named) != text:
        raise ForeignMarker(f"code {shown!r} is not how cardtable prints {card.id}")
    if deck is not None and _deck(deck).name != named.name:
        raise ForeignMarker(f"card {card.id} belongs to another deck ({shown})")
    return card


def card_for_aruco(marker_id: int, deck: Deck | str) -> PhysicalCard:
    """The physical card of ``deck`` that carries ArUco marker ``marker_id``.

    :raises ForeignMarker: for an id no card of this deck carries (including the mat's ids).
    :raises InvalidInput: for an unknown deck name.
    """
    deck = _deck(deck)
    if isinstance(marker_id, (bool, float)) or not isinstance(marker_id, (int, np.integer)):
        raise ForeignMarker(f"an ArUco marker id is a whole number, not {marker_id!r}")
    if marker_id in MAT_MARKER_IDS:
        raise ForeignMarker(f"ArUco marker {marker_id} is a calibration mat corner, not a card")
    if not 0 <= marker_id < len(deck.cards):
        raise ForeignMarker(f"ArUco marker {marker_id} is not a card of the {deck.title}")
    return deck.cards[int(marker_id)]


def aruco_id_for(card: PhysicalCard, deck: Deck | str) -> int:
    """The ArUco marker id printed on ``card``.

    :raises InvalidInput: when the card is not in the deck.
    """
    deck = _deck(deck)
    return deck.cards.index(deck.card(card.id))


@functools.cache
def aruco_dictionary():
    """The OpenCV dictionary every cardtable ArUco marker comes from."""
    import cv2

    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))


@functools.cache
def qr_modules(payload: str) -> np.ndarray:
    """The QR symbol for ``payload`` as a boolean array, True for dark modules, no quiet zone.

    :raises InvalidInput: when the payload does not fit a version 1 symbol.
    """
    import segno

    try:
        qr = segno.make_qr(payload, error="m", boost_error=False, version=1)
    except segno.DataOverflowError:
        raise InvalidInput(f"payload {payload!r} is too long for a version 1 QR code") from None
    return np.array([list(row) for row in qr.matrix], dtype=bool)


@functools.cache
def aruco_modules(marker_id: int) -> np.ndarray:
    """The ArUco marker ``marker_id`` as a boolean array (6x6 cells with its black border),
    True for dark cells."""
    import cv2

    cells = 6
    image = cv2.aruco.generateImageMarker(aruco_dictionary(), int(marker_id), cells, borderBits=1)
    return image < 128


def marker_modules(card: PhysicalCard, deck: Deck | str, marker: str) -> np.ndarray:
    """The dark/light cells of the marker printed on ``card`` for ``marker`` "qr" or "aruco".

    :raises InvalidInput: for an unknown marker kind.
    """
    if marker == "qr":
        return qr_modules(payload_for(card, deck))
    if marker == "aruco":
        return aruco_modules(aruco_id_for(card, deck))
    raise InvalidInput(f"no marker kind {marker!r}: choose qr or aruco")
