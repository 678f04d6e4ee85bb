"""Display backends: luma panels (dummy and real drivers on a no-op bus), PNG, terminal, HDMI, config."""

from __future__ import annotations

import io
from dataclasses import replace
from unittest import mock

import pytest
from PIL import Image
from rich.console import Console

from hardware.display import open_display, open_displays, parse_display_config, reserved_pins
from hardware.display.layout import render_frame
from hardware.display.samples import VIEWS
from hardware.display.terminal import TerminalDisplay
from hardware.errors import DeviceUnavailable, DisplayConfigError
from hardware.pins import parse_panel_config

VIEW = VIEWS["cribbage_count"]
PANELS = [(128, 64, "1"), (240, 240, "RGB"), (320, 240, "RGB")]


@pytest.mark.parametrize("width, height, mode", PANELS)
def test_luma_dummy_panels_show_the_view(width, height, mode):
    with open_display({"kind": "luma", "driver": "dummy", "width": width, "height": height,
                       "mode": mode}) as display:
        display.show(VIEW)
        image = display.device.image
    assert image.size == (width, height) and image.mode == mode
    assert image.convert("L").getbbox() is not None                 # something was drawn
    with pytest.raises(DeviceUnavailable, match="closed"):
        display.show(VIEW)


@pytest.mark.parametrize("driver, size, mode", [("ssd1306", (128, 64), "1"), ("sh1106", (128, 64), "1"),
                                                ("st7789", (240, 240), "RGB"), ("ili9341", (320, 240), "RGB")])
def test_real_drivers_run_on_a_noop_bus(driver, size, mode):
    config = {"kind": "luma", "driver": driver, "interface": "noop"}
    display = open_display(config, gpio=mock.Mock())
    assert (display.device.width, display.device.height, display.device.mode) == (*size, mode)
    display.show(VIEW)
    display.close()
    display.close()


def test_lcd_with_its_backlight_wired_to_3v3_needs_no_gpio():
    config = {"kind": "luma", "driver": "st7789", "interface": "noop", "backlight": False}
    assert 18 not in reserved_pins(parse_display_config(config))
    display = open_display(config)
    display.show(VIEW)
    display.close()


def test_missing_bus_is_named():
    with pytest.raises(DeviceUnavailable, match=r"I2C bus 7 at address 0x3c cannot be opened.*raspi-config"):
        open_display({"kind": "luma", "driver": "ssd1306", "port": 7})


def test_png_snapshots_are_numbered_and_skip_repeats(tmp_path):
    with open_display({"kind": "png", "folder": str(tmp_path / "shots"), "width": 320, "height": 240}) as png:
        png.show(VIEW)
        png.show(VIEW)
        png.show(replace(VIEW, prompt="Ann: play a card"))
        named = png.save(VIEW, "final")
    assert [p.name for p in png.written] == ["frame_00001.png", "frame_00002.png", "final.png"]
    with Image.open(named) as image:
        assert image.size == (320, 240)


def test_terminal_view_text_has_scores_prompt_and_cards():
    console = Console(record=True, width=80, file=io.StringIO())
    with open_display({"kind": "terminal"}, console=console) as terminal:
        terminal.show(VIEW)
        terminal.show(VIEW)                         # unchanged: not printed again
        terminal.show(replace(VIEW, warning="Bob cannot play 5S: it is Cy's turn", selected=None))
    text = console.export_text()
    assert text.count("Cy: play a card or say go") == 2
    assert all(f"{seat.name}" in text and str(seat.score) in text for seat in VIEW.seats)
    assert "Count 23" in text and "7♥" in text and "5♥" in text and "(dealer)" in text
    assert "Bob cannot play 5S" in text and "+4 Bob: fifteen two, and a pair is four" in text
    assert "+2 Ann: fifteen two" in text                 # older log entries stay on the panel


def test_the_terminal_panel_keeps_its_width_from_move_to_move():
    """It used to size itself to its content and so changed width on every move."""
    console = Console(record=True, width=120, file=io.StringIO())
    with open_display({"kind": "terminal"}, console=console) as terminal:
        for view in VIEWS.values():
            terminal.show(view)
            terminal.show(replace(view, prompt="Go", choices=(), score_log=(), warning=""))
    borders = [line for line in console.export_text().splitlines() if line.startswith(("╭", "╰"))]
    assert len(borders) == 4 * len(VIEWS)
    assert {len(line) for line in borders} == {76}


def test_the_terminal_shows_the_log_entry_paged_to():
    console = Console(record=True, width=80, file=io.StringIO())
    with open_display({"kind": "terminal"}, console=console) as terminal:
        terminal.show(replace(VIEW, log_page=0))
    text = console.export_text()
    assert "1/3 +2 Ann: fifteen two" in text and "+1 Di: one for the go" not in text


def test_terminal_live_updates_in_place():
    console = Console(record=True, width=80, file=io.StringIO(), force_terminal=True)
    terminal = TerminalDisplay(console)
    terminal.show(VIEW)
    terminal.show(replace(VIEW, prompt="Di: play a card"))
    terminal.close()
    assert "Di: play a card" in console.export_text()


@pytest.mark.slow
def test_hdmi_through_pygame_on_the_dummy_video_driver(monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    with open_display({"kind": "hdmi", "width": 1280, "height": 720, "fullscreen": False}) as hdmi:
        hdmi.show(VIEW)
        pixels = hdmi._pygame.surfarray.array3d(hdmi.screen)
    assert pixels.shape == (1280, 720, 3) and pixels.std() > 10


def test_hdmi_without_pygame_says_what_to_install(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "pygame", None)
    with pytest.raises(DeviceUnavailable, match=r"pip install 'cardtable\[hdmi\]'"):
        open_display({"kind": "hdmi"})


def test_a_group_shows_on_every_display_and_closes_all(tmp_path):
    console = Console(record=True, width=80, file=io.StringIO())
    group = open_displays([{"kind": "terminal"}, {"kind": "png", "folder": str(tmp_path)}], console=console)
    group.show(VIEW)
    group.close()
    assert "Game to 121" in console.export_text() and len(list(tmp_path.glob("*.png"))) == 1
    assert all(display._closed for display in group.displays)


def test_config_defaults_and_every_mistake_named():
    spec = parse_display_config({"kind": "luma", "driver": "st7789"})
    assert (spec.interface, spec.width, spec.height, spec.mode, spec.gpio_dc) == ("spi", 240, 240, "RGB", 24)
    assert parse_display_config({"kind": "luma", "driver": "sh1106"}).mode == "1"
    with pytest.raises(DisplayConfigError, match="display.kind: expected one of luma, hdmi, png, terminal"):
        parse_display_config({"kind": "lcd"})
    with pytest.raises(DisplayConfigError, match="display.driver"):
        parse_display_config({"kind": "luma", "driver": "ssd1351"})
    with pytest.raises(DisplayConfigError) as err:
        parse_display_config({"kind": "luma", "driver": "ssd1306", "interface": "usb", "width": "wide",
                              "rotate": 5, "mode": "P", "colour": 1})
    for key in ("display.colour", "display.interface", "display.width", "display.rotate", "display.mode"):
        assert key in str(err.value)
    with pytest.raises(DisplayConfigError, match="display.folder"):
        parse_display_config({"kind": "png"})


def test_display_pins_are_reserved_for_the_panel_check():
    spi = reserved_pins(parse_display_config({"kind": "luma", "driver": "ili9341"}))
    assert {8, 9, 10, 11, 24, 25, 18} == set(spi)
    assert set(reserved_pins(parse_display_config({"kind": "luma", "driver": "ssd1306"}))) == {2, 3}
    with pytest.raises(Exception, match=r"gpio.buzzer: GPIO18 is used by the ili9341 display \(backlight\)"):
        parse_panel_config({"buzzer": 18}, reserved=spi)


@pytest.mark.parametrize("width, height, mode", PANELS)
def test_a_four_player_final_at_three_digit_scores_tells_every_seat_apart_on_luma_panels(width, height, mode, tmp_path):
    final = VIEWS["cribbage_final"]
    with open_display({"kind": "luma", "driver": "dummy", "width": width, "height": height,
                       "mode": mode}) as display:
        display.show(final)
        image = display.device.image
    image.save(tmp_path / f"final_{width}x{height}.png")
    expected, frame = render_frame(final, width, height, mode)
    assert image.tobytes() == expected.tobytes()
    names = [d.text for d in frame.texts if d.role == "name"]
    assert names == (["S1", "S2", "S3", "S4"] if width < 240 else ["Seat 1", "Seat 2", "Seat 3", "Seat 4"])
