"""The server runs in one malloc arena (tools/runtime/sessions/memory.py): a tree freed in one worker thread
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
from tools.runtime.sessions import memory

ROOT = Path(__file__).resolve().parents[3]

# Two worker threads alive at once, as in the server: the first parses ~8 MB of XML and frees
# the tree, then the second parses the same. Printed: each parse's minor page faults.
PROBE = """
import resource, sys, threading
sys.path.insert(0, {root!r})
from lxml import etree
if {one!r}:
    from tools.runtime.sessions.memory import one_arena
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
from tools.runtime.sessions import memory
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
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from tools.runtime.sessions import memory; print(memory.keep_freed())"
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


# Issue 29, defect 18: a document's tree, freed when its session closed, left its small chunks in
# glibc's fast bins; glibc merged them at the next request of 1 KB or more, walking every chunk: the
# next docx_open's first read paid 75-95 ms of CPU for a document of 50,000 short paragraphs (2.0x
# the bare parse). docx_close frees the tree and merges its chunks itself. Printed, once the closed
# document is gone: the bytes in free fast-bin chunks, and the CPU of the next 64 KB request.
CLOSED = """
import asyncio, ctypes, sys, time, weakref
sys.path.insert(0, {root!r})
from pathlib import Path
from tools.runtime.sessions import memory
assert memory.one_arena() and memory.keep_freed()
import tools.catalog
from tests.builders import build_docx, p
from tools.runtime.call.dispatch import run_tool
from tools.runtime.call.registry import CallContext
from tools.services import Services
path = build_docx(Path({folder!r}) / "short.docx", "".join(p(f"Short paragraph {{i}} of a few words.") for i in range(20000)))
services = Services(roots=[path.parent])
tools = {{t.name: t for t in services.tools_for(None)}}
def call(name, **kw):
    out = asyncio.run(run_tool(tools[name], name, kw, CallContext(None, services), list(tools)))
    assert not out.is_error, out.text
    return out.text
sid = call("docx_open", file_path=str(path)).split("**Session ID**: ")[1].split()[0]
doc = weakref.ref(services.sessions.get(None, sid).doc)
call("docx_close", session_id=sid)
for _ in range(200):
    if doc() is None:
        break
    time.sleep(0.01)
assert doc() is None
class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks "
                                                "fordblks keepcost").split()]
libc = ctypes.CDLL(None)
libc.mallinfo2.restype = Info
fast = libc.mallinfo2().fsmblks
t0 = time.thread_time()
bytearray(1 << 16)
print(fast, round((time.thread_time() - t0) * 1000, 1))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's fast bins")
def test_a_closed_documents_memory_is_merged_by_docx_close_not_by_the_next_call(tmp_path):
    out = subprocess.run([sys.executable, "-c", CLOSED.format(root=str(ROOT), folder=str(tmp_path))],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    fast, next_request_ms = out.stdout.split()
    assert int(fast) < 1 << 20, (fast, next_request_ms)  # the tree's nodes: ~5 MB unmerged before
