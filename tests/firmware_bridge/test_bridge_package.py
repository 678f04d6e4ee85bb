"""Package-wide checks: the doctests in the modules hold, and the import rules of DESIGN.md."""

import ast
import doctest
import importlib
from pathlib import Path

import pytest

import firmware_bridge

PACKAGE = Path(firmware_bridge.__file__).parent
HOST_MODULES = sorted(path.stem for path in PACKAGE.glob("*.py") if path.stem != "__init__")


@pytest.mark.parametrize("name", HOST_MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(f"firmware_bridge.{name}"))
    assert result.failed == 0


def test_the_bridge_imports_only_engine_pyserial_and_itself():
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            for name in names:
                assert name.split(".")[0] not in ("vision", "hardware", "cardtable"), f"{path.name} imports {name}"
