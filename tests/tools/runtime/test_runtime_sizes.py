"""tools/runtime stays in rooms a reader takes in at once (issue 30): no module over 450 lines, no
class over 250 (a class's lines run from its ``class`` line to its last statement)."""
from __future__ import annotations

import ast
from pathlib import Path

RUNTIME = Path(__file__).resolve().parents[3] / "tools" / "runtime"
MAX_MODULE_LINES = 450
MAX_CLASS_LINES = 250


def sources() -> list[Path]:
    return sorted(RUNTIME.rglob("*.py"))


def class_spans(tree: ast.AST) -> list[tuple[str, int]]:
    return [(node.name, node.end_lineno - node.lineno + 1) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]


def test_no_runtime_module_is_over_450_lines():
    long = {str(p.relative_to(RUNTIME)): n for p in sources()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_runtime_class_is_over_250_lines():
    long = {f"{p.relative_to(RUNTIME)}:{name}": n for p in sources()
            for name, n in class_spans(ast.parse(p.read_text(encoding="utf-8"))) if n > MAX_CLASS_LINES}
    assert not long, f"classes over {MAX_CLASS_LINES} lines: {long}"


def test_the_class_measure_counts_from_class_line_to_last_statement():
    spans = class_spans(ast.parse("class A:\n    x = 1\n\n    def f(self):\n        return 2\n\n\ny = 3\n"))
    assert spans == [("A", 5)] and len(sources()) > 30
