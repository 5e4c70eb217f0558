"""The wall clock of a tool call: ``now()`` is the current UTC time, unless a replay pins it.

Anything a call writes into the document that depends on the time (revision dates, created
stamps) must take it from here: a journal replay (tools/runtime/state/durable.py) pins the clock to
the recorded time of the call, so the replayed document is byte-identical to the live one.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timezone

_pinned: ContextVar[datetime | None] = ContextVar("ooxml_clock_pinned", default=None)


def now() -> datetime:
    """The call's time in UTC (timezone-aware)."""
    return _pinned.get() or datetime.now(timezone.utc)


@contextmanager
def pinned(when: datetime) -> Iterator[None]:
    token = _pinned.set(when)
    try:
        yield
    finally:
        _pinned.reset(token)
