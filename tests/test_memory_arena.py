"""The server runs in one malloc arena (tools/runtime/memory.py): a tree freed in one worker thread
is reused by a parse in another, instead of being page-faulted in again (issue 21: docx_open of
50,000 paragraphs cost 56,000 minor faults and twice the bare parse's CPU, or not, depending on
the thread)."""
from __future__ import annotations

import os
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


# A part's bytes inflated, parsed and freed with the tree, three times over, as documents are
# opened and closed. Printed: the minor page faults of the last parse.
REPARSE = """
import resource, sys, zlib
sys.path.insert(0, {root!r})
from lxml import etree
from tools.runtime import memory
assert memory.one_arena()
if {keep!r}:
    assert memory.keep_freed()
packed = zlib.compress(b"<r>" + b"<p a='1'><t>some text here</t></p>" * 200000 + b"</r>")
for _ in range(3):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    tree = etree.fromstring(zlib.decompress(packed))
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    del tree
print(faults)
"""


def refaults(keep: bool) -> int:
    out = subprocess.run([sys.executable, "-c", REPARSE.format(root=str(ROOT), keep=keep)], capture_output=True,
                         text=True, timeout=120, check=True).stdout
    return int(out)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's heap trimming")
def test_a_freed_tree_stays_mapped_for_the_next_parse():
    assert refaults(keep=True) < 200


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's heap trimming")
def test_by_default_glibc_gives_a_freed_tree_back_and_the_next_parse_faults_it_in():
    assert refaults(keep=False) > 5000  # what keep_freed() saves


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's heap trimming")
def test_an_operators_malloc_trim_threshold_wins_over_keeping_freed_memory():
    env = os.environ | {"MALLOC_TRIM_THRESHOLD_": str(1 << 20)}
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from tools.runtime import memory; print(memory.keep_freed())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True, env=env)
    assert out.stdout.strip() == "False"


def test_the_server_keeps_freed_memory_right_after_limiting_arenas(monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "one_arena", lambda: calls.append("one_arena"))

    def keep():
        calls.append("keep_freed")
        raise SystemExit(0)
    monkeypatch.setattr(memory, "keep_freed", keep)
    with pytest.raises(SystemExit):
        server.main(["--root", str(ROOT)])
    assert calls == ["one_arena", "keep_freed"]
