"""Template filling against docxtpl (Jinja2 in .docx) on the same template and data, in the same run.

    python tests/bench/bench_fill_docxtpl.py [--repeats 21]

The template is bench_forms.py's: 1,250 paragraphs with 100 placeholders (a third split across
runs by formatting), 3 repeating sections filled with 50 items each, a table row repeated 200
times. docxtpl gets the same document with Jinja2 tags where ours has content controls and
{{a.b}} rows (``{%p for %}`` around a section's paragraph, ``{%tr for %}`` around the row).
Each repeat, in alternating order: open, fill, save to a file, as a library call (ours:
Document.open, ooxml.fill.engine.fill, Document.save), CPU time of this process. Before each, untimed:
a full garbage collection and a heap consolidation (``memory.consolidate``), so neither side pays for
the other's garbage (a full collection of the other's objects, glibc merging the other's freed chunks):
with 9 repeats and neither, one run's paired ratios spread 0.31-1.43, the outliers ours at 150-160 ms
against 50-65. Prints the medians and the median of the paired ratios (goal: ours at most half of
docxtpl's) with their range and quartiles. Needs ``pip install docxtpl`` (the test extra).
"""
from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent.parent
for p in (str(REPO), str(BENCH_DIR)):
    if p not in sys.path:
        sys.path.insert(0, p)

import bench_forms as BF  # noqa: E402
from tests.builders import build_docx, p as para  # noqa: E402
from tests.support import form_docs as F  # noqa: E402
from tools.runtime.sessions import memory  # noqa: E402


def jinja_template(path: Path) -> Path:
    """bench_forms' template in docxtpl's syntax, the same text and size."""
    parts, names = [], 0
    filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt."
    every = BF.PARAGRAPHS // BF.FIELDS
    for i in range(BF.PARAGRAPHS):
        if i % every == 0 and names < BF.FIELDS:
            name = f"field{names}"
            names += 1
            half = len(name) // 2
            inner = (F.run("{{ " + name[:half], F.BOLD) + F.run(name[half:] + " }}", F.ITALIC) if names % 3 == 0
                     else F.run("{{ " + name + " }}"))
            parts.append("<w:p>" + F.run(filler[:40] + " ") + inner + F.run(" " + filler[40:]) + "</w:p>")
        else:
            parts.append(para(filler))
        if i in (300, 600, 900):
            tag = f"section{(i // 300) - 1}"
            parts.append(para("{%p for it in " + tag + " %}"))
            parts.append("<w:p>" + F.run("Item {{ it.title }} by ") + F.run("{{ it.who }}") + "</w:p>")
            parts.append(para("{%p endfor %}"))
    rows = [F.tr(F.tc(para("A")), F.tc(para("B")), F.tc(para("C"))),
            F.tr(F.tc(para("{%tr for r in rows %}")), F.tc(para("")), F.tc(para(""))),
            F.tr(F.tc(para("{{ r.a }}")), F.tc(para("{{ r.b }}")), F.tc(para("{{ r.c }}"))),
            F.tr(F.tc(para("{%tr endfor %}")), F.tc(para("")), F.tc(para("")))]
    parts.append(F.table(rows, cols=3))
    return build_docx(path, "".join(parts))


def ours(path: Path, data: dict, out: Path) -> None:
    from ooxml.fill import engine
    from ooxml.model.document import Document
    doc = Document.open(path)
    report = engine.fill(doc, data, strict=False, read_image=None, max_growth=1 << 30)
    assert not report.missing and not report.unused, (report.missing, report.unused)
    doc.save(out, overwrite=True)
    doc.close()


def theirs(path: Path, data: dict, out: Path) -> None:
    from docxtpl import DocxTemplate
    tpl = DocxTemplate(str(path))
    tpl.render(data)
    tpl.save(str(out))


def cpu(fn, *args) -> float:
    gc.collect()
    memory.consolidate()
    t0 = time.process_time()
    fn(*args)
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=21)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-fill-") as tmp:
        folder = Path(tmp)
        path, data = BF.template(folder / "template.docx")
        jpath = jinja_template(folder / "jinja.docx")
        ours(path, data, folder / "o.docx")  # warm-up: imports, first parse
        theirs(jpath, data, folder / "t.docx")
        times: dict[str, list[float]] = {"ours": [], "docxtpl": []}
        for k in range(args.repeats):
            order = [("ours", ours, path), ("docxtpl", theirs, jpath)]
            for name, fn, src in order if k % 2 == 0 else order[::-1]:
                times[name].append(cpu(fn, src, data, folder / f"{name}.docx"))
    ratios = sorted(a / b for a, b in zip(times["ours"], times["docxtpl"]))
    med = {k: statistics.median(v) * 1000 for k, v in times.items()}
    q1, _, q3 = statistics.quantiles(ratios, n=4)
    print(f"open + fill + save, CPU: ours {med['ours']:.0f} ms (min {min(times['ours']) * 1000:.0f}), docxtpl "
          f"{med['docxtpl']:.0f} ms (min {min(times['docxtpl']) * 1000:.0f}); ours / docxtpl median "
          f"{statistics.median(ratios):.2f} [{ratios[0]:.2f}-{ratios[-1]:.2f}, quartiles {q1:.2f}-{q3:.2f}] "
          f"(goal <= 0.50: {'met' if statistics.median(ratios) <= 0.5 else 'NOT met'})")


if __name__ == "__main__":
    main()
