"""Per call over stdio: an insert with its answer / the trivial call, at 50 and 50,000 paragraphs.

    python tests/bench/bench_calls.py [--sizes 50,50000] [--calls 40] [--baseline DIR]

The SDK's client drives ``python server.py`` over stdio. Each round times, on every size, a
docx_insert_paragraph in the middle of the document with the default (full) answer and with
view='compact', then docx_list_sessions (the trivial call: the transport's floor). Printed for
each: the median wall time, the server's CPU per call (its threads' run time,
/proc/PID/task/*/schedstat; the median), and the median of the per-round
ratios to the trivial call in the same round (goal for full: <= 1.2x). ``--baseline DIR`` runs a
server from another checkout in the same rounds, so a change is measured against it: the paired
ratio of server CPU per call, and each insert's CPU over the trivial call (what the ratio's goal
leaves to the tool: a cheaper transport raises the ratio).

Every ratio is printed as its median with the spread of the per-round ratios (25th-75th
percentile, ``[p25-p75]``): a shared 2-core machine makes single figures swing. The sessions are
opened again every ``RENEW`` rounds (outside the timing), so no call pays for the undo limit
(100 steps) dropping old steps and logging it.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import tempfile
from contextlib import AsyncExitStack
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent.parent
for p in (str(REPO), str(BENCH_DIR)):
    if p not in sys.path:
        sys.path.insert(0, p)

import gen_docs  # noqa: E402
from bench_core import median, ms, now, paired_ratio, prepare_mid_docs  # noqa: E402
import statistics  # noqa: E402
from bench_open import cpu_between, server_pid, thread_times  # noqa: E402

TARGET = 1.2
RENEW = 45  # rounds per session: each round adds 2 undo steps per size, the limit is 100


def spread(num: list[float], den: list[float]) -> str:
    """The median of per-round ratios with their interquartile range."""
    ratios = sorted(a / b for a, b in zip(num, den))
    if len(ratios) < 4:
        return f"{median(ratios):.2f}x"
    q = statistics.quantiles(ratios, n=4)
    return f"{median(ratios):.2f}x [{q[0]:.2f}-{q[2]:.2f}]"


async def open_sessions(client, mids: dict, sizes: list[int]) -> dict[int, str]:
    """A session per size, warmed up by one insert (its first draw of the window is not timed)."""
    sids = {}
    for n in sizes:
        text = (await client.call_tool("docx_open", {"file_path": str(mids[n][0])})).content[0].text
        sids[n] = re.search(r"\*\*Session ID\*\*: (\S+)", text).group(1)
        await client.call_tool("docx_insert_paragraph", {"session_id": sids[n], "text": "warm-up",
                                                         "position": f"after:{mids[n][1]}"})
    return sids


async def run(mids: dict, sizes: list[int], calls: int, repos: dict[str, Path], root: Path) -> dict:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    res: dict = {}
    async with AsyncExitStack() as stack:
        servers = {}
        for label, repo in repos.items():
            params = StdioServerParameters(command=sys.executable, args=["server.py", "--root", str(root)],
                                           cwd=str(repo))
            client = await stack.enter_async_context(Client(params, cache=None, read_timeout_seconds=300))
            await client.list_tools()
            servers[label] = (client, server_pid(repo), await open_sessions(client, mids, sizes))

        async def timed(label, key, name, args):
            client, pid, _ = servers[label]
            c0, t0 = thread_times(pid), now()
            r = await client.call_tool(name, args)
            wall, cpu = ms(t0), cpu_between(c0, thread_times(pid)) * 1000
            assert not r.is_error, r.content[0].text[:500]
            res.setdefault((label, key), []).append((wall, cpu))

        for i in range(calls):
            if i and i % RENEW == 0:
                for label, (client, pid, sids) in servers.items():
                    for sid in sids.values():
                        await client.call_tool("docx_close", {"session_id": sid})
                    servers[label] = (client, pid, await open_sessions(client, mids, sizes))
            for label in (list(repos) if i % 2 == 0 else list(reversed(repos))):
                sids = servers[label][2]
                await servers[label][0].call_tool("docx_list_sessions", {})  # untimed: the server wakes up
                for n in sizes:
                    for view in ("full", "compact"):
                        args = {"session_id": sids[n], "text": f"Inserted by the benchmark ({view}).",
                                "position": f"after:{mids[n][1]}"}
                        if view == "compact":
                            args["view"] = "compact"
                        await timed(label, (n, view), "docx_insert_paragraph", args)
                await timed(label, "trivial", "docx_list_sessions", {})
    return res


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="50,50000")
    ap.add_argument("--calls", type=int, default=60, help="rounds")
    ap.add_argument("--baseline", type=Path)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    repos = {"this": REPO} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as work:
        mids = prepare_mid_docs(gen_docs.ensure_docs(sizes), sizes, Path(work))
        res = asyncio.run(run(mids, sizes, args.calls, repos, Path(work)))
    for label in repos:
        triv = res[label, "trivial"]
        print(f"{label}: trivial call median {median([w for w, _ in triv]):.2f} ms wall, "
              f"{median([c for _, c in triv]):.2f} ms server CPU")
        for n in sizes:
            for view in ("full", "compact"):
                s = res[label, (n, view)]
                wall = paired_ratio([w for w, _ in s], [w for w, _ in triv])
                print(f"  insert {n:>6,}p {view:7s}: {median([w for w, _ in s]):6.2f} ms wall, "
                      f"{median([c for _, c in s]):5.2f} ms server CPU; / trivial (paired) wall "
                      f"{spread([w for w, _ in s], [w for w, _ in triv])}, "
                      f"CPU {spread([c for _, c in s], [c for _, c in triv])}"
                      + (f" (goal <= {TARGET}x: {'met' if wall <= TARGET else 'NOT met'})" if view == "full" else ""))

    if "baseline" in repos:  # the same round's calls paired: what this checkout costs against the other
        print("this / baseline, server CPU (paired by round):")
        for key in ["trivial"] + [(n, v) for n in sizes for v in ("full", "compact")]:
            this, base = [c for _, c in res["this", key]], [c for _, c in res["baseline", key]]
            extra = [t - tt for (_, t), (_, tt) in zip(res["this", key], res["this", "trivial"])]
            extra_b = [t - tt for (_, t), (_, tt) in zip(res["baseline", key], res["baseline", "trivial"])]
            name = "trivial" if key == "trivial" else f"insert {key[0]:>6,}p {key[1]}"
            print(f"  {name:24s}: {spread(this, base)}"
                  + ("" if key == "trivial" else f"; CPU over the trivial call {median(extra):.2f} ms "
                                                 f"(baseline {median(extra_b):.2f} ms)"))
    print(f"{args.calls} rounds; load average at the end {os.getloadavg()[0]:.1f}")

if __name__ == "__main__":
    main()
