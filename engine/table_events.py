"""What the inputs tell the table: :data:`TableInput`, one type for everything that reaches it.

* :class:`TableEvent`: a physical card placed, removed or moved between zones. Vision (camera) and
  the firmware bridge (RFID readers) both produce it, so the controller reads one kind of event
  whatever the input. Zones are names from the table config ("seat1", "crib", "starter",
  "centre", ...); for RFID, the reader's zone.
* :class:`ButtonPress`: a button of the table's panel (``hardware.gpio``) was pressed.
* :class:`Notice`: a sentence from a device that is not a card: an unknown tag, a code that is not
  one of this deck's cards, the readers' link going down, the camera stopping.

They live here, in the one package every other may import, so that the devices that make them
and the application that reads them share the types without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.decks import PhysicalCard

PLACED = "placed"
REMOVED = "removed"
MOVED = "moved"
KINDS = (PLACED, REMOVED, MOVED)


@dataclass(frozen=True)
class TableEvent:
    """``kind`` (placed, removed, moved), the physical ``card``, its ``zone`` (for moved, the new
    one, with ``from_zone`` the old), ``time`` in monotonic seconds and the ``source`` that saw it."""

    kind: str
    card: PhysicalCard
    zone: str
    time: float
    source: str = ""
    from_zone: str | None = None

    def to_json(self) -> dict:
        """The JSON line form used by ``--json`` outputs."""
        data = {"type": self.kind, "card": self.card.id, "face": str(self.card.face),
                "zone": self.zone, "time": round(self.time, 4), "source": self.source}
        if self.from_zone is not None:
            data["from_zone"] = self.from_zone
        return data


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


#: Everything a device hands the table.
TableInput = TableEvent | ButtonPress | Notice
