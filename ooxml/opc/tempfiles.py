"""Our temporary files: a name only we use, and the cleanup of those a killed save left behind.

``temp_name()`` is ``.~ooxml-mcp-save.<host>.<pid>.<random>.tmp`` (host: a hash of the host
name). ``clean_stale_temp_files`` removes only files with exactly that pattern, regular, owned by
our user, and abandoned; it is run once at server start, on a background thread.
"""
from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets
import socket
import stat
import sys
import threading
import time
from pathlib import Path

log = logging.getLogger("ooxml_mcp")

_HOST_TAG = hashlib.sha256(socket.gethostname().encode()).hexdigest()[:6]
TEMP_PATTERN = re.compile(r"^\.~ooxml-mcp-save\.([0-9a-f]{6})\.(\d+)\.([0-9a-f]{8})\.tmp$")
STALE_AFTER_S = 3600  # a temp file of a live writer older than this is abandoned
_STARTED = time.time()  # files of our own pid older than this come from an earlier process


def temp_name() -> str:
    return f".~ooxml-mcp-save.{_HOST_TAG}.{os.getpid()}.{secrets.token_hex(4)}.tmp"


def clean_stale_temp_files_in_background(roots: list[Path]) -> threading.Thread:
    """Start ``clean_stale_temp_files`` on a daemon thread: a big root takes seconds to walk, and
    the server need not wait (saves meanwhile are safe: a live writer's files are never removed)."""
    worker = threading.Thread(target=clean_stale_temp_files, args=(list(roots),), name="ooxml-mcp-temp-cleanup",
                              daemon=True)
    worker.start()
    return worker


def clean_stale_temp_files(roots: list[Path], max_dirs: int = 20_000) -> int:
    """Remove our own abandoned temp files under the roots; returns how many.

    Only files named by ``temp_name()`` (TEMP_PATTERN), regular (not links), owned by us, and
    abandoned: their writer (host + pid) is gone, or they are older than STALE_AFTER_S. Files of
    our own pid last written before this process started come from an earlier process with the
    same pid (containers reuse pids).
    The walk follows no symlinks and stops after ``max_dirs`` folders.
    """
    removed, seen = 0, 0
    stack = [Path(r) for r in roots]
    while stack and seen < max_dirs:
        folder = stack.pop()
        seen += 1
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                elif TEMP_PATTERN.match(entry.name) and _abandoned(entry):
                    os.unlink(entry.path)
                    removed += 1
            except OSError:
                continue
    if stack:
        log.warning("temp file cleanup stopped after %d folders; deeper folders were not searched", max_dirs)
    if removed:
        log.warning("removed %d temporary file(s) left by an interrupted save", removed)
    return removed


def _abandoned(entry: os.DirEntry) -> bool:
    st = entry.stat(follow_symlinks=False)
    if not stat.S_ISREG(st.st_mode) or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
        return False
    host, pid = TEMP_PATTERN.match(entry.name).group(1, 2)
    if time.time() - st.st_mtime > STALE_AFTER_S:
        return True
    if host != _HOST_TAG:
        return False
    if int(pid) == os.getpid():
        return st.st_mtime < _STARTED - 1  # a save of ours keeps its file's mtime current
    return not _alive(int(pid))


def _alive(pid: int) -> bool:
    if sys.platform == "win32":
        return True  # no cheap check: only the age rule applies
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True
