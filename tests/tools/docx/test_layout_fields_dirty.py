"""Fields of page numbers whose cached result is only a placeholder are marked dirty (w:dirty), so
Word recomputes them on open; PAGE in a header or footer is recomputed on every page anyway."""
from __future__ import annotations

import pytest

from tests.builders import NS
from tests.support.client import by_id

pytestmark = pytest.mark.anyio
W = f"{{{NS['w']}}}"


async def test_page_in_the_body_is_marked_dirty_and_the_answer_says_so(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="This is page ", position="end:document_body")).element_id
    a = await docx.ok("docx_insert_field", field="PAGE", position=f"end:{para}")
    assert a.head["Result"] == "1" and "dirty" in a.head["Result Note"] and "Word recomputes" in a.head["Result Note"]
    body = await docx.save(tmp_path / "o.docx")
    begin = by_id(body, a.element_id)
    assert begin.get(f"{W}fldCharType") == "begin" and begin.get(f"{W}dirty") == "true"


async def test_numpages_in_a_footer_is_marked_dirty(docx, tmp_path):
    await docx.create()
    ftr = await docx.ok("docx_create_header_footer", kind="footer", text="of ")
    a = await docx.ok("docx_insert_field", field="NUMPAGES", position=f"end:{ftr.head['Paragraph']}")
    assert "dirty" in a.head["Result Note"]
    await docx.save(tmp_path / "o.docx")
    import zipfile
    from lxml import etree
    with zipfile.ZipFile(tmp_path / "o.docx") as z:
        footer = etree.fromstring(z.read(next(n for n in z.namelist() if n.startswith("word/footer"))))
    begins = footer.xpath(".//w:fldChar[@w:fldCharType='begin']", namespaces=NS)
    assert [b.get(f"{W}dirty") for b in begins] == ["true"]


async def test_page_in_a_footer_is_not_dirty(docx, tmp_path):
    await docx.create()
    ftr = await docx.ok("docx_create_header_footer", kind="footer", text="Page ")
    a = await docx.ok("docx_insert_field", field="PAGE", position=f"end:{ftr.head['Paragraph']}")
    assert a.head["Result Note"] == "recomputed on every page by Word and LibreOffice"
    await docx.save(tmp_path / "o.docx")
    import zipfile
    with zipfile.ZipFile(tmp_path / "o.docx") as z:
        footer = z.read(next(n for n in z.namelist() if n.startswith("word/footer")))
    assert b"fldCharType=\"begin\"" in footer and b"w:dirty" not in footer


async def test_a_date_field_is_neither_dirty_nor_annotated(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Today ", position="end:document_body")).element_id
    a = await docx.ok("docx_insert_field", field="DATE", position=f"end:{para}")
    assert "Result Note" not in a.head
    body = await docx.save(tmp_path / "o.docx")
    assert by_id(body, a.element_id).get(f"{W}dirty") is None
