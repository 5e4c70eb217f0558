"""docx_check benchmark (issue 34): docx_check (both rule sets) on a 50,000-paragraph document against the
same document's docx_open, CPU time, medians of alternating rounds in one run; never asserts. "edited":
docx_check after one paragraph's text was changed (the changed part is read from its tree).

    python tests/bench/bench_check.py [--size 50000] [--rounds 7]

Target: check CPU <= 1.5 x open CPU: the median of the rounds' paired ratios (open and check of one
round ran back to back). The CPU time is the process's own (the machine is shared). The process has
the server's malloc settings (one arena, freed memory kept: server.main's) and each round ends with
docx_close, so each open is a server's steady state, after a close (without them the open of one
run spread 250-850 ms, and so did the ratio: 1.13-1.62 between two runs of the same code)."""
from __future__ import annotations

import argparse
import asyncio
import gc
import os
import re
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
from tools.runtime.sessions.memory import keep_freed, one_arena  # noqa: E402


async def call(services, name: str, **args) -> tuple[str, float, float]:
    gc.collect()
    t0, c0 = time.perf_counter(), time.process_time()
    o = await run_tool(builtin()[name], name, args, CallContext(None, services))
    assert not o.is_error, o.text
    return o.text, time.perf_counter() - t0, time.process_time() - c0


async def one_round(services, path: Path) -> dict:
    text_open, wall_open, cpu_open = await call(services, "docx_open", file_path=str(path))
    sid = text_open.split("**Session ID**: ")[1].split()[0]
    text, wall_check, cpu_check = await call(services, "docx_check", session_id=sid)
    _, _, cpu_word = await call(services, "docx_check", session_id=sid, rules=["word"])
    _, _, cpu_access = await call(services, "docx_check", session_id=sid, rules=["accessibility"])
    para = re.search(r"\bpara_[0-9a-f]+", text_open).group(0)  # an edit: the check reads the changed tree
    await call(services, "docx_update_paragraph_text", session_id=sid, element_id=para, new_text="Edited.",
               view="none")
    _, _, cpu_edited = await call(services, "docx_check", session_id=sid)
    await call(services, "docx_close", session_id=sid)  # frees the tree now, as a server does
    found = next(line for line in text.splitlines() if "Found" in line)
    return {"open": cpu_open, "check": cpu_check, "word": cpu_word, "accessibility": cpu_access, "edited": cpu_edited,
            "wall_open": wall_open, "wall_check": wall_check, "found": found}


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=50_000)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    path = gen_docs.ensure_docs([args.size])[args.size]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {path.name}")
    one_arena(), keep_freed()  # as server.main does, before any thread starts
    services = Services(roots=[path.parent])
    await one_round(services, path)  # untimed: the timed opens follow a close
    rounds = [await one_round(services, path) for _ in range(args.rounds)]
    med = {k: statistics.median(r[k] for r in rounds) for k in ("open", "check", "word", "accessibility", "edited",
                                                                 "wall_open", "wall_check")}
    for k in ("open", "check", "word", "accessibility", "edited"):
        print(f"{k:>14}: CPU {med[k] * 1000:7.0f} ms  ({[round(r[k] * 1000) for r in rounds]})")
    ratios = sorted(r["check"] / r["open"] for r in rounds)
    ratio = statistics.median(ratios)
    print(f"wall: open {med['wall_open'] * 1000:.0f} ms, check {med['wall_check'] * 1000:.0f} ms")
    print(f"answer: {rounds[0]['found']}")
    print(f"docx_check / docx_open CPU, median of the rounds' ratios = {ratio:.2f} [{ratios[0]:.2f}-{ratios[-1]:.2f}] "
          f"(target <= 1.5): {'met' if ratio <= 1.5 else 'NOT met'}")


if __name__ == "__main__":
    asyncio.run(main())
