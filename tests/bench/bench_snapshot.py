"""Snapshots with ``--state``: CPU and bytes of one snapshot, and inserts' CPU with snapshots amortised.

Against a baseline checkout in the same run (alternating rounds), in-process on a durable worker
with Redis (tests/support/services.py starts one on loopback):

- **snapshot**: after ``--inserts`` inserts (their undo steps travel in the snapshot), one more
  insert then ``Durable.snapshot`` timed (process CPU), ``--repeats`` times; bytes = what was sent
  to the store (snapshot and, when sent, its base).
- **per call**: ``--calls`` inserts on a worker with the default ``snapshot_every`` (200): process
  CPU per call (all threads, snapshots included), the slowest call's wall time (the one that makes
  a snapshot due), and the same inserts without ``--state``.

Inserts go at the end of the body. The fixtures are tests/bench/gen_docs.py's.

    git -C /work/main archive HEAD | tar -x -C /tmp/base-snap
    python tests/bench/bench_snapshot.py --baseline /tmp/base-snap      # about 1-2 min
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]


def child(args) -> None:
    sys.path.insert(0, os.getcwd())
    from tests.tools.docx.test_property_edits import Driver
    import tools.catalog  # noqa: F401
    from tools.runtime.state.durable import Durable
    from tools.runtime.state.statestore import RedisState

    out = {}
    for size in args.sizes:
        src = Path(args.paths[str(size)])
        out[size] = {"snap": snapshot_costs(Driver, Durable, RedisState, args, src),
                     "calls": call_costs(Driver, Durable, RedisState, args, src)}
    print(json.dumps(out))


def _worker(Driver, Durable, RedisState, args, src, **options):
    root = Path(tempfile.mkdtemp(prefix="bench-snap-"))
    shutil.copy(src, root / "a.docx")
    durable = Durable(RedisState(args.redis), f"w{time.monotonic_ns()}", lease_ms=60_000, **options)
    sent = []
    backend_snapshot = durable.backend.snapshot

    def counted(*a, **k):  # the bytes this worker sends as snapshots (and their bases)
        sent.append(sum(len(x) for x in (*a, *k.values(), *[y for x in a if isinstance(x, tuple) for y in x])
                        if isinstance(x, bytes)))
        return backend_snapshot(*a, **k)

    durable.backend.snapshot = counted
    driver = Driver(root, sessions=durable.store(), state=durable)
    durable.attach(driver.services)
    driver.call("docx_open", file_path="a.docx")
    _insert(driver, 0)  # the first call after open takes the lease: not counted
    return driver, durable, sent, root


def _insert(driver, i: int) -> None:
    driver.call("docx_insert_paragraph", text=f"Inserted paragraph {i}.",
                position="after:last_insert" if i else "end:document_body")


def snapshot_costs(Driver, Durable, RedisState, args, src) -> dict:
    driver, durable, sent, root = _worker(Driver, Durable, RedisState, args, src,
                                          snapshot_every=10 ** 9, snapshot_seconds=1e9)
    for i in range(args.inserts):
        _insert(driver, i + 1)
    session = driver.session()
    cpu, sizes = [], []
    for r in range(args.repeats):
        _insert(driver, 1000 + r)
        sent.clear()
        t = time.process_time()
        durable.snapshot(session)
        cpu.append((time.process_time() - t) * 1e3)
        sizes.append(sum(sent))
    shutil.rmtree(root, ignore_errors=True)
    return {"cpu_ms": cpu, "bytes": sizes}


def call_costs(Driver, Durable, RedisState, args, src) -> dict:
    driver, durable, sent, root = _worker(Driver, Durable, RedisState, args, src)
    sent.clear()
    t = time.process_time()
    per, wall, trigger = _timed_inserts(driver, args.calls, durable)
    getattr(durable, "settle", lambda: None)()  # a snapshot made after the call (this branch)
    total = time.process_time() - t
    shutil.rmtree(root, ignore_errors=True)
    plain_root = Path(tempfile.mkdtemp(prefix="bench-snap-"))
    shutil.copy(src, plain_root / "a.docx")
    plain = Driver(plain_root)  # the same calls without --state
    plain.call("docx_open", file_path="a.docx")
    _insert(plain, 0)
    t = time.process_time()
    _timed_inserts(plain, args.calls, None)
    plain_total = time.process_time() - t
    shutil.rmtree(plain_root, ignore_errors=True)
    return {"per_call_ms": total * 1e3 / args.calls, "median_ms": statistics.median(per), "max_ms": max(wall),
            "trigger_ms": wall[trigger] if trigger is not None else None,
            "next_ms": wall[trigger + 1] if trigger is not None and trigger + 1 < len(wall) else None,
            "snapshots": len(sent), "bytes": sum(sent), "plain_ms": plain_total * 1e3 / args.calls}


def _timed_inserts(driver, calls: int, durable) -> tuple[list[float], list[float], int | None]:
    """Process CPU (every thread) and wall time of each call, in ms; which call made a snapshot due."""
    per, wall, fired = [], [], []
    if durable is not None:  # within the call: this branch's _snapshot_due, main's snapshot
        name = "_snapshot_due" if hasattr(durable, "_snapshot_due") else "snapshot"
        real = getattr(durable, name)
        setattr(durable, name, lambda *a: (fired.append(len(per)), real(*a))[1])
    for i in range(calls):
        t, w = time.process_time(), time.perf_counter()
        _insert(driver, i + 1)
        per.append((time.process_time() - t) * 1e3)
        wall.append((time.perf_counter() - w) * 1e3)
    return per, wall, (fired[0] if fired else None)


def run_tree(tree: Path, args, url: str) -> dict:
    cmd = [sys.executable, str(HERE / "tests/bench/bench_snapshot.py"), "--child", "--redis", url,
           "--sizes", ",".join(map(str, args.sizes)), "--inserts", str(args.inserts),
           "--repeats", str(args.repeats), "--calls", str(args.calls), "--paths", json.dumps(args.paths)]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode:
        raise SystemExit(f"{tree}: {done.stderr[-3000:]}")
    return {int(k): v for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", help="a checkout of main to compare with (git archive)")
    ap.add_argument("--sizes", default="1000,50000")
    ap.add_argument("--inserts", type=int, default=20, help="undo steps in the session before the timed snapshots")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--child", action="store_true")
    ap.add_argument("--redis")
    ap.add_argument("--paths", help=argparse.SUPPRESS)  # the fixtures, to a child
    args = ap.parse_args()
    args.sizes = [int(s) for s in str(args.sizes).split(",")]
    if args.child:
        args.paths = json.loads(args.paths)
        return child(args)
    sys.path.insert(0, str(HERE))
    from tests.bench.gen_docs import ensure_docs
    from tests.support.services import redis_server
    args.paths = {str(n): str(p) for n, p in ensure_docs(args.sizes).items()}
    trees = [("this", HERE)] + ([("baseline", Path(args.baseline))] if args.baseline else [])
    results: dict = {name: [] for name, _ in trees}
    print(f"load average at start {os.getloadavg()[0]:.1f} (2 cores)")
    with redis_server() as url:
        for r in range(args.rounds):
            for name, tree in (trees if r % 2 == 0 else trees[::-1]):
                results[name].append(run_tree(tree, args, url))
    report(results, args)
    print(f"load average at end {os.getloadavg()[0]:.1f}")


def report(results: dict, args) -> None:
    summary = {}
    for name, runs in results.items():
        for size in args.sizes:
            cpu = [c for run in runs for c in run[size]["snap"]["cpu_ms"]]
            size_b = [b for run in runs for b in run[size]["snap"]["bytes"]]
            per = [run[size]["calls"]["per_call_ms"] for run in runs]
            med = [run[size]["calls"]["median_ms"] for run in runs]
            top = [run[size]["calls"]["max_ms"] for run in runs]
            sent = [run[size]["calls"]["bytes"] / 1e6 for run in runs]
            plain = [run[size]["calls"]["plain_ms"] for run in runs]
            trig = [run[size]["calls"]["trigger_ms"] or 0 for run in runs]
            nxt = [run[size]["calls"]["next_ms"] or 0 for run in runs]
            summary[name, size] = (statistics.median(cpu), statistics.median(size_b),
                                   statistics.median(per) - statistics.median(plain))
            print(f"{name:8} {size:6}p  snapshot CPU {statistics.median(cpu):7.1f} ms [{min(cpu):.1f}-{max(cpu):.1f}]"
                  f"  sent {statistics.median(size_b) / 1e6:6.2f} MB [{min(size_b) / 1e6:.2f}-{max(size_b) / 1e6:.2f}]"
                  f"\n{'':16}{args.calls} inserts with --state: {statistics.median(per):.2f} ms CPU/call"
                  f" (median call {statistics.median(med):.2f}, slowest call {statistics.median(top):.0f} ms wall; without"
                  f" --state {statistics.median(plain):.2f}), snapshots sent {statistics.median(sent):.2f} MB"
                  f"\n{'':16}the call that made the snapshot due: {statistics.median(trig):.0f} ms wall, the"
                  f" next call (at once after it) {statistics.median(nxt):.0f} ms")
    if "baseline" in results:
        for size in args.sizes:
            (c1, b1, p1), (c0, b0, p0) = summary["this", size], summary["baseline", size]
            print(f"this / baseline at {size}p: snapshot CPU {c1 / c0:.2f}x, bytes {b1 / b0:.2f}x, "
                  f"what --state adds to an insert's CPU (snapshots amortised) {p1:.2f} / {p0:.2f} ms")


if __name__ == "__main__":
    main()
