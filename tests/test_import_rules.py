"""DESIGN.md's import rules, checked on the source: the engine is pure, the device packages
never import each other or the application, and only ``cardtable`` wires them together."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = {"engine", "vision", "firmware_bridge", "hardware", "cardtable"}
ALLOWED = {
    "engine": set(),
    "vision": {"engine"},
    "firmware_bridge": {"engine"},
    "hardware": {"engine"},
    "cardtable": PROJECT,
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_packages_import_only_what_design_allows(package):
    for path in (ROOT / package).rglob("*.py"):
        if "firmware" in path.relative_to(ROOT / package).parts[:-1]:
            continue                                   # MicroPython code for the Pico, not the host
        own = _imports(path) & PROJECT - {package}
        assert own <= ALLOWED[package], f"{path.relative_to(ROOT)} imports {sorted(own - ALLOWED[package])}"


def test_the_engine_uses_the_standard_library_only():
    for path in (ROOT / "engine").rglob("*.py"):
        outside = {name for name in _imports(path) - {"engine"} if name not in sys.stdlib_module_names}
        assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}"
