"""The built-in tools, their modules imported on first need (tools/list, a call), not at start:
a worker answers initialize without them, and server.py warms them up just after."""
from __future__ import annotations

import threading
from collections.abc import Callable

from tools.runtime.call.registry import BUILTIN, Tool

_loaded = False
_warming = threading.Lock()  # held from the first warm_up() on
_then: list[Callable[[], object]] = []  # after the warm-up, in its thread (server.main: memory.settle)


def builtin() -> dict[str, Tool]:
    """Every built-in tool (tools/catalog.py imports their modules, which register them)."""
    global _loaded
    if not _loaded:
        import tools.catalog  # noqa: F401  (another thread importing it: this waits for it to finish)
        _loaded = True
    return BUILTIN


def loaded() -> bool:
    return _loaded


def warm_up() -> None:
    """builtin() in a background thread, once: the modules load while the client is still busy.
    Then what after_warm_up() asked for, even if they were loaded already (--config loads them)."""
    if _warming.acquire(blocking=False):
        threading.Thread(target=_warm, name="ooxml-mcp-catalog", daemon=True).start()


def _warm() -> None:
    builtin()
    for step in _then:
        step()


def after_warm_up(step: Callable[[], object]) -> None:
    _then.append(step)
