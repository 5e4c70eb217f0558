"""MCP progress notifications for long calls (render, large opens, whole-document exports).

server.py hands each call the request's reporter; tools call ``await progress(ctx, done, total,
message)``, which reaches the client only when it gave a progress token. Sending awaits the
transport, so an async tool should report only between steps that leave the document consistent.
"""
from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable

Reporter = Callable[[float, float | None, str | None], Awaitable[None]]
log = logging.getLogger("ooxml_mcp")


def reporter_for(request_ctx: Any) -> Reporter | None:
    """The request's progress sender (MCP SDK 2.x: ``ctx.session.report_progress``).

    The SDK sends nothing when the request carried no progress token (over JSON-RPC) or no
    progress callback (in-process), so the reporter is handed over whatever the request said.
    """
    session = getattr(request_ctx, "session", None)
    return getattr(session, "report_progress", None)


async def progress(ctx, done: float, total: float | None = None, message: str | None = None) -> None:
    report = getattr(ctx, "progress", None)
    if report is None:
        return
    try:
        await report(done, total, message)
    except Exception:  # a lost notification must not fail the call
        log.debug("progress notification failed", exc_info=True)


HEARTBEAT_S = 0.5
LARGE_FILE_BYTES = 1_000_000  # smaller files open faster than a thread hop plus a heartbeat costs


def worth_a_thread(ctx, arguments: dict) -> bool:
    """Whether a long_running call's input file is large enough for heartbeats to matter."""
    import os
    from pathlib import Path

    raw = arguments.get("file_path")
    if not raw or not isinstance(raw, str):
        return False
    path = Path(os.path.expanduser(raw))
    if not path.is_absolute() and ctx.services.roots:
        path = ctx.services.roots[0] / path
    try:
        return path.stat().st_size >= LARGE_FILE_BYTES
    except (OSError, ValueError):
        return False  # the tool itself reports a missing or refused path


async def in_thread(ctx, fn, message: str):
    """Run a blocking step in a worker thread, reporting progress every HEARTBEAT_S seconds until it ends.

    Only for work on objects no other call can reach yet (docx_open builds a new document):
    other calls keep running on the event loop meanwhile.
    """
    import anyio

    outcome: dict = {}

    async def work():
        try:
            outcome["value"] = await anyio.to_thread.run_sync(fn)
        except Exception as e:  # raised again below, outside the task group (not as a group)
            outcome["error"] = e
        finally:
            tg.cancel_scope.cancel()

    async with anyio.create_task_group() as tg:
        tg.start_soon(work)
        await progress(ctx, 0, None, message)
        ticks = 0
        while True:
            await anyio.sleep(HEARTBEAT_S)
            ticks += 1
            await progress(ctx, ticks, None, f"{message} ({ticks * HEARTBEAT_S:.1f} s)")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
