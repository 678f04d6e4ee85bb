"""The journal: every accepted action of every game, in SQLite (WAL), committed before it is shown.

A game is its setup (game name, players, options, mode, seed) plus its actions in order; the
state is rebuilt by replaying them, so a crash or a power cut loses nothing that was shown as
accepted, and undo marks the last action undone rather than forgetting it. Rows that no longer
decode or apply are collected as problems (``Replay.problems``), never fatal.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import CardtableError, IllegalAction, InvalidInput
from engine.game import Action, Event, get_game
from engine.serialize import dumps, loads

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    mode TEXT NOT NULL,
    seed INTEGER NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seq)
);
"""


class JournalError(CardtableError, OSError):
    """The journal file cannot be opened or written."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: int
    options: dict
    mode: str
    seed: int
    started: float
    finished: float | None
    result: str | None
    actions: int


@dataclass
class Replay:
    """A game rebuilt from its journal: the final state, each step's events, and bad rows."""

    record: GameRecord
    state: object
    steps: list[tuple[Action, list[Event]]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class Journal:
    """One SQLite file. Safe to open again after a crash: WAL with full sync."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except (sqlite3.Error, OSError) as err:
            raise JournalError(f"cannot open the journal {self.path}: {err}") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writing ------------------------------------------------------------------------------
    def new_game(self, game: str, players: int, options: dict, mode: str, seed: int) -> int:
        cursor = self._db.execute(
            "INSERT INTO games (game, players, options, mode, seed, started) VALUES (?, ?, ?, ?, ?, ?)",
            (game, players, json.dumps(options, sort_keys=True), mode, seed, time.time()),
        )
        return cursor.lastrowid

    def append(self, game_id: int, action: Action) -> int:
        """Store ``action`` as the game's next one; returns its sequence number once committed."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            seq = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            self._db.execute(
                "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                (game_id, seq, dumps(action), time.time()),
            )
        return seq

    def undo_last(self, game_id: int) -> Action | None:
        """Mark the game's last live action undone; returns it, or ``None`` when there is none."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute(
                "SELECT seq, action FROM actions WHERE game_id = ? AND undone = 0 ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            self._db.execute("UPDATE actions SET undone = 1 WHERE game_id = ? AND seq = ?", (game_id, row[0]))
        return loads(row[1])

    def finish(self, game_id: int, result: str) -> None:
        self._db.execute("UPDATE games SET finished = ?, result = ? WHERE id = ?", (time.time(), result, game_id))

    # -- reading ------------------------------------------------------------------------------
    def games(self) -> list[GameRecord]:
        rows = self._db.execute(
            "SELECT g.id, g.game, g.players, g.options, g.mode, g.seed, g.started, g.finished, g.result,"
            " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id AND a.undone = 0)"
            " FROM games g ORDER BY g.id"
        ).fetchall()
        return [GameRecord(r[0], r[1], r[2], json.loads(r[3]), *r[4:]) for r in rows]

    def game(self, game_id: int) -> GameRecord:
        for record in self.games():
            if record.id == game_id:
                return record
        raise InvalidInput(f"the journal has no game {game_id}; 'cardtable history' lists them")

    def latest_unfinished(self, game: str | None = None) -> GameRecord | None:
        open_games = [r for r in self.games() if r.finished is None and (game is None or r.game == game)]
        return open_games[-1] if open_games else None

    def raw_actions(self, game_id: int) -> list[tuple[int, str]]:
        return self._db.execute(
            "SELECT seq, action FROM actions WHERE game_id = ? AND undone = 0 ORDER BY seq", (game_id,)
        ).fetchall()

    def replay(self, game_id: int) -> Replay:
        """Rebuild a game by applying its live actions in order; bad rows are skipped and listed."""
        record = self.game(game_id)
        game = get_game(record.game)
        state = game.new_game(record.players, options=record.options, mode=record.mode, seed=record.seed)
        replay = Replay(record, state)
        for seq, text in self.raw_actions(game_id):
            try:
                action = loads(text)
                state, events = game.apply(state, action)
            except (InvalidInput, IllegalAction, ValueError, KeyError, TypeError) as err:
                replay.problems.append(f"action {seq} was skipped: {err}")
                continue
            replay.steps.append((action, events))
        replay.state = state
        return replay
