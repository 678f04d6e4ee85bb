"""PNG snapshots: each shown view written as a numbered PNG in a folder, or under a given name.

Used by the demo (a record of the game as the table showed it) and for reviewing layouts.
A view equal to the last one shown is not written again. When a PNG cannot be written (the disk
is full, the folder went away) the snapshots stop: the half-written file is removed, the failure
is raised once as :class:`DeviceUnavailable` with a sentence for the table, and every later view
is left unwritten, so only the snapshots stop and nothing else does.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass
from pathlib import Path

from hardware.display.base import ClosingDisplay
from hardware.display.kinds import DisplaySpec, DisplayTable, Injected
from hardware.display.layout import render
from hardware.errors import DeviceUnavailable
from hardware.view import TableView


@dataclass(frozen=True)
class PngSpec(DisplaySpec):
    """``kind = "png"``: numbered PNG snapshots written into ``folder``."""

    kind = "png"
    folder: str | Path
    width: int
    height: int
    mode: str
    prefix: str

    @classmethod
    def read(cls, table: DisplayTable) -> PngSpec:
        if not isinstance(table.get("folder"), str) or not table.get("folder"):
            table.problem("folder", "expected the folder to write the PNG snapshots into")
        return cls(folder=table.get("folder"), width=table.number("width", 1280, 64, 8192),
                   height=table.number("height", 720, 32, 8192), mode=table.mode("RGB"),
                   prefix=table.text("prefix", "frame"))

    def open(self, inject: Injected) -> SnapshotDisplay:
        return SnapshotDisplay(self.folder, self.width, self.height, self.mode, prefix=self.prefix)


class SnapshotDisplay(ClosingDisplay):
    """Writes ``<prefix>_00001.png``, ``<prefix>_00002.png``, ... into ``folder``.

    :raises DeviceUnavailable: the folder cannot be created.
    """

    name = "snapshot display"

    def __init__(self, folder: str | Path, width: int = 1280, height: int = 720, mode: str = "RGB",
                 *, prefix: str = "frame") -> None:
        self.folder = Path(folder)
        self.size = (width, height)
        self.mode = mode
        self.prefix = prefix
        self.written: list[Path] = []
        #: why the snapshots stopped (a full disk), or None while they are written
        self.stopped: str | None = None
        self._last: TableView | None = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DeviceUnavailable(f"display.folder: cannot create {self.folder}: {exc.strerror}") from exc

    def show(self, view: TableView) -> None:
        """Write ``view`` as the next numbered PNG, unless it equals the last one shown or the
        snapshots have stopped.

        :raises DeviceUnavailable: after :meth:`close`, and once when a PNG cannot be written.
        """
        self._check_open()
        if view != self._last and self.stopped is None:
            self.save(view, f"{self.prefix}_{len(self.written) + 1:05d}")
            self._last = view

    def save(self, view: TableView, name: str) -> Path:
        """Write ``view`` as ``<name>.png`` in the folder and return its path.

        :raises DeviceUnavailable: after :meth:`close`, or when it cannot be written (then the
            snapshots stop).
        """
        self._check_open()
        path = self.folder / f"{name}.png"
        try:
            render(view, *self.size, self.mode).save(path)
        except OSError as err:
            path.unlink(missing_ok=True)
            why = (f"the disk holding {self.folder} is full" if err.errno == errno.ENOSPC
                   else f"{self.folder}: {err.strerror or err}")
            self.stopped = f"PNG snapshots stopped: {why}"
            raise DeviceUnavailable(self.stopped) from err
        self.written.append(path)
        return path
