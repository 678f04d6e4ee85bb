"""What every test shares: pytest-timeout's limits and hypothesis's deadline for one example stretched
by ``CARDTABLE_TEST_SLOWDOWN`` (``tests/waiting.py``), so that the suite runs unchanged on a slow machine."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, settings
from pytest_timeout import get_env_settings

from waiting import SLOWDOWN

#: hypothesis's own default deadline (200 ms an example), stretched, and on a slow machine no
#: complaint that data is slow to make; tests that set theirs keep it
settings.register_profile("this-machine", deadline=timedelta(milliseconds=200 * SLOWDOWN),
                          suppress_health_check=[HealthCheck.too_slow] if SLOWDOWN > 1 else [])
settings.load_profile("this-machine")


def pytest_collection_modifyitems(config, items) -> None:
    """Each test's limit (its own ``timeout`` mark, or the configured one) times the slowdown."""
    if SLOWDOWN == 1:
        return
    default = get_env_settings(config).timeout
    for item in items:
        marker = item.get_closest_marker("timeout")
        limit = marker.args[0] if marker is not None and marker.args else default
        if limit:
            item.add_marker(pytest.mark.timeout(limit * SLOWDOWN), append=False)
