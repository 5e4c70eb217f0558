"""Rejecting an inserted paragraph whose text sits in an inline content control (or accepting a
deleted one) removes the paragraph: the control goes with its last run, as the text did."""
from __future__ import annotations

import pytest

from tests.builders import build_docx, p
from tests.support.client import NS, read_body

pytestmark = pytest.mark.anyio
REV = 'w:id="{}" w:author="X" w:date="2024-01-01T00:00:00Z"'
SDT = '<w:sdt><w:sdtPr><w:alias w:val="box"/></w:sdtPr><w:sdtContent><w:{0} {1}><w:r><w:{2}>boxed</w:{2}></w:r></w:{0}></w:sdtContent></w:sdt>'


def paragraph(kind: str) -> str:
    text = "t" if kind == "ins" else "delText"
    return (f'<w:p><w:pPr><w:rPr><w:{kind} {REV.format(1)}/></w:rPr></w:pPr>'
            + SDT.format(kind, REV.format(2), text) + "</w:p>")


@pytest.mark.parametrize("kind,tool", [("ins", "docx_reject_revisions"), ("del", "docx_accept_revisions")])
async def test_the_paragraph_goes_with_its_inline_control(docx, tmp_path, kind, tool):
    path = build_docx(tmp_path / "in.docx", p("Before.") + paragraph(kind) + p("After."))
    await docx.open(path)
    await docx.ok(tool, session_id=docx.session_id)
    out = tmp_path / "out.docx"
    await docx.ok("docx_save", session_id=docx.session_id, file_path=str(out))
    body = read_body(out)
    assert body.xpath("//w:t/text()", namespaces=NS) == ["Before.", "After."]
    assert not body.xpath("//w:sdt", namespaces=NS)


async def test_an_inserted_last_paragraph_holding_only_an_empty_simple_field_goes_on_reject(docx, tmp_path):
    # a field never updated has no run to mark inserted: the paragraph holds nothing a reader sees
    empty = f'<w:p><w:pPr><w:rPr><w:ins {REV.format(1)}/></w:rPr></w:pPr><w:fldSimple w:instr="REF fig1"/></w:p>'
    path = build_docx(tmp_path / "in.docx", p("Kept.") + empty + empty.replace('"1"', '"2"'))
    await docx.open(path)
    await docx.ok("docx_reject_revisions", session_id=docx.session_id)
    out = tmp_path / "out.docx"
    await docx.ok("docx_save", session_id=docx.session_id, file_path=str(out))
    body = read_body(out)
    assert len(body.xpath("w:p", namespaces=NS)) == 1
    assert not body.xpath("//w:fldSimple", namespaces=NS)
