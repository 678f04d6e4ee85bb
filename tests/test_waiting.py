"""The tests' time limits stretch by ``CARDTABLE_TEST_SLOWDOWN`` on a slow machine (``tests/waiting.py``)."""

import os
import subprocess
import sys

import pytest

from datetime import timedelta

from hypothesis import settings

from waiting import SLOWDOWN, _slowdown, patience


@pytest.mark.parametrize("text", ["", "fast", "0.5", "-2", "nan"])
def test_a_slowdown_that_is_not_a_number_of_times_slower_is_refused_with_what_to_give(text):
    with pytest.raises(ValueError, match="give a number, 1 or more"):
        _slowdown(text)


def test_every_limit_of_this_run_is_stretched_by_the_slowdown(request):
    limit = request.node.get_closest_marker("timeout")
    assert patience(2) == 2 * SLOWDOWN
    assert settings.default.deadline == timedelta(milliseconds=200 * SLOWDOWN)
    assert (limit is None) if SLOWDOWN == 1 else (limit.args[0] == float(request.config.getini("timeout")) * SLOWDOWN)


@pytest.mark.slow
def test_a_run_on_a_slow_machine_stretches_pytest_timeouts_waits_and_hypothesis_deadlines():
    test = f"{__file__}::test_every_limit_of_this_run_is_stretched_by_the_slowdown"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
                         env={**os.environ, "CARDTABLE_TEST_SLOWDOWN": "3"}, capture_output=True, text=True,
                         timeout=patience(120))
    assert run.returncode == 0, run.stdout + run.stderr
