"""tools/runtime's wings import downwards only (docs/architecture.md): protocol -> call -> sessions,
state -> call and sessions. Every import counts, the ones inside functions too."""
from __future__ import annotations

import ast
from pathlib import Path

RUNTIME = Path(__file__).resolve().parents[3] / "tools" / "runtime"
BELOW = {"protocol": {"call", "sessions"}, "call": {"sessions"}, "sessions": set(), "state": {"call", "sessions"}}


def wing_imports(path: Path) -> set[str]:
    """The wings a module imports (``tools.runtime.<wing>…``)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        out.update(n.split(".")[2] for n in names if n.startswith("tools.runtime.") and n.count(".") >= 2)
    return out


def test_every_runtime_module_lives_in_a_wing():
    loose = [p.name for p in RUNTIME.glob("*.py") if p.name != "__init__.py"]
    assert not loose and {p.name for p in RUNTIME.iterdir() if p.is_dir() and p.name != "__pycache__"} == set(BELOW)


def test_a_wing_imports_only_the_wings_below_it():
    upward = {f"{wing}/{p.name} -> {other}" for wing in BELOW for p in (RUNTIME / wing).glob("*.py")
              for other in wing_imports(p) - {wing} - BELOW[wing]}
    assert not upward, upward


def test_the_import_reader_sees_imports_inside_functions():
    path = RUNTIME / "protocol" / "resources.py"
    assert "call" in wing_imports(path)  # run_tool, imported where the outline is made
