"""The controller's outputs at a real or simulated table: displays, seat LEDs, the buzzer and the voice."""

from __future__ import annotations

from engine.game import Event
from hardware.view import TableView


class TableOutputs:
    """Sends each view to every display, turns and refusals to the panel (when there is one), and
    all of it to the speaker (:class:`cardtable.speech.speaker.Speaker`, when the table speaks)."""

    def __init__(self, displays=(), panel=None, speaker=None) -> None:
        self.displays = list(displays)
        self.panel = panel
        self.speaker = speaker
        self.last_view: TableView | None = None

    def show(self, view: TableView) -> None:
        if self.speaker is not None:                      # a refusal said again shows the same view
            self.speaker.show(view)
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
        if self.speaker is not None:
            self.speaker.refuse(seat)

    def happened(self, events: list[Event]) -> None:
        if self.speaker is not None:
            self.speaker.happened(events)

    def say_again(self) -> None:
        if self.speaker is not None:
            self.speaker.say_again()

    def close(self) -> None:
        for display in self.displays:
            display.close()
        if self.panel is not None:
            self.panel.close()
        if self.speaker is not None:
            self.speaker.close()
