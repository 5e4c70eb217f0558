"""What one tool call may add to a document (``limits.max_call_growth_bytes``), counted over the call.

A call that runs other tools' code (a batch) makes many checks: each adds what it lets in to the
call's count, so 80 copies in one call are held to the one limit, not to 80 times it. The count is a
context variable (as ``budget``'s deadline), set afresh for each call by the server (``per_call``);
outside one, each check stands alone. Checks run before anything changes, so a refused step leaves
the document as it was (and a failed call puts back what its earlier steps did).
"""
from __future__ import annotations

from contextvars import ContextVar

from ooxml.xml.errors import LimitExceeded

_added: ContextVar[list[int] | None] = ContextVar("ooxml_call_growth", default=None)
SETTING = "limits.max_call_growth_bytes"


class per_call:  # noqa: N801 (used as a function); a class: no generator per call
    """Count growth from zero for the block (one tool call)."""

    __slots__ = ("token",)

    def __enter__(self) -> None:
        self.token = _added.set([0])

    def __exit__(self, *exc) -> bool:
        _added.reset(self.token)
        return False


def added() -> int:
    """Bytes the current call's earlier checks let in."""
    count = _added.get()
    return count[0] if count else 0


def left(limit: int) -> int:
    """Bytes the current call may still add."""
    return max(0, limit - added())


def spend(size: int, limit: int, what: str, hint: str) -> None:
    """Count ``size`` bytes ``what`` adds; LimitExceeded (naming the limit) when the call would pass it."""
    before = added()
    if size > 0 and before + size > limit:
        raise over(size, limit, what, hint)
    count = _added.get()
    if count is not None and size > 0:
        count[0] += size


def over(size: int, limit: int, what: str, hint: str) -> LimitExceeded:
    before = added()
    earlier = f"; the call's earlier steps already added {before:,} (a batch's calls count together)" if before else ""
    return LimitExceeded(f"{what} would add {size:,} bytes, over the limit of {limit:,} bytes one call may add "
                         f"({SETTING}){earlier}.",
                         hint=hint)
