"""DESIGN.md's import rules, checked on the source: the engine is pure, the device packages
never import each other or the application, and only ``cardtable`` wires them together; no module
imports itself through others, and inside the application no arrow runs up :data:`LAYERS`.

``config_kit`` (the shape of a config section and the typed reads every section is written with)
sits between the engine and the device packages: each package exports its own config section,
so ``vision``, ``firmware_bridge`` and ``hardware`` need the kit, and the kit may not reach up into
any of them. Like the engine it uses the standard library only."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = {"engine", "config_kit", "vision", "firmware_bridge", "hardware", "cardtable"}
ALLOWED = {
    "engine": set(),
    "config_kit": {"engine"},
    "vision": {"engine", "config_kit"},
    "firmware_bridge": {"engine", "config_kit"},
    "hardware": {"engine", "config_kit"},
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


@pytest.mark.slow
@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_packages_import_only_what_design_allows(package):
    for path in (ROOT / package).rglob("*.py"):
        if "firmware" in path.relative_to(ROOT / package).parts[:-1]:
            continue                                   # MicroPython code for the Pico, not the host
        own = _imports(path) & PROJECT - {package}
        assert own <= ALLOWED[package], f"{path.relative_to(ROOT)} imports {sorted(own - ALLOWED[package])}"


@pytest.mark.parametrize("package", ["engine", "config_kit"])
def test_the_engine_and_the_config_kit_use_the_standard_library_only(package):
    for path in (ROOT / package).rglob("*.py"):
        outside = {name for name in _imports(path) - {"engine", package} if name not in sys.stdlib_module_names}
        assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _load_time_imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that importing ``path`` runs first: its imports outside functions
    and outside ``if TYPE_CHECKING:`` (which only a type checker runs); ``from a import b`` names
    the module ``a.b`` where there is one."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    body = [node for node in ast.walk(tree) if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    later = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
             or isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")]
    inside = {id(n) for f in later for n in ast.walk(f)}
    names = set()
    for node in body:
        if id(node) in inside:
            continue
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return names & modules


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for package in sorted(PROJECT) for path in (ROOT / package).rglob("*.py")
            if "firmware" not in path.relative_to(ROOT / package).parts[:-1]}


@pytest.mark.slow
def test_no_import_circle():
    """No module of any package imports, through others, itself (imports made inside functions,
    which run later, are not followed; a package's ``__init__`` loading before its modules is the
    engine's next test)."""
    paths = _modules()
    graph = {name: _load_time_imports(path, set(paths)) - {name} for name, path in paths.items()}

    def circle_from(start: str) -> list[str] | None:
        stack = [(start, [start])]
        seen = set()
        while stack:
            name, trail = stack.pop()
            for nxt in sorted(graph[name]):
                if nxt == start:
                    return trail + [start]
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, trail + [nxt]))
        return None

    circles = [" -> ".join(c) for c in map(circle_from, sorted(graph)) if c]
    assert not circles, circles[0]


#: The application's parts that sit on one another, lowest first: each may import the parts
#: listed for it and no other part (the application's core modules, beside the parts, are not
#: listed). The table's page and the club's never import each other: what they share is in
#: ``pages``, and ``network`` is the one part that wires both to a table; only the commands (and
#: the simulation, for the demo) sit above them.
LAYERS = {
    "cardtable.pages": set(),
    "cardtable.speech": set(),
    "cardtable.web": {"cardtable.pages"},
    "cardtable.club": {"cardtable.pages"},
    "cardtable.network": {"cardtable.pages", "cardtable.web", "cardtable.club"},
    "cardtable.sim": {"cardtable.pages", "cardtable.web", "cardtable.speech"},
    "cardtable.commands": {"cardtable.pages", "cardtable.web", "cardtable.club", "cardtable.network",
                           "cardtable.sim", "cardtable.speech"},
}


def _part(module: str) -> str | None:
    return next((part for part in LAYERS if module == part or module.startswith(part + ".")), None)


@pytest.mark.slow
def test_no_arrow_runs_up_the_application():
    """No import, even one made inside a function (it still ties the two parts together), goes
    from a part of :data:`LAYERS` to a part it does not sit on: ``web`` and ``club`` know nothing
    of each other, ``pages`` nothing of either."""
    wrong = []
    for name, path in _modules().items():
        own = _part(name)
        for imported in _all_imports(path):
            other = _part(imported)
            if other is None or other == own:
                continue
            if own is not None and other not in LAYERS[own]:
                wrong.append(f"{path.relative_to(ROOT)} imports {imported}")
    assert not wrong, wrong


def _all_imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at load time or inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_rules_see_the_circle_and_the_arrow_they_forbid(tmp_path, monkeypatch):
    """The two checks above fail on a tree that has what they forbid: a club module importing the
    web, and two modules importing each other."""
    for package in PROJECT:
        (tmp_path / package).mkdir()
    for part in ("web", "club", "pages", "network"):
        (tmp_path / "cardtable" / part).mkdir()
        (tmp_path / "cardtable" / part / "__init__.py").write_text("")
    (tmp_path / "cardtable" / "club" / "server.py").write_text("def f():\n    from cardtable.web import app\n")
    (tmp_path / "cardtable" / "web" / "app.py").write_text("")
    (tmp_path / "engine" / "a.py").write_text("import engine.b\n")
    (tmp_path / "engine" / "b.py").write_text("from engine import a\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    with pytest.raises(AssertionError, match="club/server.py imports cardtable.web"):
        test_no_arrow_runs_up_the_application()
    with pytest.raises(AssertionError, match="engine.a -> engine.b -> engine.a"):
        test_no_import_circle()


@pytest.mark.slow
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


def test_recognisers_never_reach_into_the_pipeline():
    """Markers and faces (every module ``RECOGNISERS`` names, all of ``vision/faces``, and the
    protocol itself) see a region only through :class:`vision.recognisers.Region`: none imports
    the pipeline, not even inside a function or for type checking."""
    from vision.recognisers import RECOGNISERS

    paths = [ROOT / "vision" / "recognisers.py", *(ROOT / "vision" / "faces").rglob("*.py"),
             *(ROOT / Path(*module.split(".")).with_suffix(".py") for module in RECOGNISERS.values())]
    for path in paths:
        assert "vision.pipeline" not in _modules_imported(path), f"{path.relative_to(ROOT)} imports vision.pipeline"


def test_the_table_imports_nothing_above_it():
    """cardtable/table/ (the table, its game and journal, its loop and view) is below the CLI, the
    web page, the club, the demo and the voice: none of them is imported from it."""
    for path in (ROOT / "cardtable" / "table").rglob("*.py"):
        above = sorted(name for name in _modules_imported(path)
                       if any(name == part or name.startswith(part + ".") for part in ABOVE_THE_TABLE))
        assert not above, f"{path.relative_to(ROOT)} imports {above}"


@pytest.mark.slow
def test_the_live_camera_never_imports_the_synthetic_table():
    """vision/sim/ (the synthetic table of the demo, tests and benchmarks) is beside the live
    pipeline, not under it: no module of ``vision`` outside it imports it at load time. Only the
    frame sources open a scripted scene (``synthetic:SCRIPT``), and only when one is asked for."""
    modules = _modules()
    for name, path in modules.items():
        if name.startswith("vision.") and not name.startswith("vision.sim"):
            sim = sorted(m for m in _load_time_imports(path, set(modules)) if m.startswith("vision.sim"))
            assert not sim, f"{path.relative_to(ROOT)} imports {sim} when it loads"
