"""Helpers shared by the bridge tests: tag UIDs for deck cards, collecting bridge events."""

import time

from waiting import patience


def uid_of(index: int) -> str:
    return f"04{index:06X}"


def collect(bridge, until, timeout=2.0):
    """Events from a Bridge until ``until(events)`` holds or ``patience(timeout)`` seconds pass."""
    events, deadline = [], time.monotonic() + patience(timeout)
    while time.monotonic() < deadline and not until(events):
        item = bridge.get(timeout=0.05)
        if item is not None:
            events.append(item)
    return events
