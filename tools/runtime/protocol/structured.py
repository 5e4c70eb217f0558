"""Opt-in structured output (config ``answers.structured: true``): the answer's head as
``structuredContent`` under one shared ``outputSchema``, beside the Markdown text (which stays whole);
an answer asked for as JSON (format=json, e.g. docx_changes) adds its JSON document as ``data``.
Read from the call's Answer value (render/answer.py), never from its text."""
from __future__ import annotations

SCHEMA = {
    "type": "object",
    "properties": {
        "status": {"enum": ["success", "error"]},
        "operation": {"type": "string"},
        "sessionId": {"type": "string"},
        "elementId": {"type": "string"},
        "elementIds": {"type": "array", "items": {"type": "string"}, "description": "IDs the call made"},
        "errorType": {"type": "string"},
        "message": {"type": "string"},
        "hint": {"type": "string"},
        "data": {"type": "object", "description": "the JSON document of a format=json answer"},
    },
    "required": ["status", "operation"],
}
FIELDS = {"Operation": "operation", "Session ID": "sessionId", "Element ID": "elementId",
          "Error Type": "errorType", "Message": "message", "Hint": "hint"}


def enabled(services) -> bool:
    return bool(getattr(getattr(services, "config", None), "answers_structured", False))


def applies(tool_name: str) -> bool:
    return tool_name.startswith("docx_")  # operator HTTP tools answer with their own templates, no head


def head_of(outcome, session_id: str | None = None) -> dict:
    """``session_id``: the session the call used, for answers whose head leaves it out (editing calls)."""
    answer = outcome.answer
    head = answer.head() if answer is not None else {}
    out: dict = {"status": "error" if outcome.is_error else "success"}
    out.update({key: head[name] for name, key in FIELDS.items() if head.get(name)})
    made = head.get("Element IDs")
    if made:
        out["elementIds"] = [i.strip() for i in made.split(",") if i.strip()]
    if answer is not None and answer.data is not None:
        out["data"] = answer.data
    if session_id and "sessionId" not in out:
        out["sessionId"] = session_id
    out.setdefault("operation", "")
    return out
