"""Undo, redo and the history of steps (SPEC §10). A step is one tool call that changed the document."""
from __future__ import annotations

import time

from ooxml.xml.errors import ValidationError
from render.answer import success_answer
from tools.docx.common import session_of
from tools.docx.view import cursor_line
from tools.runtime.call import history as H
from tools.runtime.call.registry import CallContext, tool

SHOWN = 50  # steps listed by docx_get_history


def _check_steps(steps: int) -> None:
    if steps < 1:
        raise ValidationError(f"steps must be 1 or more, not {steps}.", hint="steps=1 undoes the last call.")


def _when(at: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at))


def _line(step) -> str:
    return f"- {_when(step.at)} {step.tool}({step.label})"


def _fields(rec, moved: int, verb: str) -> dict:
    fields = {verb: f"{moved} step(s)", "Undo Steps": len(rec.undo_steps), "Redo Steps": len(rec.redo_steps)}
    if rec.dropped:
        fields["Dropped"] = (f"{rec.dropped} oldest step(s) dropped by the history limit "
                             f"({rec.max_steps} steps, {rec.max_bytes // (1024 * 1024)} MB)")
    return fields


def _travel(ctx: CallContext, session_id: str | None, steps: int, back: bool) -> tuple:
    """Undo (``back``) or redo ``steps`` calls; abandoning the call goes the other way again."""
    _check_steps(steps)
    session = session_of(ctx, session_id)
    go, undo_it = ("undo", "redo") if back else ("redo", "undo")
    done = getattr(session.doc.history, go)(steps)
    H.on_abandon(ctx, lambda: getattr(session.doc.history, undo_it)(len(done)))
    if done:
        H.restore_state(session, done[-1].state_before if back else done[-1].state_after)
    return session, done


def _moved(session, done: list, verb: str, operation: str, nothing: str) -> str:
    rec = session.doc.history
    content = "\n".join(_line(s) for s in done) if done else nothing
    return success_answer(operation, fields={"Session ID": session.id, **_fields(rec, len(done), verb)},
                          content=content, cursor=cursor_line(session.doc, session.cursor))


@tool(destructive=True, context=False, title="Undo tool calls", kind="meta")
def docx_undo(ctx: CallContext, session_id: str | None, steps: int = 1) -> str:
    """Undo the last calls that changed the document, one step per call."""
    session, done = _travel(ctx, session_id, steps, back=True)
    rec = session.doc.history
    nothing = "Nothing to undo." + (f" {rec.dropped} older step(s) were dropped by the history limit."
                                    if rec.dropped else "")
    return _moved(session, done, "Undone", "Undo", nothing)


@tool(destructive=True, context=False, title="Redo undone tool calls", kind="meta")
def docx_redo(ctx: CallContext, session_id: str | None, steps: int = 1) -> str:
    """Redo calls undone by docx_undo (until a new edit)."""
    session, done = _travel(ctx, session_id, steps, back=False)
    return _moved(session, done, "Redone", "Redo", "Nothing to redo.")


@tool(read_only=True, idempotent=True, title="List the undo history")
def docx_get_history(ctx: CallContext, session_id: str | None) -> str:
    """Recorded steps, newest first: number, time, tool, arguments; undone ones marked."""
    session = session_of(ctx, session_id)
    rec = session.doc.history
    lines = [f"- (undone) {_line(s)[2:]}" for s in rec.redo_steps]
    # numbered from the first step since open: docx_changes(since=N) names them so
    lines += [f"- #{rec.dropped + i + 1} {_line(s)[2:]}" for i, s in reversed(list(enumerate(rec.undo_steps)))]
    more = len(lines) - SHOWN
    lines = lines[:SHOWN] + ([f"... ({more} older steps)"] if more > 0 else [])
    if rec.dropped:
        lines.append(f"... ({rec.dropped} older step(s) dropped by the history limit)")
    fields = {"Session ID": session.id, "Undo Steps": len(rec.undo_steps), "Redo Steps": len(rec.redo_steps),
              "Memory": f"{rec.memory() // 1024} KB of {rec.max_bytes // (1024 * 1024)} MB",
              "Limit": f"{rec.max_steps} steps"}
    return success_answer("Get History", fields=fields, content="\n".join(lines) or "No steps yet.",
                          cursor=cursor_line(session.doc, session.cursor))
