"""Git-diff-style Changes: '-' removed lines, '+' added lines, ' ' context (3 around)."""
from __future__ import annotations

import difflib

CONTEXT_LINES = 3


def render_diff(before: list[str], after: list[str], context: int = CONTEXT_LINES) -> str:
    """Unified diff of two line lists without file headers; hunks separated by '@@'."""
    out: list[str] = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        if out:
            out.append("@@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [" " + line for line in before[i1:i2]]
                continue
            out += ["-" + line for line in before[i1:i2]]
            out += ["+" + line for line in after[j1:j2]]
    return "\n".join(out) if out else " (no visible change)"
