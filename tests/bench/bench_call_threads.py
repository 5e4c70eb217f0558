"""Per call over stdio, by thread of the server: the event loop against the worker threads.

    python tests/bench/bench_call_threads.py [CHECKOUT]      # CALLS=80 VIEWS=full,compact,none

The SDK client drives ``python server.py`` of CHECKOUT (default: this one) on the 50-paragraph
fixture; each round makes the trivial call (docx_list_sessions) and an insert per view, and reads
each server thread's run time (/proc/PID/task/*/schedstat) around every call. Printed: medians of
wall time, event-loop-thread CPU, worker-thread CPU and the answer's size (docs/performance.md).
"""
import asyncio, os, re, sys, tempfile, statistics
from pathlib import Path
REPO = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]).resolve()
sys.path[:0] = [str(REPO), str(Path(__file__).resolve().parent)]
import gen_docs
from bench_core import prepare_mid_docs, now, ms
from bench_open import server_pid, thread_times
N = int(os.environ.get("CALLS", "60"))
VIEWS = os.environ.get("VIEWS", "full,compact,none").split(",")

def split(pid, a, b):
    main = b.get(str(pid), 0) - a.get(str(pid), 0)
    other = sum(ns - a.get(t, 0) for t, ns in b.items() if t != str(pid))
    return main / 1e6, other / 1e6

async def run(mids, root):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters
    params = StdioServerParameters(command=sys.executable, args=["server.py", "--root", str(root)], cwd=str(REPO))
    res = {}
    async with Client(params, cache=None, read_timeout_seconds=300) as c:
        await c.list_tools()
        pid = server_pid(REPO)
        t = (await c.call_tool("docx_open", {"file_path": str(mids[50][0])})).content[0].text
        sid = re.search(r"\*\*Session ID\*\*: (\S+)", t).group(1)
        for i in range(N):
            if i % 40 == 0:
                await c.call_tool("docx_close", {"session_id": sid})
                t = (await c.call_tool("docx_open", {"file_path": str(mids[50][0])})).content[0].text
                sid = re.search(r"\*\*Session ID\*\*: (\S+)", t).group(1)
                await c.call_tool("docx_insert_paragraph", {"session_id": sid, "text": "w", "position": f"after:{mids[50][1]}"})
            await c.call_tool("docx_list_sessions", {})
            calls = [("trivial", "docx_list_sessions", {})]
            for v in VIEWS:
                a = {"session_id": sid, "text": "Inserted by the benchmark.", "position": f"after:{mids[50][1]}"}
                if v != "full": a["view"] = v
                calls.append((v, "docx_insert_paragraph", a))
            for key, name, a in calls:
                b0, t0 = thread_times(pid), now()
                r = await c.call_tool(name, a)
                w = ms(t0); b1 = thread_times(pid)
                assert not r.is_error, r.content[0].text[:300]
                res.setdefault(key, []).append((w,) + split(pid, b0, b1) + (len(r.content[0].text),))
    return res

with tempfile.TemporaryDirectory() as work:
    mids = prepare_mid_docs(gen_docs.ensure_docs([50]), [50], Path(work))
    res = asyncio.run(run(mids, Path(work)))
med = statistics.median
for k, rows in res.items():
    print(f"{k:8s} wall {med(r[0] for r in rows):.3f}  main-thread {med(r[1] for r in rows):.3f}  workers {med(r[2] for r in rows):.3f}  total {med(r[1]+r[2] for r in rows):.3f} ms  answer {med(r[3] for r in rows):.0f} B")
