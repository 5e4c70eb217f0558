"""docx_open of the 50,000-paragraph document over stdio, with its answer, against the bare parse.

    python tests/bench/bench_open.py [--size 50000] [--repeats 7] [--cpu] [--baseline DIR] [--saved] [--short]

The bare parse is what any reader must do: zipfile reads every XML part (relationships included)
and lxml parses it (``floor_all``). Each repeat times one bare parse and one docx_open + its answer
through the SDK's stdio client against ``python server.py``, back to back in alternating order, and
closes the session. Prints both medians and the median of the paired ratios, in wall time and in
CPU time (the server's threads, /proc/PID/task/*/schedstat, against the bare parse's in this
process: other processes' load disturbs it less). Target: <= 1.3x. ``--baseline DIR`` runs a
second server from another checkout (e.g. ``git archive main``) in the same rounds, so a change is
measured against it. ``--saved`` opens instead a copy of the fixture this checkout's tools opened,
read in the middle, edited and saved: a file that carries our element IDs, as one an agent comes
back to does (made once, next to the fixture). ``--short`` opens the document of short paragraphs
instead (one run of 8-30 words each, a table every 250: gen_docs ``short``), where the work per
element at open weighs most against the parse.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import time
import zipfile
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent.parent
for p in (str(REPO), str(BENCH_DIR)):
    if p not in sys.path:
        sys.path.insert(0, p)

import gen_docs  # noqa: E402
from bench_core import FLOOR_PARSER, fmt_ms, median, ms, now, paired_ratio  # noqa: E402
from lxml import etree  # noqa: E402

TARGET = 1.3


def floor_all(path: Path) -> list:
    """zipfile reads every XML part and lxml parses it: what any reader of the whole package does."""
    with zipfile.ZipFile(path) as z:
        return [etree.fromstring(z.read(n), FLOOR_PARSER) for n in z.namelist() if n.endswith((".xml", ".rels"))]


def settle_heap() -> None:
    """Allocate and free 4 MB before a bare parse, so that it always runs in the same memory mode.

    Right after the previous bare parse's tree was freed, the next parse took 310 ms of user time
    (no page faults); with any other step in between, or this allocation, 150 ms. Most likely glibc
    leaves the freed tree's small chunks unmerged until a large request consolidates them, and a
    parse into unmerged chunks lays its nodes out scattered (not proven). Without it every other
    repeat of a run without --baseline (a floor right after the last round's floor) read 0.55-0.65.
    """
    buf = bytearray(4 << 20)
    del buf


def thread_times(pid: int) -> dict[str, int]:
    """Each thread of a child process: the scheduler's run time so far, in nanoseconds
    (/proc/PID/task/TID/schedstat; /proc/PID/stat counts 10 ms ticks)."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            out[tid] = int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # a thread that ended meanwhile
    return out


def cpu_between(before: dict[str, int], after: dict[str, int]) -> float:
    """CPU seconds between two thread_times readings. A thread gone by the second reading is left
    out: the SDK's idle worker threads end after 10 s, having done nothing in the interval."""
    return sum(ns - before.get(tid, 0) for tid, ns in after.items()) / 1e9


def server_pid(repo: Path) -> int:
    """The newest child of this process running server.py from ``repo``."""
    me = str(os.getpid())
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            stat = Path(f"/proc/{d}/stat").read_text()
            cwd = os.readlink(f"/proc/{d}/cwd")
        except OSError:
            continue
        if stat.rsplit(")", 1)[1].split()[1] == me and cwd == str(repo):
            found.append(int(d))
    return max(found)


async def run(path: Path, repeats: int, repos: dict[str, Path]) -> dict:
    """Wall and CPU times of the bare parse and of docx_open on a server from each checkout."""
    from contextlib import AsyncExitStack

    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    t: dict = {"floor": [], "floor_cpu": []}
    async with AsyncExitStack() as stack:
        servers = {}
        for label, repo in repos.items():
            params = StdioServerParameters(command=sys.executable, args=["server.py", "--root", str(path.parent)],
                                           cwd=str(repo))
            client = await stack.enter_async_context(Client(params, cache=None, read_timeout_seconds=300))
            await client.list_tools()
            warm = await client.call_tool("docx_create", {})  # one-time costs are not the open's
            sid = warm.content[0].text.split("**Session ID**: ")[1].split()[0]
            await client.call_tool("docx_close", {"session_id": sid})
            servers[label] = (client, server_pid(repo))
            t[label], t[label + "_cpu"] = [], []

        async def product(label):
            client, pid = servers[label]
            c0, t0 = thread_times(pid), now()
            r = await client.call_tool("docx_open", {"file_path": str(path)})
            t[label].append(ms(t0))
            t[label + "_cpu"].append(cpu_between(c0, thread_times(pid)) * 1000)
            text = r.content[0].text
            assert not r.is_error and "more elements" in text, text[:500]  # the first page: more below
            sid = text.split("**Session ID**: ")[1].split()[0]
            await client.call_tool("docx_close", {"session_id": sid})

        async def floor():
            settle_heap()
            c0, t0 = time.process_time(), now()
            trees = floor_all(path)
            t["floor"].append(ms(t0))
            t["floor_cpu"].append((time.process_time() - c0) * 1000)
            del trees

        steps = [floor] + [lambda label=label: product(label) for label in repos]
        for r in range(repeats):
            k = r % len(steps)
            for step in steps[k:] + steps[:k]:  # rotate: what ran just before changes the result
                gc.collect()
                await step()
    return t


def saved_copy(path: Path) -> Path:
    """The fixture as this checkout's tools save it after an open, a read and an edit (IDs in it)."""
    out = path.with_name(path.stem + "-saved.docx")
    if out.exists():
        return out
    import tools.catalog  # noqa: F401
    from tools.runtime.call.dispatch import run_tool
    from tools.runtime.call.registry import CallContext
    from tools.services import Services

    services = Services(roots=[path.parent])
    tools = {t.name: t for t in services.tools_for(None)}

    def call(name, **kw):
        o = asyncio.run(run_tool(tools[name], name, kw, CallContext(None, services), list(tools)))
        assert not o.is_error, o.text
        return o.text

    text = call("docx_open", file_path=str(path))
    sid = text.split("**Session ID**: ")[1].split()[0]
    first = text.split("para_")[1][:6]
    call("docx_insert_paragraph", session_id=sid, text="Touched.", position=f"after:para_{first}")
    from ooxml.text.body import iter_blocks
    doc = services.sessions.get(None, sid).doc
    for i, block in enumerate(iter_blocks(doc.body)):  # as reads further down would name them
        if i % 1000 == 500:
            doc.id_of(block)
    call("docx_save", session_id=sid, file_path=str(out))
    call("docx_close", session_id=sid)
    return out


def run_cpu(path: Path, repeats: int) -> dict:
    """The same pair in this process, in CPU seconds (less at the mercy of other processes' load).
    The open timed is the one right after a docx_close of the document, as in a server's steady
    state (what the close freed is the server's, whichever call pays for it); the floor's own
    garbage is merged before it (settle_heap)."""
    import time
    import tools.catalog  # noqa: F401
    from tools.runtime.call.dispatch import run_tool
    from tools.runtime.call.registry import CallContext
    from tools.services import Services

    services = Services(roots=[path.parent])
    tools = {t.name: t for t in services.tools_for(None)}

    async def call(name, **kw):
        o = await run_tool(tools[name], name, kw, CallContext(None, services), list(tools))
        assert not o.is_error, o.text
        return o.text

    def open_close() -> float:
        t0 = time.process_time()
        text = asyncio.run(call("docx_open", file_path=str(path)))
        spent = (time.process_time() - t0) * 1000
        asyncio.run(call("docx_close", session_id=text.split("**Session ID**: ")[1].split()[0]))
        return spent

    t = {"floor": [], "open": []}
    for _ in range(repeats):
        gc.collect()
        settle_heap()
        t0 = time.process_time()
        trees = floor_all(path)
        t["floor"].append((time.process_time() - t0) * 1000)
        del trees
        settle_heap()
        open_close()  # untimed: the timed open follows a close, not the floor
        t["open"].append(open_close())
    return t


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=50_000)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--cpu", action="store_true", help="also compare CPU time in one process")
    ap.add_argument("--baseline", type=Path, help="another checkout whose server runs in the same rounds")
    ap.add_argument("--saved", action="store_true", help="open a copy saved by the product (IDs in it)")
    ap.add_argument("--short", action="store_true", help="the document of short paragraphs (8-30 words each)")
    args = ap.parse_args(argv)
    path = gen_docs.ensure_docs([args.size], short=args.short)[args.size]
    if args.saved:
        path = saved_copy(path)
        print(f"saved copy: {path}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.cpu:
        from tools.runtime.sessions.memory import keep_freed, one_arena
        one_arena()  # as server.main does: the in-process pair runs in the server's memory set-up
        keep_freed()
        c = run_cpu(path, args.repeats)
        print(f"in-process CPU time: bare parse {fmt_ms(median(c['floor']))} ms, docx_open + answer "
              f"{fmt_ms(median(c['open']))} ms, ratio {paired_ratio(c['open'], c['floor']):.2f}x")
    repos = {"open": REPO}
    if args.baseline:
        repos["baseline"] = args.baseline.resolve()
    t = asyncio.run(run(path, args.repeats, repos))
    print(f"docx_open over stdio, {args.size:,} paragraphs ({gen_docs.main_part_size(path) / 1e6:.1f} MB XML), "
          f"{args.repeats} repeats; bare parse = zip read + lxml parse of every XML part:")
    print(f"  bare parse: median {fmt_ms(median(t['floor']))} ms wall, {fmt_ms(median(t['floor_cpu']))} ms CPU")
    for label in repos:
        name = "docx_open + answer" if label == "open" else f"baseline ({repos[label]})"
        wall, cpu = paired_ratio(t[label], t["floor"]), paired_ratio(t[label + "_cpu"], t["floor_cpu"])
        print(f"  {name}: median {fmt_ms(median(t[label]))} ms wall, server {fmt_ms(median(t[label + '_cpu']))} ms CPU")
        print(f"    ratio (median of paired ratios): wall {wall:.2f}x, CPU {cpu:.2f}x "
              f"(target <= {TARGET}x: {'met' if cpu <= TARGET else 'NOT met'} in CPU); "
              f"per-repeat CPU: {', '.join(f'{a / b:.2f}' for a, b in zip(t[label + '_cpu'], t['floor_cpu']))}")
    if args.baseline:
        print(f"  this checkout / baseline, CPU: {paired_ratio(t['open_cpu'], t['baseline_cpu']):.2f}x, "
              f"wall: {paired_ratio(t['open'], t['baseline']):.2f}x")


if __name__ == "__main__":
    main()
