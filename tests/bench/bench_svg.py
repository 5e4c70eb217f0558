"""SVG (issue 31): docx_insert_image of a 200 KB SVG with its PNG fallback, against a PNG insert of the
same picture size in the same run (CPU time of the whole call: check, render, parts, answer).

    python tests/bench/bench_svg.py
Prints figures and whether the target (SVG insert <= 300 ms) is met; never fails on a time.
"""
from __future__ import annotations

import asyncio
import re
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.builders import png  # noqa: E402
from tests.support.svg_map import big_svg  # noqa: E402
from tests.support.client import open_direct  # noqa: E402

TARGET_MS = 300


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)  # every thread: tools run in worker threads
    return r.ru_utime + r.ru_stime


async def inserts(folder: Path, calls: int) -> dict[str, float]:
    svg, bare = folder / "map.svg", folder / "shapes.svg"
    svg.write_text(big_svg())
    bare.write_text(re.sub(r"<text[^>]*>[^<]*</text>", "", big_svg()))  # the same shapes, no text to lay out
    baseline = png(folder / "map.png", size=(1200, 800))
    shutil.copy(ROOT / "fixtures" / "report.docx", folder / "r.docx")
    async with open_direct([folder]) as c:
        await c.open(folder / "r.docx")
        cases = {"png": dict(image_path=str(baseline), position="end:document_body", width="6in"),
                 "svg": dict(image_path=str(svg), position="end:document_body", width="6in"),
                 "shapes": dict(image_path=str(bare), position="end:document_body", width="6in")}
        out = {}
        for _ in range(2):  # the first round warms both (resvg loads its fonts once)
            for name, args in cases.items():
                start = cpu()
                for _ in range(calls):
                    answer = await c.call("docx_insert_image", **args)
                    assert not answer.is_error, answer.text
                out[name] = (cpu() - start) / calls * 1000
        out["svg_kb"], out["shapes_kb"] = svg.stat().st_size / 1024, bare.stat().st_size / 1024
        return out


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    try:
        wall = time.perf_counter()
        per = asyncio.run(inserts(folder, 10))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"SVG of {per['svg_kb']:.0f} KB at 6 in: insert {per['svg']:.1f} ms CPU per call (target <= {TARGET_MS}): "
          f"{'met' if per['svg'] <= TARGET_MS else 'NOT met'}; PNG insert of the same size {per['png']:.1f} ms: "
          f"ratio {per['svg'] / per['png']:.1f} ({time.perf_counter() - wall:.0f} s wall)")
    print(f"the same map without its 1,000 labels ({per['shapes_kb']:.0f} KB): {per['shapes']:.1f} ms CPU per call")


if __name__ == "__main__":
    main()
