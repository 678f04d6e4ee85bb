"""The one small interface every display backend has: ``show(view)`` and ``close()``."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from hardware.errors import DeviceUnavailable
from hardware.view import TableView


@runtime_checkable
class Display(Protocol):
    """Something that shows a :class:`TableView`: a panel, a screen, a folder, a terminal."""

    def show(self, view: TableView) -> None:
        """Show ``view``, replacing what was shown."""

    def close(self) -> None:
        """Release the device; idempotent."""


class ClosingDisplay:
    """A base with the lifecycle every backend shares: idempotent close, context manager."""

    name = "display"
    _closed = False

    def _check_open(self) -> None:
        if self._closed:
            raise DeviceUnavailable(f"the {self.name} is closed")

    def close(self) -> None:
        """Release the device; calling it again does nothing."""
        if not self._closed:
            self._closed = True
            self._release()

    def _release(self) -> None:
        """Free what the backend holds (override)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class DisplayGroup(ClosingDisplay):
    """Several displays shown together (e.g. the terminal and PNG snapshots in the demo)."""

    name = "display group"

    def __init__(self, displays: list[Display]) -> None:
        self.displays = list(displays)

    def show(self, view: TableView) -> None:
        """Show ``view`` on every display.

        :raises DeviceUnavailable: after :meth:`close`.
        """
        self._check_open()
        for display in self.displays:
            display.show(view)

    def _release(self) -> None:
        for display in self.displays:
            display.close()
