"""docx_open of the 50,000-paragraph document over stdio, with its answer, against the bare parse.

    python tests/bench/bench_open.py [--size 50000] [--repeats 7]

The bare parse is what any reader must do: zipfile reads word/document.xml and lxml parses it
(bench_core.floor_open). Each repeat times one bare parse and one docx_open + its answer through
the SDK's stdio client against ``python server.py``, back to back in alternating order, and closes
the session. Prints both medians and the median of the paired ratios. Target: <= 1.3x.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent.parent
for p in (str(REPO), str(BENCH_DIR)):
    if p not in sys.path:
        sys.path.insert(0, p)

import gen_docs  # noqa: E402
from bench_core import floor_open, fmt_ms, median, ms, now, paired_ratio  # noqa: E402

TARGET = 1.3


async def run(path: Path, repeats: int) -> dict:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["server.py", "--root", str(path.parent)],
                                   cwd=str(REPO))
    t = {"floor": [], "open": []}
    async with Client(params, cache=None, read_timeout_seconds=300) as client:
        await client.list_tools()
        warm = await client.call_tool("docx_create", {})  # one-time costs are not the open's
        sid = warm.content[0].text.split("**Session ID**: ")[1].split()[0]
        await client.call_tool("docx_close", {"session_id": sid})

        async def product():
            t0 = now()
            r = await client.call_tool("docx_open", {"file_path": str(path)})
            t["open"].append(ms(t0))
            text = r.content[0].text
            assert not r.is_error and "more elements above" in text, text[:500]
            sid = text.split("**Session ID**: ")[1].split()[0]
            await client.call_tool("docx_close", {"session_id": sid})

        async def floor():
            t0 = now()
            tree = floor_open(path)
            t["floor"].append(ms(t0))
            del tree

        for r in range(repeats):
            for step in ((floor, product) if r % 2 == 0 else (product, floor)):
                gc.collect()
                await step()
    return t


def run_cpu(path: Path, repeats: int) -> dict:
    """The same pair in this process, in CPU seconds (less at the mercy of other processes' load)."""
    import time
    import tools.catalog  # noqa: F401
    from tools.runtime.dispatch import run_tool
    from tools.runtime.registry import CallContext
    from tools.runtime.services import Services

    services = Services(roots=[path.parent])
    tools = {t.name: t for t in services.tools_for(None)}

    async def call(name, **kw):
        o = await run_tool(tools[name], name, kw, CallContext(None, services), list(tools))
        assert not o.is_error, o.text
        return o.text

    t = {"floor": [], "open": []}
    for r in range(repeats):
        for side in (("floor", "open") if r % 2 == 0 else ("open", "floor")):
            gc.collect()
            t0 = time.process_time()
            if side == "floor":
                tree = floor_open(path)
                t["floor"].append((time.process_time() - t0) * 1000)
                del tree
            else:
                text = asyncio.run(call("docx_open", file_path=str(path)))
                t["open"].append((time.process_time() - t0) * 1000)
                sid = text.split("**Session ID**: ")[1].split()[0]
                asyncio.run(call("docx_close", session_id=sid))
    return t


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=50_000)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--cpu", action="store_true", help="also compare CPU time in one process")
    args = ap.parse_args(argv)
    path = gen_docs.ensure_docs([args.size])[args.size]
    if args.cpu:
        c = run_cpu(path, args.repeats)
        print(f"in-process CPU time: bare parse {fmt_ms(median(c['floor']))} ms, docx_open + answer "
              f"{fmt_ms(median(c['open']))} ms, ratio {paired_ratio(c['open'], c['floor']):.2f}x")
    t = asyncio.run(run(path, args.repeats))
    ratio = paired_ratio(t["open"], t["floor"])
    print(f"docx_open over stdio, {args.size:,} paragraphs ({gen_docs.main_part_size(path) / 1e6:.1f} MB XML), "
          f"{args.repeats} repeats:")
    print(f"  bare zip+lxml parse: median {fmt_ms(median(t['floor']))} ms")
    print(f"  docx_open + answer:  median {fmt_ms(median(t['open']))} ms")
    print(f"  ratio (median of paired ratios): {ratio:.2f}x "
          f"(target <= {TARGET}x: {'met' if ratio <= TARGET else 'NOT met'}); "
          f"per-repeat: {', '.join(f'{a / b:.2f}' for a, b in zip(t['open'], t['floor']))}")
    print(f"  best of each side (least disturbed by other load): {fmt_ms(min(t['open']))} / "
          f"{fmt_ms(min(t['floor']))} ms = {min(t['open']) / min(t['floor']):.2f}x")


if __name__ == "__main__":
    main()
