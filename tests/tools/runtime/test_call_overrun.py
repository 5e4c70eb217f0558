"""The call time limit holds even for a worker thread that never checks its budget: the call is
answered LimitExceeded on time, its session answers SessionBusy until the thread ends, and then
whatever the thread changed is put back and the session serves again (tools/runtime/sessions/overrun.py)."""
from __future__ import annotations

import threading
import time

import pytest

from tests.support.parts import part_bytes
from tests.support.polling import wait_until
from tools.runtime.sessions.overrun import GRACE_S
from tools.builtin import builtin

pytestmark = pytest.mark.anyio
LIMIT = 0.5


class Stuck:
    def __init__(self):
        self.editing, self.ended = threading.Event(), threading.Event()


def stuck_after_editing(monkeypatch, tool_name: str, seconds: float) -> Stuck:
    """The tool does its work, then spins for ``seconds`` without checking its budget."""
    tool, stuck = builtin()[tool_name], Stuck()
    original = tool.handler

    def spinning(ctx, **arguments):
        try:
            result = original(ctx, **arguments)
            stuck.editing.set()  # its session's lock is held
            end = time.monotonic() + seconds
            while time.monotonic() < end:  # a loop with no budget.check() in it
                pass
            return result
        finally:
            stuck.ended.set()
    monkeypatch.setattr(tool, "handler", spinning)
    return stuck


def let_go(session) -> bool:
    if not session.lock.acquire(blocking=False):
        return False
    session.lock.release()
    return True


async def settled(services, stuck: Stuck, seconds: float = 10.0) -> None:
    """The spinning thread has ended and its call has let go: nothing overrun, every lock free."""
    import anyio
    await anyio.to_thread.run_sync(stuck.ended.wait, seconds)
    # The thread puts back and releases after the handler returns.
    await wait_until(lambda: all(not s.overrun and let_go(s) for s in services.sessions.all()), seconds)


async def test_a_call_that_never_checks_its_budget_is_answered_on_time_and_undone(docx, monkeypatch):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="kept", position="end:document_body")
    before = part_bytes(docx.services, docx.session_id)
    cursor = (await docx.ok("docx_cursor_get", session_id=docx.session_id)).cursor_line
    stuck = stuck_after_editing(monkeypatch, "docx_insert_paragraph", 2.5)
    docx.services.limit_overrides["call_timeout_s"] = LIMIT
    started = time.monotonic()
    late = await docx.call("docx_insert_paragraph", text="never kept", position="end:document_body")
    answered = time.monotonic() - started
    busy = await docx.call("docx_read_content", session_id=docx.session_id)
    busy_after = time.monotonic() - started
    await settled(docx.services, stuck)
    docx.services.limit_overrides.clear()
    after = part_bytes(docx.services, docx.session_id)
    again = await docx.ok("docx_read_content", session_id=docx.session_id)
    cursor_after = (await docx.ok("docx_cursor_get", session_id=docx.session_id)).cursor_line
    assert late.error_type == "LimitExceeded" and "undone" in late.head["Message"], late.text
    assert answered < LIMIT + GRACE_S + 0.7, answered
    assert busy.error_type == "SessionBusy" and "Retry" in busy.head["Hint"] and busy_after < 2.0, busy.text
    assert after == before and "never kept" not in again.text and "kept" in again.text
    assert cursor_after == cursor  # the tool moved it to its new paragraph before its commit was refused


async def test_a_call_waiting_for_the_lock_learns_at_once_that_the_holder_overran(docx, monkeypatch):
    import anyio
    await docx.create()
    stuck = stuck_after_editing(monkeypatch, "docx_insert_paragraph", 3.0)
    docx.services.limit_overrides["call_timeout_s"] = LIMIT
    answers = {}

    async def first():
        answers["first"] = await docx.call("docx_insert_paragraph", text="x", position="end:document_body")

    async def second():
        await anyio.to_thread.run_sync(stuck.editing.wait, 10)  # queued behind the first, before it overran
        start = time.monotonic()
        answers["second"] = await docx.call("docx_get_structure", session_id=docx.session_id)
        answers["waited"] = time.monotonic() - start
    async with anyio.create_task_group() as tg:
        tg.start_soon(first)
        tg.start_soon(second)
    await settled(docx.services, stuck)
    assert answers["first"].error_type == "LimitExceeded"
    assert answers["second"].error_type in ("SessionBusy", "LimitExceeded") and answers["waited"] < 1.5


async def test_a_document_opened_by_a_call_past_its_limit_leaves_no_session(docx, monkeypatch, tmp_path):
    from tests.builders import build_docx, p
    build_docx(tmp_path / "a.docx", p("x"))
    stuck = stuck_after_editing(monkeypatch, "docx_open", 2.0)
    docx.services.limit_overrides["call_timeout_s"] = LIMIT
    late = await docx.call("docx_open", file_path="a.docx")
    await settled(docx.services, stuck)
    docx.services.limit_overrides.clear()
    listed = await docx.ok("docx_list_sessions")
    assert late.error_type == "LimitExceeded" and listed.head["Sessions"] == "0"
    assert docx.services.sessions.all() == []


@pytest.mark.parametrize("tool", ["docx_undo", "docx_redo"])
async def test_an_undo_or_redo_past_its_limit_moves_nothing(docx, monkeypatch, tool):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="the step", position="end:document_body")
    if tool == "docx_redo":
        await docx.ok("docx_undo", session_id=docx.session_id)
    before = part_bytes(docx.services, docx.session_id)
    history = (await docx.ok("docx_get_history", session_id=docx.session_id)).text
    stuck = stuck_after_editing(monkeypatch, tool, 1.5)
    docx.services.limit_overrides["call_timeout_s"] = LIMIT
    late = await docx.call(tool, session_id=docx.session_id)
    await settled(docx.services, stuck)
    docx.services.limit_overrides.clear()
    assert late.error_type == "LimitExceeded", late.text
    assert part_bytes(docx.services, docx.session_id) == before
    assert (await docx.ok("docx_get_history", session_id=docx.session_id)).text == history
