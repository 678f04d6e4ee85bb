"""Errors of the hardware package: bad pin or display configuration, and a device that cannot open."""

from __future__ import annotations

from engine.errors import CardtableError, InvalidInput


class PinConfigError(InvalidInput):
    """The buttons/LEDs/buzzer part of the configuration is wrong; the message names the key."""


class DisplayConfigError(InvalidInput):
    """The display part of the configuration is wrong; the message names the key."""


class DeviceUnavailable(CardtableError, OSError):
    """A device cannot be opened here: a missing library, bus or screen. Says what to install or wire."""


class PanelClosed(CardtableError, RuntimeError):
    """The button/LED panel was used after :meth:`TablePanel.close`."""


class NoGpioPins(DeviceUnavailable):
    """This machine has no GPIO pins gpiozero can drive (not a Raspberry Pi, or no pin library)."""
