"""The pin configuration of the button/LED panel: button names, pin names, and their validation.

Pure: no gpiozero here, so ``cardtable config check`` can validate a Raspberry Pi configuration on
any machine. Pins are written as gpiozero accepts them (``17``, ``"GPIO17"``, ``"BCM17"``,
``"BOARD11"``, ``"J8:11"``) and are all reduced to a BCM GPIO number, so the same pin written two
ways is still caught as used twice. The header map is the same on every 40-pin Raspberry Pi (Pi 2
to Pi 5).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from config_kit.reads import flag, unknown_keys
from hardware.errors import PinConfigError

#: The buttons a table may have. The controller decides what each means in the current prompt.
KNOWN_BUTTONS: dict[str, str] = {
    "ok": "confirm the highlighted choice; continue after a score or a message",
    "left": "highlight the previous choice shown on the display; with no choice, an older score in the log",
    "right": "highlight the next choice shown on the display; with no choice, a newer score in the log",
    "undo": "take back the last accepted action",
    "log": "page back through the scoring log, one score at a time",
    "hint": "say which cards may be played now (the rule, never a hand); at a teaching table, advice too",
    "say": "with [speech] on: say the last sentence again, whose turn it is and the scores",
    "go": "cribbage: say go (no card can be played)",
    "pass": "pass (bidding, or declining an offer)",
    "stand": "All Fours: the eldest hand stands",
    "beg": "All Fours: the eldest hand begs",
    "give": "All Fours: the dealer gives one",
    "take": "take one more card",
    "switch": "switch (Le Quinze, It's 15)",
    "accept": "accept an offer",
    "bid": "make or raise a bid to the next step",
    "raise": "raise the stake",
}

#: Physical header pin → BCM GPIO number (40-pin header of every Pi since the B+).
HEADER_TO_GPIO: dict[int, int] = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
    21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
    36: 16, 37: 26, 38: 20, 40: 21,
}
GPIO_TO_HEADER: dict[int, int] = {gpio: header for header, gpio in HEADER_TO_GPIO.items()}
_POWER_PINS = {1: "3.3 V", 17: "3.3 V", 2: "5 V", 4: "5 V"} | {
    n: "ground" for n in (6, 9, 14, 20, 25, 30, 34, 39)}

#: GPIOs that the Pi itself or common add-ons use; a panel pin there is refused.
SYSTEM_PINS: dict[int, str] = {0: "the HAT ID EEPROM (ID_SD)", 1: "the HAT ID EEPROM (ID_SC)"}

_PIN_TEXT = re.compile(r"^(?:(GPIO|BCM)|(BOARD|J8:))?(\d+)$", re.IGNORECASE)


def gpio_number(spec: object, key: str) -> int:
    """Reduce a pin as gpiozero accepts it to its BCM GPIO number.

    :param spec: ``17``, ``"17"``, ``"GPIO17"``, ``"BCM17"``, ``"BOARD11"`` or ``"J8:11"``.
    :param key: the configuration key, named in the error.
    :raises PinConfigError: the text is not a pin, or names a power/ground or out-of-range pin.
    """
    if isinstance(spec, bool) or not isinstance(spec, (int, str)):
        raise PinConfigError(f"{key}: {spec!r} is not a pin; write a GPIO number like 17 or 'BOARD11'")
    match = _PIN_TEXT.match(str(spec).strip())
    if match is None:
        raise PinConfigError(f"{key}: {spec!r} is not a pin; write a GPIO number like 17 or 'BOARD11'")
    number = int(match.group(3))
    if match.group(2):
        if number in _POWER_PINS:
            raise PinConfigError(f"{key}: header pin {number} is a {_POWER_PINS[number]} pin, not a GPIO")
        if number not in HEADER_TO_GPIO:
            raise PinConfigError(f"{key}: the header has pins 1 to 40, not {number}")
        number = HEADER_TO_GPIO[number]
    elif number > 27:
        raise PinConfigError(f"{key}: GPIO{number} is not on the 40-pin header (GPIO0 to GPIO27)")
    if number in SYSTEM_PINS:
        raise PinConfigError(f"{key}: GPIO{number} is reserved for {SYSTEM_PINS[number]}")
    return number


@dataclass(frozen=True)
class PanelPins:
    """A checked panel configuration: every pin as a BCM GPIO number."""

    buttons: tuple[tuple[str, int], ...] = ()
    seat_leds: tuple[int, ...] = ()
    buzzer: int | None = None
    buzzer_tone_hz: float | None = None   # None: an active buzzer (on/off); a number: a passive piezo
    button_pull_up: bool = True
    led_active_high: bool = True
    debounce_s: float = 0.05


_KEYS = {"buttons", "seat_leds", "buzzer", "buzzer_tone_hz", "button_pull_up", "led_active_high",
         "debounce_ms"}


def parse_panel_config(config: Mapping[str, object], *, prefix: str = "gpio",
                       reserved: Mapping[int, str] | None = None) -> PanelPins:
    """:func:`parse_panel` for a panel table on its own.

    :raises PinConfigError: naming every key with a problem.
    """
    problems: list[str] = []
    pins = parse_panel(config, problems, prefix=prefix, reserved=reserved)
    if pins is None:
        raise PinConfigError("; ".join(problems))
    return pins


def parse_panel(config: Mapping[str, object], problems: list[str], *, prefix: str = "gpio",
                reserved: Mapping[int, str] | None = None) -> PanelPins | None:
    """Check the panel part of a table configuration and return its pins (None when it has a
    mistake). Every mistake is appended to ``problems``, so one run names them all.

    :param config: ``{"buttons": {"ok": 5, ...}, "seat_leds": [17, 27], "buzzer": 12, ...}``.
    :param prefix: the configuration key this dict sits under, used in messages (``gpio.buttons.ok``).
    :param reserved: GPIOs already used by something else (a display's bus), with what uses them.
    """
    before = len(problems)
    used: dict[int, str] = {}

    def claim(spec: object, key: str) -> int | None:
        try:
            gpio = gpio_number(spec, key)
        except PinConfigError as exc:
            problems.append(str(exc))
            return None
        if gpio in used:
            problems.append(f"{key}: GPIO{gpio} is already used by {used[gpio]}")
        elif reserved and gpio in reserved:
            problems.append(f"{key}: GPIO{gpio} is used by {reserved[gpio]}")
        used[gpio] = key
        return gpio

    unknown_keys(config, _KEYS, prefix, problems)

    buttons: list[tuple[str, int]] = []
    raw_buttons = config.get("buttons", {})
    if not isinstance(raw_buttons, Mapping):
        problems.append(f"{prefix}.buttons: expected a table of button name = pin")
        raw_buttons = {}
    for name, spec in raw_buttons.items():
        key = f"{prefix}.buttons.{name}"
        if name not in KNOWN_BUTTONS:
            problems.append(f"{key}: unknown button; known buttons are {', '.join(KNOWN_BUTTONS)}")
            continue
        gpio = claim(spec, key)
        if gpio is not None:
            buttons.append((name, gpio))

    leds: list[int] = []
    raw_leds = config.get("seat_leds", [])
    if not isinstance(raw_leds, (list, tuple)):
        problems.append(f"{prefix}.seat_leds: expected a list of pins, one per seat in seat order")
        raw_leds = []
    for index, spec in enumerate(raw_leds):
        gpio = claim(spec, f"{prefix}.seat_leds[{index}] (seat {index + 1})")
        if gpio is not None:
            leds.append(gpio)

    buzzer = claim(config["buzzer"], f"{prefix}.buzzer") if "buzzer" in config else None
    tone = config.get("buzzer_tone_hz")
    if tone is not None and (isinstance(tone, bool) or not isinstance(tone, (int, float))
                             or not 20 <= tone <= 20000):
        problems.append(f"{prefix}.buzzer_tone_hz: expected a frequency from 20 to 20000 Hz, got {tone!r}")
    debounce_ms = config.get("debounce_ms", 50)
    if isinstance(debounce_ms, bool) or not isinstance(debounce_ms, (int, float)) or not 0 <= debounce_ms <= 1000:
        problems.append(f"{prefix}.debounce_ms: expected milliseconds from 0 to 1000, got {debounce_ms!r}")
        debounce_ms = 50
    flags = {key: flag(config.get(key, True), f"{prefix}.{key}", problems) for key in ("button_pull_up", "led_active_high")}

    if len(problems) > before:
        return None
    return PanelPins(
        buttons=tuple(buttons), seat_leds=tuple(leds), buzzer=buzzer,
        buzzer_tone_hz=float(tone) if tone is not None else None,
        debounce_s=debounce_ms / 1000, **flags)
