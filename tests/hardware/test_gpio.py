"""The button/LED panel through gpiozero's mock pins: presses, debounce, turn LEDs, refusals."""

from __future__ import annotations

import os
import queue

import pytest
from gpiozero import Button

from engine.table_events import ButtonPress
from hardware.errors import NoGpioPins, PanelClosed, PinConfigError
from hardware.gpio import Debouncer, RefusalPattern, TablePanel
from waiting import patience

CONFIG = {"buttons": {"ok": 5, "left": 6, "right": 13, "undo": 19, "go": 26},
          "seat_leds": [17, 27, 22, 23], "buzzer": 4, "debounce_ms": 50}
INSTANT = RefusalPattern(blinks=2, on_s=0, off_s=0, beep_s=0)


def states(factory, gpio):
    return [s.state for s in factory.pin(gpio).states]


@pytest.fixture
def panel(mock_factory, clock):
    with TablePanel(CONFIG, pin_factory=mock_factory, clock=clock, refusal=INSTANT) as panel:
        yield panel


def press(factory, gpio, clock, hold=0.1):
    factory.pin(gpio).drive_low()
    clock.advance(hold)
    factory.pin(gpio).drive_high()
    clock.advance(0.2)


def test_presses_become_named_events_in_order(panel, mock_factory, clock):
    assert panel.button_names == ("ok", "left", "right", "undo", "go")
    start = clock.now
    press(mock_factory, 13, clock)
    press(mock_factory, 5, clock)
    assert panel.presses() == [ButtonPress("right", start), ButtonPress("ok", start + 0.3)]
    assert panel.get_press(timeout=0) is None


@pytest.mark.slow
def test_contact_bounce_on_press_and_release_gives_one_press(panel, mock_factory, clock):
    pin = mock_factory.pin(19)
    for level in ("low", "high", "low", "high", "low"):       # closing chatter, 2 ms apart
        getattr(pin, f"drive_{level}")()
        clock.advance(0.002)
    clock.advance(0.3)
    for level in ("high", "low", "high"):                      # opening chatter
        getattr(pin, f"drive_{level}")()
        clock.advance(0.002)
    assert [p.name for p in panel.presses()] == ["undo"]


@pytest.mark.slow
def test_a_quick_deliberate_double_press_counts_twice(panel, mock_factory, clock):
    press(mock_factory, 5, clock, hold=0.08)
    press(mock_factory, 5, clock, hold=0.08)
    assert [p.name for p in panel.presses()] == ["ok", "ok"]


def test_debouncer_alone():
    d = Debouncer(0.05)
    assert d.edge("ok", True, 0.0)
    assert not d.edge("ok", False, 0.01)
    assert not d.edge("ok", True, 0.02)
    assert d.edge("go", True, 0.02)            # buttons are independent
    assert not d.edge("ok", False, 1.0)        # releases are never presses
    assert d.edge("ok", True, 1.06)


@pytest.mark.slow
def test_presses_go_to_an_injected_queue(mock_factory, clock):
    shared = queue.Queue()
    with TablePanel(CONFIG, pin_factory=mock_factory, clock=clock, events=shared):
        mock_factory.pin(26).drive_low()
    assert shared.get_nowait() == ButtonPress("go", clock.now)


@pytest.mark.slow
def test_show_turn_lights_one_seat(panel, mock_factory):
    panel.show_turn(1)
    panel.show_turn(3)
    panel.show_turn(None)
    assert states(mock_factory, 27) == [False, True, False]
    assert states(mock_factory, 23) == [False, True, False]
    assert states(mock_factory, 17) == [False]
    panel.show_turn(7)                          # a seat without an LED: all out
    assert not any(mock_factory.pin(g).state for g in (17, 27, 22, 23))


@pytest.mark.slow
def test_refuse_beeps_blinks_and_restores_the_turn_led(panel, mock_factory):
    panel.show_turn(0)
    panel.refuse(2)
    panel.refuse(0)
    assert panel.wait_idle(timeout=patience(2))
    # the mock records changes only; PWM-capable mock pins record 1.0/0.0, equal to True/False
    assert states(mock_factory, 22) == [False, True, False, True, False]
    assert states(mock_factory, 17) == [False, True, False, True, False, True]
    assert states(mock_factory, 4) == [False, True, False, True, False]


@pytest.mark.slow
def test_refuse_does_not_block_and_show_turn_leaves_the_blinking_led_alone(mock_factory, clock):
    slow = RefusalPattern(blinks=1, on_s=0.2, off_s=0.0, beep_s=0.2)
    with TablePanel(CONFIG, pin_factory=mock_factory, clock=clock, refusal=slow) as panel:
        panel.refuse(1)
        panel.show_turn(1)                      # arrives while seat 2's LED blinks
        assert panel.wait_idle(timeout=patience(2))
        assert mock_factory.pin(27).state == 1   # restored to the turn state afterwards
        assert states(mock_factory, 27) == [False, True, False, True]


@pytest.mark.slow
def test_refuse_without_a_seat_only_beeps(panel, mock_factory):
    panel.refuse(None)
    assert panel.wait_idle(timeout=patience(2))
    assert states(mock_factory, 4) == [False, True, False]
    assert all(states(mock_factory, g) == [False] for g in (17, 27, 22, 23))


@pytest.mark.slow
def test_passive_buzzer_plays_its_tone(mock_factory, clock):
    config = dict(CONFIG, buzzer=12, buzzer_tone_hz=880)
    with TablePanel(config, pin_factory=mock_factory, clock=clock,
                    refusal=RefusalPattern(blinks=0, beep_s=0.05)) as panel:
        panel.refuse(None)
        assert panel.wait_idle(timeout=patience(2))
        assert mock_factory.pin(12).frequency is None
    tones = [s.state for s in mock_factory.pin(12).states]
    assert 0.5 in tones                          # the tone played at 50 % duty


@pytest.mark.slow
def test_close_is_idempotent_and_frees_the_pins(mock_factory, clock):
    panel = TablePanel(CONFIG, pin_factory=mock_factory, clock=clock)
    panel.show_turn(2)
    panel.close()
    panel.close()
    assert panel.closed and "closed" in repr(panel)
    assert mock_factory.pin(22).state == 0
    with pytest.raises(PanelClosed):
        panel.show_turn(0)
    with pytest.raises(PanelClosed):
        panel.refuse(0)
    Button(5, pin_factory=mock_factory).close()   # the pin is free again


@pytest.mark.slow
def test_a_pin_held_elsewhere_is_named_and_nothing_is_left_reserved(mock_factory, clock):
    other = Button(22, pin_factory=mock_factory)
    with pytest.raises(PinConfigError, match=r"gpio.seat_leds\[2\]: GPIO22 cannot be used as a LED"):
        TablePanel(CONFIG, pin_factory=mock_factory, clock=clock)
    other.close()
    with TablePanel(CONFIG, pin_factory=mock_factory, clock=clock):   # all pins were released
        pass


@pytest.mark.slow
def test_bad_seat_numbers_are_refused(panel):
    for seat in (-1, "1", True):
        with pytest.raises(ValueError, match="seat must be"):
            panel.show_turn(seat)


def test_off_a_pi_the_missing_pins_are_said_once_without_gpiozeros_fallback_warnings(monkeypatch, recwarn):
    """gpiozero warned once per pin library it fell back from (eight lines) before failing."""
    from gpiozero import Device

    if os.path.exists("/proc/device-tree/model"):
        pytest.skip("this machine may have GPIO pins")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    with pytest.raises(NoGpioPins) as caught:
        TablePanel({"buttons": {"ok": 5}, "seat_leds": [17]})
    assert str(caught.value).startswith("there are no GPIO pins here: this is not a Raspberry Pi")
    assert "GPIOZERO_PIN_FACTORY=mock" in str(caught.value)
    assert not [w for w in recwarn.list if "Fall" in type(w.message).__name__], [str(w.message) for w in recwarn.list]
