"""Waiting in tests on a condition, with a timeout, never on the clock alone (STYLE.md 12: a test
that sleeps a fixed time is slow when the machine is idle and fails when it is busy).

Every time limit of the tests goes through :func:`patience`, which stretches it by
``CARDTABLE_TEST_SLOWDOWN`` (a factor, 1 by default) on a machine known to be slower than the ones
the limits were set on: a Raspberry Pi Zero, or a Pi's userland under qemu-user-static, where
everything runs 10 to 30 times slower (``deploy/fresh_root.sh --arch arm64`` sets it). The limits
only catch a test that hangs; stretching them changes no result a test checks.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def _slowdown(text: str) -> float:
    """The factor ``CARDTABLE_TEST_SLOWDOWN`` names: a number at least 1."""
    try:
        factor = float(text)
    except ValueError:
        factor = 0.0
    if not factor >= 1:
        raise ValueError(f"CARDTABLE_TEST_SLOWDOWN={text!r}: give a number, 1 or more (how many times "
                         f"slower this machine is than a desktop one), or leave it unset")
    return factor


SLOWDOWN = _slowdown(os.environ.get("CARDTABLE_TEST_SLOWDOWN", "1"))


def patience(seconds: float) -> float:
    """``seconds``, a time limit set on a desktop machine, stretched to this machine."""
    return seconds * SLOWDOWN


def wait_until(condition: Callable[[], T], timeout: float = 5.0, *, every: float = 0.01,
               what: str = "the condition") -> T:
    """Call ``condition`` every ``every`` seconds until it returns something true, and return that.

    :raises AssertionError: naming ``what`` was awaited, once ``patience(timeout)`` seconds have passed.
    """
    timeout = patience(timeout)
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(every)
