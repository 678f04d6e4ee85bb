"""The club server's memory, in its own SQLite file: each table's last status and view, and each
game's public record, so a restart of the club server loses nothing.

Every game record received replaces the stored one whole (its scoring events included), so a
record repeated by a table that reconnected, or after an undo, leaves each scoring event stored
exactly once. A table's oldest games beyond what the club keeps per table are folded: their record
is deleted and what they added to the standings is kept in ``totals`` (:meth:`ClubStore.fold`),
with the start of the newest folded game, so that a folded game sent again is not counted twice.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

from cardtable.club.standings import Contribution

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY, status TEXT NOT NULL, view TEXT NOT NULL, seen REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    tbl TEXT NOT NULL, key TEXT NOT NULL, record TEXT NOT NULL, finished REAL, seen REAL NOT NULL,
    PRIMARY KEY (tbl, key)
);
CREATE TABLE IF NOT EXISTS totals (
    tbl TEXT NOT NULL, game TEXT NOT NULL, title TEXT NOT NULL, player TEXT NOT NULL, points INTEGER NOT NULL,
    wins INTEGER NOT NULL, played INTEGER NOT NULL, spread INTEGER NOT NULL, seen REAL NOT NULL,
    PRIMARY KEY (tbl, game, player)
);
CREATE TABLE IF NOT EXISTS folded (tbl TEXT PRIMARY KEY, started REAL NOT NULL);
"""


class ClubStore:
    """Thread-safe; one connection, one lock."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def save_table(self, name: str, status: str, view: dict) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO tables (name, status, view, seen) VALUES (?, ?, ?, ?)",
                             (name, status, json.dumps(view), time.time()))

    def save_game(self, table: str, record: dict) -> dict:
        """Store ``record``; keeps the players' names already known when the new record only has
        default ones (a table that restarted does not know who played its earlier games)."""
        with self._lock:
            row = self._db.execute("SELECT record FROM games WHERE tbl = ? AND key = ?",
                                   (table, record["key"])).fetchone()
            if row:
                old = json.loads(row[0])
                if all(n.startswith("Seat ") for n in record["names"]) and old.get("names"):
                    record = {**record, "names": old["names"]}
            self._db.execute(
                "INSERT OR REPLACE INTO games (tbl, key, record, finished, seen) VALUES (?, ?, ?, ?, ?)",
                (table, record["key"], json.dumps(record), record.get("finished"), time.time()))
        return record

    def tables(self) -> dict[str, tuple[str, dict]]:
        with self._lock:
            rows = self._db.execute("SELECT name, status, view FROM tables").fetchall()
        return {name: (status, json.loads(view)) for name, status, view in rows}

    def games(self, *, since: float = 0.0, table: str | None = None) -> list[dict]:
        """Game records (with their ``table``) seen since ``since``, oldest first."""
        query = "SELECT tbl, record FROM games WHERE seen >= ?" + (" AND tbl = ?" if table else "") + " ORDER BY seen"
        with self._lock:
            rows = self._db.execute(query, (since, table) if table else (since,)).fetchall()
        return [{**json.loads(record), "table": tbl} for tbl, record in rows]

    def fold(self, table: str, key: str, part: Contribution, started: float) -> None:
        """Forget the record of ``table``'s game ``key``, keeping what it added to the standings."""
        now = time.time()
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM games WHERE tbl = ? AND key = ?", (table, key))
            self._db.executemany(
                "INSERT INTO totals VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tbl, game, player) DO UPDATE SET "
                "points = points + excluded.points, wins = wins + excluded.wins, played = played + excluded.played, "
                "spread = spread + excluded.spread, seen = excluded.seen",
                [(table, *row, now) for row in part])
            self._db.execute("INSERT INTO folded VALUES (?, ?) ON CONFLICT (tbl) DO UPDATE SET "
                             "started = max(started, excluded.started)", (table, started))

    def totals(self, *, since: float = 0.0) -> list[Contribution]:
        """What folded games added to the standings, per table, folded since ``since``."""
        with self._lock:
            rows = self._db.execute("SELECT tbl, game, title, player, points, wins, played, spread FROM totals "
                                    "WHERE seen >= ? ORDER BY tbl", (since,)).fetchall()
        by_table: dict[str, list] = {}
        for table, *row in rows:
            by_table.setdefault(table, []).append(tuple(row))
        return [tuple(part) for part in by_table.values()]

    def folded(self) -> dict[str, float]:
        """Per table, the start of the newest game folded."""
        with self._lock:
            return dict(self._db.execute("SELECT tbl, started FROM folded").fetchall())
