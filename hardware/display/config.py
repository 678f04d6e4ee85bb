"""Choosing and opening a display from the configuration: one ``kind`` per display.

``parse_display`` checks a ``display`` table and fills in defaults (pure, no device libraries),
so ``cardtable config check`` can name every mistake on any machine; ``open_display`` creates the
backend from the checked :class:`~hardware.display.kinds.DisplaySpec` without checking it again.
Kinds are looked up in :mod:`hardware.display.kinds`; the shipped ones, registered below, are
``luma`` (SPI/I2C panels), ``hdmi`` (pygame), ``png`` (snapshots into a folder), ``terminal`` (rich).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from config_kit.reads import choice
from hardware.display.base import Display, DisplayGroup
from hardware.display.hdmi import HdmiSpec
from hardware.display.kinds import DisplaySpec, DisplayTable, Injected, display_kinds, register_display_kind
from hardware.display.panel import LumaSpec
from hardware.display.snapshots import PngSpec
from hardware.display.terminal import TerminalSpec
from hardware.errors import DisplayConfigError

register_display_kind(LumaSpec)
register_display_kind(HdmiSpec)
register_display_kind(PngSpec)
register_display_kind(TerminalSpec)


def parse_display(config: Mapping[str, object], problems: list[str], *, prefix: str = "display") -> DisplaySpec | None:
    """Check one display table; each mistake is appended to ``problems`` as "display.key: what is
    wrong". Returns the table's spec with every default filled in, or None when it has a mistake."""
    found: list[str] = []
    spec = _parse(DisplayTable(config, found, prefix)) if isinstance(config, Mapping) else None
    if not isinstance(config, Mapping):
        found.append(f"{prefix}: expected a [[display]] table")
    problems.extend(found)
    return None if found else spec


def _parse(table: DisplayTable) -> DisplaySpec | None:
    kinds = display_kinds()
    kind = choice(table.get("kind"), f"{table.prefix}.kind", table.problems, kinds)
    if kind is None:
        return None
    keys = kinds[kind].keys()
    for key in sorted(set(table.table) - keys - {"kind"}):
        table.problem(key, f"not a setting of a {kind} display; expected {', '.join(sorted(keys))}")
    return kinds[kind].read(table)


def parse_display_config(config: Mapping[str, object], *, prefix: str = "display") -> DisplaySpec:
    """:func:`parse_display` for one display table on its own.

    :raises DisplayConfigError: naming every key with a problem.
    """
    problems: list[str] = []
    spec = parse_display(config, problems, prefix=prefix)
    if spec is None:
        raise DisplayConfigError("; ".join(problems))
    return spec


def reserved_pins(spec: DisplaySpec) -> dict[int, str]:
    """The GPIOs a checked display spec occupies, for :func:`hardware.pins.parse_panel_config`."""
    return spec.reserved_pins()


def open_display(config: Mapping[str, object] | DisplaySpec, *, serial_interface=None, gpio=None,
                 console=None) -> Display:
    """Open the display a ``display`` table (or an already checked spec) describes.

    :param serial_interface: for ``luma``: an already made luma interface (tests: ``noop()``).
    :param gpio: for ``luma`` LCDs: the GPIO module for DC/RST/backlight (tests: a mock).
    :param console: for ``terminal``: the rich console to draw on.
    :raises DisplayConfigError: the table is wrong (every key with a problem is named).
    :raises DeviceUnavailable: the device or its library is missing.
    """
    spec = config if isinstance(config, DisplaySpec) else parse_display_config(config)
    return spec.open(Injected(serial_interface, gpio, console))


def open_displays(configs: Sequence[Mapping[str, object] | DisplaySpec], **inject) -> DisplayGroup:
    """Open several displays that show the same views; on failure, close those already open.

    :raises DisplayConfigError: a table is wrong.
    :raises DeviceUnavailable: a device or its library is missing.
    """
    opened: list[Display] = []
    try:
        for config in configs:
            opened.append(open_display(config, **inject))
    except BaseException:
        for display in opened:
            display.close()
        raise
    return DisplayGroup(opened)
