"""docx_check benchmark (issue 34): docx_check (both rule sets) on a 50,000-paragraph document against the
same document's docx_open, CPU time, medians of alternating rounds in one run; never asserts.

    python tests/bench/bench_check.py [--size 50000] [--rounds 3]

Target: check CPU <= 1.5 x open CPU. The CPU time is the process's own (the machine is shared)."""
from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent.parent
for p in (str(REPO), str(BENCH_DIR)):
    if p not in sys.path:
        sys.path.insert(0, p)

import gen_docs  # noqa: E402

import tools.catalog  # noqa: E402,F401
from tools.runtime.call.dispatch import run_tool  # noqa: E402
from tools.runtime.call.registry import CallContext  # noqa: E402
from tools.builtin import builtin  # noqa: E402
from tools.services import Services  # noqa: E402


async def call(services, name: str, **args) -> tuple[str, float, float]:
    gc.collect()
    t0, c0 = time.perf_counter(), time.process_time()
    o = await run_tool(builtin()[name], name, args, CallContext(None, services))
    assert not o.is_error, o.text
    return o.text, time.perf_counter() - t0, time.process_time() - c0


async def one_round(path: Path) -> dict:
    services = Services(roots=[path.parent])
    _, wall_open, cpu_open = await call(services, "docx_open", file_path=str(path))
    text, wall_check, cpu_check = await call(services, "docx_check")
    _, _, cpu_word = await call(services, "docx_check", rules=["word"])
    _, _, cpu_access = await call(services, "docx_check", rules=["accessibility"])
    found = next(line for line in text.splitlines() if "Found" in line)
    return {"open": cpu_open, "check": cpu_check, "word": cpu_word, "accessibility": cpu_access,
            "wall_open": wall_open, "wall_check": wall_check, "found": found}


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=50_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    path = gen_docs.ensure_docs([args.size])[args.size]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {path.name}")
    rounds = [await one_round(path) for _ in range(args.rounds)]
    med = {k: statistics.median(r[k] for r in rounds) for k in ("open", "check", "word", "accessibility",
                                                                 "wall_open", "wall_check")}
    for k in ("open", "check", "word", "accessibility"):
        print(f"{k:>14}: CPU {med[k] * 1000:7.0f} ms  ({[round(r[k] * 1000) for r in rounds]})")
    ratio = med["check"] / med["open"]
    print(f"wall: open {med['wall_open'] * 1000:.0f} ms, check {med['wall_check'] * 1000:.0f} ms")
    print(f"answer: {rounds[0]['found']}")
    print(f"docx_check / docx_open CPU = {ratio:.2f} (target <= 1.5): {'met' if ratio <= 1.5 else 'NOT met'}")


if __name__ == "__main__":
    asyncio.run(main())
