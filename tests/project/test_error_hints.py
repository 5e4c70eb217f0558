"""Every error the product raises carries a hint: what to do next (issue 12, defect 15).

A static scan: each ``raise`` of an ``OoxmlError`` class (from ooxml/xml/errors.py, or any class
derived from one) in the product's code passes ``hint=`` (or a hint as second argument).
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ["ooxml", "render", "tools", "server.py"]


def product_files() -> list[Path]:
    files = []
    for name in PRODUCT:
        path = ROOT / name
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return files


def error_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """OoxmlError and every class deriving from one, found to a fixed point."""
    names = {"OoxmlError"}
    while True:
        more = {node.name for tree in trees.values() for node in ast.walk(tree)
                if isinstance(node, ast.ClassDef)
                and any((b.id if isinstance(b, ast.Name) else getattr(b, "attr", None)) in names for b in node.bases)}
        if more <= names:
            return names
        names |= more


def raises_without_hint(trees: dict[Path, ast.Module], names: set[str]) -> list[str]:
    out = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            keywords = {k.arg for k in node.exc.keywords}
            if name in names and "hint" not in keywords and None not in keywords and len(node.exc.args) < 2:
                out.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    return out


def test_the_scan_sees_the_error_classes():
    trees = {p: ast.parse(p.read_text()) for p in product_files()}
    names = error_classes(trees)
    assert {"ValidationError", "LimitExceeded", "InvalidDocument", "ToolError"} <= names
    probe = ast.parse('raise ValidationError("no hint")\nraise ValidationError("x", hint="y")')
    assert raises_without_hint({ROOT / "probe.py": probe}, names) == ["probe.py:1: ValidationError"]


def test_every_raised_error_has_a_hint():
    trees = {p: ast.parse(p.read_text()) for p in product_files()}
    missing = raises_without_hint(trees, error_classes(trees))
    assert not missing, "errors raised without a hint:\n" + "\n".join(missing)
