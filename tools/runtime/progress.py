"""MCP progress notifications for long calls (render, large opens, whole-document exports).

server.py hands each call a reporter when the client gave a progress token; tools call
``await progress(ctx, done, total, message)``, which does nothing otherwise. Sending awaits the
transport, so an async tool should report only between steps that leave the document consistent.
"""
from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable

Reporter = Callable[[float, float | None, str | None], Awaitable[None]]
log = logging.getLogger("ooxml_mcp")


def reporter_for(request_ctx: Any) -> Reporter | None:
    """The request's progress sender, or None when the client asked for no progress."""
    meta = getattr(request_ctx, "meta", None) or {}
    token = meta.get("progress_token") if isinstance(meta, dict) else getattr(meta, "progress_token", None)
    session = getattr(request_ctx, "session", None)
    if token is None or session is None or not hasattr(session, "report_progress"):
        return None
    return session.report_progress


def wanted(ctx) -> bool:
    """Whether the caller listens: lets a tool skip the work of counting when nobody does."""
    return getattr(ctx, "progress", None) is not None


async def progress(ctx, done: float, total: float | None = None, message: str | None = None) -> None:
    report = getattr(ctx, "progress", None)
    if report is None:
        return
    try:
        await report(done, total, message)
    except Exception:  # a lost notification must not fail the call
        log.debug("progress notification failed", exc_info=True)
