"""What the undo history may keep, and whether it checks itself: given by the server per call
(tools/runtime/sessions/limits.py), never read from the environment here. No lxml: the server imports it
before any document is loaded."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class UndoLimits:
    max_steps: int = 100  # older steps are dropped (the answer says so)
    max_bytes: int = 64 * 1024 * 1024  # estimated bytes all steps hold
    check: bool = False  # fail an in-place change that was not announced (the test suite's mode)


DEFAULT_UNDO_LIMITS = UndoLimits()
