"""The journal's seals and the table's secret key that makes them.

A seal is an HMAC-SHA256 of what a row holds, keyed with a secret the table keeps in a file beside
the journal (``journal.sqlite.key``: 32 random bytes as hex, made with mode 0600 on first use, so
only the user the table runs as can read it). Without the key no one can make a seal that checks
out, so a guest who can edit the journal file cannot re-seal what they changed. Someone who can
read the key (the table's user, root) can: the seal proves the rows are the table's, not that the
machine was never in other hands.

What is sealed (:class:`Seals`): each game's setup; each action chained to the one before it
(``game``, ``seq``, action text, time); an undo mark; the game's *ending* (its last action's seal,
how many actions are undone, when it finished and its result), so a result, an end or an undo
changed by hand is found; and the *roster*, every game's number in order, so a game deleted (or
the games table dropped) is found too.

The older journal format sealed with a plain SHA-256 chain anyone can recompute, and no ending or
roster; :class:`Seals` with no key computes those (to read such a journal once, while it is
upgraded).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from engine import outside_files

#: what the journal's meta table says of a keyed journal
FORMAT = "cardtable-journal-2"
_KEY_BYTES = 32


@dataclass(frozen=True)
class GameRow:
    """A ``games`` row as stored (any types: a damaged file may hold anything)."""

    id: object
    game: object
    players: object
    options: object
    mode: object
    seed: object
    started: object
    finished: object = None
    result: object = None
    seal: object = None
    head: object = None
    ending: object = None

    def setup(self) -> tuple:
        """What the game's seal covers: the game as it was started."""
        return (self.id, self.game, self.players, self.options, self.mode, self.seed, self.started)


@dataclass(frozen=True)
class ActionRow:
    """An ``actions`` row as stored."""

    game_id: object
    seq: object
    action: object
    at: object
    undone: object = 0
    seal: object = None
    undo_seal: object = None


def key_path(journal: Path) -> Path:
    """Where the key of ``journal`` is kept: beside it, ``<journal>.key``."""
    return Path(f"{journal}.key")


def read_key(path: Path) -> bytes | None:
    """The key in ``path``, or None when there is none.

    :raises OSError: when it exists but cannot be read (another user's), or is not a key.
    """
    try:
        return outside_files.read_key(path, "journal key", _KEY_BYTES,
                                      hint="move it away; the table makes a new one, and says the journal was upgraded")
    except FileNotFoundError:
        return None
    except outside_files.UnreadableFile as err:
        raise OSError(str(err)) from None


def make_key(path: Path) -> bytes:
    """A new key written to ``path`` (mode 0600, never over an existing file); if another process
    made it first, that one.

    :raises OSError: when it cannot be written.
    """
    key = secrets.token_bytes(_KEY_BYTES)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return read_key(path) or key
    try:
        os.write(fd, key.hex().encode() + b"\n")
        os.fsync(fd)
    except OSError:
        os.close(fd)
        path.unlink(missing_ok=True)
        raise
    os.close(fd)
    return key


class Seals:
    """The seals of one journal: keyed (HMAC-SHA256), or with ``key=None`` the older format's
    plain SHA-256 chain, which has no ending and no roster."""

    def __init__(self, key: bytes | None) -> None:
        self.key = key

    @property
    def keyed(self) -> bool:
        return self.key is not None

    def _mac(self, *parts) -> str:
        text = json.dumps(parts, ensure_ascii=True).encode()
        if self.key is None:
            return hashlib.sha256(text).hexdigest()
        return hmac.new(self.key, text, hashlib.sha256).hexdigest()

    def game(self, row: GameRow) -> str:
        return self._mac("game", *row.setup())

    def action(self, previous: str, row: ActionRow) -> str:
        return self._mac(previous, row.game_id, row.seq, row.action, row.at)

    def undo(self, seal: str) -> str:
        return self._mac(seal, "undone")

    def ending(self, head: str, undone: int, finished: object, result: object) -> str | None:
        """The seal of how the game stands: its last action, its undos, its end and result."""
        return self._mac("ending", head, undone, finished, result) if self.keyed else None

    def roster(self, ids: list) -> str | None:
        """The seal of the journal's list of games."""
        return self._mac("roster", *ids) if self.keyed else None
