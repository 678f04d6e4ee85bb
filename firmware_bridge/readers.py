"""The host's view of what lies on each reader, and the changes that view goes through.

Edge reports (a tag placed or removed) and level snapshots (what every reader holds now) both
update one :class:`ReaderView`; each update returns only what changed, so a repeated report is
nothing new, and a snapshot after lost reports yields exactly the changes that were missed.
"""

from __future__ import annotations

from dataclasses import dataclass

PLACED, REMOVED, MOVED = "placed", "removed", "moved"


@dataclass(frozen=True)
class ReaderChange:
    """A tag ``uid`` was placed on, removed from, or moved to ``reader`` (from ``from_reader``)
    at monotonic ``time``."""

    kind: str
    reader: int
    uid: str
    time: float
    from_reader: int | None = None

    def to_json(self) -> dict:
        data = {"type": self.kind, "reader": self.reader, "uid": self.uid, "time": round(self.time, 4)}
        if self.from_reader is not None:
            data["from_reader"] = self.from_reader
        return data


class ReaderView:
    """Which tag lies on which reader. Readers are numbered from 0.

    >>> view = ReaderView()
    >>> [c.kind for c in view.tag(0, True, "04A2B3C4", 1.0)], view.tag(0, True, "04A2B3C4", 1.1)
    (['placed'], [])
    >>> [(c.kind, c.reader) for c in view.state(0, (None, "04A2B3C4"), 2.0)]
    [('moved', 1)]
    """

    def __init__(self) -> None:
        self._uids: dict[int, str] = {}

    @property
    def uids(self) -> dict[int, str]:
        """A copy of the reader → UID map (empty readers left out)."""
        return dict(self._uids)

    def _where(self, uid: str) -> int | None:
        return next((reader for reader, held in self._uids.items() if held == uid), None)

    def _put(self, reader: int, uid: str, now: float) -> list[ReaderChange]:
        changes = []
        held = self._uids.get(reader)
        if held is not None:
            changes.append(ReaderChange(REMOVED, reader, held, now))
        source = self._where(uid)
        self._uids[reader] = uid
        if source is None:
            changes.append(ReaderChange(PLACED, reader, uid, now))
        else:
            del self._uids[source]
            changes.append(ReaderChange(MOVED, reader, uid, now, from_reader=source))
        return changes

    def tag(self, reader: int, placed: bool, uid: str, now: float) -> list[ReaderChange]:
        """Apply an edge report.

        A repeated PLACED changes nothing. A REMOVED for a tag the host never saw arrive means
        its PLACED was lost: both are reported, late but in order. A REMOVED naming another tag
        than the one held is left for the next snapshot to settle.
        """
        held = self._uids.get(reader)
        if placed:
            return [] if held == uid else self._put(reader, uid, now)
        if held == uid:
            del self._uids[reader]
            return [ReaderChange(REMOVED, reader, uid, now)]
        if held is None and self._where(uid) is None:
            return [ReaderChange(PLACED, reader, uid, now), ReaderChange(REMOVED, reader, uid, now)]
        return []

    def state(self, first: int, uids, now: float) -> list[ReaderChange]:
        """Reconcile readers ``first``, ``first+1``, ... with a snapshot (None = empty).

        A tag gone from its reader is removed, unless it shows up on another one: then it moved.
        A tag reported on two readers at once (cross-talk between close readers) stays where
        the host already had it, or on the lowest of them.
        """
        wanted = self._one_reader_per_tag(dict(enumerate(uids, start=first)))
        arriving = set(wanted.values())
        changes, pulled = [], {}
        for reader, uid in wanted.items():
            held = self._uids.get(reader)
            if held is not None and held != uid:
                del self._uids[reader]
                if held in arriving:
                    pulled[held] = reader
                else:
                    changes.append(ReaderChange(REMOVED, reader, held, now))
        for reader, uid in wanted.items():
            if uid is None or self._uids.get(reader) == uid:
                continue
            source = pulled.pop(uid, None)
            if source is None:
                source = self._where(uid)
                self._uids.pop(source, None)
            self._uids[reader] = uid
            kind = PLACED if source is None else MOVED
            changes.append(ReaderChange(kind, reader, uid, now, from_reader=source))
        return changes

    def _one_reader_per_tag(self, wanted: dict[int, str | None]) -> dict[int, str | None]:
        keep: dict[str, int] = {}
        for reader, uid in wanted.items():
            if uid is not None and (uid not in keep or self._uids.get(reader) == uid):
                keep[uid] = reader
        return {reader: (uid if uid is not None and keep[uid] == reader else None)
                for reader, uid in wanted.items()}

    def clear(self, now: float) -> list[ReaderChange]:
        """Forget every tag, reporting each as removed."""
        changes = [ReaderChange(REMOVED, reader, uid, now) for reader, uid in sorted(self._uids.items())]
        self._uids.clear()
        return changes
