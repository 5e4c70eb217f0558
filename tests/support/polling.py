"""Waiting in async tests for something another process or thread does."""
from __future__ import annotations

import anyio


async def wait_until(condition, timeout: float = 20) -> None:
    """Return when ``condition()`` is true, or after ``timeout`` seconds (the caller asserts)."""
    with anyio.move_on_after(timeout):
        while not condition():
            await anyio.sleep(0.05)
