"""The edit path in-process: worker-thread CPU of one call, with the caches warm or evicted.

    python tests/bench/bench_edit_path.py [--calls 300] [--size 50] [--no-render] [--thrash]
                                          [--baseline DIR] [--profile KIND]

Calls ``dispatch.run_sync`` as a worker thread does, alternating docx_list_sessions (trivial),
docx_insert_paragraph in the middle of the document and docx_update_paragraph_text, and prints the
median [25th percentile] of each call's thread CPU. ``--no-render`` stubs the drawing out (boxes,
answer): what is left is the edit path (dispatch, checks, session, edit protocol, model, undo).
``--thrash`` touches 16 MB before each call, as the other processes of a busy machine do between
two calls over stdio: over stdio about half of an insert's cost is such cache misses.
``--baseline DIR`` runs the same in another checkout, alternating twice. ``--profile KIND`` prints
the function calls a call of that kind makes (cProfile: how many, how many distinct).
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
KINDS = ("trivial", "insert", "update")


def run(args) -> None:
    repo = BENCH_DIR.parent.parent
    os.chdir(repo)
    sys.path[:0] = [str(repo), str(BENCH_DIR)]
    import gen_docs
    from bench_core import prepare_mid_docs
    import tools.catalog  # noqa: F401
    from render.answer import operation_title
    from tools.docx import common as C
    from tools.runtime.call import dispatch
    from tools.runtime.call.registry import CallContext
    from tools.builtin import builtin
    from tools.services import Services

    if args.no_render:
        C.box_lines = lambda doc, els: []
        C.answer = lambda *a, **k: "answer"
    work = Path(tempfile.mkdtemp())
    path, mid = prepare_mid_docs(gen_docs.ensure_docs([args.size]), [args.size], work)[args.size]
    services = Services(roots=[work])

    def call(name, arguments):
        out = dispatch.run_sync(builtin()[name], name, operation_title(name), dict(arguments),
                                CallContext(None, services), 60)
        assert not out.is_error, out.text[:300]
        return out.text

    def arguments(kind, sid, i):
        if kind == "trivial":
            return "docx_list_sessions", {}
        if kind == "insert":
            return "docx_insert_paragraph", {"session_id": sid, "text": "Inserted by the benchmark.",
                                             "position": f"after:{mid}"}
        return "docx_update_paragraph_text", {"session_id": sid, "element_id": mid, "new_text": f"Text {i % 2}."}

    thrash = bytearray(16_000_000 if args.thrash else 0)
    prof = None
    if args.profile:
        import cProfile
        prof = cProfile.Profile()
    times: dict[str, list[float]] = {k: [] for k in KINDS}
    sid = None
    for i in range(args.calls):
        if i % 30 == 0:  # a fresh session now and then: no call pays for the undo limit
            if sid:
                call("docx_close", {"session_id": sid})
            sid = re.search(r"\*\*Session ID\*\*: (\S+)", call("docx_open", {"file_path": str(path)})).group(1)
            call("docx_insert_paragraph", {"session_id": sid, "text": "w", "position": f"after:{mid}"})
        for kind in KINDS:
            name, a = arguments(kind, sid, i)
            if thrash:
                bytes(thrash)
            if prof is not None and kind == args.profile:
                prof.enable()
            t0 = time.thread_time_ns()
            call(name, a)
            times[kind].append((time.thread_time_ns() - t0) / 1e3)
            if prof is not None:
                prof.disable()
    for kind, xs in times.items():
        xs.sort()
        note = "  (under the profiler)" if kind == args.profile else ""
        print(f"  {kind:8s} {statistics.median(xs):7.1f} us [{xs[len(xs) // 4]:.1f}]{note}")
    if prof is not None:
        import pstats
        stats = pstats.Stats(prof).stats
        print(f"  {args.profile}: {sum(s[1] for s in stats.values()) / args.calls:.0f} function calls a call, "
              f"{len(stats)} distinct functions")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--size", type=int, default=50)
    ap.add_argument("--no-render", action="store_true")
    ap.add_argument("--thrash", action="store_true")
    ap.add_argument("--profile", choices=KINDS)
    ap.add_argument("--baseline", type=Path)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child or args.baseline is None:
        run(args)
        return
    passed = [a for a in sys.argv[1:] if a != "--baseline" and a != str(args.baseline)]
    print(f"load average {os.getloadavg()[0]:.1f}; worker CPU per call, median [p25]")
    for _ in range(2):
        for label, repo in (("baseline", args.baseline), ("this", BENCH_DIR.parent.parent)):
            print(f"{label} ({repo})", flush=True)
            script = Path(repo) / "tests/bench/bench_edit_path.py"
            script = script if script.exists() else BENCH_DIR / "bench_edit_path.py"
            subprocess.run([sys.executable, str(script), "--child", *passed], check=True,
                           env={**os.environ, "BENCH_REPO": str(repo)})


if __name__ == "__main__":
    if os.environ.get("BENCH_REPO"):
        BENCH_DIR = Path(os.environ["BENCH_REPO"]).resolve() / "tests/bench"
    main()
