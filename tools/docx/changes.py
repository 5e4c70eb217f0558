"""docx_changes: what the session changed since it opened, or since a step of its history (SPEC §12)."""
from __future__ import annotations

from typing import Literal

from ooxml.compare import since as S
from ooxml.xml.errors import ValidationError
from render import changes_view as V
from render.answer import success_answer
from tools.docx.common import session_of
from tools.runtime.call.registry import CallContext, tool


@tool(read_only=True, idempotent=True, title="List what changed")
def docx_changes(ctx: CallContext, session_id: str | None, since: str | int = "open",
                 format: Literal["markdown", "json"] = "markdown") -> str:
    """Blocks inserted, deleted, moved or changed (text, formatting) since open or a step: IDs, before, after.

    Args:
        since: "open", or a docx_get_history step number (that step on).
    """
    session = session_of(ctx, session_id)
    history = session.doc.history
    since = str(since)
    steps, first = S.first_step(history, _step_number(since, history))
    found = S.changes(session.doc, steps)
    fields = {"Session ID": session.id, "Since": "open" if since.strip() == "open" else f"step {first}",
              "Changes": len(found), "Format": format}
    if since.strip() == "open" and history.dropped:
        fields["Since"] = (f"step {first}: the {history.dropped} oldest step(s) were dropped by the history limit, "
                           "their changes are not listed")
    if format == "json":
        data = V.as_json(found, fields["Since"])
        return success_answer("Changes", fields=fields, content=V.fenced(data), data=data)
    return success_answer("Changes", fields=fields, content=V.markdown(found) or "Nothing changed.")


def _step_number(since: str, history) -> int | None:
    """None for "open"; else the step number, checked against the kept steps."""
    text = since.strip().lstrip("#")
    if text == "open":
        return None
    first, last = history.dropped + 1, history.dropped + len(history.undo_steps)
    hint = (f"Pass since=\"open\", or a step number from docx_get_history ({first}..{last})." if last >= first
            else "Pass since=\"open\": no step is recorded yet.")
    if not text.isdigit():
        raise ValidationError(f"since must be \"open\" or a step number, not '{since}'.", hint=hint)
    number = int(text)
    if not first <= number <= last:
        why = "dropped by the history limit" if 0 < number < first else "not a step of this session's history"
        raise ValidationError(f"Step {number} is {why}.", hint=hint)
    return number
