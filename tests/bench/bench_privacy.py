"""Privacy benchmark: docx_redact of 1,000 occurrences in a 50,000-paragraph document, leak check included.

    python tests/bench/bench_privacy.py [--size 50000] [--occurrences 1000]

Prints figures beside a same-run baseline (one docx_replace_text of the same text over the same document);
never asserts. Target (issue 24): redact <= 1.5 s.
"""
from __future__ import annotations

import argparse
import asyncio
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
from ooxml.text.build import make_run  # noqa: E402
from ooxml.model.document import Document  # noqa: E402
from ooxml.privacy import leak_check as LC  # noqa: E402
from ooxml.privacy import matcher as MT  # noqa: E402
from tools.runtime.dispatch import run_tool  # noqa: E402
from tools.runtime.registry import BUILTIN, CallContext  # noqa: E402
from tools.services import Services  # noqa: E402

SECRET = "Quillfeather"


def planted(size: int, occurrences: int) -> Path:
    """The generated document with the secret in ``occurrences`` paragraphs, every other one split over two runs."""
    src = gen_docs.ensure_docs([size])[size]
    out = src.with_name(f"privacy-{size}-{occurrences}.docx")
    if out.exists():
        return out
    doc = Document.open(src)
    paras = [b for b in B.iter_blocks(doc.body) if b.tag == B.W_P]
    step = max(1, len(paras) // occurrences)
    for i, p in enumerate(paras[::step][:occurrences]):
        pieces = [SECRET[:5], SECRET[5:]] if i % 2 else [SECRET]
        p.append(make_run(" "))
        for piece in pieces:
            p.append(make_run(piece))
    doc.main.touch()
    doc.save(out)
    return out


async def call(services, name: str, **args) -> tuple[str, float]:
    t0 = time.perf_counter()
    o = await run_tool(BUILTIN[name], name, args, CallContext(None, services))
    assert not o.is_error, o.text
    return o.text, time.perf_counter() - t0


async def measure(path: Path) -> dict:
    figures = {}
    services = Services(roots=[path.parent])
    await call(services, "docx_open", file_path=str(path))
    _, figures["replace"] = await call(services, "docx_replace_text", old_text=SECRET, new_text="X" * len(SECRET))
    services = Services(roots=[path.parent])
    await call(services, "docx_open", file_path=str(path))
    text, figures["redact"] = await call(services, "docx_redact", text=SECRET)
    figures["answer"] = next(line for line in text.splitlines() if "Leak Check" in line)
    doc = services.sessions.list(None)[0].doc
    t0 = time.perf_counter()
    LC.check_package(doc.package, MT.for_texts([SECRET]))
    figures["leak_check"] = time.perf_counter() - t0
    return figures


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=50_000)
    ap.add_argument("--occurrences", type=int, default=1_000)
    args = ap.parse_args(argv)
    path = planted(args.size, args.occurrences)
    f = asyncio.run(measure(path))
    print(f"{args.size:,} paragraphs, {args.occurrences:,} occurrences ({path.name})")
    print(f"  baseline docx_replace_text: {f['replace'] * 1000:8.0f} ms")
    print(f"  docx_redact (leak check in): {f['redact'] * 1000:8.0f} ms   target <= 1500 ms   {f['answer'].strip()}")
    print(f"  leak check alone:            {f['leak_check'] * 1000:8.0f} ms")


if __name__ == "__main__":
    main()
