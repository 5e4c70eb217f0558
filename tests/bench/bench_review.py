"""Review benchmark: tracked text updates and accepting thousands of revisions.

    python tests/bench/bench_review.py [--size 50000] [--calls 20] [--revisions 5000]

Prints figures (medians, with the untracked baseline measured in the same run); never asserts.
- tracked docx_update_paragraph_text on a 300-word paragraph in the middle of the document,
  in-process through the dispatcher, answer included (target: median <= 5 ms);
- docx_accept_revisions on a document with N revisions (target: <= 1 s for 5,000).
"""
from __future__ import annotations

import argparse
import asyncio
import random
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
from ooxml.text import body as B  # noqa: E402
from tools.runtime.call.dispatch import run_tool  # noqa: E402
from tools.runtime.call.registry import CallContext  # noqa: E402
from tools.builtin import builtin  # noqa: E402
from tools.services import Services  # noqa: E402

WORDS = gen_docs.WORDS  # the vocabulary of the generated documents


CPU: list[float] = []  # process time of each call, in ms


async def call(services, name: str, **args) -> tuple[str, float]:
    t0, c0 = time.perf_counter(), time.process_time()
    o = await run_tool(builtin()[name], name, args, CallContext(None, services))
    dt = (time.perf_counter() - t0) * 1000
    CPU.append((time.process_time() - c0) * 1000)
    assert not o.is_error, o.text
    return o.text, dt


def variant(words: list[str], rng: random.Random) -> str:
    out = list(words)
    for _ in range(3):  # an agent's edit: a few words changed
        out[rng.randrange(len(out))] = rng.choice(WORDS) + "s"
    return " ".join(out)


async def tracked_update(path: Path, calls: int) -> dict:
    services = Services(roots=[path.parent])
    text, _ = await call(services, "docx_open", file_path=str(path))
    session = services.sessions.list(None)[0]
    doc = session.doc
    blocks = [b for b in B.iter_blocks(doc.body) if b.tag == B.W_P]
    target = blocks[len(blocks) // 2]
    pid = doc.id_of(target)
    rng = random.Random(7)
    words = [rng.choice(WORDS) for _ in range(300)]
    await call(services, "docx_update_paragraph_text", element_id=pid, new_text=" ".join(words))
    plain = [(await call(services, "docx_update_paragraph_text", element_id=pid,
                         new_text=variant(words, rng)))[1] for _ in range(calls)]
    plain_cpu = statistics.median(CPU[-calls:])
    await call(services, "docx_update_paragraph_text", element_id=pid, new_text=" ".join(words))
    await call(services, "docx_set_track_changes", enabled=True, author="Bench")
    tracked = []
    for _ in range(calls):
        _, dt = await call(services, "docx_update_paragraph_text", element_id=pid, new_text=variant(words, rng))
        tracked.append(dt)
    return {"plain": statistics.median(plain), "tracked": statistics.median(tracked),
            "plain_cpu": plain_cpu, "tracked_cpu": statistics.median(CPU[-calls:]),
            "tracked_p95": sorted(tracked)[int(0.95 * (len(tracked) - 1))]}


async def accept_many(path: Path, revisions: int) -> dict:
    from ooxml.review import tracked_text as TT
    from ooxml.review.revisions import Tracker
    services = Services(roots=[path.parent])
    await call(services, "docx_open", file_path=str(path))
    doc = services.sessions.list(None)[0].doc
    doc.tracker = Tracker("Bench")
    made, t0 = 0, time.perf_counter()
    from ooxml.review.review_ops import all_revisions
    for p in B.iter_blocks(doc.body):
        if made >= revisions:
            break
        if p.tag != B.W_P:
            continue
        text = B.paragraph_text(p)
        words = text.split(" ")
        if len(words) < 4:
            continue
        words[1] = "CHANGED"
        TT.set_paragraph_text(doc, p, " ".join(words))  # one deletion and one insertion
        made += 2
    setup = time.perf_counter() - t0
    count = len(all_revisions(doc.body))
    _, dt = await call(services, "docx_accept_revisions")
    left = len(all_revisions(doc.body))
    return {"revisions": count, "accept_ms": dt, "left": left, "setup_s": setup}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=50_000)
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--revisions", type=int, default=5_000)
    args = ap.parse_args(argv)
    path = gen_docs.ensure_docs([args.size])[args.size]
    r = asyncio.run(tracked_update(path, args.calls))
    print(f"docx_update_paragraph_text, 300 words, middle of {args.size:,} paragraphs, in-process with the answer:")
    print(f"  untracked median {r['plain']:.2f} ms")
    print(f"  tracked   median {r['tracked']:.2f} ms (p95 {r['tracked_p95']:.2f} ms; target <= 5 ms; "
          f"ratio to untracked {r['tracked'] / r['plain']:.2f}x)")
    print(f"  CPU time (process_time, not inflated by other processes on a shared machine): untracked "
          f"{r['plain_cpu']:.2f} ms, tracked {r['tracked_cpu']:.2f} ms")
    a = asyncio.run(accept_many(path, args.revisions))
    print(f"docx_accept_revisions on {a['revisions']:,} revisions ({args.size:,} paragraphs): "
          f"{a['accept_ms']:.0f} ms (target <= 1000 ms); {a['left']} left; setup {a['setup_s']:.1f} s")


if __name__ == "__main__":
    main()
