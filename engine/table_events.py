"""What the inputs tell the controller: a physical card placed, removed or moved between zones.

Vision (camera) and the firmware bridge (RFID readers) both produce :class:`TableEvent` values, so
the controller reads one kind of event whatever the input. Zones are names from the table config
("seat1", "crib", "starter", "centre", ...); for RFID, the reader's zone.
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
