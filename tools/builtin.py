"""The built-in tools, their modules imported on first need (tools/list, a call), not at start:
a worker answers initialize without them, and server.py warms them up just after."""
from __future__ import annotations

import threading
from collections.abc import Callable

from tools.runtime.call.registry import Registry, publish_builtin

_registry: Registry | None = None
_building = threading.RLock()
_warming = threading.Lock()  # held from the first warm_up() on
_then: list[Callable[[], object]] = []  # after the warm-up, in its thread (server.main: memory.settle)


def builtin() -> Registry:
    """The registry of every built-in tool (tools/catalog.py lists their modules), built once;
    ``Services.registry`` is this."""
    global _registry
    if _registry is None:
        with _building:  # another thread building it: this waits for it
            if _registry is None:
                from tools.catalog import registry
                _registry = publish_builtin(registry())
    return _registry


def loaded() -> bool:
    return _registry is not None


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
