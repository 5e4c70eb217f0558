"""Undo's per-call cost by the number of parts in the package, in-process (no server).

    python tests/bench/bench_undo_parts.py REPO

Opens fixtures/report.docx of the checkout REPO, adds parts up to 12 / 500 / 2,000, and times
``history.begin`` + ``will_change`` + an attribute set + ``commit`` (thread CPU, median of 300).
Run it for two checkouts one after the other to compare them.
"""
import sys, time, statistics
repo = sys.argv[1]; sys.path.insert(0, repo)
from ooxml.model.document import Document
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
for n in (12, 500, 2000):
    doc = Document.open(repo + "/fixtures/report.docx")
    for i in range(n - len(doc.package.parts)):
        doc.package.add_part(f"word/media/x{i}.png", b"png")
    p = next(doc.body.iter(W + "p"))
    times = []
    for i in range(300):
        t0 = time.thread_time_ns()
        doc.history.begin()
        doc.will_change(p)
        p.set(W + "rsidR", str(i % 2))  # a trivial in-place change
        doc.changed(p)
        doc.history.commit("t", "")
        times.append((time.thread_time_ns() - t0) / 1e3)
    print(f"  {len(doc.package.parts):5d} parts: begin+will_change+commit {statistics.median(times):6.1f} us")
