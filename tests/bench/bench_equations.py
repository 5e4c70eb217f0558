"""Equations (issue 31): LaTeX -> OMML for 100 expressions of papers, and an equation insert with its
answer against a docx_insert_paragraph of the same document, measured in the same run (CPU time):
the quadratic formula, and a mix cycling through the first 40 expressions (so a speed-up of one
formula alone cannot flatter the figure).

    python tests/bench/bench_equations.py
Prints figures and whether each target is met; never fails on a time.
"""
from __future__ import annotations

import asyncio
import resource
import shutil
import statistics
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
MIX = EXPRESSIONS[:40]


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


async def inserts(calls: int = 40, rounds: int = 7) -> dict[str, list[float]]:
    """CPU ms per call of each kind, one figure per round; the kinds alternate round by round (the
    first round warms them all and is not counted), so a noisy moment hits them alike. A round of
    the mix inserts each of its 40 expressions once."""
    folder = Path(tempfile.mkdtemp())
    try:
        shutil.copy(ROOT / "fixtures" / "report.docx", folder / "r.docx")
        async with open_direct([folder]) as c:
            await c.open(folder / "r.docx")
            end = "end:document_body"
            cases = {"paragraph": ("docx_insert_paragraph", [dict(text="x = a over b", position=end)]),
                     "quadratic": ("docx_insert_equation", [dict(latex=QUADRATIC, position=end)]),
                     "mix": ("docx_insert_equation", [dict(latex=x, position=end) for x in MIX])}
            out: dict[str, list[float]] = {kind: [] for kind in cases}
            for r in range(rounds + 1):
                for kind, (name, args) in cases.items():
                    start = cpu()
                    for k in range(calls):
                        assert not (await c.call(name, **args[k % len(args)])).is_error
                    if r:
                        out[kind].append((cpu() - start) / calls * 1000)
            return out
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _ratio(label: str, eq: list[float], para: list[float]) -> str:
    ratios = sorted(e / p for e, p in zip(eq, para))
    best = min(eq) / min(para)
    return (f"insert {label} {min(eq):.2f} ms: ratio {best:.2f}; per-round ratios median "
            f"{statistics.median(ratios):.2f} [{ratios[0]:.2f}-{ratios[-1]:.2f}] (target <= 1.5): "
            f"{'met' if best <= 1.5 else 'NOT met'}")


def main() -> None:
    ms = convert_100()
    print(f"LaTeX -> OMML, 100 expressions: {ms:.1f} ms CPU (target <= 100): {'met' if ms <= 100 else 'NOT met'}")
    per = asyncio.run(inserts())
    para = per["paragraph"]
    print(f"insert paragraph {min(para):.2f} ms CPU per call (best of {len(para)} rounds)")
    print(_ratio("equation (quadratic)", per["quadratic"], para))
    print(_ratio(f"equation (mix of {len(MIX)})", per["mix"], para))


if __name__ == "__main__":
    main()
