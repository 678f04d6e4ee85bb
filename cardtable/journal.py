"""The journal: every accepted action of every game, in SQLite (WAL), committed before it is shown.

A game is its setup (game name, players, options, mode, seed) plus its actions in order; the
state is rebuilt by replaying them, so a crash or a power cut loses nothing that was shown as
accepted, and undo marks the last action undone rather than forgetting it.

Every row carries a seal: a SHA-256 chain from the game's setup through each action in order
(an undone action also seals its undoing), and the game's row keeps the seal of its last action
(its head), so a changed byte or a lost row is found, and named, when the journal is read. Reading never raises on a damaged file: what can be read and checks out is
used, the rest is listed in ``problems``. :func:`open_for_play` is how a table opens its journal:
a damaged file is kept aside untouched and play resumes from a new file holding every good row;
a journal that cannot be written is said in words (a full disk, a read-only file) and the table
keeps showing the last good state instead of stopping.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import CardtableError, IllegalAction, InvalidInput
from engine.game import Action, Event, get_game
from engine.serialize import action_from_text, dumps

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
    result TEXT,
    seal TEXT,
    head TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    seal TEXT,
    undo_seal TEXT,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value);
"""
GAME_COLUMNS = "id, game, players, options, mode, seed, started, finished, result, seal, head"
ACTION_COLUMNS = "game_id, seq, action, at, undone, seal, undo_seal"

#: what SQLite raises on a damaged file (a message quoting damaged text cannot even be decoded)
DB_ERRORS = (sqlite3.Error, UnicodeDecodeError)

#: below this much free space the table is told the disk is nearly full
LOW_SPACE = 4 * 1024 * 1024


class JournalError(CardtableError, OSError):
    """The journal file cannot be opened or written; the message says what to do."""


@dataclass(frozen=True)
class GameSetup:
    """What a new game is: enough to start it again from nothing."""

    game: str
    players: int
    options: dict
    mode: str
    seed: int


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
    #: live actions that check out
    actions: int
    #: what is wrong with this game's rows (its record stops before the first bad one)
    damage: str | None = None


@dataclass
class Replay:
    """A game rebuilt from its journal: the final state, each step's events, and bad rows."""

    record: GameRecord
    state: object
    steps: list[tuple[Action, list[Event]]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _seal(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=True).encode()).hexdigest()


def _undo_seal(seal: str) -> str:
    return _seal(seal, "undone")


def _game_seal(row) -> str:
    return _seal("game", *row[:7])


def _text(raw: bytes) -> str:
    """SQLite text as Python text; bytes that are not UTF-8 survive (and fail their seal)."""
    return raw.decode("utf-8", "surrogateescape")


def mount_point(path: Path) -> Path:
    path = path.resolve()
    while not os.path.ismount(path) and path != path.parent:
        path = path.parent
    return path


def _writable(path: Path) -> bool:
    """Whether this user may write the journal's file and folder, on a filesystem mounted to write."""
    folder = path.parent if path.parent.exists() else Path.cwd()
    try:
        mounted_ro = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        mounted_ro = False
    files = [folder] + ([path] if path.exists() else [])
    return not mounted_ro and all(os.access(f, os.W_OK) for f in files)


def _write_error(path: Path, err: Exception) -> JournalError:
    """The sentence for a write that failed: what happened and what to do."""
    text = str(err).lower()
    if "full" in text or getattr(err, "errno", None) == 28:
        return JournalError(f"the disk is full: free space on {mount_point(path.parent)}")
    if "readonly" in text or "read-only" in text or isinstance(err, PermissionError) or not _writable(path):
        return JournalError(f"the journal {path} is read-only: let this user write it, "
                            f"or name another [journal] path")
    return JournalError(f"the journal {path} cannot be written: {err}")


class Journal:
    """One SQLite file. Safe to open again after a crash: WAL with full sync.

    Opening never fails on a damaged or unwritable file that SQLite can still read; the damage
    is in :attr:`problems` (and in each :class:`GameRecord`), and a write raises
    :class:`JournalError` with a sentence for the table.

    :raises JournalError: only when the file cannot be read at all.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self.problems: list[str] = []
        #: when set, every write is refused with this sentence (a journal that stands in for one
        #: that cannot be used)
        self.refuse_writes: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = self._connect()
        except (*DB_ERRORS, OSError) as err:
            self._db = self._connect_to_read(err)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.text_factory = _text
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)
            self._add_seals(db)
        except DB_ERRORS:
            db.close()
            raise
        return db

    def _connect_to_read(self, why: Exception) -> sqlite3.Connection:
        """A journal that cannot be opened to write (read-only, a full disk) is opened to read,
        refusing writes with the reason.

        :raises JournalError: when it cannot be read either.
        """
        if self.path.is_file() and self.path.stat().st_size:
            for mode in ("mode=ro", "immutable=1"):
                try:
                    db = sqlite3.connect(f"{self.path.absolute().as_uri()}?{mode}", uri=True,
                                         isolation_level=None, check_same_thread=False)
                    db.text_factory = _text
                    if {"games", "actions"} <= {r[0] for r in db.execute("SELECT name FROM sqlite_master")}:
                        self.refuse_writes = str(_write_error(self.path, why))
                        return db
                    db.close()
                except DB_ERRORS:
                    continue
        raise JournalError(f"cannot open the journal {self.path}: {why}") from None

    @staticmethod
    def _add_seals(db: sqlite3.Connection) -> None:
        """A journal written before seals existed gets its columns and its seals (as it reads)."""
        for table, columns in (("games", ("seal", "head")), ("actions", ("seal", "undo_seal"))):
            have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            for column in columns:
                if column not in have:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")
        if db.execute("SELECT 1 FROM games WHERE seal IS NULL LIMIT 1").fetchone() is None:
            return
        with db:
            db.execute("BEGIN IMMEDIATE")
            for row in db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE seal IS NULL").fetchall():
                seal = _game_seal(row)
                db.execute("UPDATE games SET seal = ? WHERE id = ?", (seal, row[0]))
                for seq, text, at, undone in db.execute(
                        "SELECT seq, action, at, undone FROM actions WHERE game_id = ? ORDER BY seq", (row[0],)
                ).fetchall():
                    seal = _seal(seal, row[0], seq, text, at)
                    db.execute("UPDATE actions SET seal = ?, undo_seal = ? WHERE game_id = ? AND seq = ?",
                               (seal, _undo_seal(seal) if undone else None, row[0], seq))
                db.execute("UPDATE games SET head = ? WHERE id = ?", (seal, row[0]))

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writing ------------------------------------------------------------------------------
    def _write(self, work):
        """Run ``work(db)`` in one immediate transaction; a failure becomes a :class:`JournalError`."""
        if self.refuse_writes:
            raise JournalError(self.refuse_writes)
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                return work(self._db)
        except (*DB_ERRORS, OSError) as err:
            raise _write_error(self.path, err) from None

    def check_writable(self) -> str | None:
        """A sentence saying why this journal cannot take the next action, or ``None``."""
        try:
            self._write(lambda db: db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('opened', ?)",
                                              (time.time(),)))
        except JournalError as err:
            return str(err)
        return None

    def low_space(self) -> str | None:
        """A warning when the journal's disk is nearly full (writes still work)."""
        if self.path.parent.exists() and shutil.disk_usage(self.path.parent).free < LOW_SPACE:
            return f"The disk is nearly full: free space on {mount_point(self.path.parent)}"
        return None

    @staticmethod
    def _insert_game(db: sqlite3.Connection, setup: GameSetup) -> int:
        row = [None, setup.game, setup.players, json.dumps(setup.options, sort_keys=True), setup.mode,
               setup.seed, time.time()]
        row[0] = db.execute("INSERT INTO games (game, players, options, mode, seed, started) VALUES (?, ?, ?, ?, ?, ?)",
                            row[1:]).lastrowid
        db.execute("UPDATE games SET seal = ?, head = ? WHERE id = ?", (_game_seal(row), _game_seal(row), row[0]))
        return row[0]

    def append(self, game: int | GameSetup, action: Action, *, result: str | None = None) -> tuple[int, int]:
        """Store ``action`` as the game's next one (a :class:`GameSetup` starts that game with it;
        a ``result`` finishes it, in the same transaction); returns ``(game id, sequence number)``
        once committed.

        :raises JournalError: when it cannot be written, saying what to do.
        """
        def work(db: sqlite3.Connection) -> tuple[int, int]:
            game_id = self._insert_game(db, game) if isinstance(game, GameSetup) else game
            seq, prev = db.execute(
                "SELECT seq, seal FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
            ).fetchone() or (0, db.execute("SELECT seal FROM games WHERE id = ?", (game_id,)).fetchone()[0])
            text, at = dumps(action), time.time()
            seal = _seal(prev, game_id, seq + 1, text, at)
            db.execute("INSERT INTO actions (game_id, seq, action, at, seal) VALUES (?, ?, ?, ?, ?)",
                       (game_id, seq + 1, text, at, seal))
            db.execute("UPDATE games SET head = ? WHERE id = ?", (seal, game_id))
            if result is not None:
                self._set_result(db, game_id, result)
            return game_id, seq + 1

        return self._write(work)

    def finish(self, game_id: int | None, result: str) -> None:
        """Mark the game over with ``result`` (a game with no action yet was never written).

        :raises JournalError: when it cannot be written.
        """
        if game_id is not None:
            self._write(lambda db: self._set_result(db, game_id, result))

    @staticmethod
    def _set_result(db: sqlite3.Connection, game_id: int, result: str) -> None:
        db.execute("UPDATE games SET finished = ?, result = ? WHERE id = ?", (time.time(), result, game_id))

    def undo_last(self, game_id: int | None) -> bool:
        """Mark the game's last live action undone; ``False`` when there is none.

        :raises JournalError: when it cannot be written.
        """
        live = self._live_rows(game_id)[0] if game_id is not None else []
        if not live:
            return False
        seq, seal = live[-1][1], live[-1][5]
        self._write(lambda db: db.execute("UPDATE actions SET undone = 1, undo_seal = ? WHERE game_id = ? AND seq = ?",
                                          (_undo_seal(seal), game_id, seq)))
        return True

    # -- reading ------------------------------------------------------------------------------
    def _read(self, sql: str, params=()) -> tuple[list, str | None]:
        """Every row SQLite can give, and a sentence when it stopped early on a damaged file."""
        rows: list = []
        try:
            cursor = self._db.execute(sql, params)
            while (row := cursor.fetchone()) is not None:
                rows.append(row)
        except DB_ERRORS as err:
            return rows, f"the journal file is damaged ({err})"
        return rows, None

    def _game_rows(self) -> list[tuple]:
        rows, problem = self._read(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id")
        if problem and problem not in self.problems:
            self.problems.append(problem)
        return rows

    def _action_rows(self, game_id: int) -> tuple[list[tuple], str | None]:
        rows, problem = self._read(f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        if problem:                                   # the index may be what is damaged: scan the table
            scanned, again = self._read(f"SELECT {ACTION_COLUMNS} FROM actions NOT INDEXED")
            mine = sorted((r for r in scanned if r[0] == game_id), key=lambda r: r[1] if type(r[1]) is int else -1)
            if len(mine) > len(rows):
                rows, problem = mine, again and problem
        return rows, problem

    @staticmethod
    def _verify(game_row, rows: list[tuple]) -> tuple[list[tuple], str | None]:
        """The rows that check out, in order, and what is wrong with the first one that does not."""
        try:
            seal = _game_seal(game_row)
        except (TypeError, ValueError):
            seal = None
        if seal is None or seal != game_row[9]:
            return [], "its setup is damaged"
        good = []
        for expected, row in enumerate(rows, 1):
            _, seq, text, at, undone, stored, undo = row
            try:
                ok = seq == expected and stored == _seal(seal, game_row[0], seq, text, at)
            except (TypeError, ValueError):
                ok = False
            if not ok:
                return good, f"action {expected} is damaged"
            if (undone, undo) not in ((0, None), (1, _undo_seal(stored))):
                return good, f"action {expected} is damaged (its undo mark)"
            good.append(row)
            seal = stored
        if seal != game_row[10]:
            return good, f"the actions after action {len(good)} are missing"
        return good, None

    def _live_rows(self, game_id: int) -> tuple[list[tuple], str | None]:
        game_row = next((r for r in self._game_rows() if r[0] == game_id), None)
        return self._live(game_row) if game_row is not None else ([], None)

    def _live(self, game_row) -> tuple[list[tuple], str | None]:
        rows, problem = self._action_rows(game_row[0])
        good, damage = self._verify(game_row, rows)
        if problem and not damage:
            damage = f"rows after action {len(good)} cannot be read"
        return [r for r in good if not r[4]], damage

    def _record(self, row) -> GameRecord | None:
        game_id, name, players, options, mode, seed, started, finished, result, _, _ = row
        live, damage = self._live(row)
        try:
            options = json.loads(options)
        except (TypeError, ValueError):
            options, damage = {}, damage or "its setup is damaged"
        if not (type(game_id) is int and isinstance(name, str) and type(players) is int and isinstance(options, dict)
                and isinstance(mode, str) and type(seed) is int and isinstance(started, float)):
            return None
        result = result if isinstance(result, str) else None
        return GameRecord(game_id, name, players, options, mode, seed, started,
                          finished if isinstance(finished, float) else None, result, len(live), damage)

    def games(self) -> list[GameRecord]:
        """Every game whose setup can be read (a damaged one says so in its ``damage``)."""
        return [record for row in self._game_rows() if (record := self._record(row)) is not None]

    def game(self, game_id: int) -> GameRecord:
        for record in self.games():
            if record.id == game_id:
                return record
        raise InvalidInput(f"the journal {self.path} has no game {game_id}: "
                           f"'cardtable history --journal {self.path}' lists them")

    def latest_unfinished(self, game: str | None = None) -> GameRecord | None:
        open_games = [r for r in self.games() if r.finished is None
                      and (game is None or r.game == game) and r.damage != "its setup is damaged"]
        return open_games[-1] if open_games else None

    def raw_actions(self, game_id: int | None) -> list[tuple[int, str]]:
        """The game's live actions that check out, as ``(seq, stored text)``."""
        return [(r[1], r[2]) for r in self._live_rows(game_id)[0]] if game_id is not None else []

    def replay(self, game_id: int) -> Replay:
        """Rebuild a game by applying its live actions in order; bad rows are skipped and listed,
        and nothing after a damaged row is used."""
        record = self.game(game_id)
        game = get_game(record.game)
        state = game.new_game(record.players, options=record.options, mode=record.mode, seed=record.seed)
        replay = Replay(record, state)
        if record.damage:
            replay.problems.append(f"game {game_id}: {record.damage}; it is kept up to action {record.actions}")
        for seq, text in self.raw_actions(game_id):
            try:
                action = action_from_text(text)
                state, events = game.apply(state, action)
            except (InvalidInput, IllegalAction) as err:
                replay.problems.append(f"action {seq} was skipped: {err}")
                continue
            replay.steps.append((action, events))
        replay.state = state
        return replay

    # -- a damaged file -------------------------------------------------------------------------
    def damaged(self) -> bool:
        """Whether any row fails its check or the file cannot be read to the end."""
        records = self.games()
        return bool(self.problems) or any(r.damage for r in records) or len(records) != len(self._game_rows())

    def good_rows(self) -> tuple[list[tuple], list[tuple]]:
        """The game rows and action rows that check out (what a rebuilt journal holds)."""
        games, actions = [], []
        for row in self._game_rows():
            if self._record(row) is None:
                continue
            rows, _ = self._action_rows(row[0])
            good, damage = self._verify(row, rows)
            if damage == "its setup is damaged":
                continue
            games.append(row[:10] + (good[-1][5] if good else row[9],))     # its head: the last good action
            actions += good
        return games, actions


def _aside(path: Path) -> Path:
    """A new name beside ``path`` for keeping a damaged journal (never an existing file)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1000):
        candidate = path.with_name(f"{path.name}.damaged-{stamp}" + (f"-{n}" if n else ""))
        if not candidate.exists():
            return candidate
    raise JournalError(f"too many damaged copies of {path} are kept beside it: move them away")


def _set_aside(path: Path) -> Path:
    """Move the journal (and its WAL) to a new name; returns where the main file went."""
    aside = _aside(path)
    for suffix in ("", "-wal"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            os.replace(source, f"{aside}{suffix}")
    Path(f"{path}-shm").unlink(missing_ok=True)
    return aside


def _rebuild(path: Path, games: list[tuple], actions: list[tuple]) -> None:
    journal = Journal(path)
    try:
        def work(db: sqlite3.Connection) -> None:
            db.executemany(f"INSERT INTO games ({GAME_COLUMNS}) VALUES ({', '.join('?' * 11)})", games)
            db.executemany(f"INSERT INTO actions ({ACTION_COLUMNS}) VALUES ({', '.join('?' * 7)})", actions)

        journal._write(work)
    finally:
        journal.close()


@dataclass
class Opened:
    """A journal opened for play, and the sentences the table must show about it."""

    journal: Journal
    notices: list[str] = field(default_factory=list)
    #: why actions cannot be journalled now (``None``: they can)
    cannot_write: str | None = None


def open_for_play(path: str | Path) -> Opened:
    """Open the table's journal, whatever state the file is in.

    A damaged file is moved aside under a new name (kept as it is) and a new file at ``path``
    holds every row that checks out, so play resumes after the last good action. An empty file
    is said. A journal that cannot be written is opened to read, with the reason in
    ``cannot_write``; one that cannot even be read leaves the table an empty journal in memory
    that refuses every write with the reason.
    """
    path = Path(path).expanduser()
    notices: list[str] = []
    if path.is_file() and path.stat().st_size == 0 and not Path(f"{path}-wal").exists():
        notices.append(f"The journal {path} was empty: no earlier game could be resumed")
    games: list[tuple] = []
    actions: list[tuple] = []
    journal: Journal | None = None
    try:
        journal = Journal(path)
        if not journal.damaged():
            return _opened(journal, notices)
        games, actions = journal.good_rows()
        reason = "; ".join(f"game {r.id}: {r.damage}, kept up to action {r.actions}"
                           for r in journal.games() if r.damage) or "; ".join(journal.problems)
    except JournalError as err:
        reason = str(err)
    aside = None
    try:
        if journal is not None:
            journal.close()
        aside = _set_aside(path) if path.is_file() else None
        _rebuild(path, games, actions)
        repaired = Journal(path)
    except (JournalError, OSError) as err:             # it stays as it is: read what checks out
        problem = str(err) if isinstance(err, JournalError) else str(_write_error(path, err))
        if journal is None:                             # nothing could be read: a stand-in that writes nothing
            journal, said = Journal(":memory:"), f"The journal cannot be used: {reason}"
        else:
            journal, said = Journal(aside or path), f"The journal is damaged ({reason}) and cannot be repaired: {problem}"
        journal.refuse_writes = problem
        return Opened(journal, notices + [said], problem)
    kept = f"; the damaged file is kept as {aside}" if aside else ""
    return _opened(repaired, notices + [f"The journal was damaged ({reason}){kept}"])


def _opened(journal: Journal, notices: list[str]) -> Opened:
    low = journal.low_space()
    return Opened(journal, notices + ([low] if low else []), journal.check_writable())
