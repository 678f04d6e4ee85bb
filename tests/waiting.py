"""Waiting in tests on a condition, with a timeout, never on the clock alone (STYLE.md 12: a test
that sleeps a fixed time is slow when the machine is idle and fails when it is busy)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], timeout: float = 5.0, *, every: float = 0.01,
               what: str = "the condition") -> T:
    """Call ``condition`` every ``every`` seconds until it returns something true, and return that.

    :raises AssertionError: naming ``what`` was awaited, once ``timeout`` seconds have passed.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(every)
