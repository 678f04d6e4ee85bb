"""Displays rendered from one :class:`~hardware.view.TableView`: the pure renderer (``render``),
and backends behind ``show(view)``/``close()``: luma panels, HDMI (pygame), PNG snapshots and the
terminal, chosen by ``open_display(config)`` from the kinds registered in
:mod:`hardware.display.kinds`."""

from hardware.display.base import Display, DisplayGroup
from hardware.display.config import open_display, open_displays, parse_display_config, reserved_pins
from hardware.display.layout import render, render_frame

__all__ = ["Display", "DisplayGroup", "open_display", "open_displays", "parse_display_config",
           "render", "render_frame", "reserved_pins"]
