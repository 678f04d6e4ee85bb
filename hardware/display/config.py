"""Choosing and opening a display from the configuration: one ``kind`` per display.

``parse_display`` checks a ``display`` table and fills in defaults (pure, no device libraries),
so ``cardtable config check`` can name every mistake on any machine; ``open_display`` creates the
backend from the checked :class:`DisplaySpec` (typed, frozen) without checking it again. Kinds: ``luma`` (SPI/I2C panels), ``hdmi`` (pygame),
``png`` (snapshots into a folder), ``terminal`` (rich).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from config_kit.reads import choice, flag, text, whole
from hardware.display.base import Display, DisplayGroup
from hardware.display.layout import MODES
from hardware.display.panel import DEFAULTS, DRIVERS, INTERFACES, PanelDisplay, open_luma_device
from hardware.errors import DisplayConfigError

KINDS = ("luma", "hdmi", "png", "terminal")
_KEYS = {
    "luma": {"driver", "interface", "port", "address", "device", "gpio_dc", "gpio_rst", "backlight",
             "bus_speed_hz", "width", "height", "rotate", "mode"},
    "hdmi": {"width", "height", "fullscreen"},
    "png": {"folder", "width", "height", "mode", "prefix"},
    "terminal": {"live"},
}


@dataclass(frozen=True)
class DisplaySpec:
    """A display table checked by :func:`parse_display`, every default of its ``kind`` filled in
    (the settings of other kinds stay None): opening it needs no second check."""

    kind: str
    # luma panels
    driver: str | None = None
    interface: str | None = None
    port: int | None = None
    address: int | None = None
    device: int | None = None
    gpio_dc: int | None = None
    gpio_rst: int | None = None          # None: not wired
    backlight: int | None = None         # None: wired to 3.3 V
    bus_speed_hz: int | None = None
    rotate: int | None = None
    # luma, hdmi (None: the screen's own size) and png
    width: int | None = None
    height: int | None = None
    mode: str | None = None
    # hdmi
    fullscreen: bool | None = None
    # png snapshots
    folder: str | Path | None = None
    prefix: str | None = None
    # terminal
    live: bool | None = None


def parse_display(config: Mapping[str, object], problems: list[str], *, prefix: str = "display") -> DisplaySpec | None:
    """Check one display table; each mistake is appended to ``problems`` as "display.key: what is
    wrong". Returns the table with every default filled in, or None when it has a mistake."""
    found: list[str] = []
    spec = _parse(config, found, prefix) if isinstance(config, Mapping) else None
    if not isinstance(config, Mapping):
        found.append(f"{prefix}: expected a [[display]] table")
    problems.extend(found)
    return None if found else spec


def _parse(config: Mapping[str, object], problems: list[str], prefix: str) -> DisplaySpec | None:
    kind = choice(config.get("kind"), f"{prefix}.kind", problems, KINDS)
    if kind is None:
        return None
    spec: dict = {"kind": kind}
    for key in sorted(set(config) - _KEYS[kind] - {"kind"}):
        problems.append(f"{prefix}.{key}: not a setting of a {kind} display; "
                        f"expected {', '.join(sorted(_KEYS[kind]))}")

    def number(key: str, default, low: int, high: int, *, optional: bool = False):
        value = config.get(key, default)
        if optional and (value is None or value is False):   # TOML has no null: false means "not wired"
            return None
        found = whole(value, f"{prefix}.{key}", problems, low, high)
        return default if found is None else found

    def switch(key: str, default: bool | None) -> bool | None:
        value = config.get(key, default)
        return value if value is None else flag(value, f"{prefix}.{key}", problems)

    if kind == "luma":
        driver = choice(config.get("driver"), f"{prefix}.driver", problems, DRIVERS)
        if driver is None:
            return None
        known = DRIVERS[driver]
        interface = choice(config.get("interface", known.interface if driver != "dummy" else "noop"),
                           f"{prefix}.interface", problems, INTERFACES)
        spi = interface == "spi"
        spec |= {
            "driver": driver, "interface": interface,
            "port": number("port", DEFAULTS["spi_port" if spi else "i2c_port"], 0, 22),
            "address": number("address", DEFAULTS["i2c_address"], 0x03, 0x77),
            "device": number("device", DEFAULTS["spi_device"], 0, 2),
            "gpio_dc": number("gpio_dc", DEFAULTS["gpio_dc"], 2, 27),
            "gpio_rst": number("gpio_rst", DEFAULTS["gpio_rst"], 2, 27, optional=True),
            "backlight": number("backlight", DEFAULTS["backlight"], 2, 27, optional=True),
            "bus_speed_hz": number("bus_speed_hz", DEFAULTS["bus_speed_hz"], 500_000, 125_000_000),
            "width": number("width", known.width, 64, 4096),
            "height": number("height", known.height, 32, 4096),
            "rotate": number("rotate", 0, 0, 3),
            "mode": config.get("mode", "1" if known.width < 160 else "RGB"),
        }
    elif kind == "hdmi":
        spec |= {"width": number("width", None, 64, 8192, optional=True),
                 "height": number("height", None, 32, 8192, optional=True),
                 "fullscreen": switch("fullscreen", True)}
    elif kind == "png":
        if not isinstance(config.get("folder"), str) or not config.get("folder"):
            problems.append(f"{prefix}.folder: expected the folder to write the PNG snapshots into")
        spec |= {"folder": config.get("folder"), "width": number("width", 1280, 64, 8192),
                 "height": number("height", 720, 32, 8192), "mode": config.get("mode", "RGB"),
                 "prefix": text(config.get("prefix", "frame"), f"{prefix}.prefix", problems) or "frame"}
    else:
        spec["live"] = switch("live", None)
    if "mode" in spec:
        choice(spec["mode"], f"{prefix}.mode", problems, MODES)
    return DisplaySpec(**spec)


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
    if spec.kind != "luma" or spec.interface == "noop":
        return {}
    name = f"the {spec.driver} display"
    if spec.interface == "i2c":
        return {2: f"{name} (I2C SDA)", 3: f"{name} (I2C SCL)"}
    pins = {10: f"{name} (SPI MOSI)", 11: f"{name} (SPI SCLK)", 9: f"{name} (SPI MISO)",
            8 if spec.device == 0 else 7: f"{name} (SPI CE{spec.device})", spec.gpio_dc: f"{name} (DC)"}
    for pin, what in ((spec.gpio_rst, "RST"), (spec.backlight, "backlight")):
        if pin is not None:
            pins[pin] = f"{name} ({what})"
    return pins


def open_display(config: Mapping[str, object] | DisplaySpec, *, serial_interface=None, gpio=None, console=None) -> Display:
    """Open the display a ``display`` table (or an already checked :class:`DisplaySpec`) describes.

    :param serial_interface: for ``luma``: an already made luma interface (tests: ``noop()``).
    :param gpio: for ``luma`` LCDs: the GPIO module for DC/RST/backlight (tests: a mock).
    :param console: for ``terminal``: the rich console to draw on.
    :raises DisplayConfigError: the table is wrong (every key with a problem is named).
    :raises DeviceUnavailable: the device or its library is missing.
    """
    spec = config if isinstance(config, DisplaySpec) else parse_display_config(config)
    if spec.kind == "luma":
        return PanelDisplay(open_luma_device(spec, serial_interface=serial_interface, gpio=gpio))
    if spec.kind == "hdmi":
        from hardware.display.hdmi import HdmiDisplay

        return HdmiDisplay(spec.width, spec.height, fullscreen=spec.fullscreen)
    if spec.kind == "png":
        from hardware.display.snapshots import SnapshotDisplay

        return SnapshotDisplay(spec.folder, spec.width, spec.height, spec.mode, prefix=spec.prefix)
    from hardware.display.terminal import TerminalDisplay

    return TerminalDisplay(console, live=spec.live)


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
