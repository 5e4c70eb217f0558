"""The server moves what its imports made (~100,000 objects) out of the garbage collector's full
collections once the tool modules are loaded (tools/runtime/memory.py: settle). Over HTTP a full
collection walked them every second or two under load, 60-190 ms with every client waiting on the
GIL (issue 21: the editing p99)."""
from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

import server
from tools import builtin
from tools.runtime import memory

ROOT = Path(__file__).resolve().parents[1]

# A fresh interpreter with the server's modules and tools loaded: tracked objects before and
# after settle(), and how many it froze.
PROBE = """
import gc, sys
sys.path.insert(0, {root!r})
import server
from tools import builtin
from tools.runtime import memory
builtin.builtin()
gc.collect()
before = len(gc.get_objects())
frozen = memory.settle()
print(before, len(gc.get_objects()), frozen, gc.get_threshold()[0])
"""


def test_settled_objects_are_left_out_of_full_collections():
    out = subprocess.run([sys.executable, "-c", PROBE.format(root=str(ROOT))], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    before, after, frozen, young = map(int, out)
    assert before > 20_000  # the imports are what a full collection walked
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
