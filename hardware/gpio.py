"""The table's button/LED panel over gpiozero: named buttons, one LED per seat, one buzzer.

:class:`TablePanel` turns button presses into :class:`~engine.table_events.ButtonPress` values
in a thread-safe queue (gpiozero calls back in the caller's thread under the mock pins and in a
background thread on a Pi, so nothing is done in the callback but debounce and enqueue). Debounce is done here, on the
injected clock, because the mock pins do not debounce. The seat LEDs show whose turn it is;
:meth:`TablePanel.refuse` beeps and blinks a seat's LED on a worker thread, never blocking the
caller, and then puts the LED back to what :meth:`TablePanel.show_turn` last asked for.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from engine.table_events import ButtonPress
from hardware.errors import NoGpioPins, PanelClosed, PinConfigError
from hardware.pins import PanelPins, parse_panel_config

log = logging.getLogger(__name__)

Clock = Callable[[], float]
_STOP = object()   # tells the refusal worker to end

NO_GPIO_PINS = (
    "there are no GPIO pins here: this is not a Raspberry Pi, or its pin library is missing (on a "
    "Pi: sudo apt install python3-lgpio). So the buttons, seat LEDs and buzzer of [gpio] cannot "
    "work here: leave [gpio] out of the configuration to run the table without them, or set "
    "GPIOZERO_PIN_FACTORY=mock to try it with simulated pins")


def default_pin_factory():
    """gpiozero's pin factory for this machine (``GPIOZERO_PIN_FACTORY``, else the first that
    loads), chosen once. gpiozero warns of every library it falls back from; those notes go to the
    debug log, and a machine with none is said once, in words.

    :raises NoGpioPins: no pin factory can be loaded here.
    """
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            Device.ensure_pin_factory()
        except (BadPinFactory, ImportError) as exc:
            tried = "; ".join(str(w.message) for w in caught)
            log.debug("no pin factory: %s (%s)", exc, tried)
            raise NoGpioPins(NO_GPIO_PINS) from exc
    for note in caught:
        log.debug("gpiozero: %s", note.message)
    return Device.pin_factory


class Debouncer:
    """Accepts a press only when its button had no edge (press or release) for ``quiet_s`` seconds.

    Looking at both edges drops the chatter of a contact closing and also the stray "press" a
    contact makes when it bounces on release. Thread-safe.
    """

    def __init__(self, quiet_s: float) -> None:
        self._quiet_s = quiet_s
        self._last_edge: dict[str, float] = {}
        self._lock = threading.Lock()

    def edge(self, name: str, pressed: bool, now: float) -> bool:
        """Record an edge of button ``name``; return True when it is a press to accept."""
        with self._lock:
            last = self._last_edge.get(name)
            self._last_edge[name] = now
        return pressed and (last is None or now - last >= self._quiet_s)


@dataclass(frozen=True)
class RefusalPattern:
    """How a refusal sounds and looks: ``blinks`` flashes of the seat LED and one beep."""

    blinks: int = 3
    on_s: float = 0.15
    off_s: float = 0.15
    beep_s: float = 0.4

    def steps(self) -> list[tuple[float, str, bool]]:
        """The pattern as ``(seconds from start, "led" | "buzzer", on)``, in time order."""
        steps = [(0.0, "buzzer", True), (self.beep_s, "buzzer", False)]
        for n in range(self.blinks):
            start = n * (self.on_s + self.off_s)
            steps += [(start, "led", True), (start + self.on_s, "led", False)]
        return sorted(steps, key=lambda step: step[0])


class TablePanel:
    """Buttons, seat LEDs and buzzer of one table, with pins from the configuration.

    :param config: the ``gpio`` table of the configuration (see ``docs/hardware.md``) or
        :class:`PanelPins` already checked by :func:`hardware.pins.parse_panel_config`.
    :param pin_factory: a gpiozero pin factory; ``None`` uses gpiozero's default
        (``GPIOZERO_PIN_FACTORY``), tests pass a ``MockFactory``.
    :param clock: monotonic seconds, used for debounce and for the time of each press.
    :param events: the queue presses go to; pass the controller's queue to merge inputs.
    :param refusal: the blink/beep pattern of :meth:`refuse`.
    :raises PinConfigError: a pin is misconfigured, named by its key.
    :raises NoGpioPins: this machine has no GPIO pins (said once, with what it means).
    """

    def __init__(self, config: Mapping[str, object] | PanelPins, *, pin_factory=None,
                 clock: Clock = time.monotonic, events: queue.Queue | None = None,
                 refusal: RefusalPattern = RefusalPattern()) -> None:
        self.pins = config if isinstance(config, PanelPins) else parse_panel_config(config)
        pin_factory = pin_factory or default_pin_factory()
        self.events: queue.Queue = events if events is not None else queue.Queue()
        self._clock = clock
        self._refusal = refusal
        self._debouncer = Debouncer(self.pins.debounce_s)
        self._lock = threading.RLock()
        self._closed = False
        self._turn: int | None = None
        self._borrowed: set[int] = set()   # LEDs the refusal worker is blinking
        self._devices: list = []
        self._jobs: queue.Queue = queue.Queue()
        self._pending = 0
        self._idle = threading.Condition(self._lock)
        self._stop = threading.Event()
        try:
            self._buttons = {name: self._open_button(name, gpio, pin_factory) for name, gpio in self.pins.buttons}
            self._leds = [self._open(f"seat_leds[{i}]", "LED", gpio, pin_factory,
                                     active_high=self.pins.led_active_high, initial_value=False)
                          for i, gpio in enumerate(self.pins.seat_leds)]
            self._buzzer = self._open_buzzer(pin_factory) if self.pins.buzzer is not None else None
        except BaseException:
            self._close_devices()
            raise
        self._worker = threading.Thread(target=self._run_refusals, name="panel-refusals", daemon=True)
        self._worker.start()

    # -- opening ----------------------------------------------------------------------------------

    def _open(self, key: str, kind: str, gpio: int, pin_factory, **kwargs):
        import gpiozero
        from gpiozero.exc import GPIOZeroError

        try:
            device = getattr(gpiozero, kind)(gpio, pin_factory=pin_factory, **kwargs)
        except GPIOZeroError as exc:
            raise PinConfigError(f"gpio.{key}: GPIO{gpio} cannot be used as a {kind}: {exc}") from exc
        self._devices.append(device)
        return device

    def _open_button(self, name: str, gpio: int, pin_factory):
        button = self._open(f"buttons.{name}", "Button", gpio, pin_factory,
                            pull_up=self.pins.button_pull_up, bounce_time=None)
        button.when_pressed = lambda: self._edge(name, True)
        button.when_released = lambda: self._edge(name, False)
        return button

    def _open_buzzer(self, pin_factory):
        hz = self.pins.buzzer_tone_hz
        if hz is None:
            return self._open("buzzer", "Buzzer", self.pins.buzzer, pin_factory, initial_value=False)
        from gpiozero.tones import Tone

        return self._open("buzzer", "TonalBuzzer", self.pins.buzzer, pin_factory,
                          mid_tone=Tone.from_frequency(hz))

    # -- buttons ----------------------------------------------------------------------------------

    @property
    def button_names(self) -> tuple[str, ...]:
        """The logical names of the buttons this table has."""
        return tuple(self._buttons)

    def _edge(self, name: str, pressed: bool) -> None:
        now = self._clock()
        if self._debouncer.edge(name, pressed, now) and not self._closed:
            self.events.put(ButtonPress(name, now))

    def get_press(self, timeout: float | None = None) -> ButtonPress | None:
        """The next press, waiting up to ``timeout`` seconds (``None``: forever); ``None`` if none came."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def presses(self) -> list[ButtonPress]:
        """Every press waiting in the queue, oldest first, without waiting."""
        out = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    # -- LEDs and buzzer --------------------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat whose LED :meth:`show_turn` last lit."""
        return self._turn

    def show_turn(self, seat: int | None) -> None:
        """Light ``seat``'s LED (0-based) and put out the others; ``None`` puts all out.

        A seat with no LED wired just leaves every LED out.

        :raises PanelClosed: after :meth:`close`.
        """
        _check_seat(seat)
        with self._lock:
            self._check_open()
            self._turn = seat
            for index, led in enumerate(self._leds):
                if index not in self._borrowed:
                    led.value = index == seat

    def refuse(self, seat: int | None) -> None:
        """Beep and blink ``seat``'s LED (``None``: beep only); returns at once.

        :raises PanelClosed: after :meth:`close`.
        """
        _check_seat(seat)
        with self._lock:
            self._check_open()
            self._pending += 1
        self._jobs.put(seat)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every requested refusal has played; False if ``timeout`` seconds passed first."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def _run_refusals(self) -> None:
        while (seat := self._jobs.get()) is not _STOP:
            self._play(seat)
            with self._idle:
                self._pending -= 1
                self._idle.notify_all()

    def _play(self, seat: int | None) -> None:
        led = self._leds[seat] if seat is not None and seat < len(self._leds) else None
        with self._lock:
            if led is not None:
                self._borrowed.add(seat)
        started = 0.0
        for at, part, on in self._refusal.steps():
            if at > started and self._stop.wait(at - started):
                break
            started = at
            with self._lock:
                if part == "led" and led is not None:
                    led.value = on
                elif part == "buzzer" and self._buzzer is not None:
                    self._set_buzzer(on)
        with self._lock:
            if self._buzzer is not None and self._buzzer.value:
                self._set_buzzer(False)
            if led is not None:
                self._borrowed.discard(seat)
                if not self._closed:
                    led.value = seat == self._turn

    def _set_buzzer(self, on: bool) -> None:
        if self.pins.buzzer_tone_hz is None:
            self._buzzer.value = on
        elif on:
            self._buzzer.play(self.pins.buzzer_tone_hz)
        else:
            self._buzzer.stop()

    # -- lifecycle --------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise PanelClosed("the button/LED panel is closed")

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._closed

    def close(self) -> None:
        """Stop the refusal worker, put every LED and the buzzer off, free the pins. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._stop.set()
        self._jobs.put(_STOP)
        self._worker.join(timeout=2)
        self._close_devices()

    def _close_devices(self) -> None:
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()

    def __enter__(self) -> TablePanel:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"buttons={list(self.button_names)}, leds={len(self._leds)}"
        return f"<TablePanel {state}>"


def _check_seat(seat: int | None) -> None:
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or seat < 0):
        raise ValueError(f"seat must be a seat number from 0, or None; got {seat!r}")
