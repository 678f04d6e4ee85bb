"""The enrolment file: the references of one physical deck, as ``cardtable enroll faces`` made
them, in one versioned file.

A NumPy ``.npz`` archive: ``meta`` (JSON text: ``format`` "cardtable-faces", ``version``,
``deck``, ``name``, ``cards`` in row order, ``back`` whether a card back is enrolled and
``back_middle`` the grey of its middle, absent in files written before it was kept), and one
row per card in ``corners``, ``face``, ``colour`` (the share of its corner print that is red,
:func:`vision.faces.features.redness`, NaN: no ink found; files written before it was measured
softened have ``redness`` instead, measured sharp, which a view's no longer compares with: their
cards' colours are not known, said once when read, until the deck is enrolled again) and ``detail`` (half
precision; files written before it was kept have none, and read as they did) and ``shape``
(each card's short side over its long side as found in its picture, NaN: not known; files
written before it was kept have none), plus
``back_face`` (and ``back_tint``, its mean colour) when the back is enrolled. Files live in the user's data folder (``$XDG_DATA_HOME/cardtable/faces``,
``~/.local/share`` when unset) unless the config names a path.

Files written before slopes of light were taken out of the features
(:func:`vision.faces.features.unlit`) have them taken out when read
(:func:`vision.faces.features.as_compared`): the same features as enrolled now.
"""

from __future__ import annotations

import json
import logging
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine.decks import Deck, get_deck
from engine.errors import InvalidInput
from vision.faces.features import Features, as_compared

log = logging.getLogger(__name__)

FORMAT = "cardtable-faces"
VERSION = 1


def data_dir() -> Path:
    """Where enrolments are kept: ``$XDG_DATA_HOME/cardtable/faces``."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "cardtable" / "faces"


def enrolment_path(name_or_path: str | Path, base_dir: str | Path = ".") -> Path:
    """The file a config's ``faces`` setting names: a path (with a folder or the ``.npz``
    ending, relative to ``base_dir``) or an enrolment name in :func:`data_dir`."""
    text = str(name_or_path)
    if "/" in text or text.endswith(".npz"):
        path = Path(text).expanduser()
        return path if path.is_absolute() else Path(base_dir) / path
    return data_dir() / f"{text}.npz"


@dataclass
class Enrolment:
    """The references of one deck: per card id, its :class:`Features`; optionally the back."""

    deck: Deck
    name: str
    cards: dict[str, Features] = field(default_factory=dict)
    back: Features | None = None
    #: The grey of the back's middle, its mean and spread (:func:`vision.faces.features.middle_grey`):
    #: a plain back's face correlates with anything by chance.
    back_middle: tuple[float, float] | None = None
    #: The upright colour view of each card enrolled in this session (not saved): what the
    #: contact sheet shows (:mod:`vision.faces.sheet`).
    views: dict = field(default_factory=dict, compare=False, repr=False)
    #: Each card's short side over its long side, as its outline was found in its picture.
    shapes: dict[str, float] = field(default_factory=dict, compare=False, repr=False)

    @property
    def shape(self) -> float | None:
        """The shape of the deck's cards (short side over long side; the median over the cards
        whose shape is known: a picture or two taken askew say little), or None when no card's is."""
        return float(np.median(list(self.shapes.values()))) if self.shapes else None

    @property
    def missing(self) -> list[str]:
        """Cards of the deck not enrolled yet, in deck order."""
        return [card.id for card in self.deck.cards if card.id not in self.cards]

    def save(self, path: str | Path) -> Path:
        """Write the file (atomically: a half-written file never replaces a good one)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        ids = [card.id for card in self.deck.cards if card.id in self.cards]
        meta = {"format": FORMAT, "version": VERSION, "deck": self.deck.name, "name": self.name,
                "cards": ids, "back": self.back is not None, "back_middle": self.back_middle}
        arrays = {"meta": np.array(json.dumps(meta))}
        if ids:
            arrays["corners"] = np.stack([self.cards[i].corners for i in ids])
            arrays["face"] = np.stack([self.cards[i].face for i in ids])
            arrays["colour"] = np.array([np.nan if self.cards[i].redness is None else self.cards[i].redness
                                         for i in ids], np.float32)
            arrays["shape"] = np.array([self.shapes.get(i, np.nan) for i in ids], np.float32)
            if all(self.cards[i].detail is not None for i in ids):
                arrays["detail"] = np.stack([self.cards[i].detail for i in ids]).astype(np.float16)
        if self.back is not None:
            arrays["back_corners"], arrays["back_face"] = self.back.corners, self.back.face
            if self.back.tint is not None:
                arrays["back_tint"] = np.asarray(self.back.tint, np.float32)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp.npz")
        np.savez_compressed(tmp, **arrays)
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: str | Path) -> "Enrolment":
        """Read an enrolment file.

        :raises OSError: when it cannot be read.
        :raises InvalidInput: when it is not an enrolment file, or of a newer version.
        """
        path = Path(path)
        if not path.exists():
            raise OSError(f"no enrolled deck at {path}: run 'cardtable enroll faces' first")
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {key: data[key] for key in data.files}
            meta = json.loads(str(arrays["meta"]))
        except (ValueError, KeyError, EOFError, TypeError, zipfile.BadZipFile) as err:
            raise InvalidInput(f"{path} is not an enrolled deck ({err})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise InvalidInput(f"{path} is not an enrolled deck")
        if meta.get("version") != VERSION:
            raise InvalidInput(f"{path} is an enrolled deck of version {meta.get('version')}, but this "
                               f"cardtable reads version {VERSION}: enrol the deck again")
        try:
            return cls._from(meta, arrays)
        except (KeyError, ValueError, TypeError, IndexError) as err:
            raise InvalidInput(f"{path} is a damaged enrolled deck ({err}): enrol the deck again") from None

    @classmethod
    def _from(cls, meta: dict, arrays: dict) -> "Enrolment":
        deck = get_deck(meta["deck"])
        enrolment = cls(deck, str(meta["name"]))
        if meta["cards"] and "colour" not in arrays:
            log.warning("the deck %s was enrolled by an older cardtable: its red cards are told from its black "
                        "ones only once it is enrolled again", meta["name"])
        for row, card_id in enumerate(meta["cards"]):
            deck.card(card_id)
            red = float(arrays["colour"][row]) if "colour" in arrays else np.nan
            detail = arrays["detail"][row].astype(np.float32) if "detail" in arrays else None
            enrolment.cards[card_id] = as_compared(Features(arrays["corners"][row], arrays["face"][row],
                                                            None if np.isnan(red) else red, detail=detail))
            if "shape" in arrays and np.isfinite(arrays["shape"][row]):
                enrolment.shapes[card_id] = float(arrays["shape"][row])
        if meta.get("back"):
            enrolment.back = as_compared(Features(arrays["back_corners"], arrays["back_face"], None,
                                                  tint=arrays.get("back_tint")))
            grey = meta.get("back_middle")
            enrolment.back_middle = None if grey is None else (float(grey[0]), float(grey[1]))
        return enrolment
