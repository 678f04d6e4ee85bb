"""A display kind added the way docs/adding_a_display.md says (the proof of that page, registered
by tests/hardware/test_adding_a_display.py): ``kind = "scoreboard"``, a sign for a panel seen
across the room that shows nothing but each seat's name and score in large type, the seat whose
turn it is lit up.

It is wired like a ``luma`` panel (the same settings, so :class:`LumaSpec`'s reading serves it)
and only draws differently.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from hardware.display.base import ClosingDisplay
from hardware.display.fonts import font
from hardware.display.kinds import Injected
from hardware.display.panel import LumaSpec, open_luma_device
from hardware.view import TableView


@dataclass(frozen=True)
class ScoreboardSpec(LumaSpec):
    """``kind = "scoreboard"``: a luma panel's settings; the view drawn as a scoreboard."""

    kind = "scoreboard"

    def open(self, inject: Injected) -> ScoreboardDisplay:
        return ScoreboardDisplay(open_luma_device(self, serial_interface=inject.serial_interface, gpio=inject.gpio))


class ScoreboardDisplay(ClosingDisplay):
    """Each seat a column: its name above, its score below as large as the column allows."""

    name = "scoreboard"

    def __init__(self, device) -> None:
        self.device = device

    def show(self, view: TableView) -> None:
        """Draw ``view``'s seats and scores; :raises DeviceUnavailable: after :meth:`close`."""
        self._check_open()
        self.device.display(scoreboard(view, self.device.width, self.device.height, self.device.mode))

    def _release(self) -> None:
        self.device.cleanup()


def scoreboard(view: TableView, width: int, height: int, mode: str) -> Image.Image:
    """The scoreboard of ``view`` as an image of the panel's size and mode."""
    image = Image.new(mode, (width, height))
    draw = ImageDraw.Draw(image)
    lit, dark = ("white", "black") if mode != "1" else (1, 0)
    column = width // max(len(view.seats), 1)
    small, big = font(max(height // 6, 8)), font(max(height // 2, 10), bold=True)
    for i, seat in enumerate(view.seats):
        left = i * column
        ink = dark if seat.is_turn else lit
        if seat.is_turn:
            draw.rectangle((left, 0, left + column - 1, height - 1), fill=lit)
        draw.text((left + column // 2, height // 8), seat.name, font=small, fill=ink, anchor="mt")
        draw.text((left + column // 2, height * 5 // 8), str(seat.score), font=big, fill=ink, anchor="mm")
    return image
