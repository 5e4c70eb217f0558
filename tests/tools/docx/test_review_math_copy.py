"""A tracked copy of a paragraph holding an equation: the equation is inside our insertion, so
rejecting the copy removes it and accepting keeps it (as Word records an inserted equation)."""
from __future__ import annotations

import pytest

from tests.builders import build_docx
from tests.support.client import NS, by_id

pytestmark = pytest.mark.anyio
M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
MATH = (f'<m:oMathPara xmlns:m="{M}"><m:oMath><m:sSup><m:e><m:r><m:t>x</m:t></m:r></m:e>'
        '<m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath></m:oMathPara>')


def xp(el, path: str):
    return el.xpath(path, namespaces={**NS, "m": M})


async def _copied(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", f"<w:p>{MATH}</w:p><w:p><w:r><w:t>After</w:t></w:r></w:p>"))
    first = (await docx.ok("docx_read_content")).section("Content").split("\n")
    pid = next(line for line in first if "$" in line).split("(")[1].split(")")[0]
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    return await docx.ok("docx_copy_paragraph", element_id=pid, position="end:document_body")


async def _saved(docx, tmp_path):
    return await docx.save(tmp_path / "out.docx")


async def test_a_copied_equation_is_inside_the_insertion(docx, tmp_path):
    copy = await _copied(docx, tmp_path)
    p = by_id(await _saved(docx, tmp_path), copy.element_id)
    assert xp(p, "w:ins/m:oMathPara/m:oMath") and not xp(p, "m:oMathPara | m:oMath")


async def test_rejecting_a_copied_equation_removes_it(docx, tmp_path):
    await _copied(docx, tmp_path)
    await docx.ok("docx_reject_revisions")
    body = await _saved(docx, tmp_path)
    assert len(xp(body, "//m:oMath")) == 1 and not xp(body, "//w:ins")


async def test_accepting_a_copied_equation_keeps_it(docx, tmp_path):
    await _copied(docx, tmp_path)
    await docx.ok("docx_accept_revisions")
    body = await _saved(docx, tmp_path)
    assert len(xp(body, "//w:p/m:oMathPara/m:oMath")) == 2 and not xp(body, "//w:ins")
