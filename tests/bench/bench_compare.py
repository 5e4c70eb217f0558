"""docx_compare benchmark: a document against a copy with scattered edits.

    python tests/bench/bench_compare.py            # 5,000 and 50,000 paragraphs
    python tests/bench/bench_compare.py --sizes 5000

Per 5,000 paragraphs the copy has 200 word edits, 20 paragraphs inserted, 20 deleted and one
table cell changed (the same density at 50,000). Printed: the time to open both files (the
baseline, same run), the comparison as docx_compare runs it (open both, accepted views,
alignment, the redline's revisions, the redline opened as a new document), CPU time (all
threads) and wall time (the redline's tree is parsed on a second core: wall < CPU; "one core" is
this checkout with that parse in line, after the engine),
and the peak memory of a process that only does that. Targets: 5,000 paragraphs <= 1 s and
<= 3x the open; 50,000 <= 10 s and < 1 GB.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from lxml import etree  # noqa: E402

from tests.bench.gen_docs import ensure_docs  # noqa: E402

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def q(tag: str) -> str:
    return f"{{{W}}}{tag}"


W14 = "http://schemas.microsoft.com/office/word/2010/wordml"


def edited_copy(src: Path, dst: Path, n: int, seed: int = 7, rewrite: bool = False) -> None:
    """``rewrite``: every paragraph and run written again as another program would (new rsids and
    paragraph IDs), so no unchanged paragraph is byte for byte the same on both sides."""
    with zipfile.ZipFile(src) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    root = etree.fromstring(parts["word/document.xml"])
    body = root.find(q("body"))
    rnd = random.Random(seed)
    paras = [p for p in body if p.tag == q("p") and p.find(f".//{q('t')}") is not None]
    scale = max(1, n // 5000)
    for p in rnd.sample(paras, 200 * scale):
        t = rnd.choice(p.findall(f".//{q('t')}"))
        words = (t.text or "x").split(" ")
        words[rnd.randrange(len(words))] = "edited"
        t.text = " ".join(words)
    for p in rnd.sample(paras, 20 * scale):
        if p.getparent() is not None:
            body.remove(p)
    for p in rnd.sample([p for p in paras if p.getparent() is not None], 20 * scale):
        new = etree.fromstring(f'<w:p xmlns:w="{W}"><w:r><w:t>A new paragraph {rnd.random()}</w:t></w:r></w:p>')
        p.addnext(new)
    if rewrite:
        for el in body.iter(q("p"), q("r")):
            for name in list(el.attrib):
                if name.startswith(q("rsid")) or name.startswith(f"{{{W14}}}"):
                    el.set(name, f"{rnd.getrandbits(31):08X}")
    cell = body.find(f"{q('tbl')}//{q('t')}")
    cell.text = "changed cell"
    parts["word/document.xml"] = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def measure(a: Path, b: Path, memory_only: bool = False, one_core: bool = False) -> dict:
    from ooxml.compare import redline, views
    from ooxml.compare.paragraphs import Options
    from ooxml.model.document import Document
    from ooxml.opc.package import Package

    def clocked(fn):
        w0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        return out, time.perf_counter() - w0, time.process_time() - c0

    def open_both():
        x, y = Document.open(a), Document.open(b)
        x.main.tree, y.main.tree
        x.close()
        y.close()

    def compare():
        try:  # as docx_compare runs it (a baseline checkout may predate the pause)
            from ooxml.xml.gc_pause import paused
        except ImportError:
            from contextlib import nullcontext as paused
        with paused():
            return _compare()

    def _compare():
        try:  # docx_compare's own entry (a baseline checkout may predate it)
            from ooxml.compare import run
        except ImportError:
            run = None
        if run is not None:
            extra = {"second_core": False} if one_core else {}  # (only asked of this checkout)
            result, doc = run.compare(Package.open(a), Package.open(b), "bench", Options(), **extra)
            doc.main.tree  # the redline parsed, if it is not yet
            doc.close()
            return result
        x, y = Document.open(a), Document.open(b)
        views.accept_all(x)
        views.accept_all(y)
        result = redline.build(x, y, "bench", Options())
        if hasattr(views, "as_new_document"):  # a baseline checkout may predate it
            doc = views.as_new_document(y)
        else:
            doc = Document(Package.from_parts(views.part_bytes(y)))
        x.close()
        y.close()
        doc.main.tree  # the redline parsed, if it is not yet
        doc.close()
        return result

    if memory_only:  # one comparison in a fresh process: its peak resident memory
        compare()
        return {"maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    _, open_wall, open_cpu = min((clocked(open_both) for _ in range(3)), key=lambda r: r[1])
    result, wall, cpu = min((clocked(compare) for _ in range(3)), key=lambda r: r[1])
    return {"open_wall": open_wall, "open_cpu": open_cpu, "wall": wall, "cpu": cpu,
            "counts": dict(result.counts)}


def docxodus(a: Path, b: Path) -> float | None:
    """Docxodus (``pip install "python-redlines[docxodus]"``) on the same pair, if installed: a peer
    printed beside our figure, its .NET start-up included; never our engine."""
    try:
        from python_redlines.engines import DocxodusEngine  # type: ignore
        engine = DocxodusEngine()
    except Exception:
        return None
    t0 = time.perf_counter()
    engine.run_redline("bench", a.read_bytes(), b.read_bytes())
    return time.perf_counter() - t0


def run_one(checkout: Path, a: Path, b: Path, mode: str) -> dict:
    """One measurement in a fresh process of ``checkout`` (this one, or a baseline's own copy of
    this script: ``git archive main | tar -x -C DIR``)."""
    script = checkout / "tests" / "bench" / "bench_compare.py"
    out = subprocess.run([sys.executable, str(script), "--one", str(a), str(b), mode], capture_output=True,
                         text=True, check=True, cwd=checkout, env={**os.environ, "PYTHONPATH": str(checkout)})
    return json.loads(out.stdout.strip().splitlines()[-1])


def saved_copy(src: Path, dst: Path) -> None:
    """``src`` opened and saved by this server after every block was shown (each carries our ID)."""
    from ooxml.model.document import Document
    doc = Document.open(src)
    for el in doc.body.iter(q("p"), q("tbl")):
        doc.id_of(el)
    doc.save(dst, overwrite=True)
    doc.close()


def pair_for(n: int, variant: str) -> tuple[Path, Path]:
    a = ensure_docs([n])[n]
    if variant == "saved":  # both versions saved by this server: the original, then it edited
        a, src = a.with_name(f"compare-saved-original-{n}.docx"), a
        if not a.exists():
            saved_copy(src, a)
    b = a.with_name(f"compare-{variant}-{n}.docx")
    if not b.exists():
        edited_copy(a, b, n, rewrite=variant == "rewritten")
        if variant == "saved":
            saved_copy(b, b)
    return a, b


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="5000,50000")
    ap.add_argument("--variants", default="edited,rewritten",
                    help="edited: unchanged paragraphs byte for byte the same; rewritten: none is; "
                         "saved: both saved by this server (our IDs on every block)")
    ap.add_argument("--baseline", type=Path, help="another checkout, measured in the same rounds")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--one", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(measure(Path(args.one[0]), Path(args.one[1]), args.one[2] == "memory", args.one[2] == "one-core")))
        return
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    here = Path(__file__).resolve().parents[2]
    checkouts = {"this": here} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    for n in map(int, args.sizes.split(",")):
        for variant in args.variants.split(","):
            a, b = pair_for(n, variant)
            runs: dict[str, list[dict]] = {k: [] for k in checkouts}
            one_core: list[dict] = []  # this checkout with the redline's parse on the caller's thread
            for _ in range(args.rounds):  # alternating: load bursts hit both checkouts alike
                for name, checkout in checkouts.items():
                    runs[name].append(run_one(checkout, a, b, "time"))
                one_core.append(run_one(here, a, b, "one-core"))
            for name, checkout in checkouts.items():
                r = min(runs[name], key=lambda x: x["cpu"]) | run_one(checkout, a, b, "memory")
                ratio = r["cpu"] / r["open_cpu"]
                wall = min(x["wall"] for x in runs[name])  # (the redline's parse runs on a second core)
                print(f"{n:>6} paragraphs, {variant:>9}, {name:>8}: compare CPU {r['cpu']:.2f} s, wall {wall:.2f} s, "
                      f"open both CPU {r['open_cpu']:.2f} s, compare / open {ratio:.1f}x, peak {r['maxrss_mb']:.0f} MB, "
                      f"changes {r['counts']}")
            best = min(one_core, key=lambda x: x["cpu"])
            print(f"{'':>30}one core: compare CPU {best['cpu']:.2f} s, wall {min(x['wall'] for x in one_core):.2f} s "
                  "(the redline's parse after the engine, in line)")
            if args.baseline:
                paired = sorted(t["cpu"] / u["cpu"] for t, u in zip(runs["this"], runs["baseline"]))
                print(f"        this / baseline CPU, per round: {', '.join(f'{x:.2f}' for x in paired)}")
                paired = sorted(t["wall"] / u["wall"] for t, u in zip(runs["this"], runs["baseline"]))
                print(f"        this / baseline wall, per round: {', '.join(f'{x:.2f}' for x in paired)}")
            peer = docxodus(a, b) if n <= 5000 and variant == "edited" else None
            if peer is not None:
                print(f"        Docxodus (python-redlines) on the same pair: {peer:.2f} s")


if __name__ == "__main__":
    main()
