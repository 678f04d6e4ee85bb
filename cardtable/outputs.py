"""The controller's outputs at a real or simulated table: displays, seat LEDs and the buzzer."""

from __future__ import annotations

from hardware.view import TableView


class TableOutputs:
    """Sends each view to every display, and turns and refusals to the panel (when there is one)."""

    def __init__(self, displays=(), panel=None) -> None:
        self.displays = list(displays)
        self.panel = panel
        self.last_view: TableView | None = None

    def show(self, view: TableView) -> None:
        if view == self.last_view:
            return
        self.last_view = view
        for display in self.displays:
            display.show(view)

    def turn(self, seat: int | None) -> None:
        if self.panel is not None:
            self.panel.show_turn(seat)

    def refuse(self, seat: int | None) -> None:
        if self.panel is not None:
            self.panel.refuse(seat)

    def close(self) -> None:
        for display in self.displays:
            display.close()
        if self.panel is not None:
            self.panel.close()
