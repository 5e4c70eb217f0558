"""docx_set_alt_text (issue 34): images, charts, shapes and tables; Word's decorative marker; tracked
where Word tracks it; undone byte for byte. Through the MCP client, asserted on the answer and the saved XML."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from tests.builders import build_chart_docx, chart_paragraph, p, png, tbl, tc
from tests.support.box_pairs import box_run
from tests.support.client import read_body

pytestmark = pytest.mark.anyio
NS = {"w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
      "wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
      "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
      "adec": "http://schemas.microsoft.com/office/drawing/2017/decorative",
      "oxm": "urn:ooxml-mcp:ids:2026", "c": "http://schemas.openxmlformats.org/drawingml/2006/chart"}
OX = 'xmlns:oxm="urn:ooxml-mcp:ids:2026"'
DECORATIVE = "{C183D7F6-B498-43B3-948B-1728B52AA6E4}"
CHART, SHAPE, TABLE = "chart_0000c1", "img_0000b1", "table_0000a1"


@pytest.fixture
def kinds_doc(tmp_path) -> Path:
    """A chart, a shape (a DrawingML text box) and a table, carrying IDs as a file this server saved."""
    path = build_chart_docx(tmp_path / "kinds.docx")
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    chart = chart_paragraph().replace("<c:chart ", f'<c:chart oxm:id="{CHART}" ')
    shape = f'<w:p><w:r><w:t>A shape: </w:t></w:r>{box_run("dml", ["Boxed words"])}</w:p>'.replace(
        "<w:drawing>", f'<w:drawing oxm:id="{SHAPE}">', 1)
    table = tbl([[tc("<w:p><w:r><w:t>Cell</w:t></w:r></w:p>")]]).replace("<w:tbl>", f'<w:tbl oxm:id="{TABLE}">', 1)
    main = parts["word/document.xml"].decode().replace("<w:document ", f"<w:document {OX} ", 1)
    start, end = main.index("<w:body>") + 8, main.index("<w:sectPr")
    parts["word/document.xml"] = (main[:start] + p("Start.") + chart + shape + table + p("End.") + main[end:]).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return path


async def image_doc(docx, tmp_path) -> str:
    await docx.create()
    a = await docx.ok("docx_insert_image", image_path=str(png(tmp_path / "logo.png")), position="end:document_body")
    return a.element_id


def doc_pr(body, element_id: str):
    return body.xpath(f"//*[@oxm:id='{element_id}']/ancestor-or-self::w:drawing//wp:docPr", namespaces=NS)[0]


async def test_an_images_alt_text_is_written_and_shown(docx, tmp_path):
    img = await image_doc(docx, tmp_path)
    a = await docx.ok("docx_set_alt_text", element_id=img, text="Company logo", session_id=docx.session_id)
    assert "[IMG: Company logo]" in a.section("Document Context")
    body = await docx.save(tmp_path / "out.docx")
    assert doc_pr(body, img).get("descr") == "Company logo"


async def test_a_charts_alt_text_goes_on_its_frame_and_shows_under_its_box(docx, kinds_doc, tmp_path):
    await docx.open(kinds_doc)
    a = await docx.ok("docx_set_alt_text", element_id=CHART, text="Sales by quarter", session_id=docx.session_id)
    assert f'Alt text of {CHART}: "Sales by quarter"' in a.section("Document Context")
    body = await docx.save(tmp_path / "out.docx")
    assert doc_pr(body, CHART).get("descr") == "Sales by quarter"


async def test_a_shapes_alt_text_is_written_and_shown(docx, kinds_doc, tmp_path):
    await docx.open(kinds_doc)
    await docx.ok("docx_set_alt_text", element_id=SHAPE, text="Callout box", session_id=docx.session_id)
    shown = await docx.ok("docx_read_content", session_id=docx.session_id)
    assert 'alt text "Callout box"' in shown.text  # the shape is a text box: its frame says it
    body = await docx.save(tmp_path / "out.docx")
    assert doc_pr(body, SHAPE).get("descr") == "Callout box"


async def test_a_tables_alt_text_is_its_description_and_shows_under_its_box(docx, kinds_doc, tmp_path):
    await docx.open(kinds_doc)
    a = await docx.ok("docx_set_alt_text", element_id=TABLE, text="Price list", session_id=docx.session_id)
    assert 'Alt text: "Price list"' in a.section("Document Context")
    body = await docx.save(tmp_path / "out.docx")
    assert body.xpath(f"string(//w:tbl[@oxm:id='{TABLE}']/w:tblPr/w:tblDescription/@w:val)", namespaces=NS) == \
        "Price list"


async def test_a_text_boxs_vml_fallback_gets_the_same_alt_text(docx, tmp_path):
    from tests.builders import build_docx
    run = box_run("alt", ["Boxed words"]).replace("<w:drawing>", f'<w:drawing oxm:id="{SHAPE}">', 1)
    path = build_docx(tmp_path / "alt.docx", f"<w:p>{run}</w:p>")
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts["word/document.xml"] = parts["word/document.xml"].replace(b"<w:document ", f"<w:document {OX} ".encode(), 1)
    with zipfile.ZipFile(path, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    await docx.open(path)
    await docx.ok("docx_set_alt_text", element_id=SHAPE, text="A callout", session_id=docx.session_id)
    body = await docx.save(tmp_path / "out.docx")
    vml = body.xpath("//mc:Fallback//w:pict/*", namespaces={**NS, "mc": "http://schemas.openxmlformats.org/"
                                                                         "markup-compatibility/2006"})
    assert [s.get("alt") for s in vml] == ["A callout"] and doc_pr(body, SHAPE).get("descr") == "A callout"


async def test_decorative_writes_words_marker_and_the_view_says_so(docx, tmp_path):
    img = await image_doc(docx, tmp_path)
    a = await docx.ok("docx_set_alt_text", element_id=img, text="", decorative=True, session_id=docx.session_id)
    assert "[IMG: decorative]" in a.section("Document Context")
    body = await docx.save(tmp_path / "out.docx")
    marks = doc_pr(body, img).xpath(f"a:extLst/a:ext[@uri='{DECORATIVE}']/adec:decorative/@val", namespaces=NS)
    assert marks == ["1"]


async def test_the_decorative_marker_and_a_tracked_table_description_validate(docx, kinds_doc, tmp_path):
    from tests.support.sdk_validator import new_error_kinds, require
    require()
    await docx.open(kinds_doc)
    await docx.ok("docx_set_track_changes", enabled=True, author="Ann", session_id=docx.session_id)
    await docx.ok("docx_set_alt_text", element_id=TABLE, text="Price list", session_id=docx.session_id)
    await docx.ok("docx_set_alt_text", element_id=SHAPE, text="", decorative=True, session_id=docx.session_id)
    await docx.ok("docx_set_alt_text", element_id=CHART, text="Sales", decorative=True, session_id=docx.session_id)
    await docx.save(tmp_path / "out.docx")
    assert new_error_kinds(kinds_doc, tmp_path / "out.docx") == []


async def test_marking_it_not_decorative_removes_the_marker(docx, tmp_path):
    img = await image_doc(docx, tmp_path)
    await docx.ok("docx_set_alt_text", element_id=img, text="", decorative=True, session_id=docx.session_id)
    await docx.ok("docx_set_alt_text", element_id=img, text="A logo", session_id=docx.session_id)
    body = await docx.save(tmp_path / "out.docx")
    assert doc_pr(body, img).find("a:extLst", NS) is None and doc_pr(body, img).get("descr") == "A logo"


async def test_undo_restores_the_bytes(docx, kinds_doc, tmp_path):
    # Not the chart: its frame declares xmlns:a again, as Word writes it, and lxml drops such a
    # redundant declaration from any subtree put back into a tree (any undo of that paragraph).
    await docx.open(kinds_doc)
    await docx.save(tmp_path / "before.docx")
    for eid in (SHAPE, TABLE):
        await docx.ok("docx_set_alt_text", element_id=eid, text="Words", decorative=eid != TABLE,
                      session_id=docx.session_id)
    for _ in range(2):
        await docx.ok("docx_undo", session_id=docx.session_id)
    await docx.save(tmp_path / "after.docx")
    with zipfile.ZipFile(tmp_path / "before.docx") as a, zipfile.ZipFile(tmp_path / "after.docx") as b:
        assert a.read("word/document.xml") == b.read("word/document.xml")


async def test_tracked_table_alt_text_is_a_table_property_change(docx, kinds_doc, tmp_path):
    await docx.open(kinds_doc)
    await docx.ok("docx_set_track_changes", enabled=True, author="Ann", session_id=docx.session_id)
    await docx.ok("docx_set_alt_text", element_id=TABLE, text="Price list", session_id=docx.session_id)
    body = await docx.save(tmp_path / "out.docx")
    change = body.xpath(f"//w:tbl[@oxm:id='{TABLE}']/w:tblPr/w:tblPrChange", namespaces=NS)
    assert len(change) == 1 and change[0].get(f"{{{NS['w']}}}author") == "Ann"
    assert change[0].find("w:tblPr/w:tblDescription", NS) is None  # the properties before: no description


async def test_tracked_drawing_alt_text_says_word_records_no_revision(docx, kinds_doc, tmp_path):
    await docx.open(kinds_doc)
    await docx.ok("docx_set_track_changes", enabled=True, author="Ann", session_id=docx.session_id)
    a = await docx.ok("docx_set_alt_text", element_id=SHAPE, text="Callout", session_id=docx.session_id)
    assert a.head["Tracked"].startswith("no: ")


async def test_a_table_cannot_be_decorative_and_nothing_changes(docx, kinds_doc, tmp_path):
    await docx.open(kinds_doc)
    a = await docx.call("docx_set_alt_text", element_id=TABLE, text="x", decorative=True, session_id=docx.session_id)
    assert a.is_error and "not tables" in a.text
    body = await docx.save(tmp_path / "out.docx")
    assert not body.xpath("//w:tblDescription", namespaces=NS)


async def test_a_paragraph_has_no_alt_text(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")).element_id
    a = await docx.call("docx_set_alt_text", element_id=para, text="x", session_id=docx.session_id)
    assert a.is_error and a.error_type == "InvalidElementType"
