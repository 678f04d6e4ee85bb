"""Helpers for the tests of hostile files and full disks: put a special file, bytes or a huge
sparse file where the table reads one, fail (rather than hang the suite) when reading it blocks,
fill a disk."""

import os
import threading


def finishes(work, seconds: float = 30):
    """``work()``'s result, failing when it has not returned after ``seconds`` (as on a FIFO)."""
    done = []
    thread = threading.Thread(target=lambda: done.append(work()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert done, f"still waiting after {seconds} s: a read blocks"
    return done[0]


def put_hostile(path, content) -> None:
    """Put ``content`` at ``path``: "fifo", "folder", "loop" (a symlink to itself), a /dev path
    (a symlink to it), "missing" (nothing), bytes, or an int (a sparse file of that many bytes)."""
    if content == "fifo":
        os.mkfifo(path)
    elif content == "folder":
        path.mkdir()
    elif content == "loop":
        path.symlink_to(path)
    elif isinstance(content, str) and content.startswith("/dev/"):
        path.symlink_to(content)
    elif isinstance(content, int):
        with open(path, "wb") as file:
            file.truncate(content)
    elif content != "missing":
        path.write_bytes(content)


def fill(folder) -> None:
    """Fill the filesystem holding ``folder`` to the last byte (a file ``filler`` in it)."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, bytes(4096)):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
