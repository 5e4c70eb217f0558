"""docx_compare of a long document with scattered edits costs little more than opening both
files (issue 29, defect 18).

The pair is tests/bench/bench_compare.py's, smaller: a Word-like document and a copy with 4% of its
paragraphs edited, some inserted, some deleted and a table cell changed. The CPU of docx_compare is asserted
against that of docx_open of both files in the same run (a ratio: the machine is shared), and the
changes it finds are those it found before.
"""
from __future__ import annotations

import time

import pytest

from tests.bench.bench_compare import edited_copy
from tests.bench.gen_docs import build_docx

pytestmark = pytest.mark.anyio

N = 5000


def pair(tmp_path):
    """The benchmark's pair (Word-like: namespaces, rsids, headings, tables, a picture), 5,000 paragraphs."""
    a, b = tmp_path / "a.docx", tmp_path / "b.docx"
    build_docx(a, N)
    edited_copy(a, b, N)
    return a, b


async def best_cpu(call) -> float:
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()  # every thread of this process: the client and the server's worker
        await call()
        best = min(best, time.process_time() - t0)
    return best


async def test_compare_of_a_long_document_costs_little_more_than_opening_both_files(docx, tmp_path):
    a, b = pair(tmp_path)

    async def open_both():
        for path in (a, b):
            ans = await docx.ok("docx_open", file_path=str(path))
            await docx.ok("docx_close", session_id=ans.head["Session ID"])

    async def compare():
        ans = await docx.ok("docx_compare", original_path=str(a), revised_path=str(b))
        assert int(ans.head["Changes"]) == 440  # what the engine found before it was made faster
        await docx.ok("docx_close", session_id=ans.head["Session ID"])
    cpu_open, cpu_compare = await best_cpu(open_both), await best_cpu(compare)
    # 2.3-2.6 here; the code before this test measured 2.4-3.0 on the same machine (load 11): a
    # guard against losing what was gained (the redline parsed again, keys serialized per run)
    assert cpu_compare / cpu_open < 3.2, (cpu_compare, cpu_open)
