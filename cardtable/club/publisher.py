"""A table publishing to its club: a display backend that sends each view shown, and the public
record of each of the evening's games from the journal (:func:`cardtable.pages.records.game_record`).

The work happens on the publisher's own thread, never the table's: showing a view only queues it.
After every (re)connection, to a broker that may have restarted and lost everything, the table
publishes its latest view and every game of the evening again; a table that restarts does the
same from its journal. Game records are whole (every scoring event so far), so the club is right
after any one of them arrives, however many were lost or repeated.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from pathlib import Path

from cardtable.club.link import TableLink
from cardtable.club.spec import ClubSpec
from cardtable.journal import Journal
from cardtable.pages.records import game_key, game_list, game_record
from cardtable.pages.viewdata import view_data
from engine.wording import default_names
from hardware.view import TableView

log = logging.getLogger(__name__)

EVENING = 12 * 3600.0     # games started this long ago or less are the evening's


class ClubPublisher:
    """Publishes the table to ``spec``'s broker; reads the journal at ``journal_path``.
    ``on_problem`` hears (on paho's thread) when the broker cannot be reached, and when it is again."""

    name = "club"

    def __init__(self, spec: ClubSpec, journal_path: str | Path, *, evening: float = EVENING,
                 on_problem=None) -> None:
        self.spec = spec
        self.journal_path = Path(journal_path)
        self.evening = evening
        self._work: queue.Queue = queue.Queue()
        self._sent: dict[str, tuple] = {}          # game key -> what its last published record held
        self._names: dict[str, list[str]] = {}     # game key -> the seats' names while it was played
        self._view: dict | None = None
        self._thread = threading.Thread(target=self._run, name=f"club-{spec.table}", daemon=True)
        self._thread.start()
        self.link = TableLink(spec.broker, spec.club, spec.table, key=spec.key, on_problem=on_problem,
                              on_connected=lambda: self._work.put("again"))

    def show(self, view: TableView) -> None:
        self._work.put((view_data(view), time.time()))

    def close(self, timeout: float = 5.0) -> None:
        self._work.put(None)
        self._thread.join(timeout)
        self.link.close()

    @property
    def unpublished(self) -> str:
        """Why nothing was published (the broker was never reached), in words; "" once it was."""
        if self.link.ever_connected:
            return ""
        where = f"{self.spec.broker.host}:{self.spec.broker.port}"
        return f"Nothing was published to the club: {self.link.problem or f'the broker at {where} was not reached'}"

    # -- the publisher's thread -------------------------------------------------------------------
    def _run(self) -> None:
        journal = None
        while True:
            item = self._work.get()
            if item is None:
                break
            try:
                if journal is None and self.journal_path.exists():
                    journal = Journal(self.journal_path, read_only=True)
                if item == "again":
                    self._sent.clear()
                    if self._view is not None:
                        self.link.publish("view", self._view)
                    at = self._view["at"] if self._view else time.time()
                else:
                    data, at = item
                    self._view = {**data, "at": at}
                if journal is not None:
                    self._publish_games(journal, at)
                if item != "again":
                    self.link.publish("view", self._view)
            except Exception:  # the club must never stop the table
                log.exception("publishing to the club failed")
        if journal is not None:
            journal.close()

    def _publish_games(self, journal: Journal, at: float) -> None:
        records = game_list(journal, since=time.time() - self.evening)
        if records and self._view is not None:
            current = game_key(records[-1])
            self._view["key"] = current
            self._names[current] = [seat["name"] for seat in self._view["seats"]]
        for record in records:
            key = game_key(record)
            signature = (record.actions, record.finished, record.result)
            if self._sent.get(key) == signature:
                continue
            names = self._names.get(key) or list(default_names(record.players))
            data = game_record(journal, record, names)
            self.link.publish("game", {**data, "names": names[: record.players], "at": at}, key)
            self._sent[key] = signature
