"""Git-diff-style Changes: '-' removed lines, '+' added lines, ' ' context (3 around)."""
from __future__ import annotations

import difflib

CONTEXT_LINES = 3
# difflib (no junk) decides only by which lines are equal: diffs of the same shape (an insert
# between two boxes of the same widths, call after call) reuse its opcodes. Shapes, not text:
# integers only, bounded in number and size.
_SHAPES: dict = {}
MAX_SHAPES = 256
MAX_SHAPE_LINES = 200


def _groups(before: list[str], after: list[str], context: int) -> list:
    if len(before) + len(after) > MAX_SHAPE_LINES:
        return list(difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_grouped_opcodes(context))
    seen: dict[str, int] = {}
    shape = [context]  # loops, not generators: each generator is a function call of its own
    for x in before:
        shape.append(seen.setdefault(x, len(seen)))
    shape.append(-1)  # between the two lists
    for x in after:
        shape.append(seen.setdefault(x, len(seen)))
    key = tuple(shape)
    groups = _SHAPES.get(key)
    if groups is None:
        if len(_SHAPES) >= MAX_SHAPES:
            _SHAPES.clear()
        groups = _SHAPES[key] = list(difflib.SequenceMatcher(a=before, b=after, autojunk=False)
                                     .get_grouped_opcodes(context))
    return groups


def render_diff(before: list[str], after: list[str], context: int = CONTEXT_LINES) -> str:
    """Unified diff of two line lists without file headers; hunks separated by '@@'."""
    out: list[str] = []
    for group in _groups(before, after, context):
        if out:
            out.append("@@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                for line in before[i1:i2]:
                    out.append(" " + line)
                continue
            for line in before[i1:i2]:
                out.append("-" + line)
            for line in after[j1:j2]:
                out.append("+" + line)
    return "\n".join(out) if out else " (no visible change)"
