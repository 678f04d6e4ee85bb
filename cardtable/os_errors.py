"""An operating-system error said in words a person at the table understands, naming the file
and what to do, instead of ``[Errno 21] Is a directory: 'x'``."""

from __future__ import annotations

import errno
from pathlib import Path

_SENTENCES = {
    errno.EISDIR: "{name} is a folder, not a file",
    errno.ENOTDIR: "{name}: a part of this path is a file, not a folder",
    errno.EACCES: "{name}: this user may not use it (check its owner and permissions)",
    errno.EPERM: "{name}: this user may not use it (check its owner and permissions)",
    errno.EROFS: "{name} is on a read-only file system",
    errno.ENOSPC: "there is no space left on the disk holding {name}: free some space",
    errno.EEXIST: "{name} already exists",
    errno.ENAMETOOLONG: "{name}: the name is too long",
}


def in_words(err: OSError) -> str:
    """``err`` as a sentence; errors not about a file keep their own text without the number."""
    name = err.filename
    if name is None:
        return err.strerror or str(err)
    if err.errno == errno.ENOENT:
        folder = Path(name).parent
        if not folder.exists():
            return f"{name}: the folder {folder} does not exist"
        return f"{name} does not exist"
    sentence = _SENTENCES.get(err.errno)
    return sentence.format(name=name) if sentence else f"{name}: {err.strerror}"
