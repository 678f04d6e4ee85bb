"""The tag registry: which RFID tag UID is stuck on which physical card of a deck.

Stored as a small JSON file, written atomically after every change so an enrolment can stop at
any moment and resume::

    {"format": "cardtable-rfid-tags", "version": 1, "deck": "standard",
     "tags": {"04A23B1C": "7H", "04A23B1D": "8H"}}

A UID that is not in the registry is never turned into a card: garbled reads and stray tags
(a bank card on the table) stay unknown.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from engine.decks import Deck, PhysicalCard, get_deck
from engine.errors import InvalidInput
from engine.outside_files import read_json
from firmware_bridge.compat import normalise_uid

FORMAT = "cardtable-rfid-tags"
VERSION = 1


def default_path(deck: str) -> Path:
    """``$XDG_CONFIG_HOME/cardtable/rfid-<deck>.json`` (``~/.config`` when unset)."""
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "cardtable" / f"rfid-{deck}.json"


class TagAlreadyEnrolled(InvalidInput):
    """The tag is already the UID of another card."""

    def __init__(self, uid: str, card: PhysicalCard) -> None:
        self.uid, self.card = uid, card
        super().__init__(f"tag {uid} is already enrolled as the {card.face.name} ({card.id})")


class TagRegistry:
    """UIDs of one deck's cards. Look-ups are by UID (:meth:`card_for`) or card id (:meth:`uid_for`).

    >>> registry = TagRegistry(get_deck("standard"))
    >>> registry.enrol("04 a2 3b 1c", "7H")
    >>> registry.card_for("04A23B1C").face.name, registry.card_for("DEADBEEF")
    ('seven of hearts', None)
    """

    def __init__(self, deck: Deck, tags: dict[str, str] | None = None, *, path: Path | str | None = None) -> None:
        self.deck = deck
        self.path = Path(path) if path is not None else None
        self._cards: dict[str, str] = {}
        self._uids: dict[str, str] = {}
        for uid, card_id in (tags or {}).items():
            self.enrol(uid, card_id)

    def __len__(self) -> int:
        return len(self._cards)

    def __repr__(self) -> str:
        return f"<TagRegistry {self.deck.name} {len(self)}/{len(self.deck.cards)} tags>"

    @staticmethod
    def _uid(uid: str) -> str:
        tag = normalise_uid(uid)
        if tag is None:
            raise InvalidInput(f"{uid!r} is not a tag UID (4 to 10 bytes of hex)")
        return tag

    def card_for(self, uid: str) -> PhysicalCard | None:
        """The card whose tag this is, or None for a tag the registry does not know."""
        card_id = self._cards.get(normalise_uid(uid) or "")
        return None if card_id is None else self.deck.card(card_id)

    def knows(self, uid: str) -> bool:
        """True when ``uid`` is an enrolled tag."""
        return self.card_for(uid) is not None

    def uid_for(self, card_id: str) -> str | None:
        """The UID enrolled for a card, if any."""
        return self._uids.get(card_id)

    def enrol(self, uid: str, card_id: str, *, replace: bool = False) -> None:
        """Record that tag ``uid`` is on card ``card_id``.

        :raises InvalidInput: for a malformed UID, a card the deck does not have, or a card that
            already has another tag (unless ``replace``).
        :raises TagAlreadyEnrolled: when the tag belongs to another card.
        """
        tag = self._uid(uid)
        card = self.deck.card(card_id)
        owner = self._cards.get(tag)
        if owner is not None and owner != card.id:
            raise TagAlreadyEnrolled(tag, self.deck.card(owner))
        old = self._uids.get(card.id)
        if old is not None and old != tag:
            if not replace:
                raise InvalidInput(f"the {card.face.name} already has tag {old}; enrol again to replace it")
            del self._cards[old]
        self._cards[tag] = card.id
        self._uids[card.id] = tag

    def missing(self) -> list[PhysicalCard]:
        """The deck's cards without a tag, in deck order."""
        return [card for card in self.deck.cards if card.id not in self._uids]

    # --- the file ---

    def to_json(self) -> dict:
        order = {card.id: position for position, card in enumerate(self.deck.cards)}
        tags = dict(sorted(self._cards.items(), key=lambda item: order[item[1]]))
        return {"format": FORMAT, "version": VERSION, "deck": self.deck.name, "tags": tags}

    def save(self, path: Path | str | None = None) -> Path:
        """Write the registry (atomically) to ``path`` or the path it was loaded from.

        :raises InvalidInput: when no path is known.
        :raises OSError: when the file cannot be written.
        """
        target = Path(path) if path is not None else self.path
        if target is None:
            raise InvalidInput("the tag registry has no file to save to")
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_suffix(target.suffix + ".tmp")
        temporary.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        os.replace(temporary, target)
        self.path = target
        return target

    @classmethod
    def load(cls, path: Path | str, *, deck: str | None = None, create: bool = False) -> TagRegistry:
        """Read a registry file (the one safe way: :func:`engine.outside_files.read_json`); with
        ``create``, a missing file gives an empty registry of ``deck``.

        :raises InvalidInput: when the file is not a tag registry (or no regular file, too large,
            not UTF-8, nested too deeply), is damaged, or holds another deck than ``deck``.
        :raises OSError: when the file cannot be read.
        """
        path = Path(path)
        if create and not path.exists():
            if deck is None:
                raise InvalidInput("name the deck of a new tag registry")
            return cls(get_deck(deck), path=path)
        data = read_json(path, "tag registry")
        if (not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("tags"), dict)
                or not all(isinstance(card, str) for card in data["tags"].values())):
            raise InvalidInput(f"{path} is not a cardtable RFID tag registry")
        if data.get("version") != VERSION:
            raise InvalidInput(f"{path} is tag registry version {data.get('version')}; this cardtable reads {VERSION}")
        if deck is not None and data.get("deck") != deck:
            raise InvalidInput(f"{path} holds the tags of the {data.get('deck')} deck, not {deck}")
        try:
            return cls(get_deck(str(data.get("deck"))), data["tags"], path=path)
        except InvalidInput as err:
            raise InvalidInput(f"{path}: {err}") from None
