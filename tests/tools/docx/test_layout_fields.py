"""docx_insert_field: complex fields with cached results, shown by result, never edited by replace."""
from __future__ import annotations

import datetime
import re

import pytest
from lxml import etree

from tests.builders import NS, build_docx, p
from tests.support.client import read_part

pytestmark = pytest.mark.anyio
W = f"{{{NS['w']}}}"


def field_parts(par):
    """(fldCharType or 'instr:…' or 'text:…') for each run of the paragraph."""
    out = []
    for r in par.findall("w:r", NS):
        fc = r.find("w:fldChar", NS)
        if fc is not None:
            out.append(fc.get(f"{W}fldCharType"))
        elif r.find("w:instrText", NS) is not None:
            out.append("instr:" + r.find("w:instrText", NS).text)
        else:
            out.append("text:" + "".join(r.xpath(".//w:t/text()", namespaces=NS)))
    return out


async def test_page_field_in_a_footer(docx, tmp_path):
    await docx.create()
    a = await docx.ok("docx_create_header_footer", kind="footer", text="Page ")
    f = await docx.ok("docx_insert_field", field="PAGE", position=f"end:{a.head['Paragraph']}")
    assert f.element_id.startswith("fld_") and f.head["Result"] == "1"
    assert "Page 1" in f.section("Context") and "PAGE" not in f.section("Context")
    out = tmp_path / "o.docx"
    await docx.save(out)
    par = etree.fromstring(read_part(out, "word/footer1.xml")).find("w:p", NS)
    assert field_parts(par) == ["text:Page ", "begin", "instr: PAGE ", "separate", "text:1", "end"]


async def test_date_field_shows_today(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Today: ", position="end:document_body")).element_id
    f = await docx.ok("docx_insert_field", field="DATE", position=f"end:{para}")
    assert f.head["Result"] == datetime.date.today().isoformat()
    assert f.head["Field"] == 'DATE \\@ "yyyy-MM-dd"'


async def test_seq_fields_count_in_document_order(docx, tmp_path):
    await docx.create()
    ids = [(await docx.ok("docx_insert_paragraph", text=f"Figure ", position="end:document_body")).element_id
           for _ in range(3)]
    await docx.ok("docx_insert_field", field="SEQ", instruction="Figure", position=f"end:{ids[0]}")
    await docx.ok("docx_insert_field", field="SEQ", instruction="Figure", position=f"end:{ids[2]}")
    c = await docx.ok("docx_insert_field", field="SEQ", instruction="Figure", position=f"end:{ids[1]}")
    assert c.head["Result"] == "2"
    await docx.ok("docx_insert_field", field="SEQ", instruction="Table", position=f"end:{ids[1]}")
    body = await docx.save(tmp_path / "o.docx")
    instr = body.xpath(".//w:instrText/text()", namespaces=NS)
    assert instr == [" SEQ Figure ", " SEQ Figure ", " SEQ Table ", " SEQ Figure "]


async def test_ref_to_a_missing_bookmark_is_refused_unchanged(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")).element_id
    a = await docx.call("docx_insert_field", field="REF", instruction="Nowhere", position=f"end:{para}")
    assert a.is_error and a.error_type == "ValidationError" and "docx_list_bookmarks" in a.head["Hint"]
    body = await docx.save(tmp_path / "o.docx")
    assert not body.xpath(".//w:fldChar", namespaces=NS)


async def test_raw_instruction_and_a_field_cannot_go_between_blocks(docx):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="by ", position="end:document_body")).element_id
    a = await docx.ok("docx_insert_field", field="AUTHOR", position=f"end:{para}")
    assert a.head["Field"] == "AUTHOR"
    bad = await docx.call("docx_insert_field", field="PAGE", position="end:document_body")
    assert bad.is_error and bad.error_type == "InvalidPosition"


async def test_replace_never_touches_instruction_text(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="PAGE ", position="end:document_body")).element_id
    await docx.ok("docx_insert_field", field="PAGE", position=f"end:{para}")
    a = await docx.ok("docx_replace_text", old_text="PAGE", new_text="Seite")
    assert a.head["Replacements"] == "1"
    body = await docx.save(tmp_path / "o.docx")
    assert body.xpath(".//w:instrText/text()", namespaces=NS) == [" PAGE "]


async def test_field_after_a_field_and_delete_removes_its_runs(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="p", position="end:document_body")).element_id
    f1 = (await docx.ok("docx_insert_field", field="PAGE", position=f"end:{para}")).element_id
    await docx.ok("docx_insert_field", field="NUMPAGES", position=f"after:{f1}")
    d = await docx.ok("docx_delete", element_id=f1)
    body = await docx.save(tmp_path / "o.docx")
    assert body.xpath(".//w:instrText/text()", namespaces=NS) == [" NUMPAGES "]
    assert d.head["Deleted"].startswith("Field")
