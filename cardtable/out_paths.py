"""Why a file or folder the user named cannot be written, said in words instead of ``[Errno ...]``.

>>> import errno
>>> str(cannot_write("/nope/deck.pdf", OSError(errno.ENOENT, "No such file or directory")))
'cannot write deck.pdf: the folder /nope does not exist'
"""

from __future__ import annotations

import errno
from pathlib import Path

from engine.errors import CardtableError


class CannotWrite(CardtableError, OSError):
    """A file or folder named on the command line cannot be written; the message says why."""


def cannot_write(path: str | Path, err: OSError, *, folder: bool = False) -> CannotWrite:
    """The error to raise when writing ``path`` (a file, or with ``folder`` a folder) failed with ``err``."""
    path = Path(path)
    parent = path if folder and path.is_dir() else path.parent
    where = "the current folder" if str(parent) == "." else str(parent)
    what = f"the folder {path}" if folder else path.name
    reasons = {
        errno.ENOENT: f"the folder {parent} does not exist",
        errno.EACCES: f"you may not write in {where}",
        errno.EPERM: f"you may not write in {where}",
        errno.EROFS: f"{where} is on a read-only disk",
        errno.ENOSPC: "the disk is full",
        errno.EISDIR: f"{path} is a folder; give a file name",
        errno.ENOTDIR: f"a part of {path if folder else parent} is a file, not a folder",
        errno.EEXIST: f"{path} is a file, not a folder",
    }
    reason = reasons.get(err.errno, (err.strerror or str(err)).lower())
    return CannotWrite(f"cannot write {what}: {reason}")
