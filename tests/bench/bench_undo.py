"""docx_undo (and docx_redo) of an insert in the 50,000-paragraph document, through the dispatcher.

    python tests/bench/bench_undo.py [--size 50000] [--repeats 40]

Each repeat inserts a paragraph in the middle of the body, then times docx_undo of it, then
inserts again and times docx_undo + docx_redo. Prints medians and p95 beside the trivial call
(docx_list_sessions) measured in the same run. Target: undo of an insert <= 5 ms.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
for p in (str(BENCH_DIR.parent.parent), str(BENCH_DIR)):
    if p not in sys.path:
        sys.path.insert(0, p)

import gen_docs  # noqa: E402
from bench_core import fmt_ms, median, ms, now, p95, prepare_mid_docs  # noqa: E402

TARGET_MS = 5.0


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=50_000)
    ap.add_argument("--repeats", type=int, default=40)
    args = ap.parse_args(argv)
    import tools.catalog  # noqa: F401
    from tools.runtime.call.dispatch import run_tool
    from tools.runtime.call.registry import CallContext
    from tools.services import Services

    paths = gen_docs.ensure_docs([args.size])
    with tempfile.TemporaryDirectory() as work:
        path, mid_id = prepare_mid_docs(paths, [args.size], Path(work))[args.size]
        services = Services(roots=[path.parent])

        async def call(name, **kw):
            tools = {t.name: t for t in services.tools_for(None)}
            o = await run_tool(tools.get(name), name, kw, CallContext(None, services), list(tools))
            if o.is_error:
                raise RuntimeError(o.text)
            return o.text

        async def go():
            await call("docx_open", file_path=str(path))
            insert = {"text": "Inserted by the undo benchmark.", "position": f"after:{mid_id}"}
            t = {"insert": [], "undo": [], "redo": [], "trivial": []}
            for _ in range(args.repeats):
                t0 = now()
                await call("docx_insert_paragraph", **insert)
                t["insert"].append(ms(t0))
                t0 = now()
                text = await call("docx_undo")
                t["undo"].append(ms(t0))
                assert "**Undone**: 1 step(s)" in text, text
                t0 = now()
                await call("docx_redo")
                t["redo"].append(ms(t0))
                await call("docx_undo")
                t0 = now()
                await call("docx_list_sessions")
                t["trivial"].append(ms(t0))
            return t

        t = asyncio.run(go())
    print(f"docx_undo of an insert, {args.size:,} paragraphs, {args.repeats} repeats (ms, median / p95):")
    for key in ("insert", "undo", "redo", "trivial"):
        print(f"  {key:>8}: {fmt_ms(median(t[key])):>7} / {fmt_ms(p95(t[key])):>7}")
    undo = median(t["undo"])
    print(f"undo median {fmt_ms(undo)} ms (target <= {TARGET_MS} ms: {'met' if undo <= TARGET_MS else 'NOT met'}); "
          f"{undo / median(t['trivial']):.2f}x the trivial call")


if __name__ == "__main__":
    main()
