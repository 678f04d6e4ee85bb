"""The journal: every accepted action of every game, in SQLite (WAL), committed before it is shown.

A game is its setup (game name, players, options, mode, seed) plus its actions in order; the
state is rebuilt by replaying them, so a crash or a power cut loses nothing that was shown as
accepted, and undo marks the last action undone rather than forgetting it.

Every row carries a seal keyed with the table's secret (:mod:`cardtable.journal_seals`: the game's
setup, each action chained to the one before, undo marks, the game's ending and result, the list
of games), so a changed byte, a lost row, a forged result or a deleted game is found, and named,
when the journal is read; someone who can edit the file but cannot read the key cannot re-seal
it. A journal of the older, unkeyed format is upgraded once when the table opens it, and says so.
Rows are read as :class:`GameRow` and :class:`ActionRow`; each game's chain is checked once, then
only the rows added since, so an undo, a replay or a resume costs that game's new rows, not the
history.

Reading never raises on a damaged file: what can be read and checks out is used, the rest is
listed in ``problems``; the commands that show the journal open it read-only and never write (no
seal, no upgrade). :func:`open_for_play` is how a table opens its journal: a damaged file is kept
aside untouched and play resumes from a new file holding every good row; a journal that cannot
be written is said in words (a full disk, a read-only file) and the table keeps showing the last
good state instead of stopping.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import sqlite3
import time
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from cardtable.journal_seals import FORMAT, ActionRow, GameRow, Seals, key_path, make_key, read_key
from engine.errors import CardtableError, IllegalAction, InvalidInput
from engine.game import Action, Event
from engine.games import get_game
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
    head TEXT,
    ending TEXT
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
GAME_COLUMNS = ", ".join(f.name for f in fields(GameRow))
ACTION_COLUMNS = ", ".join(f.name for f in fields(ActionRow))
#: columns added since the first journals: (table, column)
_ADDED = (("games", "seal"), ("games", "head"), ("games", "ending"), ("actions", "seal"), ("actions", "undo_seal"))

#: what SQLite raises on a damaged file (a message quoting damaged text cannot even be decoded)
DB_ERRORS = (sqlite3.Error, UnicodeDecodeError)

#: below this much free space the table is told the disk is nearly full
LOW_SPACE = 4 * 1024 * 1024

SETUP_DAMAGED = "its setup is damaged"
ENDING_CHANGED = "its result, its end or its undos were changed by hand: they do not match the table's seal"


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


@dataclass(frozen=True)
class _Chain:
    """What checking a game's actions found: the rows that check out, in order, the seal they end
    on, and what is wrong with the first one that does not. Kept per game, so the next check
    reads only the rows added since."""

    game_seal: object
    rows: tuple[ActionRow, ...]
    last: str
    damage: str | None = None

    @property
    def undone(self) -> int:
        return sum(1 for row in self.rows if row.undone)


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
    :class:`JournalError` with a sentence for the table. :attr:`notices` says what opening did
    (an upgrade of an older journal).

    :param read_only: open only to read (the commands that show the journal): nothing is
        written, not even the key, a seal or an upgrade.
    :raises JournalError: only when the file cannot be read at all.
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path).expanduser()
        self.problems: list[str] = []
        self.notices: list[str] = []
        #: when set, every write is refused with this sentence (a journal that stands in for one
        #: that cannot be used)
        self.refuse_writes: str | None = None
        #: why no seal of this journal can be checked (its key is missing), or None
        self._unchecked: str | None = None
        #: an older journal written before seals, read as it is (to show it, never to play on)
        self._no_seals = False
        self._chains: dict[object, _Chain] = {}
        if read_only:
            self._db = self._connect_to_read(None)
        else:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = self._connect()
            except (*DB_ERRORS, OSError) as err:
                self._db = self._connect_to_read(err)
        try:
            self.seals = self._open_seals(write=not read_only and self.refuse_writes is None)
        except (JournalError, OSError) as err:          # the key or the upgrade cannot be written
            self.refuse_writes = str(err if isinstance(err, JournalError) else _write_error(self.key_file, err))
            self.seals = self._open_seals(write=False)

    @property
    def in_memory(self) -> bool:
        return str(self.path) == ":memory:"

    @property
    def key_file(self) -> Path:
        """Where this journal's key is kept (see :mod:`cardtable.journal_seals`)."""
        return key_path(self.path)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.text_factory = _text
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)
            for table, column in _ADDED:                     # a journal written before they existed
                if column not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")
        except DB_ERRORS:
            db.close()
            raise
        return db

    def _connect_to_read(self, why: Exception | None) -> sqlite3.Connection:
        """Open to read only: asked for (``why`` None), or a journal that cannot be opened to
        write (read-only, a full disk), refusing writes with the reason.

        :raises JournalError: when it cannot be read either.
        """
        if self.path.is_file() and self.path.stat().st_size:
            for mode in ("mode=ro", "immutable=1"):
                try:
                    db = sqlite3.connect(f"{self.path.absolute().as_uri()}?{mode}", uri=True,
                                         isolation_level=None, check_same_thread=False)
                    db.text_factory = _text
                    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
                    if "actions" in names or why is None:
                        self.refuse_writes = "opened to read" if why is None else str(_write_error(self.path, why))
                        return db
                    db.close()
                except DB_ERRORS:
                    continue
        raise JournalError(f"cannot open the journal {self.path}: {why or 'it is empty or no SQLite file'}") from None

    # -- the key and the format ------------------------------------------------------------------
    def _meta(self, key: str) -> object:
        rows, _ = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def _open_seals(self, *, write: bool) -> Seals:
        """The seals of this journal: its key's, after upgrading an older journal (when writing)."""
        if self.in_memory:
            seals = Seals(secrets.token_bytes(32))
            if write:
                self._write(lambda db: self._set_format(db, seals))
            return seals
        try:
            key = read_key(self.key_file)
        except OSError as err:
            self._unchecked = f"its key {self.key_file} cannot be read ({err}): run this as the table's user"
            self.problems.append(f"the journal's seals cannot be checked: {self._unchecked}")
            return Seals(None)
        stated = self._meta("format")
        if key is not None and os.stat(self.key_file).st_mode & 0o077:
            self.notices.append(f"The journal's key {self.key_file} can be read by other users, who could forge "
                                f"its seals: chmod 600 {self.key_file}")
        if key is not None:
            if stated != FORMAT and (stated is not None or not self._is_empty()):
                self.problems.append(f"the journal was changed by hand: it has a key ({self.key_file}) but says it "
                                     f"is of {'format ' + repr(stated) if stated else 'no format'}")
            elif stated is None and write:
                self._write(lambda db: self._set_format(db, Seals(key)))
            return Seals(key)
        if stated == FORMAT:
            self._unchecked = f"its key {self.key_file} is missing"
            self.problems.append(f"the journal's seals cannot be checked: {self._unchecked} (only the table's "
                                 f"key can check them; a copy needs the key beside it)")
            return Seals(None)
        if self._is_empty():
            return self._new_key(Seals(None), []) if write else Seals(None)
        unsealed = self._unsealed()
        old = "without seals" if unsealed else "with seals anyone could recompute"
        if not write:
            self.notices.append(f"the journal was written by an older cardtable ({old}); the table upgrades it "
                                f"to keyed seals when it opens it")
            self._no_seals = unsealed
            return Seals(None)
        games = self._game_rows()
        seals = self._new_key(None if unsealed else Seals(None), games)
        self.notices.append(f"The journal {self.path} was written by an older cardtable ({old}): its {len(games)} "
                            f"game(s) are now sealed with the table's key {self.key_file}, readable by this user "
                            f"only; what it held before cannot be vouched for")
        return seals

    def _is_empty(self) -> bool:
        rows, _ = self._read("SELECT (SELECT COUNT(*) FROM games) + (SELECT COUNT(*) FROM actions)")
        return bool(rows) and rows[0][0] == 0

    def _unsealed(self) -> bool:
        rows, _ = self._read("SELECT (SELECT COUNT(*) FROM games WHERE seal IS NOT NULL) "
                             "+ (SELECT COUNT(*) FROM actions WHERE seal IS NOT NULL)")
        return bool(rows) and rows[0][0] == 0

    def _new_key(self, old: Seals | None, games: list[GameRow]) -> Seals:
        """Make the key and seal every game with it: the rows ``old`` vouches for (all of them
        for ``old`` None, a journal without seals); a row it does not stays as it was, damaged."""
        key = make_key(self.key_file)
        seals = Seals(key)

        def work(db: sqlite3.Connection) -> None:
            for game in games:
                rows, _ = self._action_rows(game.id)
                chain = (_Chain(None, tuple(rows), "") if old is None else self._check_rows(old, game, rows))
                if chain.damage == SETUP_DAMAGED:
                    continue
                self._reseal(db, seals, game, chain.rows)
            self._set_format(db, seals)

        try:
            self._write(work)
        except JournalError:
            self.key_file.unlink(missing_ok=True)
            raise
        return seals

    def _reseal(self, db: sqlite3.Connection, seals: Seals, game: GameRow, rows) -> None:
        """Write ``game`` and ``rows`` sealed by ``seals`` (its finish only when all its rows are)."""
        seal = seals.game(game)
        db.execute("UPDATE games SET seal = ? WHERE id = ?", (seal, game.id))
        for row in rows:
            seal = seals.action(seal, row)
            db.execute("UPDATE actions SET seal = ?, undo_seal = ? WHERE game_id = ? AND seq = ?",
                       (seal, seals.undo(seal) if row.undone else None, row.game_id, row.seq))
        db.execute("UPDATE games SET head = ? WHERE id = ?", (seal, game.id))
        self._seal_ending(db, seals, game.id)

    def _set_format(self, db: sqlite3.Connection, seals: Seals) -> None:
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('format', ?)", (FORMAT,))
        self._seal_roster(db, seals)

    @staticmethod
    def _seal_roster(db: sqlite3.Connection, seals: Seals) -> None:
        ids = [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('roster', ?)", (seals.roster(ids),))

    @staticmethod
    def _seal_ending(db: sqlite3.Connection, seals: Seals, game_id) -> None:
        head, finished, result = db.execute("SELECT head, finished, result FROM games WHERE id = ?",
                                            (game_id,)).fetchone()
        undone = db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ? AND undone = 1", (game_id,)).fetchone()[0]
        db.execute("UPDATE games SET ending = ? WHERE id = ?", (seals.ending(head, undone, finished, result), game_id))

    def _roster_problem(self, games: list[GameRow]) -> str | None:
        """What is wrong with the list of games (a keyed journal's games deleted or added)."""
        if not self.seals.keyed or self._unchecked:
            return None
        if self._meta("roster") != self.seals.roster([game.id for game in games]):
            return ("games were removed from the journal or added by hand: its list of games does not match "
                    "the table's seal")
        return None

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

    def _insert_game(self, db: sqlite3.Connection, setup: GameSetup) -> int:
        values = (setup.game, setup.players, json.dumps(setup.options, sort_keys=True), setup.mode, setup.seed,
                  time.time())
        game_id = db.execute("INSERT INTO games (game, players, options, mode, seed, started) "
                             "VALUES (?, ?, ?, ?, ?, ?)", values).lastrowid
        seal = self.seals.game(GameRow(game_id, *values))
        db.execute("UPDATE games SET seal = ?, head = ? WHERE id = ?", (seal, seal, game_id))
        self._seal_roster(db, self.seals)
        return game_id

    def _append_text(self, db: sqlite3.Connection, game_id: int, text: str) -> int:
        """Store ``text`` as the game's next action, chained and sealed; returns its number."""
        seq, prev = db.execute(
            "SELECT seq, seal FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
        ).fetchone() or (0, db.execute("SELECT seal FROM games WHERE id = ?", (game_id,)).fetchone()[0])
        row = ActionRow(game_id, seq + 1, text, time.time())
        seal = self.seals.action(prev, row)
        db.execute(f"INSERT INTO actions ({ACTION_COLUMNS}) VALUES (?, ?, ?, ?, 0, ?, NULL)",
                   (row.game_id, row.seq, row.action, row.at, seal))
        db.execute("UPDATE games SET head = ? WHERE id = ?", (seal, game_id))
        self._seal_ending(db, self.seals, game_id)
        return row.seq

    def append(self, game: int | GameSetup, action: Action, *, result: str | None = None) -> tuple[int, int]:
        """Store ``action`` as the game's next one (a :class:`GameSetup` starts that game with it;
        a ``result`` finishes it, in the same transaction); returns ``(game id, sequence number)``
        once committed.

        :raises JournalError: when it cannot be written, saying what to do.
        """
        def work(db: sqlite3.Connection) -> tuple[int, int]:
            game_id = self._insert_game(db, game) if isinstance(game, GameSetup) else game
            seq = self._append_text(db, game_id, dumps(action))
            if result is not None:
                self._set_result(db, game_id, result)
            return game_id, seq

        return self._write(work)

    def finish(self, game_id: int | None, result: str) -> None:
        """Mark the game over with ``result`` (a game with no action yet was never written).

        :raises JournalError: when it cannot be written.
        """
        if game_id is not None:
            self._write(lambda db: self._set_result(db, game_id, result))

    def _set_result(self, db: sqlite3.Connection, game_id: int, result: str) -> None:
        db.execute("UPDATE games SET finished = ?, result = ? WHERE id = ?", (time.time(), result, game_id))
        self._seal_ending(db, self.seals, game_id)

    def undo_last(self, game_id: int | None) -> bool:
        """Mark the game's last live action undone; ``False`` when there is none.

        :raises JournalError: when it cannot be written.
        """
        game_row = self._game_row(game_id) if game_id is not None else None
        chain = self._chain(game_row) if game_row is not None else None
        live = [n for n, row in enumerate(chain.rows) if not row.undone] if chain else []
        if not live:
            return False
        row = chain.rows[live[-1]]
        undo = self.seals.undo(row.seal)

        def work(db: sqlite3.Connection) -> None:
            db.execute("UPDATE actions SET undone = 1, undo_seal = ? WHERE game_id = ? AND seq = ?",
                       (undo, game_id, row.seq))
            self._seal_ending(db, self.seals, game_id)

        self._write(work)
        rows = list(chain.rows)
        rows[live[-1]] = replace(row, undone=1, undo_seal=undo)
        self._chains[game_id] = replace(chain, rows=tuple(rows))
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

    def _said(self, problem: str | None) -> None:
        if problem and problem not in self.problems:
            self.problems.append(problem)

    def _game_rows(self, where: str = "", params=()) -> list[GameRow]:
        rows, problem = self._read(f"SELECT {GAME_COLUMNS} FROM games {where} ORDER BY id", params)
        self._said(problem)
        return [GameRow(*row) for row in rows]

    def _game_row(self, game_id) -> GameRow | None:
        rows = self._game_rows("WHERE id = ?", (game_id,))
        return rows[0] if rows else None

    def _action_rows(self, game_id, after: int = 0) -> tuple[list[ActionRow], str | None]:
        rows, problem = self._read(f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                                   (game_id, after))
        if problem and not after:                     # the index may be what is damaged: scan the table
            scanned, again = self._read(f"SELECT {ACTION_COLUMNS} FROM actions NOT INDEXED")
            mine = sorted((r for r in scanned if r[0] == game_id), key=lambda r: r[1] if type(r[1]) is int else -1)
            if len(mine) > len(rows):
                rows, problem = mine, again and problem
        return [ActionRow(*row) for row in rows], problem

    @staticmethod
    def _check_rows(seals: Seals, game: GameRow, rows: list[ActionRow],
                    start: _Chain | None = None) -> _Chain:
        """The chain of ``rows`` checked after ``start`` (from the game's setup without one)."""
        if start is None:
            try:
                seal = seals.game(game)
            except (TypeError, ValueError):
                seal = None
            if seal is None or seal != game.seal:
                return _Chain(game.seal, (), "", SETUP_DAMAGED)
            start = _Chain(game.seal, (), seal)
        good, seal = list(start.rows), start.last
        for row in rows:
            expected = len(good) + 1
            try:
                ok = row.seq == expected and row.seal == seals.action(seal, row)
            except (TypeError, ValueError):
                ok = False
            if not ok:
                return _Chain(game.seal, tuple(good), seal, f"action {expected} is damaged")
            if (row.undone, row.undo_seal) not in ((0, None), (1, seals.undo(row.seal))):
                return _Chain(game.seal, tuple(good), seal, f"action {expected} is damaged (its undo mark)")
            good.append(row)
            seal = row.seal
        return _Chain(game.seal, tuple(good), seal)

    def _chain(self, game: GameRow) -> _Chain:
        """The game's chain: checked whole the first time, then only the rows added since."""
        if self._unchecked:
            return _Chain(game.seal, (), "", self._unchecked)
        if self._no_seals:
            rows, problem = self._action_rows(game.id)
            return _Chain(game.seal, tuple(rows), game.head, problem)
        known = self._chains.get(game.id)
        if known is not None and known.game_seal == game.seal and known.damage is None:
            rows, problem = self._action_rows(game.id, after=len(known.rows))
            chain = self._check_rows(self.seals, game, rows, known)
        else:
            rows, problem = self._action_rows(game.id)
            chain = self._check_rows(self.seals, game, rows)
        if problem and not chain.damage:
            chain = replace(chain, damage=f"rows after action {len(chain.rows)} cannot be read")
        self._chains[game.id] = chain
        return chain

    def _damage(self, game: GameRow, chain: _Chain) -> str | None:
        """What is wrong with the game: a bad row, lost last rows, or an ending changed by hand."""
        if chain.damage:
            return chain.damage
        if chain.last != game.head:
            return f"the actions after action {len(chain.rows)} are missing"
        if self.seals.keyed and game.ending != self.seals.ending(chain.last, chain.undone, game.finished, game.result):
            return ENDING_CHANGED
        return None

    def _record(self, row: GameRow) -> GameRecord | None:
        chain = self._chain(row)
        damage = self._damage(row, chain)
        try:
            options = json.loads(row.options)
        except (TypeError, ValueError):
            options, damage = {}, damage or SETUP_DAMAGED
        if not (type(row.id) is int and isinstance(row.game, str) and type(row.players) is int
                and isinstance(options, dict) and isinstance(row.mode, str) and type(row.seed) is int
                and isinstance(row.started, float)):
            return None
        vouched = damage is None
        result = row.result if vouched and isinstance(row.result, str) else None
        finished = row.finished if vouched and isinstance(row.finished, float) else None
        live = sum(1 for action in chain.rows if not action.undone)
        return GameRecord(row.id, row.game, row.players, options, row.mode, row.seed, row.started,
                          finished, result, live, damage)

    def games(self) -> list[GameRecord]:
        """Every game whose setup can be read (a damaged one says so in its ``damage``); games
        removed from a keyed journal are said in :attr:`problems`."""
        rows = self._game_rows()
        self._said(self._roster_problem(rows))
        records = []
        for row in rows:
            record = self._record(row)
            if record is None:
                self._said(f"game {row.id!r} cannot be shown: {SETUP_DAMAGED}")
            else:
                records.append(record)
        return records

    def game(self, game_id: int) -> GameRecord:
        """The game ``game_id`` (only its own rows are read and checked)."""
        row = self._game_row(game_id)
        record = self._record(row) if row is not None else None
        if record is None:
            raise InvalidInput(f"the journal {self.path} has no game {game_id}: "
                               f"'cardtable history --journal {self.path}' lists them")
        return record

    def latest_unfinished(self, game: str | None = None) -> GameRecord | None:
        """The newest game not finished (of ``game``, when given), whose setup checks out (only
        the unfinished games' rows are read: a finished game changed to look unfinished fails its
        ending)."""
        rows = self._game_rows("WHERE finished IS NULL" + (" AND game = ?" if game else ""), (game,) if game else ())
        for row in reversed(rows):
            record = self._record(row)
            if record is not None and record.finished is None and record.damage != SETUP_DAMAGED:
                return record
        return None

    def raw_actions(self, game_id: int | None) -> list[tuple[int, str]]:
        """The game's live actions that check out, as ``(seq, stored text)``."""
        row = self._game_row(game_id) if game_id is not None else None
        if row is None:
            return []
        return [(action.seq, action.action) for action in self._chain(row).rows if not action.undone]

    def replay(self, game_id: int) -> Replay:
        """Rebuild a game by applying its live actions in order; bad rows are skipped and listed,
        and nothing after a damaged row is used.

        :raises InvalidInput: for a game the journal does not have, or whose damaged setup no game
            can start from.
        """
        record = self.game(game_id)
        try:
            game = get_game(record.game)
            state = game.new_game(record.players, options=record.options, mode=record.mode, seed=record.seed)
        except InvalidInput as err:
            raise InvalidInput(f"game {game_id} of the journal {self.path} cannot be replayed: "
                               f"{record.damage or 'its setup'}: {err}") from None
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
        """Whether any row fails its check, a game was removed, or the file cannot be read to the end."""
        records = self.games()
        return bool(self.problems) or any(r.damage for r in records) or len(records) != len(self._game_rows())

    def good_rows(self) -> tuple[list[GameRow], list[ActionRow]]:
        """The game rows and action rows that check out (what a rebuilt journal holds): a game
        kept only in part loses its end and result, as its head and ending are sealed anew."""
        games, actions = [], []
        for row in self._game_rows():
            if self._record(row) is None:
                continue
            chain = self._chain(row)
            if chain.damage == SETUP_DAMAGED or self._unchecked:
                continue
            whole = self._damage(row, chain) is None
            games.append(replace(row, head=chain.last, finished=row.finished if whole else None,
                                 result=row.result if whole else None, ending=None))
            actions += chain.rows
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
    """Move the journal (and its WAL) to a new name, with a copy of its key so it can still be
    read; returns where the main file went."""
    aside = _aside(path)
    for suffix in ("", "-wal"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            os.replace(source, f"{aside}{suffix}")
    Path(f"{path}-shm").unlink(missing_ok=True)
    if key_path(path).is_file():
        shutil.copy2(key_path(path), key_path(aside))
    return aside


def _rebuild(path: Path, games: list[GameRow], actions: list[ActionRow]) -> None:
    """A new journal at ``path`` holding ``games`` and ``actions``, their heads, endings and list
    of games sealed anew."""
    journal = Journal(path)
    try:
        def work(db: sqlite3.Connection) -> None:
            db.executemany(f"INSERT INTO games ({GAME_COLUMNS}) VALUES ({', '.join('?' * len(fields(GameRow)))})",
                           [tuple(vars(game).values()) for game in games])
            db.executemany(f"INSERT INTO actions ({ACTION_COLUMNS}) VALUES ({', '.join('?' * len(fields(ActionRow)))})",
                           [tuple(vars(action).values()) for action in actions])
            for game in games:
                journal._seal_ending(db, journal.seals, game.id)
            journal._seal_roster(db, journal.seals)

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
    existed = path.exists()
    if existed and path.is_file() and path.stat().st_size == 0 and not Path(f"{path}-wal").exists():
        notices.append(f"The journal {path} was empty: no earlier game could be resumed")
    games: list[GameRow] = []
    actions: list[ActionRow] = []
    journal: Journal | None = None
    try:
        journal = Journal(path)
        notices += journal.notices
        if not journal.damaged():
            return _opened(journal, notices)
        games, actions = journal.good_rows()
        reason = "; ".join([f"game {r.id}: {r.damage}, kept up to action {r.actions}"
                            for r in journal.games() if r.damage] + journal.problems)
    except JournalError as err:
        reason = str(err)
        if not existed:                                 # made by this start (a full disk): nothing to keep
            _remove_new(path)
    aside = None
    try:
        if journal is not None:
            journal.close()
        aside = _set_aside(path) if path.is_file() and path.stat().st_size else None
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


def _remove_new(path: Path) -> None:
    """Remove what a start that failed made at ``path`` (the file, its WAL and key), so each
    start on a full disk does not leave another copy behind."""
    for made in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), key_path(path)):
        if made.is_file():
            made.unlink()


def _opened(journal: Journal, notices: list[str]) -> Opened:
    low = journal.low_space()
    return Opened(journal, notices + ([low] if low else []), journal.check_writable())
