"""Simulated devices for the demo and the benchmarks: the same code paths as a real table.

:class:`SimReaders` is a microcontroller twin on a pseudo-terminal with one reader per zone and
the real bridge reading it; :class:`SimButtons` presses gpiozero mock pins of a real
:class:`hardware.gpio.TablePanel`. Each move blocks until the inputs it causes have come through,
and returns them, so a simulation never runs ahead of the devices.
"""

from __future__ import annotations

import queue
import time

from engine.decks import PhysicalCard, get_deck
from engine.table_events import ButtonPress, Notice, TableEvent, TableInput
from firmware_bridge.bridge import Bridge
from firmware_bridge.registry import TagRegistry
from firmware_bridge.twin import Twin
from hardware.gpio import TablePanel

DEMO_BUTTONS = {"ok": 5, "left": 6, "right": 13, "undo": 19, "go": 26, "pass": 16, "stand": 20,
                "beg": 21, "give": 7, "take": 8, "switch": 25, "accept": 24, "bid": 9, "raise": 10}
DEMO_LEDS = (17, 27, 22, 23, 4)
DEMO_BUZZER = 12


def demo_registry(deck_name: str) -> TagRegistry:
    """A registry giving every card of the deck a made-up 7-byte tag UID."""
    deck = get_deck(deck_name)
    registry = TagRegistry(deck)
    for n, card in enumerate(deck.cards):
        registry.enrol(f"04{n:06X}C0FFEE", card.id)
    return registry


class SimReaders:
    """One simulated reader per zone. Cards are swiped: laid on the reader, read, taken off. The
    bridge hands what the table hears (its events and sentences) as it does at a real table
    (``on_input``); the sentences are also kept in :attr:`notices`."""

    def __init__(self, deck_name: str, zones: list[str], *, timeout: float = 2.0) -> None:
        self.zones = list(zones)
        self.registry = demo_registry(deck_name)
        self.timeout = timeout
        self.twin = Twin(readers=len(zones), heartbeat=0.5).start()
        self._inputs: queue.Queue = queue.Queue()
        self.bridge = Bridge(self.twin.port, self.registry, zones=self.zones, on_input=self._inputs.put).start()
        self.notices: list[str] = []
        self._wait(lambda e: False, timeout=0.3)          # let the link come up

    def _wait(self, done, timeout: float) -> list[TableInput]:
        got, deadline = [], time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                item = self._inputs.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            got.append(item)
            if isinstance(item, Notice):
                self.notices.append(item.text)
            elif done(item):
                break
        return got

    def place(self, card: PhysicalCard, zone: str) -> list[TableInput]:
        reader = self.zones.index(zone)
        self.twin.place(reader, self.registry.uid_for(card.id))
        events = self._wait(lambda e: e.card.id == card.id and e.kind == "placed", self.timeout)
        self.twin.remove(reader)
        return events + self._wait(lambda e: e.card.id == card.id and e.kind == "removed", self.timeout)

    def take(self, card: PhysicalCard) -> list[TableEvent]:
        return []                                         # swiped cards are off the readers already

    def gather(self, cards) -> list[TableEvent]:
        return []

    def close(self) -> None:
        self.bridge.close()
        self.twin.close()


class SimButtons:
    """A real :class:`TablePanel` on gpiozero mock pins; :meth:`press` drives a button's pin."""

    def __init__(self, seats: int) -> None:
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        self.factory = MockFactory(pin_class=MockPWMPin)
        self._now = 0.0
        config = {"buttons": DEMO_BUTTONS, "seat_leds": list(DEMO_LEDS[:seats]), "buzzer": DEMO_BUZZER}
        self.panel = TablePanel(config, pin_factory=self.factory, clock=lambda: self._now)

    def press(self, name: str) -> list[ButtonPress]:
        if name not in DEMO_BUTTONS:
            return []
        pin = self.factory.pin(DEMO_BUTTONS[name])
        self._now += 0.2                                  # people press buttons, not chatter
        pin.drive_low()
        self._now += 0.1
        pin.drive_high()
        return self.panel.presses()

    def lit(self) -> list[bool]:
        return [bool(self.factory.pin(p).state) for p in DEMO_LEDS[: len(self.panel.pins.seat_leds)]]

    def close(self) -> None:
        self.panel.close()
