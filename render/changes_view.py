"""docx_changes' list (ooxml/compare/since.py) as Markdown lines or as one JSON document."""
from __future__ import annotations

import json

from render.width import cut

MAX_LISTED = 300  # entries an answer lists; the head gives the total
TEXT_COLUMNS = 160  # a before/after text in a Markdown line


def markdown(changes: list) -> str:
    lines = [_line(c) for c in changes[:MAX_LISTED]]
    if len(changes) > MAX_LISTED:
        lines.append(f"- ... {len(changes) - MAX_LISTED} more (format=\"json\" lists them all)")
    return "\n".join(lines)


def _quoted(text: str | None) -> str:
    return json.dumps(cut(text or "", TEXT_COLUMNS), ensure_ascii=False)


def _line(c) -> str:
    if c.kind == "Part":  # styles, list definitions, settings: no block to name
        return f"- {c.after} {c.change} ({c.story})"
    line = _block_line(c)
    if c.inline:
        line += f"; inline: {', '.join(c.inline)}"
    return line + (f" (in {c.story})" if c.story else "")


def _block_line(c) -> str:
    what = f"{c.kind} ({c.element_id or 'no ID'})"
    if c.change == "inserted":
        return f"- inserted {what}: {_quoted(c.after)}"
    if c.change == "deleted":
        return f"- deleted {what}: {_quoted(c.before)}"
    if c.change == "moved":
        was = f" (was {c.was_id or 'a block without ID'})" if c.was_id or c.before != c.after else ""
        text = _quoted(c.after) if c.before == c.after else f"{_quoted(c.before)} -> {_quoted(c.after)}"
        return f"- moved {what}{was}: {text}"
    line = f"- {c.change} changed {what}"
    if c.change == "text":
        line += f": {_quoted(c.before)} -> {_quoted(c.after)}"
    elif c.after:  # a section's properties have no text
        line += f": {_quoted(c.after)}"
    return line + (f"; formatting: {'; '.join(c.formatting)}" if c.formatting else "")


def as_json(changes: list, since: str) -> dict:
    """The whole list (no cut), as a JSON document."""
    return {"since": since, "changes": [c.as_dict() for c in changes]}


def fenced(doc: dict) -> str:
    return "```json\n" + json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n```"
