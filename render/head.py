"""Reading an answer's head back (the ``**Key**: value`` lines render/answer.py writes): for the
parts of the server that act on another call's answer (batches, resource links, structured output)."""
from __future__ import annotations

import re

_HEAD = re.compile(r"^\*\*([A-Za-z][A-Za-z ]*)\*\*: (.*)$")


def parse_head(text: str) -> dict[str, str]:
    """The ``**Key**: value`` lines of the head, in order."""
    head: dict[str, str] = {}
    for line in text.splitlines()[2:]:
        m = _HEAD.match(line)
        if not m:
            break
        head.setdefault(m.group(1), m.group(2))
    return head
