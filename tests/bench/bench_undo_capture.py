"""The undo step's cost by document size: worker-thread CPU of one update call, in-process.

    python tests/bench/bench_undo_capture.py [--calls 40] [--rows 50,500,2000] [--paragraphs 50000]
                                             [--baseline DIR]

docx_update_paragraph_text on a paragraph in the middle row of a 3-column table of N rows (the
undo step saves what the edit changes: before issue 21 it copied the whole table), on the middle
paragraph of a document of ``--paragraphs`` paragraphs, and docx_insert_paragraph /
docx_update_paragraph_text at 50 paragraphs. Prints the median [25th percentile] of each call's
thread CPU; ``--baseline DIR`` runs the same in another checkout (copy this file into its
tests/bench first), alternating twice.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent


def table_docx(gen_docs, path: Path, rows: int) -> None:
    """The 50-paragraph fixture with a 3-column table of ``rows`` rows added at its end."""
    from lxml import etree
    src = gen_docs.ensure_docs([50])[50]
    with zipfile.ZipFile(src) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    root = etree.fromstring(parts["word/document.xml"])
    body = root[0]
    sect = body[-1]
    tbl = gen_docs._table(body, gen_docs._Ids(random.Random(rows)), random.Random(rows), rows=rows, cols=3)
    sect.addprevious(tbl)
    parts["word/document.xml"] = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def run(args) -> None:
    repo = BENCH_DIR.parent.parent if args.repo is None else Path(args.repo)
    os.chdir(repo)
    sys.path[:0] = [str(repo), str(BENCH_DIR)]
    import gen_docs
    import tools.catalog  # noqa: F401
    from ooxml.model.document import Document
    from render.answer import operation_title
    from tools.runtime.call import dispatch
    from tools.runtime.call.registry import CallContext
    from tools.builtin import builtin
    from tools.services import Services

    work = Path(tempfile.mkdtemp())
    W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    cases = []  # (label, path, target ID, kind)
    for rows in [int(r) for r in args.rows.split(",") if r]:
        raw = work / f"table_{rows}.docx"
        table_docx(gen_docs, raw, rows)
        doc = Document.open(raw)
        tbl = [c for c in doc.body if c.tag == W + "tbl"][-1]
        p = next(tbl[2 + rows // 2].iter(W + "p"))
        pid = doc.id_of(p)
        doc.save(work / f"t{rows}.docx")
        doc.close()
        cases.append((f"cell text, table {rows} rows", work / f"t{rows}.docx", pid, "update"))
    for n in sorted({args.paragraphs, 50}, reverse=True):
        src = gen_docs.ensure_docs([n])[n]
        doc = Document.open(src)
        paras = [c for c in doc.body if c.tag == W + "p"]
        pid = doc.id_of(paras[len(paras) // 2])
        doc.save(work / f"p{n}.docx")
        doc.close()
        cases.append((f"update, {n:,} paragraphs", work / f"p{n}.docx", pid, "update"))
        if n == 50:
            cases.append((f"insert, {n:,} paragraphs", work / f"p{n}.docx", pid, "insert"))
    services = Services(roots=[work])

    def call(name, arguments):
        out = dispatch.run_sync(builtin()[name], name, operation_title(name), dict(arguments),
                                CallContext(None, services), 60)
        assert not out.is_error, out.text[:300]
        return out.text

    for label, path, pid, kind in cases:
        sid = re.search(r"\*\*Session ID\*\*: (\S+)", call("docx_open", {"file_path": str(path)})).group(1)
        times = []
        for i in range(args.calls + 3):
            if kind == "insert":
                name, a = "docx_insert_paragraph", {"session_id": sid, "text": "Inserted.", "position": f"after:{pid}"}
            else:
                name, a = "docx_update_paragraph_text", {"session_id": sid, "element_id": pid,
                                                         "new_text": f"Text {i % 2}."}
            a["view"] = "none"
            t0 = time.thread_time_ns()
            call(name, a)
            if i >= 3:
                times.append((time.thread_time_ns() - t0) / 1e3)
        call("docx_close", {"session_id": sid})
        times.sort()
        print(f"  {label:32s} {statistics.median(times):9.1f} us [{times[len(times) // 4]:.1f}]", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=40)
    ap.add_argument("--rows", default="50,500,2000")
    ap.add_argument("--paragraphs", type=int, default=50000)
    ap.add_argument("--baseline", type=Path)
    ap.add_argument("--repo", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.baseline is None or args.repo:
        run(args)
        return
    print(f"load average {os.getloadavg()[0]:.1f}; worker CPU per call (view='none'), median [p25]")
    for _ in range(2):
        for label, repo in (("baseline", args.baseline), ("this", BENCH_DIR.parent.parent)):
            print(f"{label} ({repo})", flush=True)
            # The checkout's own copy (copy this file there first): gen_docs puts its checkout first on sys.path.
            script = Path(repo) / "tests/bench" / Path(__file__).name
            subprocess.run([sys.executable, str(script), "--repo", str(repo), "--calls", str(args.calls),
                            "--rows", args.rows, "--paragraphs", str(args.paragraphs)], check=True)


if __name__ == "__main__":
    main()
