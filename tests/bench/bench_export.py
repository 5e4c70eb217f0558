"""Export benchmark: docx_export to PDF of a ~100-page document through the warm LibreOffice, side
by side with a one-off ``soffice --convert-to pdf`` of the same file (issue 32).

```
python tests/bench/bench_export.py               # about 2 minutes
python tests/bench/bench_export.py --repeats 1   # quicker
```

Each one-off run gets a fresh profile, as a one-off conversion does. Wall times are medians; CPU is
this process plus LibreOffice's processes (the warm worker's process group, read from /proc; the
one-off's children from getrusage). Target: warm export <= 0.8x the one-off's wall time. Prints
figures and marks the target met or NOT met; never fails on a time.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import gen_docs  # noqa: E402
from tests.bench.in_process import Clock, caller, services_for  # noqa: E402

PARAGRAPHS = 2000  # gen_docs' documents: about 106 pages in LibreOffice
TARGET = 0.8
def one_off(src: Path, folder: Path) -> tuple[float, float]:
    """(wall s, CPU s of soffice and its children) of one cold conversion with a fresh profile."""
    profile = Path(tempfile.mkdtemp(prefix="bench-lo-", dir=folder))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([shutil.which("soffice"), "--headless", "--norestore", f"-env:UserInstallation={profile.as_uri()}",
                    "--convert-to", "pdf", "--outdir", str(folder / "oneoff"), str(src)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    shutil.rmtree(profile, ignore_errors=True)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


async def warm_runs(src: Path, folder: Path, repeats: int) -> tuple[list[tuple[float, float]], str]:
    services = services_for(folder)
    call, clock = caller(services), Clock(services)
    try:
        sid = re.search(r"\*\*Session ID\*\*: (\S+)", await call("docx_open", file_path=str(src))).group(1)
        text = await call("docx_export", session_id=sid, file_path=str(folder / "warmup.pdf"))  # starts LibreOffice
        runs = []
        for i in range(repeats):
            clock.start()
            text = await call("docx_export", session_id=sid, file_path=str(folder / f"warm{i}.pdf"))
            runs.append(clock.stop())
        return runs, re.search(r"\*\*Pages\*\*: (\d+)", text).group(1)
    finally:
        services.office.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
          + ("  BUSY MACHINE" if os.getloadavg()[0] > (os.cpu_count() or 1) else ""))
    with tempfile.TemporaryDirectory(prefix="bench-export-") as tmp:
        folder = Path(tmp)
        src = folder / "long.docx"
        gen_docs.build_docx(src, PARAGRAPHS)
        warm, pages = asyncio.run(warm_runs(src, folder, args.repeats))
        cold = [one_off(src, folder) for _ in range(args.repeats)]
    w_wall, c_wall = statistics.median(r[0] for r in warm), statistics.median(r[0] for r in cold)
    w_cpu, c_cpu = statistics.median(r[1] for r in warm), statistics.median(r[1] for r in cold)
    print(f"document: {PARAGRAPHS} paragraphs, {pages} pages")
    print(f"  warm docx_export     wall {w_wall:6.2f} s  CPU {w_cpu:6.2f} s  (n={len(warm)})")
    print(f"  one-off --convert-to wall {c_wall:6.2f} s  CPU {c_cpu:6.2f} s  (n={len(cold)})")
    ratio = w_wall / c_wall
    print(f"  wall ratio {ratio:.2f}x, CPU ratio {w_cpu / c_cpu:.2f}x; target wall <= {TARGET}x: "
          + ("met" if ratio <= TARGET else "NOT met"))


if __name__ == "__main__":
    main()
