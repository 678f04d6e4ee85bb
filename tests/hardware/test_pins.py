"""The pin configuration checker: pin names, duplicates, reserved pins, every mistake named."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from hardware.errors import PinConfigError
from hardware.pins import GPIO_TO_HEADER, HEADER_TO_GPIO, PanelPins, gpio_number, parse_panel_config


def test_all_spellings_of_a_pin_reduce_to_the_same_gpio():
    assert {gpio_number(s, "k") for s in (17, "17", "GPIO17", "bcm17", "BOARD11", "J8:11")} == {17}


@pytest.mark.parametrize("spec, words", [
    ("BOARD6", "header pin 6 is a ground pin"), ("BOARD1", "3.3 V"), (28, "not on the 40-pin header"),
    ("BOARD41", "pins 1 to 40"), ("pin17", "is not a pin"), (True, "is not a pin"), (1.5, "is not a pin"),
    (0, "HAT ID EEPROM"),
])
def test_bad_pins_are_refused_with_the_key(spec, words):
    with pytest.raises(PinConfigError, match="gpio.buzzer") as err:
        gpio_number(spec, "gpio.buzzer")
    assert words in str(err.value)


@given(st.sampled_from(sorted(HEADER_TO_GPIO)))
def test_header_map_round_trips(header):
    gpio = HEADER_TO_GPIO[header]
    assert GPIO_TO_HEADER[gpio] == header
    if gpio > 1:
        assert gpio_number(f"BOARD{header}", "k") == gpio_number(gpio, "k") == gpio


@given(st.one_of(st.integers(), st.text(max_size=8)))
def test_any_input_is_a_pin_or_a_pin_config_error(spec):
    try:
        gpio = gpio_number(spec, "k")
    except PinConfigError as err:
        assert str(err).startswith("k: ")
    else:
        assert 2 <= gpio <= 27


def test_a_full_config_parses():
    pins = parse_panel_config({"buttons": {"ok": 5, "left": "GPIO6", "undo": "BOARD35"},
                               "seat_leds": [17, 27], "buzzer": 12, "buzzer_tone_hz": 2000,
                               "debounce_ms": 30, "led_active_high": False})
    assert pins == PanelPins(buttons=(("ok", 5), ("left", 6), ("undo", 19)), seat_leds=(17, 27),
                             buzzer=12, buzzer_tone_hz=2000.0, debounce_s=0.03, led_active_high=False)


def test_the_same_pin_twice_names_both_keys():
    with pytest.raises(PinConfigError) as err:
        parse_panel_config({"buttons": {"ok": 5}, "seat_leds": [17, "BOARD29"]})
    assert str(err.value) == "gpio.seat_leds[1] (seat 2): GPIO5 is already used by gpio.buttons.ok"


def test_every_mistake_is_reported_at_once():
    with pytest.raises(PinConfigError) as err:
        parse_panel_config({"buttons": {"okay": 5, "go": "x"}, "buzzer": 12, "buzzer_tone_hz": -1,
                            "debounce_ms": "fast", "colour": "red"},
                           reserved={12: "the LCD backlight"})
    message = str(err.value)
    for part in ("gpio.colour: unknown key", "gpio.buttons.okay: unknown button",
                 "gpio.buttons.go: 'x' is not a pin", "gpio.buzzer: GPIO12 is used by the LCD backlight",
                 "gpio.buzzer_tone_hz", "gpio.debounce_ms"):
        assert part in message


def test_wrong_shapes_are_named():
    with pytest.raises(PinConfigError, match="gpio.buttons: expected a table.*gpio.seat_leds: expected a list"):
        parse_panel_config({"buttons": [5], "seat_leds": 17})
