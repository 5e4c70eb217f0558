"""The answer every tool returns: a fixed machine-readable head, then optional sections.

Layout (SPEC §6): title line, ``**Status**``, ``**Element ID**``, ``**Operation**``, further
``**Key**: value`` lines; then ``## 📄 Document Context``, ``## 🔄 Changes`` and the cursor
line, separated by ``---``. Errors carry only the head.
"""
from __future__ import annotations

from render import views

SUCCESS = "✅ Success"
ERROR = "❌ Error"
CONTEXT_HEADING = "## 📄 Document Context"
CHANGES_HEADING = "## 🔄 Changes"
CONTENT_HEADING = "## 📋 Content"
SEPARATOR = "---"
MAX_HEAD_VALUE = 500  # head values echo arguments: a 100,000-character argument must not come back whole


def operation_title(tool_name: str) -> str:
    """``docx_insert_paragraph`` -> ``Insert Paragraph``."""
    words = tool_name.removeprefix("docx_").replace(".", "_").replace("-", "_").split("_")
    return " ".join([w.capitalize() for w in words if w])


def head_line(key: str, value: object) -> str:
    # One field per line, always: a newline inside a value would break line-based parsers.
    text = " ".join(str(value).split("\n"))
    if len(text) > MAX_HEAD_VALUE:
        text = text[:MAX_HEAD_VALUE - 40] + f"… ({len(text)} characters in all)"
    return f"**{key}**: {text}"


def success_answer(operation: str, *, element_id: str | None = None,
                   fields: dict[str, object] | None = None, context: str | None = None,
                   changes: str | None = None, content: str | None = None,
                   cursor: str | None = None) -> str:
    view = views.current()
    if view == "none":
        content = context = changes = cursor = None
    elif view != "full":  # compact (docx_batch's inner calls: their Changes whole, nothing else)
        if view == "compact":
            context = views.bounded("\n".join(views.squeeze(context.split("\n")))) if context else None
            changes = views.bounded(changes)
        else:
            context = content = None
    lines = [f"# 操作结果: {operation}", "", head_line("Status", SUCCESS)]
    if element_id:
        lines.append(head_line("Element ID", element_id))
    lines.append(head_line("Operation", operation))
    for key, value in (fields or {}).items():
        if value is not None:
            lines.append(head_line(key, value))
    for heading, body in ((CONTENT_HEADING, content), (CONTEXT_HEADING, context),
                          (CHANGES_HEADING, changes)):
        if body:
            lines += ["", SEPARATOR, "", heading, "", body.rstrip("\n")]
    if cursor:
        lines += ["", SEPARATOR, "", cursor]
    return "\n".join(lines) + "\n"


def with_head_line(text: str, key: str, value: object) -> str | None:
    """``text`` (a success answer) with one more head line at the end of its head; None for an
    error answer, whose head is fixed."""
    lines = text.split("\n")
    if head_line("Status", SUCCESS) not in lines[:3]:
        return None
    end = next((i for i in range(2, len(lines)) if not lines[i].startswith("**")), len(lines))
    return "\n".join(lines[:end] + [head_line(key, value)] + lines[end:])


def error_answer(operation: str, error_type: str, message: str, hint: str | None = None) -> str:
    lines = [f"# 操作结果: {operation}", "", head_line("Status", ERROR),
             head_line("Error Type", error_type), head_line("Message", message)]
    if hint:
        lines.append(head_line("Hint", hint))
    lines.append(head_line("Operation", operation))
    return "\n".join(lines) + "\n"


def cut_answer(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters at a line end, saying so (an open code block is closed)."""
    note = f"… (answer cut at {limit} characters of {len(text)}: ask for less, e.g. a smaller max_elements)"
    keep = text[:max(0, limit - len(note) - 8)]
    keep = keep[:keep.rfind("\n") + 1] if "\n" in keep else keep
    fence = "```\n" if sum(line.startswith("```") for line in keep.splitlines()) % 2 else ""
    return keep + fence + note + "\n"
