"""The examples in the advice modules' docstrings hold."""

import doctest
import importlib
import pkgutil

import pytest

import engine.advice


@pytest.mark.parametrize("name", sorted(m.name for m in pkgutil.iter_modules(engine.advice.__path__)))
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(f"engine.advice.{name}"))
    assert result.failed == 0
