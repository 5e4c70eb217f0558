"""List labels at scale: insert a numbered item in the middle of a document whose every paragraph
is a numbered list item, with the labels of the window in the answer.

    python tests/bench/bench_lists.py [--sizes 50,50000] [--calls 40]

Every insert renumbers all the items after it; the answer must still cost O(window) (labels come
from checkpoints, ooxml/lists/numbering.py). Prints the median per call for each size and the ratio of
the largest to the smallest, measured round-robin in the same run.
"""
from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.support import list_docs as LD  # noqa: E402

TARGET_MS = 3.0


def build(folder: Path, n: int) -> tuple[Path, str]:
    """n numbered items (three levels, one list), and the ID of the middle one."""
    styles = LD.pstyle("ListNumber", "List Number", 1, 0)
    levels = [0, 1, 1, 2, 0]
    body = "".join(LD.para(f"Clause {i} of the agreement.", 1, levels[i % 5]) for i in range(n))
    path = LD.build(folder / f"list_{n}.docx", body, LD.numbering_xml([LD.abstract(0, LD.outline())],
                                                                      [LD.num(1, 0)]), styles)
    from ooxml.model.document import Document
    doc = Document.open(path)
    paras = list(doc.body.iter("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}p"))
    mid_id = doc.id_of(paras[n // 2])
    doc.save(path)
    doc.close()
    return path, mid_id


async def run(sizes: list[int], calls: int, folder: Path) -> None:
    import tools.catalog  # noqa: F401
    from tools.runtime.call.dispatch import run_tool
    from tools.runtime.call.registry import CallContext
    from tools.services import Services

    docs = {n: build(folder, n) for n in sizes}
    services = Services(roots=[folder])

    async def call(name, args):
        visible = {t.name: t for t in services.tools_for(None)}
        o = await run_tool(visible.get(name), name, args, CallContext(None, services), list(visible))
        if o.is_error:
            raise RuntimeError(o.text)
        return o.text

    args, first = {}, {}
    for n in sizes:
        path, mid = docs[n]
        text = await call("docx_open", {"file_path": str(path)})
        sid = re.search(r"\*\*Session ID\*\*: (\S+)", text).group(1)
        args[n] = {"session_id": sid, "text": "Inserted clause.", "position": f"after:{mid}", "style": "List Number"}
        t0 = time.perf_counter()
        await call("docx_insert_paragraph", args[n])
        first[n] = (time.perf_counter() - t0) * 1000
    samples = {n: [] for n in sizes}
    answer = ""
    for _ in range(calls):
        for n in sizes:
            t0 = time.perf_counter()
            answer = await call("docx_insert_paragraph", args[n])
            samples[n].append((time.perf_counter() - t0) * 1000)
    assert re.search(r"│ \d+\.(\d+\.)* Inserted clause\.", answer), answer[:3000]  # labels are in the answer
    print("\n== docx_insert_paragraph (numbered, 'List Number') in the middle of a numbered list (ms) ==")
    for n in sizes:
        med = statistics.median(samples[n])
        print(f"  {n:>7} items: median {med:6.2f}  p95 {sorted(samples[n])[int(0.95 * len(samples[n])) - 1]:6.2f}"
              f"  first call after open {first[n]:8.1f}")
    big, small = max(sizes), min(sizes)
    ratio = statistics.median(a / b for a, b in zip(samples[big], samples[small]))
    med = statistics.median(samples[big])
    print(f"  {big} items: median {med:.2f} ms (target <= {TARGET_MS} ms: {'met' if med <= TARGET_MS else 'NOT met'});"
          f" ratio to {small} items: {ratio:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="50,50000")
    ap.add_argument("--calls", type=int, default=40)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run([int(s) for s in a.sizes.split(",")], a.calls, Path(tmp)))


if __name__ == "__main__":
    main()
