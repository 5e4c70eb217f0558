"""Charts (issue 31): an update of 1,000 points with its workbook (target ≤ 300 ms) and reading every
chart of a 50-chart document (target ≤ 50 ms), in CPU time, against docx_insert_paragraph on the
same document as the same-run baseline.

    python tests/bench/bench_charts.py [--repeats 5]

Through the dispatcher (as the server runs a call). The 50-chart document is made by docx_insert_chart
and saved, then reopened, so the reads parse every chart part from the file.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    import tools.catalog  # noqa: F401
    from ooxml.charts import locate
    from tools.runtime.call.dispatch import run_tool
    from tools.runtime.call.registry import CallContext
    from tools.services import Services

    folder = Path(tempfile.mkdtemp(prefix="bench-charts-"))
    services = Services(roots=[folder])
    tools = {t.name: t for t in services.tools_for(None)}

    async def call(name, **kw):
        o = await run_tool(tools[name], name, kw, CallContext(None, services), list(tools))
        assert not o.is_error, o.text
        return o.text

    def cpu(fn) -> float:
        gc.collect()
        t0 = time.process_time()
        fn()
        return (time.process_time() - t0) * 1000

    async def run():
        sid = (await call("docx_create")).split("**Session ID**: ")[1].split()[0]
        cats = [f"c{i}" for i in range(100)]
        series = [{"name": f"s{j}", "values": [i * 1.5 + j for i in range(100)]} for j in range(10)]
        for _ in range(50):
            await call("docx_insert_chart", session_id=sid, kind="column", categories=cats[:8],
                       series=[dict(s, values=s["values"][:8]) for s in series[:3]], position="end:document_body")
        text = await call("docx_insert_chart", session_id=sid, kind="line", categories=cats, series=series,
                          position="end:document_body")
        chart = text.split("**Element ID**: ")[1].split()[0] if "**Element ID**: " in text else None
        path = folder / "charts.docx"
        await call("docx_save", session_id=sid, file_path=str(path))
        await call("docx_close", session_id=sid)
        sid = (await call("docx_open", file_path=str(path))).split("**Session ID**: ")[1].split()[0]
        doc = services.sessions.get(None, sid).doc
        figures = {"baseline insert_paragraph": [], "update 1,000 points": [], "read 51 charts (model)": [],
                   "docx_list_charts": []}
        for r in range(args.repeats):
            figures["baseline insert_paragraph"].append(await _timed(call(
                "docx_insert_paragraph", session_id=sid, text="x", position="end:document_body", view="none")))
            vals = [dict(s, values=[v + r for v in s["values"]]) for s in series]
            figures["update 1,000 points"].append(await _timed(call("docx_update_chart", session_id=sid,
                                                                    chart_id=chart, series=vals, view="none")))
            for ref in locate.references(doc):  # a fresh read: drop the parsed chart parts
                name = locate.part_name(doc, ref)
                if not doc.package.part(name).dirty:
                    doc.package.part(name).unload()
            figures["read 51 charts (model)"].append(cpu(lambda: [locate.read(doc, x) for x in locate.references(doc)]))
            figures["docx_list_charts"].append(await _timed(call("docx_list_charts", session_id=sid)))
        return figures

    async def _timed(coro) -> float:
        gc.collect()
        t0 = time.process_time()
        await coro
        return (time.process_time() - t0) * 1000

    figures = asyncio.run(run())
    base = statistics.median(figures["baseline insert_paragraph"])
    print(f"load average {os.getloadavg()[0]:.2f} (2 cores)")
    targets = {"update 1,000 points": 300, "read 51 charts (model)": 50}
    for name, values in figures.items():
        med = statistics.median(values)
        target = targets.get(name)
        verdict = "" if target is None else (" met" if med <= target else " NOT met") + f" (target ≤ {target} ms)"
        print(f"{name:28s} median {med:8.1f} ms CPU  ({med / base:5.1f}× baseline){verdict}")


if __name__ == "__main__":
    main()
