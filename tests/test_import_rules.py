"""DESIGN.md's import rules, checked on the source: the engine is pure, the device packages
never import each other or the application, and only ``cardtable`` wires them together."""

import ast
import subprocess
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


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _load_time_imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that importing ``path`` runs first: its imports outside functions
    (``from a import b`` names the module ``a.b`` where there is one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    body = [node for node in ast.walk(tree) if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    inside = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
              for n in ast.walk(f)}
    names = set()
    for node in body:
        if id(node) in inside:
            continue
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return names & modules


def test_no_import_circle_inside_the_engine():
    """No engine module imports, through others, itself (imports made inside functions, which run
    later, are not followed; a package's ``__init__`` loading before its modules is the next test's)."""
    paths = {_module_name(path): path for path in (ROOT / "engine").rglob("*.py")}
    graph = {name: _load_time_imports(path, set(paths)) - {name} for name, path in paths.items()}

    def circle_from(start: str) -> list[str] | None:
        stack = [(start, [start])]
        while stack:
            name, trail = stack.pop()
            for nxt in sorted(graph[name]):
                if nxt == start:
                    return trail + [start]
                if nxt not in trail:
                    stack.append((nxt, trail + [nxt]))
        return None

    circles = [" -> ".join(c) for c in map(circle_from, sorted(graph)) if c]
    assert not circles, circles[0]


def test_every_engine_module_imports_first():
    """Each engine module imported on its own, before any other, loads (no partly loaded module)."""
    names = sorted(_module_name(path) for path in (ROOT / "engine").rglob("*.py"))
    script = ("import importlib, sys\nfor name in sys.argv[1:]:\n"
              "    for loaded in [m for m in sys.modules if m == 'engine' or m.startswith('engine.')]:\n"
              "        del sys.modules[loaded]\n"
              "    importlib.import_module(name)\n")
    done = subprocess.run([sys.executable, "-c", script, *names], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-800:]


#: The parts of the application above its table (cardtable/table/): they use the table, never the reverse.
ABOVE_THE_TABLE = ("cardtable.web", "cardtable.club", "cardtable.sim", "cardtable.commands", "cardtable.speech",
                   "cardtable.cli")


def _modules_imported(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (``from a import b`` names ``a`` and ``a.b``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def test_the_table_imports_nothing_above_it():
    """cardtable/table/ (the table, its game and journal, its loop and view) is below the CLI, the
    web page, the club, the demo and the voice: none of them is imported from it."""
    for path in (ROOT / "cardtable" / "table").rglob("*.py"):
        above = sorted(name for name in _modules_imported(path)
                       if any(name == part or name.startswith(part + ".") for part in ABOVE_THE_TABLE))
        assert not above, f"{path.relative_to(ROOT)} imports {above}"
