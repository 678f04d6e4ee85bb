"""The table's outputs at a real or simulated table: displays, seat LEDs, the buzzer and the voice.

A display that fails while showing (PNG snapshots on a disk that filled up) does not stop the
table: the failure is logged once and said on every view the displays show from then on, and
the other displays and the game go on.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from engine.game import Event
from hardware.view import TableView

log = logging.getLogger(__name__)


class TableOutputs:
    """Sends each view to every display, turns and refusals to the panel (when there is one), and
    all of it to the speaker (:class:`cardtable.speech.speaker.Speaker`, when the table speaks)."""

    def __init__(self, displays=(), panel=None, speaker=None) -> None:
        self.displays = list(displays)
        self.panel = panel
        self.speaker = speaker
        self.last_view: TableView | None = None
        #: what stopped on a display (each said once in the log, and on every view since)
        self.troubles: list[str] = []

    def show(self, view: TableView) -> None:
        if self.speaker is not None:                      # a refusal said again shows the same view
            self.speaker.show(view)
        if view == self.last_view:
            return
        self.last_view = view
        if self._show_everywhere(view):
            self._show_everywhere(view)                   # again, saying what stopped

    def _show_everywhere(self, view: TableView) -> bool:
        """Show ``view`` (with what stopped) on every display; whether a new trouble arose."""
        if self.troubles:
            view = replace(view, warning=". ".join(filter(None, [view.warning.rstrip(". "), *self.troubles])))
        new = False
        for display in self.displays:
            try:
                display.show(view)
            except OSError as err:                        # a full disk: that display stops, the table goes on
                said = str(err) if err.errno is None else f"the {getattr(display, 'name', 'display')} stopped: " \
                                                           f"{err.strerror or err}"
                if said not in self.troubles:
                    log.warning("%s", said)
                    self.troubles.append(said)
                    new = True
        return new

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
