"""The server runs in one malloc arena (tools/runtime/memory.py): a tree freed in one worker thread
is reused by a parse in another, instead of being page-faulted in again (issue 21: docx_open of
50,000 paragraphs cost 56,000 minor faults and twice the bare parse's CPU, or not, depending on
the thread)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import server
from tools.runtime import memory

ROOT = Path(__file__).resolve().parents[1]

# Two worker threads alive at once, as in the server: the first parses ~8 MB of XML and frees
# the tree, then the second parses the same. Printed: each parse's minor page faults.
PROBE = """
import resource, sys, threading
sys.path.insert(0, {root!r})
from lxml import etree
if {one!r}:
    from tools.runtime.memory import one_arena
    assert one_arena()
data = b"<r>" + b"<p a='1'><t>some text here</t></p>" * 200000 + b"</r>"
turn = [threading.Event(), threading.Event()]
got = {{}}
def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
def worker(i):
    etree.fromstring(b"<small/>")  # the thread has its memory (glibc: its arena) before its turn
    turn[i].wait()
    before = faults()
    tree = etree.fromstring(data)
    got[i] = faults() - before
    del tree
    if i == 0:
        turn[1].set()
threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
for t in threads:
    t.start()
turn[0].set()
for t in threads:
    t.join()
print(got[0], got[1])
"""


def faults_of(one: bool) -> tuple[int, int]:
    out = subprocess.run([sys.executable, "-c", PROBE.format(root=str(ROOT), one=one)], capture_output=True,
                         text=True, timeout=120, check=True).stdout.split()
    return int(out[0]), int(out[1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's arenas")
def test_a_tree_freed_in_one_thread_is_reused_by_the_next_threads_parse():
    first, second = faults_of(one=True)
    assert first > 1000  # the probe is big enough to see
    assert second < first / 4, (first, second)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's arenas")
def test_without_one_arena_the_second_thread_faults_its_tree_in_again():
    first, second = faults_of(one=False)
    assert second > first / 2, (first, second)  # what one_arena() saves


def test_the_server_limits_arenas_before_anything_else(monkeypatch):
    calls = []

    def first(*_):
        calls.append("one_arena")
        raise SystemExit(0)
    monkeypatch.setattr(memory, "one_arena", first)
    with pytest.raises(SystemExit):
        server.main(["--root", str(ROOT)])
    assert calls == ["one_arena"]
