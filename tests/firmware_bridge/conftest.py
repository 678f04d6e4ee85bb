"""Fixtures for the bridge tests: a registry of tagged cards, a twin on a real pty, a fast host,
and a check that every test leaves no thread or file descriptor behind."""

import os
import threading

import pytest

from engine.decks import get_deck
from firmware_bridge.link import Backoff
from firmware_bridge.registry import TagRegistry
from firmware_bridge.host import Ct1Host
from firmware_bridge.twin import Twin

from bridge_helpers import uid_of
from waiting import wait_until


@pytest.fixture
def registry():
    deck = get_deck("standard")
    return TagRegistry(deck, {uid_of(n): card.id for n, card in enumerate(deck.cards)})


@pytest.fixture
def twin():
    with Twin(readers=4, heartbeat=0.25, state_every=0.5, seed=7) as board:
        yield board


@pytest.fixture
def fast():
    """Link options for pty tests: a short dead-link timeout and quick reconnects."""
    return {"host": Ct1Host(dead_after=0.6, ping_after=0.2), "backoff": Backoff(0.05, 0.2)}


@pytest.fixture(autouse=True)
def no_leaks():
    def fds():
        return len(os.listdir("/proc/self/fd"))
    threads, before = threading.active_count(), fds()
    yield
    wait_until(lambda: threading.active_count() <= threads, 2, what="every thread the test started to end")
    wait_until(lambda: fds() <= before, 2, what="every file descriptor the test opened to be closed")
