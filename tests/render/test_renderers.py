"""render/renderers.py: render's tables are filled from one explicit list, never by importing a
tool module for its side effects (issue 30)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Render's tables as names, after the imports given (a fresh interpreter: imports happen once).
_TABLES = """
import importlib, json, sys
from render import blocks, inline
def tables():
    return {"inline": [k.name for k in inline.INLINE_KINDS], "wrappers": sorted(inline.WRAPPERS),
            "below": [f.__module__ + "." + f.__name__ for f in blocks.BELOW_BOX],
            "below_tags": sorted(blocks.BELOW_TAGS), "titles": sorted(blocks.TITLES)}
before = tables()
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps([before, tables()]))
"""


def _tables(*imports: str) -> list[dict]:
    out = subprocess.run([sys.executable, "-c", _TABLES, *imports], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True)
    return json.loads(out.stdout)


def test_importing_the_tool_modules_leaves_renders_tables_alone():
    tool_modules = sorted(f"tools.docx.{p.stem}" for p in (ROOT / "tools" / "docx").glob("*.py")
                          if p.stem != "__init__")
    before, after = _tables(*tool_modules)
    assert after == before


def test_the_catalog_installs_every_listed_renderer_in_list_order():
    _, after = _tables("tools.catalog")
    assert after["inline"] == ["run", "equation", "legacy_equation", "text_box", "chart", "comment_start",
                               "comment_end", "footnote_ref", "endnote_ref"]
    assert after["below"] == ["render.text_boxes_view.box_lines", "render.charts_view.chart_lines",
                              "render.comments.comment_lines", "render.notes_view.note_lines",
                              "render.alt_text_view.alt_lines"]
    assert len(after["wrappers"]) == 6 and len(after["below_tags"]) == 6 and len(after["titles"]) == 1


def test_installing_twice_changes_nothing():
    from render import blocks, inline, renderers
    renderers.install()
    tables = (inline.INLINE_KINDS, dict(inline.WRAPPERS), list(blocks.BELOW_BOX), set(blocks.BELOW_TAGS))
    renderers.install()
    assert (inline.INLINE_KINDS, dict(inline.WRAPPERS), list(blocks.BELOW_BOX), set(blocks.BELOW_TAGS)) == tables
