"""Signed club messages: a table signs what it publishes with its own key (HMAC-SHA256 over the
topic and the message), and the club server, which holds a copy of each table's key, tells a
message from that table from one anyone else on the broker wrote.

A signed payload is ``{"signed": "<the message's JSON text>", "hmac": "<hex>"}``; an unsigned one
is the message's JSON itself. The topic is part of what is signed, so a signed record cannot be
moved to another table's or another game's topic. A key is 32 random bytes, kept as 64 hex digits
in a file readable by its owner only (``cardtable club key TABLE`` makes one).

What it does not do: it does not hide anything (the broker's readers see every message), it does
not stop a table's own key from being used by whoever copies its file, and it does not stop an old
signed message of the same topic from being sent again (the club keeps the newest by its time).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

from engine import outside_files
from engine.errors import InvalidInput

KEY_BYTES = 32

SIGNED = "signed"               # signed with the key the club holds for the table
UNSIGNED = "unsigned"
BAD = "bad signature"           # signed, but not with the key the club holds for the table
UNKNOWN = "no key"              # signed, but the club holds no key for the table


def new_key_file(path: str | Path) -> Path:
    """Writes a new random key to ``path`` (readable by its owner only).

    :raises InvalidInput: when ``path`` exists already (a table's key is not replaced by accident)
        or cannot be written.
    """
    path = Path(path).expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise InvalidInput(f"{path} exists already; remove it first to make a new key (the club must be given "
                           "the new one too)") from None
    except OSError as err:
        raise InvalidInput(f"cannot write the key to {path}: {err.strerror}") from None
    with os.fdopen(fd, "w") as file:
        file.write(secrets.token_bytes(KEY_BYTES).hex() + "\n")
    return path


def read_key(path: str | Path) -> bytes:
    """The key in the file at ``path``.

    :raises InvalidInput: naming what is wrong (missing, not a regular file, not a key).
    """
    path = Path(path).expanduser()
    try:
        return outside_files.read_key(path, "club key", KEY_BYTES, hint="make one with 'cardtable club key TABLE'")
    except OSError as err:
        raise InvalidInput(f"cannot read the club key {path}: {err.strerror}") from None


def read_keys(folder: str | Path) -> dict[str, bytes]:
    """The keys of a folder of ``<TABLE>.key`` files, by table.

    :raises InvalidInput: for a folder that cannot be read or a file in it that is not a key.
    """
    folder = Path(folder).expanduser()
    try:
        files = sorted(folder.glob("*.key"))
    except OSError as err:
        raise InvalidInput(f"cannot read the club's keys in {folder}: {err.strerror}") from None
    if not folder.is_dir():
        raise InvalidInput(f"{folder} is not a folder of table keys (make them with 'cardtable club key TABLE')")
    return {file.stem: read_key(file) for file in files}


def _mac(key: bytes, topic: str, body: str) -> str:
    return hmac.new(key, topic.encode() + b"\n" + body.encode(), hashlib.sha256).hexdigest()


def seal(key: bytes | None, topic: str, body: str) -> str:
    """The payload to publish on ``topic``: ``body`` signed with ``key`` (without a key, as it is)."""
    if key is None:
        return body
    return json.dumps({"signed": body, "hmac": _mac(key, topic, body)}, separators=(",", ":"))


def unseal(data, topic: str, key: bytes | None) -> tuple[object, str]:
    """A parsed payload's message and how far it can be trusted (:data:`SIGNED`, :data:`UNSIGNED`,
    :data:`BAD`, :data:`UNKNOWN`). A badly signed message is given back too, to be shown as such."""
    if not (isinstance(data, dict) and set(data) == {"signed", "hmac"} and isinstance(data["signed"], str)
            and isinstance(data["hmac"], str)):
        return data, UNSIGNED
    try:
        inner = json.loads(data["signed"])
    except (ValueError, RecursionError):
        return None, BAD
    if key is None:
        return inner, UNKNOWN
    good = hmac.compare_digest(data["hmac"].encode(), _mac(key, topic, data["signed"]).encode())
    return inner, SIGNED if good else BAD
