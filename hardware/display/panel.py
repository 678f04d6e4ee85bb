"""SPI/I2C panels through luma: SSD1306/SH1106 OLEDs on I2C, ST7789/ILI9341 LCDs on SPI, ``dummy``.

The luma driver is imported and created only when a display is opened, by the name in the
configuration, so this module imports on any machine. The panel's own size and mode (``"1"`` for
the OLEDs, ``"RGB"`` for the LCDs) choose the layout.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from hardware.display.base import ClosingDisplay
from hardware.display.layout import render
from hardware.errors import DeviceUnavailable, DisplayConfigError
from hardware.view import TableView


@dataclass(frozen=True)
class Driver:
    """Where a luma driver lives and how it is usually wired."""

    module: str
    cls: str
    interface: str
    width: int
    height: int


DRIVERS: dict[str, Driver] = {
    "ssd1306": Driver("luma.oled.device", "ssd1306", "i2c", 128, 64),
    "sh1106": Driver("luma.oled.device", "sh1106", "i2c", 128, 64),
    "st7789": Driver("luma.lcd.device", "st7789", "spi", 240, 240),
    "ili9341": Driver("luma.lcd.device", "ili9341", "spi", 320, 240),
    "dummy": Driver("luma.core.device", "dummy", "none", 128, 64),
}
INTERFACES = ("i2c", "spi", "noop")

#: Defaults that the docs' wiring table uses. luma's SPI interface drives DC and RST itself.
DEFAULTS = {"i2c_port": 1, "i2c_address": 0x3C, "spi_port": 0, "spi_device": 0, "gpio_dc": 24,
            "gpio_rst": 25, "backlight": 18, "bus_speed_hz": 32_000_000}


def open_luma_device(spec, *, serial_interface=None, gpio=None):
    """Create the luma device a checked display spec describes.

    :param serial_interface: an already made luma interface (tests pass ``noop()``).
    :param gpio: a GPIO module for the LCD backlight and DC/RST pins (tests pass a mock).
    :raises DeviceUnavailable: the driver library or the bus is missing.
    """
    name = spec.driver
    driver = DRIVERS[name]
    try:
        module = importlib.import_module(driver.module)
    except ImportError as exc:
        raise DeviceUnavailable(f"display.driver {name!r} needs {driver.module.rsplit('.', 1)[0]}: "
                                f"pip install {driver.module.rsplit('.', 1)[0]} ({exc})") from exc
    cls = getattr(module, driver.cls)
    size = {"width": spec.width, "height": spec.height, "rotate": spec.rotate}
    if name == "dummy":
        return cls(mode=spec.mode, **size)
    interface = serial_interface or _interface(spec, gpio)
    extra = {}
    if driver.interface == "spi":          # the LCDs: backlight on a GPIO, or wired to 3.3 V
        if spec.backlight is None:
            extra["backlight"] = lambda on: None
        else:
            extra.update(gpio_LIGHT=spec.backlight, **({"gpio": gpio} if gpio else {}))
    try:
        return cls(serial_interface=interface, **size, **extra)
    except Exception as exc:             # luma raises plain errors from RPi.GPIO and the bus
        raise DeviceUnavailable(f"display {name}: cannot start the panel: {exc}") from exc


def _interface(spec, gpio):
    from luma.core.interface import serial

    kind = spec.interface
    try:
        if kind == "noop":
            return serial.noop()
        if kind == "i2c":
            return serial.i2c(port=spec.port, address=spec.address)
        return serial.spi(port=spec.port, device=spec.device, gpio_DC=spec.gpio_dc,
                          gpio_RST=spec.gpio_rst, bus_speed_hz=spec.bus_speed_hz,
                          **({"gpio": gpio} if gpio else {}))
    except Exception as exc:
        where = (f"I2C bus {spec.port} at address {spec.address:#04x}" if kind == "i2c"
                 else f"SPI {spec.port}.{spec.device}")
        raise DeviceUnavailable(
            f"display {spec.driver}: {where} cannot be opened ({exc}); enable {kind.upper()} with "
            "raspi-config and check the wiring") from exc


class PanelDisplay(ClosingDisplay):
    """A luma device showing table views, rendered at the device's size and mode.

    :raises DisplayConfigError: the device has a mode the renderer cannot draw.
    """

    name = "panel display"

    def __init__(self, device) -> None:
        if device.mode not in ("1", "L", "RGB", "RGBA"):
            raise DisplayConfigError(f"display: luma device mode {device.mode!r} is not supported")
        self.device = device

    def show(self, view: TableView) -> None:
        """Render ``view`` for this panel and send it.

        :raises DeviceUnavailable: after :meth:`close`.
        """
        self._check_open()
        self.device.display(render(view, self.device.width, self.device.height, self.device.mode))

    def _release(self) -> None:
        self.device.cleanup()
