"""docx_batch (SPEC §11): many editing calls on one session as one step, all or nothing.

The calls run through the same tool code as alone, inside the batch's call: one undo step (dispatch
commits once), one journal entry with --state (replay runs the batch again), special IDs and the
cursor carried from call to call. A failing call is raised with its index; dispatch then puts back
everything the earlier calls changed, and the session's cursor and special IDs are put back here.
"""
from __future__ import annotations

import json

from ooxml.xml import growth
from ooxml.xml.errors import LimitExceeded, OoxmlError, ValidationError
from render import views
from render.answer import Answer
from render.views import CHANGES_ONLY
from tools.docx.common import call_limits
from tools.docx.protocol import Edit
from tools.runtime.call import history
from tools.runtime.call.registry import CallContext, ToolResult, tool
from tools.runtime.sessions.sessions import session_key

CALL_KEYS = {"tool", "arguments"}


class BatchCall:
    def __init__(self, index: int, tool, arguments: dict):
        self.index, self.tool, self.arguments = index, tool, arguments


@tool(title="Run many edits as one step", kind="meta")
def docx_batch(ctx: CallContext, e: Edit, session_id: str | None, calls: list[dict]) -> None:
    """Run editing calls on one session as one step: all apply or none; one undo step, one answer.

    Args:
        calls: [{"tool": "docx_...", "arguments": {...}}]; special IDs see earlier results.
    """
    checked = check_calls(ctx, e.session, calls)
    state = history.state_of(e.session)
    results = [run_one(ctx, e.session, call, state) for call in checked]
    batch_done(e, results)


def check_calls(ctx: CallContext, session, calls: list) -> list[BatchCall]:
    """Every call checked before the first runs: tool, arguments, count and size limits."""
    limit = ctx.services.limits.max_batch_calls
    if not calls:
        raise ValidationError("calls is empty.", hint='Pass [{"tool": "docx_insert_paragraph", "arguments": {...}}].')
    if len(calls) > limit:
        raise LimitExceeded(f"{len(calls)} calls in one batch; the limit is {limit} (limits.max_batch_calls).",
                            hint="Split the work into several batches.")
    from tools.runtime.call.dispatch import argument_problems
    checked = []
    for i, call in enumerate(calls):
        if not isinstance(call, dict) or "tool" not in call or set(call) - CALL_KEYS or \
                not isinstance(call.get("arguments") or {}, dict):
            raise ValidationError(f"calls[{i}] is not {{\"tool\": name, \"arguments\": {{...}}}}.",
                                  hint="Each call is an object with 'tool' and 'arguments' only.")
        checked.append(BatchCall(i, batch_tool(ctx, i, call["tool"]), dict(call.get("arguments") or {})))
        args = checked[-1].arguments
        if not _same_session(args.pop("session_id", None), session):
            raise ValidationError(f"calls[{i}] names another session ({str(call['arguments']['session_id'])[:80]}).",
                                  hint="A batch works on one session: leave session_id out of its calls.")
        args.pop("view", None)
        problems = argument_problems(checked[-1].tool, args)
        if problems:
            raise ValidationError(f"calls[{i}] ({call['tool']}): invalid arguments: " + "; ".join(problems),
                                  hint=f"See the inputSchema of '{call['tool']}' in tools/list.")
    check_growth(ctx, session, calls)
    return checked


def _same_session(named, session) -> bool:
    try:
        return session_key(named) in (None, session.id)
    except ValidationError:
        return False


def batch_tool(ctx: CallContext, i: int, name):
    """A built-in tool of kind edit: reading, sessions, history, listing and batches run on their own."""
    found = ctx.services.registry.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValidationError(f"calls[{i}]: no tool named {name!r}.", hint="A batch holds docx_* editing tools.")
    if found.kind != "edit":
        raise ValidationError(f"calls[{i}]: {name} cannot run inside a batch: only edits of the session's "
                              "document can.", hint=f"Call {name} on its own, before or after the batch.")
    return found


def check_growth(ctx: CallContext, session, calls: list) -> None:
    """What the calls bring in (their arguments) counts against one call's growth limit, before any runs;
    what each call adds besides (copies, replacements) counts on in the same call (ooxml/xml/growth.py)."""
    size = len(json.dumps(calls, ensure_ascii=False).encode())
    growth.spend(size, call_limits(ctx, session.doc).max_call_growth_bytes, "The batch's calls",
                 hint="Split the work into several batches.")


def run_one(ctx: CallContext, session, call: BatchCall, state) -> tuple[BatchCall, Answer]:
    args = {**call.arguments, "session_id": session.id}
    if call.tool.answers_context:  # their Changes make the batch's (one line a box when it is compact)
        args["view"] = "compact" if views.current() == "compact" else CHANGES_ONLY
    try:
        result = call.tool.handler(ctx, **args)
    except Exception as e:
        history.restore_state(session, state)  # dispatch puts back the XML; the cursor and special IDs here
        message = e.message if isinstance(e, OoxmlError) else f"{type(e).__name__}: {e}"
        raise OoxmlError(f"calls[{call.index}] ({call.tool.name}) failed: {message} Nothing in the batch "
                         "was applied.", hint=getattr(e, "hint", None) or "Fix that call and send the batch again.",
                         error_type=getattr(e, "error_type", "InternalError")) from e
    return call, result.answer if isinstance(result, ToolResult) else result


def batch_done(e, results: list[tuple[BatchCall, Answer]]) -> None:
    """One answer: the Element IDs the calls gave, their Changes one after the other."""
    session = e.session
    made, hunks = [], []
    for call, answer in results:
        made.append(answer.head().get("Element ID") or "-")
        changes = (answer.changes or "").strip("\n")
        if changes:
            hunks.append(f"@@ calls[{call.index}] {call.tool.name} @@\n{changes}")
    focus = next((session.doc.ids.get(e) for e in reversed(made) if session.doc.ids.get(e) is not None), None)
    marker = None if focus is None else "NEW" if session.doc.ids.get(session.last_insert or "") is focus else "UPDATED"
    fields = {"Calls": len(results), "Element IDs": ", ".join(made)}
    e.done(focus, marker=marker, fields=fields, head_id=focus is not None, changes="\n".join(hunks) or None)

