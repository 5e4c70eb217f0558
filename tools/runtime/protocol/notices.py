"""Warnings an agent should see, as MCP ``notifications/message`` (logging) for the call that caused them.

The server's own warnings go to the ``ooxml_mcp`` logger (a dropped undo step, a recovery file,
integrity problems a save found); while a call runs, those of its task and worker threads (the
context is copied into them) are collected here and sent to the client after the call, at or above
the level it set with ``logging/setLevel`` (default warning). On 2026-07-28 the SDK sends them only
when the request opted in (``_meta`` log level).
"""
from __future__ import annotations

import logging
import warnings
from contextlib import contextmanager
from contextvars import ContextVar

LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
DEFAULT = "warning"
KEY = "ooxml_mcp_log_level"  # in the connection's state
_collected: ContextVar[list | None] = ContextVar("ooxml_mcp_notices", default=None)


class _Collector(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        notes = _collected.get()
        if notes is not None and len(notes) < 20:
            notes.append(("error" if record.levelno >= logging.ERROR else "warning", record.getMessage()))


_handler = _Collector(logging.WARNING)
logging.getLogger("ooxml_mcp").addHandler(_handler)


@contextmanager
def collecting():
    notes: list[tuple[str, str]] = []
    token = _collected.set(notes)
    try:
        yield notes
    finally:
        _collected.reset(token)


def set_level(state: dict | None, level: str) -> None:
    if state is not None:
        state[KEY] = level


async def send(ctx, state: dict | None, notes: list[tuple[str, str]]) -> None:
    wanted = LEVELS.index((state or {}).get(KEY, DEFAULT))
    for level, text in notes:
        if LEVELS.index(level) >= wanted:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # deprecated at 2026-07-28, where the request's opt-in rules
                await ctx.session.send_log_message(level, text, logger="ooxml-mcp",
                                                   related_request_id=getattr(ctx, "request_id", None))
