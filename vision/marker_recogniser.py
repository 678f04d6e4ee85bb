"""The recogniser for marked cards: QR codes or ArUco markers, read in a changed region's views.

A :class:`vision.decoders.Decoder` (zxing-cpp, pyzbar, OpenCV's QR detector, ArUco) reads the
region's views (:meth:`vision.recognisers.Region.views`: the crop, enlarged, averaged over the
frames it lay still) until every dirty cell of the region is explained. Where something still
moves, only markers lying still count: a card carried by a hand is not a sighting. Each marker
explains the cells of its card (:data:`vision.recognisers.CARD_REACH` around it), and its
payload names a card of the deck (:mod:`vision.markers`); a code of no card of this deck is
counted (:meth:`vision.recognisers.Region.foreign`) and ignored, the calibration mat's corners
silently.
"""

from __future__ import annotations

from engine.decks import Deck, PhysicalCard, get_deck
from vision.config import VisionConfig
from vision.decoders import Decoder, make_decoder
from vision.markers import MAT_MARKER_IDS, ForeignMarker, card_for_aruco, card_for_payload
from vision.recognisers import CARD_REACH, Found, Outline, Region, Traits, extent


class MarkerRecogniser:
    """Cards of ``deck`` by the markers ``decoder`` reads."""

    def __init__(self, decoder: Decoder, deck: Deck) -> None:
        self.decoder, self.deck = decoder, deck
        self.traits = Traits(enlarge=decoder.name != "aruco")

    def read(self, region: Region) -> list[Found]:
        x0, y0 = region.box[:2]
        grey = region.grey()
        found = []
        for image, scale in region.views(grey):
            for detection in self.decoder.decode(image):
                corners = detection.shifted(x0, y0, scale).corners
                if region.busy and not region.is_still(region.cells(corners)):
                    continue
                region.explain(region.cells(extent(corners, *CARD_REACH)))
                try:
                    card = card_of(detection.value, self.deck)
                except ForeignMarker as err:
                    region.foreign(str(err))
                    continue
                if card is not None:
                    found.append(Found(card, corners))
            if not region.has_dirty(solid=True):
                break  # what is left unexplained is too thin to be a marker: no other view reads it
        return found

    def outlines(self) -> list[Outline]:
        """Nothing beyond the cards the pipeline follows: every marker read is one of them."""
        return []


def card_of(value: str | int, deck: Deck) -> PhysicalCard | None:
    """The card of ``deck`` a marker's ``value`` (QR text, or ArUco id) names; None for a
    corner of the calibration mat.

    :raises ForeignMarker: for a code of no card of ``deck``.
    """
    if isinstance(value, int):
        return None if value in MAT_MARKER_IDS else card_for_aruco(value, deck)
    return card_for_payload(value, deck)


def recogniser(config: VisionConfig) -> MarkerRecogniser:
    """The marker recogniser for a ``[vision]`` config: its decoder (ArUco for ArUco decks) and deck.

    :raises OSError: when the decoder's library is not installed.
    """
    return MarkerRecogniser(make_decoder(config.effective_decoder), get_deck(config.deck))
