"""ooxml/opc/types.py: one vocabulary of relationship and content types (issue 30). No other
product module spells such a URI: a misspelt one matches nothing and fails silently."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
VOCABULARY = ROOT / "ooxml" / "opc" / "types.py"
# A relationship type (a namespace followed by a type's name) or an Office content type.
SPELLED = re.compile(r"/relationships/([A-Za-z]|$)|application/vnd\.(openxmlformats|ms-word)")


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _spelled(path: Path) -> list[str]:
    """The string constants (docstrings aside) of ``path`` that spell a type URI."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and id(node) not in skip and isinstance(node.value, (str, bytes)):
            text = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
            if SPELLED.search(text):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_the_finder_sees_a_relationship_type_and_a_content_type_not_a_namespace():
    assert SPELLED.search("http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles")
    assert SPELLED.search("application/vnd.openxmlformats-package.relationships+xml")
    assert SPELLED.search("http://schemas.openxmlformats.org/officeDocument/2006/relationships/")
    assert not SPELLED.search("http://schemas.openxmlformats.org/officeDocument/2006/relationships")
    assert not SPELLED.search('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>')


def test_no_module_but_the_vocabulary_spells_a_type_uri():
    files = [ROOT / "server.py", *[p for top in ("ooxml", "render", "tools") for p in (ROOT / top).rglob("*.py")]]
    found = [hit for path in files if path != VOCABULARY for hit in _spelled(path)]
    assert not found, f"spell a relationship or content type instead of naming it from ooxml/opc/types.py: {found}"


def test_the_story_types_are_the_parts_word_counts_as_stories():
    from ooxml.opc.types import RT
    assert RT.STORIES == {RT.HEADER, RT.FOOTER, RT.FOOTNOTES, RT.ENDNOTES, RT.COMMENTS}
    assert all(t.startswith(RT.PREFIX) for t in RT.STORIES)
