"""docx_copy_elements_range (and copies in general): order, new IDs, Word IDs, references, fields."""
from __future__ import annotations

import re

import pytest
from lxml import etree

from ooxml.text.copies import balance_fields, carry_relationships
from ooxml.model.document import Document
from tests.builders import NS, build_docx, p, png, tbl, tc
from tests.support.client import by_id, texts

pytestmark = pytest.mark.anyio
W14 = f"{{{NS['w14']}}}"
W = f"{{{NS['w']}}}"


async def open_body(docx, tmp_path, body, **kw):
    await docx.open(build_docx(tmp_path / "in.docx", body, **kw))
    page = await docx.ok("docx_read_content")
    return re.findall(r"\((?:para|table)_[0-9a-f]+\)", page.section("Content"))


def ids(found):
    return [x[1:-1] for x in found]


async def test_range_is_copied_in_order_with_new_ids(docx, tmp_path):
    await docx.create()
    made = [(await docx.ok("docx_insert_paragraph", text=t, position="end:document_body")).element_id
            for t in ("one", "two", "three")]
    a = await docx.ok("docx_copy_elements_range", start_id=made[0], end_id=made[1], position="end:document_body")
    assert a.head["Blocks Copied"] == "2" and a.element_id not in made
    assert a.cursor_line == f"Cursor: after Paragraph {a.element_id}"
    body = await docx.save(tmp_path / "o.docx")
    assert [texts(x) for x in body.findall("w:p", NS)] == ["one", "two", "three", "one", "two"]
    assert body.findall("w:p", NS)[-1].get(f"{{{NS['oxm']}}}id") == a.element_id
    b = await docx.ok("docx_get_context", element_id="last_insert")
    assert b.element_id == a.element_id


async def test_copies_get_fresh_word_ids(docx, tmp_path):
    body = ('<w:p w14:paraId="00000001" w14:textId="77777777"><w:bookmarkStart w:id="0" w:name="here"/>'
            '<w:r><w:t>a</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p>'
            '<w:p w14:paraId="00000002" w14:textId="77777777"><w:r><w:drawing><wp:inline><wp:extent cx="1" cy="1"/>'
            '<wp:docPr id="1" name="pic"/><a:graphic><a:graphicData uri="x"/></a:graphic></wp:inline></w:drawing></w:r></w:p>')
    found = ids(await open_body(docx, tmp_path, body))
    await docx.ok("docx_copy_elements_range", start_id=found[0], end_id=found[1], position="end:document_body")
    saved = await docx.save(tmp_path / "o.docx")
    para_ids = [el.get(f"{W14}paraId") for el in saved.iter(f"{W}p")]
    assert len(set(para_ids)) == 4 and all(0 < int(v, 16) < 0x80000000 for v in para_ids)
    assert sorted(d.get("id") for d in saved.iter(f"{{{NS['wp']}}}docPr")) == ["1", "2"]
    starts = saved.findall(".//w:bookmarkStart", NS)
    assert [s.get(f"{W}name") for s in starts] == ["here", "here_2"]
    assert len({s.get(f"{W}id") for s in starts}) == 2
    assert len(saved.findall(".//w:bookmarkEnd", NS)) == 2


async def test_comment_and_note_references_stay_behind(docx, tmp_path):
    body = ('<w:p><w:commentRangeStart w:id="0"/><w:r><w:t>noted</w:t></w:r><w:commentRangeEnd w:id="0"/>'
            '<w:r><w:commentReference w:id="0"/></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>')
    found = ids(await open_body(docx, tmp_path, body))
    a = await docx.ok("docx_copy_elements_range", start_id=found[0], end_id=found[0], position="end:document_body")
    copy = by_id(await docx.save(tmp_path / "o.docx"), a.element_id)
    assert texts(copy) == "noted"
    for tag in ("commentRangeStart", "commentRangeEnd", "commentReference", "footnoteReference"):
        assert copy.find(f".//w:{tag}", NS) is None


async def test_a_field_cut_by_the_range_keeps_its_result_only(docx, tmp_path):
    body = ('<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \\o </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Entry one</w:t></w:r></w:p>'
            '<w:p><w:r><w:t>Entry two</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>' + p("after"))
    found = ids(await open_body(docx, tmp_path, body))
    a = await docx.ok("docx_copy_elements_range", start_id=found[0], end_id=found[0], position="end:document_body")
    copy = by_id(await docx.save(tmp_path / "o.docx"), a.element_id)
    assert texts(copy) == "Entry one"
    assert copy.find(".//w:fldChar", NS) is None and copy.find(".//w:instrText", NS) is None


async def test_a_whole_field_is_copied_as_a_field(docx, tmp_path):
    body = ('<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r>'
            '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>')
    found = ids(await open_body(docx, tmp_path, body))
    a = await docx.ok("docx_copy_elements_range", start_id=found[0], end_id=found[0], position="end:document_body")
    copy = by_id(await docx.save(tmp_path / "o.docx"), a.element_id)
    assert len(copy.findall(".//w:fldChar", NS)) == 3 and copy.find(".//w:instrText", NS) is not None


async def test_range_with_a_table_keeps_tables_apart(docx, tmp_path):
    found = ids(await open_body(docx, tmp_path, p("intro") + tbl([[tc(p("cell"))]])))
    a = await docx.ok("docx_copy_elements_range", start_id=found[1], end_id=found[1], position=f"after:{found[1]}")
    saved = await docx.save(tmp_path / "o.docx")
    kinds = [el.tag.split("}")[1] for el in saved if el.tag != f"{W}sectPr"]
    assert kinds == ["p", "tbl", "p", "tbl"] and a.element_id.startswith("table_")


async def test_section_breaks_stay_out_of_cells(docx, tmp_path):
    body = ('<w:p><w:pPr><w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr></w:pPr><w:r><w:t>end of section</w:t></w:r></w:p>'
            + tbl([[tc(p("cell"))]]))
    found = ids(await open_body(docx, tmp_path, body))
    cell = (await docx.ok("docx_get_cell", table_id=found[1], row=0, col=0)).element_id
    a = await docx.ok("docx_copy_elements_range", start_id=found[0], end_id=found[0], position=f"start:{cell}")
    copy = by_id(await docx.save(tmp_path / "o.docx"), a.element_id)
    assert texts(copy) == "end of section" and copy.find(".//w:sectPr", NS) is None


async def test_end_before_start_is_refused(docx, tmp_path):
    found = ids(await open_body(docx, tmp_path, p("a") + p("b")))
    a = await docx.call("docx_copy_elements_range", start_id=found[1], end_id=found[0], position="end:document_body")
    assert a.is_error and a.error_type == "InvalidPosition" and "does not come after" in a.head["Message"]


async def test_ends_in_different_containers_are_refused(docx, tmp_path):
    found = ids(await open_body(docx, tmp_path, p("a") + tbl([[tc(p("b"))]])))
    cell_para = (await docx.ok("docx_get_cell", table_id=found[1], row=0, col=0)).section("Content")
    inner = re.search(r"\((para_[0-9a-f]+)\)", cell_para).group(1)
    a = await docx.call("docx_copy_elements_range", start_id=found[0], end_id=inner, position="end:document_body")
    assert a.is_error and "different containers" in a.head["Message"]


async def test_a_run_is_not_a_range_end(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="a", position="end:document_body")).element_id
    run = (await docx.ok("docx_insert_run", text="b", position=f"end:{para}")).element_id
    a = await docx.call("docx_copy_elements_range", start_id=para, end_id=run, position="end:document_body")
    assert a.is_error and a.error_type == "InvalidElementType"


async def test_copied_images_keep_their_relationship(docx, tmp_path):
    await docx.create()
    a = await docx.ok("docx_insert_image", image_path=str(png(tmp_path / "r.png")), position="end:document_body")
    await docx.ok("docx_copy_elements_range", start_id=a.head["Paragraph"], end_id=a.head["Paragraph"],
                  position="end:document_body")
    saved = await docx.save(tmp_path / "o.docx")
    blips = [b.get(f"{{{NS['r']}}}embed") for b in saved.iter(f"{{{NS['a']}}}blip")]
    assert len(blips) == 2 and blips[0] == blips[1]
    assert len({d.get("id") for d in saved.iter(f"{{{NS['wp']}}}docPr")}) == 2


# ---- the building blocks, directly -------------------------------------------------------------------

def test_balance_fields_drops_only_unbalanced_codes():
    root = etree.fromstring(
        f'<w:body xmlns:w="{NS["w"]}"><w:p><w:r><w:fldChar w:fldCharType="end"/></w:r>'
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>X</w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r></w:p></w:body>')
    balance_fields(root)
    kinds = [el.get(f"{W}fldCharType") for el in root.iter(f"{W}fldChar")]
    assert kinds == ["begin", "end"] and root.find(".//w:instrText", NS) is not None


def test_relationships_are_carried_to_another_part(tmp_path):
    path = build_docx(tmp_path / "in.docx", p("x"))
    doc = Document.open(path)
    try:
        rid = doc.package.rels("word/document.xml")[0].get("Id")
        el = etree.fromstring(f'<w:p xmlns:w="{NS["w"]}" xmlns:r="{NS["r"]}"><w:hyperlink r:id="{rid}"/></w:p>')
        carry_relationships(doc.package, "word/document.xml", "word/header9.xml", el)
        new = el[0].get(f"{{{NS['r']}}}id")
        rels = {r.get("Id"): r for r in doc.package.rels("word/header9.xml")}
        assert new in rels and rels[new].get("Target") == "styles.xml"
    finally:
        doc.close()
