"""The docs a newcomer reads are the repository's own: the tool reference is generated from the
registry and current, and no doc sends the reader outside the repository."""
from __future__ import annotations

import re
from pathlib import Path

from tools import reference

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_docs_tools_md_is_the_registry_as_it_is():
    assert reference.TARGET.read_text(encoding="utf-8") == reference.reference(), \
        "docs/tools.md is stale: run python3 -m tools.reference"


def test_every_registered_tool_and_argument_is_in_the_reference():
    from tools.builtin import builtin
    text = reference.TARGET.read_text(encoding="utf-8")
    for tool in builtin().values():
        section = text.split(f"### `{tool.name}`", 1)[1].split("\n### ", 1)[0]
        assert all(f"| `{arg}` |" in section for arg in tool.input_schema["properties"]), tool.name


def test_no_doc_points_outside_the_repository():
    outside = re.compile(r"\.\./|\bSPEC\b|SPEC\.md")
    found = [f"{doc.relative_to(ROOT)}:{n}" for doc in DOCS
             for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1) if outside.search(line)]
    assert found == []


def test_readme_says_what_a_newcomer_needs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Python ≥ 3.11" in text and "libreoffice-writer-nogui" in text and "docs/tools.md" in text
    quick = text.split("## Quick start", 1)[1].split("## Installing", 1)[0]
    assert all(t in quick for t in ("docx_open(", "docx_insert_paragraph(", "docx_save(", "**Status**"))
