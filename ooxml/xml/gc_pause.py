"""The cyclic garbage collector paused around a call that allocates many short-lived objects
(element proxies, tuples, strings) over a large tree: docx_check and docx_compare.

Each young collection walks every tracked object allocated since, and the older ones walk the
proxies the call holds again and again (on 50,000 paragraphs 15-20 % of docx_check's CPU). These
calls make no reference cycles of their own, so reference counting frees what they drop; what they
leave is collected as before once the pause ends. A counter keeps it paused until the last of
concurrent calls (tool threads) ends."""
from __future__ import annotations

import gc
import threading
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def paused():
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
