"""docx_update_fields benchmark: a ~300-page document with 200 captions and 300 references (150 REF,
150 PAGEREF), every result stale, side by side with one warm PDF conversion of the same file (issue 32).

```
python tests/bench/bench_update_fields.py               # a few minutes
python tests/bench/bench_update_fields.py --repeats 1   # quicker
```

Both go through the same warm LibreOffice worker; the conversion is the baseline measured in the same
run. Wall times are medians; CPU is this process plus the worker's process group (from /proc).
Target: update <= 1.2x one conversion, with one layout pass. Prints figures; never fails on a time.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import gen_docs  # noqa: E402
from tests.bench.in_process import Clock, caller, services_for  # noqa: E402

PARAGRAPHS = 5600  # gen_docs: about 300 pages in LibreOffice
CAPTIONS, REFS = 200, 300
TARGET = 1.2


def build(src: Path) -> None:
    """gen_docs' document with captions spread through it and stale references at its start."""
    from ooxml.model.document import Document
    from ooxml.refs import captions as CAP
    from ooxml.refs import fields as FL
    from ooxml.text import body as B
    from ooxml.text.build import make_paragraph
    from ooxml.xml.namespaces import w

    gen_docs.build_docx(src, PARAGRAPHS)
    doc = Document.open(src)
    blocks = [b for b in B.iter_blocks(doc.body) if b.tag == B.W_P]
    roots = doc.story_roots()
    names = []
    step = len(blocks) // (CAPTIONS + 1)
    for i in range(CAPTIONS):
        cap = CAP.build(doc, "Figure", f"figure {i}", 1, roots)  # every number stale: 1
        doc.insert_block(cap, container=doc.body, after=blocks[(i + 1) * step])
        names.append(cap.find(w("bookmarkStart")).get(w("name")))
    for j in range(REFS):
        p = make_paragraph("See ")
        kind = "REF" if j % 2 == 0 else "PAGEREF"
        p.extend(FL.field_runs(f"{kind} {names[(j * 7) % CAPTIONS]} \\h", "?"))
        doc.insert_block(p, container=doc.body, after=blocks[(j * len(blocks)) // REFS])
    doc.save(src)


async def runs(src: Path, folder: Path, repeats: int) -> tuple[list, list, str, str]:
    services = services_for(folder)
    call, clock = caller(services), Clock(services)

    def measured(work):
        clock.start()
        out = work()
        return clock.stop(), out

    try:
        services.office.to_pdf(src, folder / "warmup.pdf")  # starts the worker
        convert, update, text = [], [], ""
        for i in range(repeats):
            copy = folder / f"copy{i}.docx"
            copy.write_bytes(src.read_bytes())
            convert.append(measured(lambda: services.office.to_pdf(copy, folder / f"c{i}.pdf"))[0])
            sid = re.search(r"\*\*Session ID\*\*: (\S+)", await call("docx_open", file_path=str(src))).group(1)
            clock.start()
            text = await call("docx_update_fields", session_id=sid, view="none")
            update.append(clock.stop())
            await call("docx_close", session_id=sid)
        pages = str(len(__import__("pypdfium2").PdfDocument(str(folder / "c0.pdf"))))
        return convert, update, text, pages
    finally:
        services.office.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
          + ("  BUSY MACHINE" if os.getloadavg()[0] > (os.cpu_count() or 1) else ""))
    with tempfile.TemporaryDirectory(prefix="bench-fields-") as tmp:
        folder = Path(tmp)
        src = folder / "long.docx"
        build(src)
        convert, update, text, pages = asyncio.run(runs(src, folder, args.repeats))
    c_wall, u_wall = statistics.median(r[0] for r in convert), statistics.median(r[0] for r in update)
    c_cpu, u_cpu = statistics.median(r[1] for r in convert), statistics.median(r[1] for r in update)
    changed = re.search(r"\*\*Changed\*\*: (\d+)", text)
    print(f"document: {pages} pages, {CAPTIONS} captions, {REFS} references; "
          f"fields changed: {changed.group(1) if changed else '?'}")
    print(f"  one warm PDF conversion  wall {c_wall:6.2f} s  CPU {c_cpu:6.2f} s  (n={len(convert)})")
    print(f"  docx_update_fields       wall {u_wall:6.2f} s  CPU {u_cpu:6.2f} s  (n={len(update)})")
    ratio = u_wall / c_wall
    print(f"  wall ratio {ratio:.2f}x, CPU ratio {u_cpu / c_cpu:.2f}x; target wall <= {TARGET}x: "
          + ("met" if ratio <= TARGET else "NOT met"))


if __name__ == "__main__":
    main()
