"""One malloc arena for the whole server process (glibc), and the imported modules kept out of
the garbage collector's full collections.

Documents are parsed in worker threads. glibc gives each thread an arena of its own and gives a
closed document's memory back to the system, so the next docx_open page-faults its whole tree in
again: for 50,000 paragraphs about 56,000 minor faults and twice the CPU of the bare parse, or not,
depending on which thread runs it and what its arena still holds (the bimodal open ratio of
issue 21; docs/performance.md). With one arena the memory a closed document leaves is reused by
the next open, whichever thread runs it. Tool threads take turns on the GIL anyway, so they
hardly contend for the arena's lock.
"""
from __future__ import annotations

import gc
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


YOUNG_THRESHOLD = 7000  # CPython's default 700: a young collection every few HTTP calls


def settle() -> int:
    """Move every object alive now (once the tool modules are imported: the SDK's models, schemas,
    modules, ~100,000 objects) to the collector's permanent generation; returns how many.

    A full collection walks every tracked object. Over HTTP one ran every second or two under load
    and took 55-70 ms of CPU (85-190 ms wall), all other clients waiting on the GIL meanwhile: the
    HTTP p99 stalls, and up to ~10% of the server's CPU (docs/performance.md). Modules live as long
    as the process, so there is nothing to find in them; what calls make afterwards is collected as
    before. Garbage alive now is collected first, or it would never be.

    Young collections run 10x less often: at 700 one ran every 4 calls and walked the objects of
    every call in flight; at 7,000 most of those are freed by their reference counts first (GC CPU
    a call about a quarter, each collection 2-3 ms).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    return gc.get_freeze_count()
