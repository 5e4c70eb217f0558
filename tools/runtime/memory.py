"""One malloc arena for the whole server process (glibc).

Documents are parsed in worker threads. glibc gives each thread an arena of its own and gives a
closed document's memory back to the system, so the next docx_open page-faults its whole tree in
again: for 50,000 paragraphs about 56,000 minor faults and twice the CPU of the bare parse, or not,
depending on which thread runs it and what its arena still holds (the bimodal open ratio of
issue 21; docs/performance.md). With one arena the memory a closed document leaves is reused by
the next open, whichever thread runs it. Tool threads take turns on the GIL anyway, so they
hardly contend for the arena's lock.
"""
from __future__ import annotations

import sys

M_ARENA_MAX = -8  # glibc's mallopt parameter number


def one_arena() -> bool:
    """Limit the process to one malloc arena; call before any thread starts. False where the C
    library has no such setting (not glibc, not Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_ARENA_MAX, 1))
