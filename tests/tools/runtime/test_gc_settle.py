"""Once the tool modules are loaded the server moves what was imported since server.py froze the
SDK's import-time objects (the tool modules, uvicorn, Starlette, the SDK's HTTP handlers) out of
the garbage collector's full collections, and runs young collections less often
(tools/runtime/sessions/memory.py: settle). Over HTTP a full collection walked them every second or two
under load, with every client waiting on the GIL (issue 21: the editing p99)."""
from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

import server
from tools import builtin
from tools.runtime.sessions import memory

ROOT = Path(__file__).resolve().parents[3]

# A fresh interpreter with what a serving HTTP worker has loaded: tracked objects outside the
# permanent generation before and after settle(), how many it froze, the young threshold after.
PROBE = """
import gc, sys
sys.path.insert(0, {root!r})
import server
from tools import builtin
from tools.runtime.sessions import memory
import uvicorn, mcp.server.streamable_http_manager
builtin.builtin()
gc.collect()
before, frozen = len(gc.get_objects()), gc.get_freeze_count()
memory.settle()
print(before, len(gc.get_objects()), gc.get_freeze_count() - frozen, gc.get_threshold()[0])
"""


def test_settled_objects_are_left_out_of_full_collections():
    out = subprocess.run([sys.executable, "-c", PROBE.format(root=str(ROOT))], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    before, after, frozen, young = map(int, out)
    assert before > 5_000  # the imports since server.py's own freeze: what a full collection walked
    assert after < before / 20, (before, after)
    assert frozen > before * 0.9  # all of it, bar garbage settle() collected first
    assert young == memory.YOUNG_THRESHOLD > 700  # young collections less often than CPython's default


def test_the_server_settles_after_its_tools_are_loaded(monkeypatch):
    asked = []

    def stop(step):
        asked.append(step)
        raise SystemExit(0)
    monkeypatch.setattr(memory, "one_arena", lambda: True)  # not in the test process
    monkeypatch.setattr(builtin, "after_warm_up", stop)
    with pytest.raises(SystemExit):
        server.main(["--root", str(ROOT)])
    assert asked == [memory.settle]


def test_the_warm_up_runs_its_next_steps_even_when_the_tools_are_already_loaded(monkeypatch):
    builtin.builtin()  # as --config does before serving
    done = threading.Event()
    monkeypatch.setattr(builtin, "_warming", threading.Lock())  # a process's first warm-up
    monkeypatch.setattr(builtin, "_then", [])
    builtin.after_warm_up(done.set)
    builtin.warm_up()
    assert done.wait(10)
