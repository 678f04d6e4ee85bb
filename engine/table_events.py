"""What the inputs tell the table: :data:`TableInput`, one type for everything that reaches it.

* :class:`TableEvent`: a physical card placed, removed or moved between zones, or found ``present``
  (already lying there when the input started: a camera started on a laid table). Vision (camera) and
  the firmware bridge (RFID readers) both produce it, so the controller reads one kind of event
  whatever the input. Zones are names from the table config ("seat1", "crib", "starter",
  "centre", ...); for RFID, the reader's zone. The card is a :class:`FaceDown` when the camera
  sees a card's back: a card with no identity (``event.face_down``).
* :class:`ButtonPress`: a button of the table's panel (``hardware.gpio``) was pressed.
* :class:`Notice`: a sentence from a device that is not a card: an unknown tag, a code that is not
  one of this deck's cards, the readers' link going down, the camera stopping, the club's broker
  out of reach.
* :class:`OwnerRequest`: the table's owner asks (from the owner's page) to start a game, to undo,
  or to end the game; the table answers it in a sentence.

They live here, in the one package every other may import, so that the devices that make them
and the application that reads them share the types without importing each other.
"""

from __future__ import annotations

import re
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from engine.decks import Deck, PhysicalCard
from engine.errors import InvalidInput

PLACED = "placed"
REMOVED = "removed"
MOVED = "moved"
#: A card already lying in its zone when the input started (the camera started, or started
#: again, on a table with cards on it): not a new play; the controller reconciles it.
PRESENT = "present"
KINDS = (PLACED, REMOVED, MOVED, PRESENT)
_FACE_DOWN_ID = re.compile(r"face-down-[1-9][0-9]*")


@dataclass(frozen=True)
class FaceDown:
    """A card lying face down (its back up): seen, followed and counted, never named.

    ``id`` is a placeholder the input gives the card so its later events (moved, removed) can
    say which of the face-down cards they are about: "face-down-1", "face-down-2", ... never
    the id of a card of any deck. It has no ``face``.

    :raises InvalidInput: for an id not of that form.
    """

    id: str

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _FACE_DOWN_ID.fullmatch(self.id):
            raise InvalidInput(f"{self.id!r} is not a face-down card: those are face-down-1, face-down-2, ...")

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True)
class TableEvent:
    """``kind`` (placed, removed, moved, present), the ``card``, its ``zone`` (for moved, the new one, with
    ``from_zone`` the old), ``time`` in monotonic seconds and the ``source`` that saw it.

    ``card`` is the physical card, or a :class:`FaceDown` when only its back was seen
    (:attr:`face_down`): then it has a placeholder id and no face, and its JSON form says
    ``"face_down": true`` instead of a card and a face. Read ``card.face`` only when
    ``face_down`` is false.
    """

    kind: str
    card: PhysicalCard | FaceDown
    zone: str
    time: float
    source: str = ""
    from_zone: str | None = None

    @property
    def face_down(self) -> bool:
        """Whether the card lies face down: a card with no identity."""
        return isinstance(self.card, FaceDown)

    def to_json(self) -> dict:
        """The JSON line form used by ``--json`` outputs: ``card`` and ``face`` for a card,
        ``"face_down": true`` and the ``placeholder`` id for a face-down card."""
        data: dict[str, Any] = {"type": self.kind}
        if isinstance(self.card, FaceDown):
            data.update(face_down=True, placeholder=self.card.id)
        else:
            data.update(card=self.card.id, face=str(self.card.face))
        data.update(zone=self.zone, time=round(self.time, 4), source=self.source)
        if self.from_zone is not None:
            data["from_zone"] = self.from_zone
        return data

    @classmethod
    def from_json(cls, data: object, deck: Deck) -> "TableEvent":
        """The event of a JSON line written by :meth:`to_json`, its cards from ``deck``.

        :raises InvalidInput: for anything that is not such a line, in words saying what is wrong.
        """
        if not isinstance(data, dict):
            raise InvalidInput(f"a table event is a JSON object, not {type(data).__name__}")
        kind, zone, time = data.get("type"), data.get("zone"), data.get("time")
        source, from_zone = data.get("source", ""), data.get("from_zone")
        if kind not in KINDS:
            raise InvalidInput(f"a table event's type is one of {', '.join(KINDS)}, not {kind!r}")
        for name, value in (("zone", zone), ("source", source)) + ((("from_zone", from_zone),) if from_zone is not None else ()):
            if not isinstance(value, str) or (name != "source" and not value):
                raise InvalidInput(f"the table event's {name} must be a name, not {value!r}")
        if isinstance(time, bool) or not isinstance(time, (int, float)) or time != time:
            raise InvalidInput(f"the table event's time must be a number of seconds, not {time!r}")
        if data.get("face_down") is True:
            card: PhysicalCard | FaceDown = FaceDown(data.get("placeholder"))
        elif "face_down" in data and data["face_down"] is not False:
            raise InvalidInput(f"face_down is true or false, not {data['face_down']!r}")
        else:
            card_id = data.get("card")
            if not isinstance(card_id, str):
                raise InvalidInput(f"the table event names no card: {card_id!r}")
            card = deck.card(card_id)
            if "face" in data and data["face"] != str(card.face):
                raise InvalidInput(f"card {card_id} of the {deck.title} shows {card.face}, not {data['face']!r}")
        return cls(kind, card, zone, float(time), source, from_zone)


@dataclass(frozen=True)
class ButtonPress:
    """One accepted press of the button called ``name``, at ``at`` seconds on the panel's clock."""

    name: str
    at: float


@dataclass(frozen=True)
class Notice:
    """A sentence for the table from an input that is not a card (``source``: "camera", "rfid" ...)."""

    text: str
    source: str = ""


@dataclass(frozen=True)
class OwnerRequest:
    """The owner asks the table to ``kind``: "undo", "end" or "start" (with ``game``, ``players``,
    ``names``, ``options``; a blank name or none is the seat's own). ``answer`` gets the sentence
    that tells the owner what happened."""

    kind: str
    game: str = ""
    players: int = 0
    names: tuple[str, ...] = ()
    options: dict = field(default_factory=dict, compare=False)
    answer: Future = field(default_factory=Future, compare=False)


#: Everything that reaches the table: from its devices, its panel, its owner.
TableInput = TableEvent | ButtonPress | Notice | OwnerRequest
