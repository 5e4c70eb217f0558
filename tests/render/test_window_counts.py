"""The window's "N more elements above/below" at either end of the body: right after every edit,
and counted without walking the whole body again on each call (issue 21: 13 ms a call at 50,000)."""
from __future__ import annotations

import pytest

from ooxml.model import document as D
from tests.builders import build_docx, p

pytestmark = pytest.mark.anyio


class CountingSet(frozenset):
    """_NOT_BLOCKS that counts its lookups: one per child of a walk that counts blocks."""
    lookups = 0

    def __contains__(self, item):
        CountingSet.lookups += 1
        return frozenset.__contains__(self, item)


def more(context: str, side: str) -> int:
    return int(context.split(f" more elements {side})")[0].rsplit("(", 1)[1])


async def test_inserts_at_the_start_and_the_end_keep_the_counts_right(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "long.docx", "".join(p(f"para {i}") for i in range(200))))
    top = await docx.ok("docx_insert_paragraph", text="new first", position="start:document_body")
    assert more(top.section("Document Context"), "below") == 201 - top.section("Document Context").count("  ┌")
    end = await docx.ok("docx_insert_paragraph", text="new last", position="end:document_body")
    assert more(end.section("Document Context"), "above") == 202 - end.section("Document Context").count("  ┌")
    await docx.ok("docx_delete", element_id=top.element_id)
    again = await docx.ok("docx_insert_paragraph", text="another last", position="end:document_body")
    assert more(again.section("Document Context"), "above") == 202 - again.section("Document Context").count("  ┌")


async def test_an_edit_at_the_start_does_not_count_the_body_again(docx, tmp_path, monkeypatch):
    await docx.open(build_docx(tmp_path / "long.docx", "".join(p(f"para {i}") for i in range(2000))))
    await docx.ok("docx_insert_paragraph", text="one", position="start:document_body")
    monkeypatch.setattr(D, "_NOT_BLOCKS", CountingSet(D._NOT_BLOCKS))
    for i in range(3):
        await docx.ok("docx_insert_paragraph", text=f"more {i}", position="start:document_body")
    assert CountingSet.lookups < 2000  # a walk of the body looks up each of its 2,000 children
