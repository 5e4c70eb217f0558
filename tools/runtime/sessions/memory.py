"""The server's malloc settings (glibc): one arena, and freed memory kept for the next document;
and its garbage collector's (``settle``: what the imports made kept out of full collections).

Documents are parsed in worker threads. glibc gives each thread an arena of its own and gives a
closed document's memory back to the system, so the next docx_open page-faults its whole tree in
again: for 50,000 paragraphs about 56,000 minor faults and twice the CPU of the bare parse, or not,
depending on which thread runs it and what its arena still holds (the bimodal open ratio of
issue 21; docs/performance.md). With one arena the memory a closed document leaves is reused by
the next open, whichever thread runs it. Tool threads take turns on the GIL anyway, so they
hardly contend for the arena's lock.

And freed memory stays mapped (``keep_freed``): by default glibc hands the top of its heap back to
the system once more than a few dozen MB there are free, so closing a 50,000-paragraph document
gave its tree's pages back and the next docx_open faulted 11,800 of them in again (10-35 ms of
system time an open, in the server's steady state). The cost: the process keeps what it freed
(up to TRIM_THRESHOLD at the top of the heap) for the next document instead of returning it.
"""
from __future__ import annotations

import gc
import os
import sys

M_TRIM_THRESHOLD = -1  # glibc's mallopt parameter numbers
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
TRIM_THRESHOLD = 512 << 20  # a closed 50,000-paragraph document frees ~250 MB at the top of the heap
MMAP_THRESHOLD = 32 << 20  # glibc's own ceiling for it (64-bit): a part's bytes come from the heap too


def one_arena() -> bool:
    """Limit the process to one malloc arena; call before any thread starts. False where the C
    library has no such setting (not glibc, not Linux)."""
    return _mallopt(M_ARENA_MAX, 1)


def keep_freed() -> bool:
    """Keep freed memory mapped, up to TRIM_THRESHOLD at the top of the heap, for the next
    document's tree. Setting it stops glibc from moving the mmap threshold itself, so that is set
    too: to where glibc would have moved it once the first large part's bytes were freed, not left
    wherever the imports happened to leave it. False where the C library has no such settings, or
    when the operator set glibc's own MALLOC_TRIM_THRESHOLD_ (their figure wins: a small container)."""
    if os.environ.get("MALLOC_TRIM_THRESHOLD_"):
        return False
    return _mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD) and _mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)


CONSOLIDATE_BYTES = 1 << 16  # a request glibc serves from the heap, past its small bins


def consolidate() -> None:
    """Merge now the small chunks a freed tree left in glibc's fast bins. glibc merges them at the
    next request of 1 KB or more, walking every chunk: 75-95 ms of CPU after a document of 50,000
    short paragraphs, paid by whatever ran next (the next docx_open's first file read: issue 29,
    defect 18). One such request here makes the call that freed the tree pay for it."""
    bytearray(CONSOLIDATE_BYTES)


def _mallopt(param: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    import ctypes
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(param, value))


YOUNG_THRESHOLD = 7000  # CPython's default 700: a young collection every few HTTP calls


def settle() -> int:
    """Move every object alive now to the collector's permanent generation (once the tool modules
    are loaded: server.py froze the SDK's import-time objects, not the ~10,000 of the tool modules
    nor the ~7,000 of uvicorn, Starlette and the SDK's HTTP handlers imported when serving starts);
    returns how many are frozen.

    A full collection walks every tracked object, all other clients waiting on the GIL meanwhile.
    Over HTTP under load one ran every second or two: 55-70 ms of CPU (85-190 ms wall) before
    server.py froze its imports, 12-16 ms (13-33 ms wall) over what was left (docs/performance.md).
    Modules live as long as the process, so there is nothing to find in them; what calls make
    afterwards is collected as before. Garbage alive now is collected first, or it would never be.

    Young collections run 10x less often: at 700 one ran every 4 calls and walked the objects of
    every call in flight; at 7,000 most of those are freed by their reference counts first (GC CPU
    0.07-0.09 ms a call -> 0.01-0.02 ms, each collection 2-3 ms).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    return gc.get_freeze_count()
