"""Equations (issue 31): LaTeX -> OMML for 100 expressions of papers, and an equation insert with its
answer against a docx_insert_paragraph of the same document, measured in the same run (CPU time).

    python tests/bench/bench_equations.py
Prints figures and whether each target is met; never fails on a time.
"""
from __future__ import annotations

import asyncio
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ooxml.math.from_latex import to_omml  # noqa: E402
from tests.equation_cases import EXPRESSIONS  # noqa: E402
from tests.support.client import open_direct  # noqa: E402

QUADRATIC = r"x = \frac{-b \pm \sqrt{b^2-4ac}}{2a}"


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)  # every thread: tools run in worker threads
    return r.ru_utime + r.ru_stime


def convert_100() -> float:
    batch = EXPRESSIONS[:100]
    for latex in batch:  # warm: latex2mathml's tables load on first use
        to_omml(latex, True)
    start = time.process_time()
    for latex in batch:
        to_omml(latex, True)
    return (time.process_time() - start) * 1000


async def inserts(calls: int = 40) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp())
    try:
        shutil.copy(ROOT / "fixtures" / "report.docx", folder / "r.docx")
        async with open_direct([folder]) as c:
            await c.open(folder / "r.docx")
            cases = {"docx_insert_paragraph": dict(text="x = a over b", position="end:document_body"),
                     "docx_insert_equation": dict(latex=QUADRATIC, position="end:document_body")}
            out = {}
            for _ in range(2):  # the first round warms both
                for name, args in cases.items():
                    start = cpu()
                    for _ in range(calls):
                        assert not (await c.call(name, **args)).is_error
                    out[name] = (cpu() - start) / calls * 1000
            return out
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    ms = convert_100()
    print(f"LaTeX -> OMML, 100 expressions: {ms:.1f} ms CPU (target <= 100): {'met' if ms <= 100 else 'NOT met'}")
    per = asyncio.run(inserts())
    ratio = per["docx_insert_equation"] / per["docx_insert_paragraph"]
    print(f"insert paragraph {per['docx_insert_paragraph']:.2f} ms, insert equation "
          f"{per['docx_insert_equation']:.2f} ms CPU per call: ratio {ratio:.2f} (target <= 1.5): "
          f"{'met' if ratio <= 1.5 else 'NOT met'}")


if __name__ == "__main__":
    main()
