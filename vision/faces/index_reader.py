"""Reading a deck nobody enrolled: a card named from its corner index (rank and suit) by a small
trained model, the same for every standard-index deck.

The corner index is nearly standard: A, 2-10, J, Q, K (or 1, V/B, D, R) above one of four suit
symbols, printed in the top-left corner and, turned round, the bottom-right. A small
convolutional network (``models/corner_index.onnx``, trained by ``tools/train_corner_model.py``
on corners drawn from card designs and fonts with a camera's distortions, run through OpenCV's DNN
module, so no new runtime dependency) reads the top-left corner of a card's upright view
(:func:`corner_input`) into a rank (or "no index here") and a suit, each with a probability.

A card is named (:meth:`IndexReader.read`, :func:`decide`) from both of its index corners, as
laid and turned round, judged as a whole card: each corner visible is read; the card is named
when one corner alone reads it at least :attr:`IndexReader.threshold` sure (the lesser of its
rank's and its suit's probability), or when both corners read the same card, each at least
:attr:`IndexReader.agree_threshold` sure (two corners agreeing are surer than one: both are
calibrated on designs and fonts held out of training so that none of them is named wrong). A
corner whose likeliest card is another card than the other corner's makes the card unknown,
never a guess, and so does ink of the other colour than the suit read (black ink for a heart:
the model reads grey, the colour checks it). The answer is a
:class:`vision.faces.matcher.Reading`, as the enrolled matcher's, so the recogniser treats both
alike. A card back or a design whose corners show no standard index is unknown (there is no
back to compare with: a face-down card is refused like an unreadable one).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import cv2
import numpy as np

from engine.decks import get_deck
from vision.faces.features import UPRIGHT, redness, turned
from vision.faces.matcher import BLACK, RED, Reading

#: The name a config's ``[vision] faces`` gives to read a standard-index deck nobody enrolled.
STANDARD_INDEX = "standard-index"
MODEL_DIR = Path(__file__).parent / "models"
MODEL = MODEL_DIR / "corner_index.onnx"
#: The share of the upright view's width and height, from its top-left corner, that the model
#: reads: room for the biggest indices with a margin for an outline found a little off
#: (nicu-white's rank is 14 % of the card's height and its suit ends 43 % down).
CORNER_SHARE = (0.45, 0.48)
#: The model's input, (width, height) pixels: that corner shrunk to about 0.77 (1.5 px/mm, about
#: what the camera sees of a card 150 px long).
INPUT = (44, 64)
#: The rank head's classes (the last: no index here) and the suit head's, in the model's order.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", None)
SUITS = ("S", "H", "D", "C")
RED_SUITS = ("H", "D")
#: A corner with less contrast than this (grey levels, standard deviation) shows no print.
LEAST_CONTRAST = 6.0
#: The corners (in :data:`vision.faces.features.CORNERS` order) that print the index: the top
#: left as laid and, turned round, the bottom right (:func:`index_view`).
INDEX_CORNERS = (0, 3)


def index_view(upright: np.ndarray, corner: int) -> np.ndarray:
    """The upright view with index corner ``corner`` (one of :data:`INDEX_CORNERS`) at its top left."""
    return upright if corner == INDEX_CORNERS[0] else turned(upright)


def corner_input(upright: np.ndarray) -> np.ndarray:
    """The model's input for the top-left corner of an upright card view (grey or BGR, of
    :data:`UPRIGHT` pixels): the corner's grey, less its mean, over its spread, as float32 of
    ``INPUT`` (height, width)."""
    grey = upright if upright.ndim == 2 else cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY)
    if grey.shape[:2] != (UPRIGHT[1], UPRIGHT[0]):
        grey = cv2.resize(grey, UPRIGHT, interpolation=cv2.INTER_AREA)
    corner = grey[:round(CORNER_SHARE[1] * UPRIGHT[1]), :round(CORNER_SHARE[0] * UPRIGHT[0])]
    patch = cv2.resize(corner, INPUT, interpolation=cv2.INTER_AREA).astype(np.float32)
    return (patch - patch.mean()) / max(float(patch.std()), LEAST_CONTRAST)


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


class CornerModel:
    """The trained corner model, through ``cv2.dnn``: ``probabilities(inputs)`` gives, for a batch
    of :func:`corner_input` patches, the rank head's and the suit head's probabilities.

    :raises OSError: when the model file is missing or OpenCV cannot read it.
    """

    def __init__(self, path: str | Path = MODEL) -> None:
        path = Path(path)
        if not path.exists():
            raise OSError(f"the corner index model {path} is missing: reinstall cardtable, or train it with "
                          "python tools/train_corner_model.py")
        try:
            self.net = cv2.dnn.readNetFromONNX(str(path))
        except cv2.error as err:
            raise OSError(f"OpenCV cannot read the corner index model {path}: {err}") from None
        meta = json.loads(path.with_suffix(".json").read_text())
        self.threshold = float(meta["threshold"])
        self.agree_threshold = float(meta.get("agree_threshold", self.threshold))

    def probabilities(self, inputs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rank probabilities (n x 14: :data:`RANKS`) and suit probabilities (n x 4: :data:`SUITS`)."""
        self.net.setInput(np.ascontiguousarray(inputs, np.float32).reshape(-1, 1, INPUT[1], INPUT[0]))
        logits = self.net.forward().reshape(len(inputs), -1)
        return softmax(logits[:, :len(RANKS)]), softmax(logits[:, len(RANKS):])


def likeliest(model: CornerModel, uprights: list[np.ndarray]) -> list[tuple[str | None, float]]:
    """The top-left corner of each upright view read by ``model``: the likeliest card id (None:
    no index there) and how sure (the lesser of its rank's and its suit's probability)."""
    ranks, suits = model.probabilities(np.stack([corner_input(upright) for upright in uprights]))
    read = []
    for rank_p, suit_p in zip(ranks, suits):
        rank, suit = RANKS[int(rank_p.argmax())], SUITS[int(suit_p.argmax())]
        read.append((None if rank is None else rank + suit, float(min(rank_p.max(), suit_p.max()))))
    return read


@functools.lru_cache(maxsize=1)
def shipped_model() -> CornerModel:
    """The model shipped with cardtable, loaded once."""
    return CornerModel()


class IndexReader:
    """Names cards of any standard-index deck from their corner indices (the module docstring).

    :param model: the corner model (default: the one shipped, :func:`shipped_model`).
    :param deck: the deck whose cards are named (standard 52).
    :param threshold: how sure one corner alone must be (default the model's calibrated one).
    :param agree_threshold: how sure each of two corners reading the same card must be (default
        the model's calibrated one, never above ``threshold``).
    """

    def __init__(self, model: CornerModel | None = None, *, deck: str = "standard",
                 threshold: float | None = None, agree_threshold: float | None = None) -> None:
        self.model = model or shipped_model()
        self.deck = get_deck(deck)
        self.threshold = self.model.threshold if threshold is None else threshold
        agree = self.model.agree_threshold if agree_threshold is None else agree_threshold
        self.agree_threshold = min(agree, self.threshold)
        self._cards = {card.id: card for card in self.deck.cards}

    def corners(self, upright: np.ndarray) -> list[tuple[str | None, float]]:
        """Each index corner of an upright view (top left as laid, then turned round) read
        (:func:`likeliest`)."""
        return likeliest(self.model, [index_view(upright, corner) for corner in INDEX_CORNERS])

    def read_view(self, upright: np.ndarray, visible: np.ndarray | None = None, shown: np.ndarray | None = None,
                  part: np.ndarray | None = None) -> Reading:
        """:meth:`read`, called as the enrolled matcher is (:meth:`vision.faces.matcher.Matcher.read_view`):
        the face pixels ``shown`` and the ``part`` of a corner that shows do not matter to a
        reader of indices, which finds the rank and suit in the corner itself."""
        return self.read(upright, visible)

    def read(self, upright: np.ndarray, visible: np.ndarray | None = None) -> Reading:
        """The card in an upright view (as :func:`vision.faces.features.warp_upright` gives, grey
        or BGR, any size: it is brought to :data:`UPRIGHT`), from the index corners ``visible``
        (four booleans in :data:`vision.faces.features.CORNERS` order, default all): the top left
        and the bottom right are read."""
        if upright is None or upright.ndim not in (2, 3) or min(upright.shape[:2]) < 8:
            return Reading(None, 0.0, why="no card view to read")
        if upright.ndim == 3 and upright.shape[2] == 1:
            upright = upright[:, :, 0]
        elif upright.ndim == 3 and upright.shape[2] != 3:
            return Reading(None, 0.0, why="a card view is grey or BGR")
        if upright.dtype != np.uint8:
            upright = np.clip(np.nan_to_num(upright.astype(np.float32)), 0, 255).astype(np.uint8)
        shown = np.ones(4, bool) if visible is None else np.asarray(visible, bool)
        read = [r for r, seen in zip(self.corners(upright), shown[list(INDEX_CORNERS)]) if seen]
        card, confidence, why = decide(read, self.threshold, self.agree_threshold)
        if card is None:
            return Reading(None, confidence, why=why)
        if upright.ndim == 3 and (clash := ink_clash(upright, shown, card[-1])):
            return Reading(None, confidence * 0.5, why=f"the index reads {card}, but {clash}")
        return Reading(self._cards[card], confidence)


def decide(read: list[tuple[str | None, float]], threshold: float, agree_threshold: float) -> tuple[str | None, float, str]:
    """The card named by the corners ``read`` (each: the likeliest card id or None, how sure),
    judged as a whole card (the module docstring): (card id, confidence, "") or (None, a
    confidence below any threshold, why not)."""
    if not read:
        return None, 0.0, "both index corners are hidden"
    named = {card for card, _ in read if card is not None}
    if len(named) > 1:
        return None, 0.0, f"the index corners read as different cards ({', '.join(sorted(named))})"
    sure = [(card, p) for card, p in read if card is not None and p >= threshold]
    if sure:
        return *max(sure, key=lambda r: r[1]), ""
    if len(read) == 2 and all(card is not None for card, _ in read) and min(p for _, p in read) >= agree_threshold:
        return read[0][0], min(p for _, p in read), ""
    best = max(read, key=lambda r: r[1])
    return None, best[1] * 0.5, f"no index read surely (best {best[0]} at {best[1]:.2f})"


def ink_clash(upright_bgr: np.ndarray, visible: np.ndarray, suit: str) -> str:
    """Why the ink of the index corners (the top left and bottom right, those ``visible``) cannot
    be ``suit``'s colour, or "" when it can (or its colour is not clear: a grey view, a four-colour deck)."""
    red = redness(upright_bgr, visible & np.array([True, False, False, True]))
    if red is None:
        return ""
    if suit in RED_SUITS and red <= BLACK:
        return "its ink is black"
    if suit not in RED_SUITS and red >= RED:
        return "its ink is red"
    return ""


def reads_standard_index(faces: str | Path | None) -> bool:
    """Whether a config's ``faces`` setting asks for the deck nobody enrolled."""
    return faces is not None and str(faces) == STANDARD_INDEX
