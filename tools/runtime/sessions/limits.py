"""Limits of the server itself (config ``limits``, CLI flags): per-call budget, session life.

Document limits (sizes a package may have) are ``ooxml.opc.package.Limits``; HTTP tool limits
are in ``tools.config.model.HttpLimits``. These are the ones of calls and sessions.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace

from ooxml.model.undo_limits import UndoLimits

# Config key -> JSON type, for tools/config/sections.py.
RUNTIME_LIMIT_TYPES = {"call_timeout_s": "number", "session_idle_timeout_s": "number",
                       "max_answer_chars": "integer", "max_sessions": "integer",
                       "max_sessions_total": "integer", "max_batch_calls": "integer",
                       "max_sessions_anonymous": "integer"}


@dataclass(frozen=True)
class RuntimeLimits:
    call_timeout_s: float = 60.0  # every tool call; ends with LimitExceeded, document unchanged
    session_idle_timeout_s: float = 30 * 60.0  # Streamable HTTP: an unused session ends (recovery file)
    max_answer_chars: int = 60_000  # longer answers are cut (with a note saying so)
    max_sessions: int = 64  # open document sessions per client (tenant / MCP session)
    max_sessions_anonymous: int = 16  # per client without a tenant over HTTP (MCP session / source address)
    max_sessions_total: int = 1024  # open document sessions of all clients together, per server process
    max_batch_calls: int = 200  # calls in one docx_batch

    def with_overrides(self, overrides: dict) -> RuntimeLimits:
        known = {f.name for f in fields(self)}
        return replace(self, **{k: v for k, v in overrides.items() if k in known and v is not None})


DEFAULT_RUNTIME_LIMITS = RuntimeLimits()


def _env_int(environ, name: str, default: int) -> int:
    try:
        return max(1, int(environ.get(name, default)))
    except ValueError:
        return default


def undo_limits(environ=os.environ) -> UndoLimits:
    """The undo history's limits for a call (read per call: a test sets them for one run)."""
    return UndoLimits(max_steps=_env_int(environ, "OOXML_MCP_UNDO_STEPS", 100),
                      max_bytes=_env_int(environ, "OOXML_MCP_UNDO_BYTES", 64 * 1024 * 1024),
                      check=environ.get("OOXML_MCP_CHECK_UNDO") == "1")


def check_drawn(environ=os.environ) -> bool:
    """OOXML_MCP_CHECK_DRAWN=1: every cached box is redrawn and compared (render/blocks.py; tests)."""
    return environ.get("OOXML_MCP_CHECK_DRAWN") == "1"
