"""A per-call time budget, checked cooperatively.

The server sets a deadline for each tool call (``time_limit``); long loops call ``check()``
BEFORE they start changing the document, so a call that runs out of time ends with
``LimitExceeded`` and leaves the document as it was. Nothing here knows MCP: the deadline is
a context variable, so it follows the call into whatever thread runs it.
"""
from __future__ import annotations

import time
from contextvars import ContextVar

from ooxml.xml.errors import LimitExceeded

_deadline: ContextVar[tuple[float, float] | None] = ContextVar("ooxml_call_deadline", default=None)


class time_limit:  # noqa: N801 (used as a function); a class: no generator per call
    """Run the block under a deadline ``seconds`` from now (None: no limit)."""

    __slots__ = ("seconds", "token")

    def __init__(self, seconds: float | None):
        self.seconds = seconds

    def __enter__(self) -> None:
        seconds = self.seconds
        self.token = _deadline.set(None if seconds is None else (time.monotonic() + seconds, seconds))

    def __exit__(self, *exc) -> bool:
        _deadline.reset(self.token)
        return False


def remaining() -> float | None:
    """Seconds left in the current call's budget (None: unlimited)."""
    d = _deadline.get()
    return None if d is None else max(0.0, d[0] - time.monotonic())


def current_limit() -> float | None:
    d = _deadline.get()
    return None if d is None else d[1]


def check() -> None:
    """Raise LimitExceeded once the call's deadline has passed; call it before mutating."""
    d = _deadline.get()
    if d is not None and time.monotonic() > d[0]:
        raise exceeded(d[1])


def exceeded(seconds: float, doing: str = "ran") -> LimitExceeded:
    return LimitExceeded(f"The call {doing} past its time limit of {seconds:g} s and was stopped before it "
                         "changed anything.",
                         hint="Ask for less at once (a scope_id, fewer rows, a narrower range), or ask the "
                              "operator to raise limits.call_timeout_s.")
