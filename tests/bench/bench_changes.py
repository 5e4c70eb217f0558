"""docx_changes benchmark: the list after 100 edits against one docx_compare of the same document.

    python tests/bench/bench_changes.py                # 5,000 and 50,000 paragraphs
    python tests/bench/bench_changes.py --sizes 5000

A generated document (tests/bench/gen_docs.py) is opened and given 100 edits through the tools
(paragraph text updated, fonts set, paragraphs deleted and inserted, in turn, scattered). Then,
in the same process: docx_changes (Markdown and JSON), and the baseline, docx_compare of the
file as opened against the file as saved after the edits (the same document and changes). CPU
time of the process (the calls run in worker threads), the best of three runs each. Target:
docx_changes <= 1x docx_compare.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.gen_docs import ensure_docs  # noqa: E402
from tests.support.client import open_direct  # noqa: E402

EDITS = 100


async def _edit(c, sid: str, seed: int = 11) -> None:
    from ooxml.text import body as B
    doc = c.services.sessions.get(None, sid).doc
    rnd = random.Random(seed)
    paras = [p for p in B.iter_blocks(doc.body) if p.tag == B.W_P and B.paragraph_text(p).strip()]
    targets = [doc.id_of(p) for p in rnd.sample(paras, EDITS)]
    for i, eid in enumerate(targets):
        kind = i % 4
        if kind == 0:
            args = ("docx_update_paragraph_text", dict(element_id=eid, new_text=f"Rewritten paragraph {i}."))
        elif kind == 1:
            args = ("docx_set_font", dict(element_id=eid, bold=True))
        elif kind == 2:
            args = ("docx_delete", dict(element_id=eid))
        else:
            args = ("docx_insert_paragraph", dict(text=f"Inserted paragraph {i}.", position=f"after:{eid}"))
        a = await c.call(args[0], session_id=sid, view="none", **args[1])
        assert not a.is_error, a.text


async def _cpu(c, name: str, **args) -> float:
    best = None
    for _ in range(3):
        start = time.process_time()
        a = await c.call(name, **args)
        took = time.process_time() - start
        assert not a.is_error, a.text[:500]
        best = took if best is None else min(best, took)
    return best


async def measure(path: Path) -> dict:
    folder = Path(tempfile.mkdtemp())
    try:
        shutil.copy(path, folder / "original.docx")
        async with open_direct([folder]) as c:
            await c.open(folder / "original.docx")
            sid = c.session_id
            await _edit(c, sid)
            await c.ok("docx_save", session_id=sid, file_path=str(folder / "edited.docx"))
            out = {"changes": await _cpu(c, "docx_changes", session_id=sid),
                   "changes json": await _cpu(c, "docx_changes", session_id=sid, format="json"),
                   "compare": await _cpu(c, "docx_compare", original_path=str(folder / "original.docx"),
                                         revised_path=str(folder / "edited.docx"), view="none")}
            listed = (await c.call("docx_changes", session_id=sid)).head["Changes"]
            out["listed"] = int(listed)
            return out
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="5000,50000")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    for n, path in ensure_docs(sizes).items():
        r = asyncio.run(measure(path))
        ratio = r["changes"] / r["compare"]
        print(f"{n} paragraphs, {EDITS} edits ({r['listed']} changes listed): docx_changes {r['changes'] * 1000:.0f} ms "
              f"(json {r['changes json'] * 1000:.0f} ms), docx_compare {r['compare'] * 1000:.0f} ms CPU: "
              f"ratio {ratio:.2f} (target <= 1): {'met' if ratio <= 1 and r['changes json'] <= r['compare'] else 'NOT met'}")


if __name__ == "__main__":
    main()
