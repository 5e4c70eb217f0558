"""The first footnote insert of a session, against the second and the trivial call (issue 21).

    python tests/bench/bench_notes.py [--size 50000] [--sessions 3] [--baseline DIR]

Through the dispatcher (as the server runs a call), in CPU time: each session opens the fixture,
then times docx_list_sessions (the trivial call), the first docx_insert_footnote and a second
one. The first used to scan every note reference of the body (50-100 ms at 50,000 paragraphs).
``--baseline DIR`` runs the same in a process importing another checkout, alternating with this
one, so the figures before and after a change come from the same run.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent.parent


def child(path: str, sessions: int) -> dict:
    import tools.catalog  # noqa: F401
    from tools.runtime.call.dispatch import run_tool
    from tools.runtime.call.registry import CallContext
    from tools.services import Services

    services = Services(roots=[Path(path).parent])
    tools = {t.name: t for t in services.tools_for(None)}

    async def call(name, **kw):
        o = await run_tool(tools[name], name, kw, CallContext(None, services), list(tools))
        assert not o.is_error, o.text
        return o.text

    async def run():
        out = {"trivial": [], "first": [], "second": []}
        for _ in range(sessions):
            text = await call("docx_open", file_path=path)
            sid = text.split("**Session ID**: ")[1].split()[0]
            para = re.findall(r"para_[0-9a-f]+", text)[-1]
            for k in out:
                gc.collect()
                t0 = time.process_time()
                if k == "trivial":
                    await call("docx_list_sessions")
                else:
                    await call("docx_insert_footnote", session_id=sid, element_id=para, text=f"Note {k}")
                out[k].append((time.process_time() - t0) * 1000)
            await call("docx_close", session_id=sid)
        return out
    return asyncio.run(run())


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=50_000)
    ap.add_argument("--sessions", type=int, default=3)
    ap.add_argument("--baseline", type=Path)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.sessions)))
        return
    sys.path.insert(0, str(BENCH_DIR))
    import gen_docs
    path = str(gen_docs.ensure_docs([args.size])[args.size])
    repos = {"this": REPO} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    res: dict = {label: {"trivial": [], "first": [], "second": []} for label in repos}
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for r in range(args.sessions):
        for label in (list(repos) if r % 2 == 0 else list(reversed(repos))):
            out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", path, "--sessions", "1"],
                                 cwd=repos[label], env={**os.environ, "PYTHONPATH": str(repos[label])},
                                 capture_output=True, text=True, check=True)
            for k, v in json.loads(out.stdout.strip().splitlines()[-1]).items():
                res[label][k] += v
    med = statistics.median
    print(f"docx_insert_footnote at {args.size:,} paragraphs, CPU ms (median of {args.sessions} sessions):")
    for label, t in res.items():
        print(f"  {label:9s} trivial call {med(t['trivial']):6.1f} | first footnote {med(t['first']):6.1f} | "
              f"second {med(t['second']):6.1f} | first / second {med(t['first']) / med(t['second']):.1f}x")


if __name__ == "__main__":
    main()
