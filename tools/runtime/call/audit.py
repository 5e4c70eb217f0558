"""The audit log (SPEC §9): one JSON line per tools/call, secrets redacted, size-rotated.

Durability policy: each line is one ``os.write`` on an ``O_APPEND`` descriptor, so once
``record`` returns the line is in the kernel and survives a crash of the server; a crash
can only lose the line being written. Lines are not fsynced by default (that would cost a
disk flush per call); ``fsync: true`` in the config adds one per line for power-loss safety.
"""
from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

log = logging.getLogger("ooxml_mcp")

SECRET_KEY_RE = re.compile(r"token|secret|password|passwd|authorization|api[_-]?key|cookie|credential",
                           re.IGNORECASE)
REDACTED = "[REDACTED]"
MAX_STRING = 200
MAX_ITEMS = 50
MAX_DEPTH = 6


def clip(text: str, limit: int = MAX_STRING) -> str:
    return text if len(text) <= limit else text[:limit] + f"…({len(text)} chars)"


def redact(value: Any, secrets: frozenset[str] = frozenset(), depth: int = 0) -> Any:
    """A copy of ``value`` safe to log: secret keys and values hidden, long things cut."""
    if isinstance(value, dict):
        if depth >= MAX_DEPTH:
            return f"…(object of {len(value)} keys)"
        items = list(value.items())
        out = {str(k): REDACTED if SECRET_KEY_RE.search(str(k)) else redact(v, secrets, depth + 1)
               for k, v in items[:MAX_ITEMS]}
        if len(items) > MAX_ITEMS:
            out["…"] = f"({len(items) - MAX_ITEMS} more keys)"
        return out
    if isinstance(value, list):
        if depth >= MAX_DEPTH:
            return f"…(list of {len(value)} items)"
        out = [redact(v, secrets, depth + 1) for v in value[:MAX_ITEMS]]
        return out + [f"…({len(value) - MAX_ITEMS} more items)"] if len(value) > MAX_ITEMS else out
    if isinstance(value, str):
        for secret in secrets:
            if len(secret) >= 4 and secret in value:
                value = value.replace(secret, REDACTED)
        return clip(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return clip(repr(value))


class AuditLog:
    worker: str | None = None  # with --state: this worker's ID, in every line (set once at start)

    def __init__(self, path: str | os.PathLike, *, max_bytes: int = 10 * 1024 * 1024, backups: int = 5,
                 fsync: bool = False, secrets: frozenset[str] = frozenset()):
        self.path = Path(path)
        self.max_bytes = max_bytes
        self.backups = backups
        self.fsync = fsync
        self.secrets = secrets  # values of env secrets; replaced on config reload
        self.spec = None  # the tools.config.model.AuditSpec this log was made from
        self._lock = threading.Lock()
        self._fd: int | None = None

    def record(self, *, tenant: str | None, tool: str, arguments: Any, outcome: Any, started: float) -> None:
        """Append one line for a finished tools/call; ``started`` is its ``time.perf_counter()``."""
        duration = max(0.0, time.perf_counter() - started)
        entry = {
            "time": (datetime.now(timezone.utc) - timedelta(seconds=duration)).isoformat(timespec="milliseconds"),
            "tenant": tenant,
            "tool": clip(str(tool), 100),
            "arguments": redact(arguments if isinstance(arguments, dict) else {"_": arguments}, self.secrets),
            "outcome": "error" if outcome.is_error else "ok",
            "error_type": outcome.error_type if outcome.is_error else None,
            "duration_ms": round(duration * 1000, 3),
        }
        if self.worker:
            entry["worker"] = self.worker
        line = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            self.write(line)
        except OSError:
            # Losing an audit line must not fail the call the user made; say so loudly.
            log.exception("audit log %s: could not write", self.path)

    def event(self, kind: str, *, tenant: str | None, **details: Any) -> None:
        """Append one line for something the server did on its own (e.g. ``session_ended``)."""
        entry = {"time": datetime.now(timezone.utc).isoformat(timespec="milliseconds"), "tenant": tenant,
                 "event": kind, **{k: redact(v, self.secrets) for k, v in details.items()}}
        if self.worker:
            entry["worker"] = self.worker
        try:
            self.write((json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8"))
        except OSError:
            log.exception("audit log %s: could not write", self.path)

    def write(self, line: bytes) -> None:
        with self._lock:
            if self._fd is None:
                self._fd = self.open()
            if self.needs_rotation(len(line)):
                self.rotate()
                self._fd = self.open()
            os.write(self._fd, line)
            if self.fsync:
                os.fsync(self._fd)

    def open(self) -> int:
        return os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)

    def needs_rotation(self, incoming: int) -> bool:
        size = os.fstat(self._fd).st_size
        return size > 0 and size + incoming > self.max_bytes

    def rotate(self) -> None:
        """audit.jsonl -> audit.jsonl.1 -> ... -> audit.jsonl.N (the oldest is dropped)."""
        os.close(self._fd)
        self._fd = None
        if self.backups <= 0:
            self.path.unlink(missing_ok=True)
            return
        for n in range(self.backups - 1, 0, -1):
            older = self.path.with_name(f"{self.path.name}.{n}")
            if older.exists():
                os.replace(older, self.path.with_name(f"{self.path.name}.{n + 1}"))
        os.replace(self.path, self.path.with_name(f"{self.path.name}.1"))

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
