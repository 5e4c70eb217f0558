"""The answer every tool returns: an :class:`Answer` value, rendered to Markdown once, on the way out
(tools/runtime/call/dispatch.py); batches, resources, structured output and recovery read its fields.

Layout (SPEC §6): title line, ``**Status**``, ``**Element ID**``, ``**Operation**``, further
``**Key**: value`` lines; then ``## 📄 Document Context``, ``## 🔄 Changes`` and the cursor
line, separated by ``---``. Errors carry only the head.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from render import views

SUCCESS = "✅ Success"
ERROR = "❌ Error"
CONTEXT_HEADING = "## 📄 Document Context"
CHANGES_HEADING = "## 🔄 Changes"
CONTENT_HEADING = "## 📋 Content"
SEPARATOR = "---"
MAX_HEAD_VALUE = 500  # head values echo arguments: a 100,000-character argument must not come back whole


@dataclass
class Answer:
    """One call's answer as data, its sections already cut to the call's view (render/views.py).

    An error answer has ``error`` (its type) and ``Message``/``Hint`` as its fields."""

    operation: str
    element_id: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)  # head lines after Operation, in order (None: left out)
    content: str | None = None
    context: str | None = None
    changes: str | None = None
    cursor: str | None = None
    error: str | None = None
    data: Any = None  # the JSON document a format=json answer shows fenced in its content

    def head(self) -> dict[str, str]:
        """The head's values as the text shows them (one line each, long ones cut), in order."""
        head: dict[str, str] = {}
        for key, value in self._head_items():
            head.setdefault(key, head_value(value))
        return head

    def with_field(self, key: str, value: object) -> "Answer":
        """A copy with one more head line, last in the head."""
        return replace(self, fields={**self.fields, key: value})

    def _head_items(self) -> list[tuple[str, object]]:
        if self.error is not None:  # fixed: the message, the hint when there is one
            hint = self.fields.get("Hint")
            return [("Status", ERROR), ("Error Type", self.error), ("Message", self.fields.get("Message")),
                    *([("Hint", hint)] if hint else []), ("Operation", self.operation)]
        items = [("Status", SUCCESS)] + ([("Element ID", self.element_id)] if self.element_id else [])
        items.append(("Operation", self.operation))
        return items + [(k, v) for k, v in self.fields.items() if v is not None]


@dataclass(frozen=True)
class OneOf:
    """A head value "n of total" (a page), kept as numbers for the server's readers."""

    number: int
    total: int

    def __str__(self) -> str:
        return f"{self.number} of {self.total}"


def markdown(answer: Answer) -> str:
    """The answer's text: the head, then its sections."""
    lines = [f"# 操作结果: {answer.operation}", ""]
    lines += [head_line(key, value) for key, value in answer._head_items()]
    for heading, body in ((CONTENT_HEADING, answer.content), (CONTEXT_HEADING, answer.context),
                          (CHANGES_HEADING, answer.changes)):
        if body:
            lines += ["", SEPARATOR, "", heading, "", body.rstrip("\n")]
    if answer.cursor:
        lines += ["", SEPARATOR, "", answer.cursor]
    return "\n".join(lines) + "\n"


def operation_title(tool_name: str) -> str:
    """``docx_insert_paragraph`` -> ``Insert Paragraph``."""
    words = tool_name.removeprefix("docx_").replace(".", "_").replace("-", "_").split("_")
    return " ".join([w.capitalize() for w in words if w])


def head_line(key: str, value: object) -> str:
    return f"**{key}**: {head_value(value)}"


def head_value(value: object) -> str:
    # One field per line, always: a newline inside a value would break line-based parsers.
    text = " ".join(str(value).split("\n"))
    if len(text) > MAX_HEAD_VALUE:
        text = text[:MAX_HEAD_VALUE - 40] + f"… ({len(text)} characters in all)"
    return text


def success_answer(operation: str, *, element_id: str | None = None,
                   fields: dict[str, object] | None = None, context: str | None = None,
                   changes: str | None = None, content: str | None = None,
                   cursor: str | None = None, data: Any = None) -> Answer:
    """A success answer, cut to the call's view; ``data``: the JSON document ``content`` shows."""
    view = views.current()
    if view == "none":
        content = context = changes = cursor = None
    elif view != "full":  # compact (docx_batch's inner calls: their Changes whole, nothing else)
        if view == "compact":
            context = views.bounded("\n".join(views.squeeze(context.split("\n")))) if context else None
            changes = views.bounded(changes)
        else:
            context = content = None
    return Answer(operation, element_id, dict(fields or {}), content, context, changes, cursor,
                  data=data if content else None)


def error_answer(operation: str, error_type: str, message: str, hint: str | None = None) -> Answer:
    return Answer(operation, fields={"Message": message, "Hint": hint}, error=error_type)


def cut_answer(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters at a line end, saying so (an open code block is closed)."""
    note = f"… (answer cut at {limit} characters of {len(text)}: ask for less, e.g. a smaller max_elements)"
    keep = text[:max(0, limit - len(note) - 8)]
    keep = keep[:keep.rfind("\n") + 1] if "\n" in keep else keep
    fence = "```\n" if sum(line.startswith("```") for line in keep.splitlines()) % 2 else ""
    return keep + fence + note + "\n"
