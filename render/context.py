"""The Document Context: about one page of elements around the one a call is about.

Tools choose the window (see tools/view.py); this module only draws it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from render.blocks import boxes_text

CURSOR_MARK = ">>> [CURSOR] <<<"


@dataclass
class Window:
    items: list[etree._Element]
    above: int  # elements of the container before the first item
    below: int  # ... after the last item
    start_label: str = "[Document Start]"
    end_label: str = "[Document End]"
    parent_line: str | None = None
    markers: dict[int, str] = field(default_factory=dict)  # item index -> NEW/UPDATED/CURRENT
    cursor_before: int | None = None  # draw the cursor mark before item i (len(items): after all)
    empty_label: str = "(empty)"


def render_window(doc, win: Window) -> str:
    lines: list[str] = []
    if win.parent_line:
        lines += [win.parent_line, ""]
    lines.append(f"  ... ({win.above} more elements above) ..." if win.above else f"  {win.start_label}")
    lines.append("")
    if not win.items:
        if win.cursor_before is not None:
            lines += [CURSOR_MARK, ""]
        lines += [f"  {win.empty_label}", ""]
    for i, text in enumerate(boxes_text(doc, win.items, win.markers)):
        if win.cursor_before == i:
            lines += [CURSOR_MARK, ""]
        lines += (text, "")
    if win.items and win.cursor_before == len(win.items):
        lines += [CURSOR_MARK, ""]
    lines.append(f"  ... ({win.below} more elements below) ..." if win.below else f"  {win.end_label}")
    return "\n".join(lines)
