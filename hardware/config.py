"""The hardware's two sections of the table config, as the config runs them: ``[[display]]`` (one
table per display, :func:`hardware.display.config.parse_display`; a PNG display's folder is taken
from the config file's folder and must be one this user can write) and ``[gpio]`` (the button and
LED panel, :func:`hardware.pins.parse_panel`, absent when the table has none; the pins a display's
bus takes are reserved, so a button on them is a mistake).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from config_kit.reads import file_path, shown, writable_folder
from config_kit.section import Context, Section
from hardware.display.config import DisplaySpec, parse_display, reserved_pins
from hardware.pins import PanelPins, parse_panel


def _key(i: int, count: int) -> str:
    return "display" if count == 1 else f"display[{i}]"


def parse_displays(value: object, problems: list[str], context: Context) -> tuple[DisplaySpec, ...]:
    """Every display table (one ``[display]`` or a list of ``[[display]]``)."""
    tables = [value] if isinstance(value, Mapping) else value
    if not isinstance(tables, list):
        problems.append(f"display: expected [display] or [[display]] tables, got {shown(value)}")
        return ()
    specs = []
    for i, table in enumerate(tables):
        prefix = _key(i, len(tables))
        spec = parse_display(table, problems, prefix=prefix)
        if spec is not None and spec.kind == "png":
            spec = replace(spec, folder=file_path(spec.folder, f"{prefix}.folder", problems, context.base_dir))
        if spec is not None and (spec.kind != "png" or spec.folder is not None):
            specs.append(spec)
    return tuple(specs)


def check_folders(specs: tuple[DisplaySpec, ...], problems: list[str], steps: list[str], context: Context) -> None:
    """Each PNG display's folder can be made and written by this user."""
    for i, spec in enumerate(specs):
        if spec.kind == "png":
            writable_folder(spec.folder, f"{_key(i, len(specs))}.folder", problems)


def parse_gpio(section: Mapping[str, object], problems: list[str], context: Context) -> PanelPins | None:
    """The panel's pins, avoiding those the displays (read before it) took."""
    reserved = {pin: why for spec in context.spec(DISPLAYS) or () for pin, why in reserved_pins(spec).items()}
    return parse_panel(section, problems, reserved=reserved)


DISPLAYS = Section("display", tuple, parse_displays, check=check_folders, repeated=True)
GPIO = Section("gpio", PanelPins, parse_gpio, optional=True)
