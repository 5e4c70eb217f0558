"""Content controls (SPEC §11, toolset forms): list every kind at every level, set each kind, insert
controls, add repeating items; bad input is refused by name and changes nothing."""
from __future__ import annotations

import re
import zipfile

import pytest
from lxml import etree

from tests.builders import png
from tests.support.client import read_part
from tests.support.form_docs import controls_doc

pytestmark = pytest.mark.anyio
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
NS = {"w": W, "w14": W14, "t": "urn:forms-test"}


async def opened(docx, tmp_path) -> dict[str, str]:
    """Open the controls fixture; control IDs by tag."""
    await docx.open(controls_doc(tmp_path / "controls.docx"))
    listed = await docx.ok("docx_list_content_controls")
    return {tag: cid for cid, tag in re.findall(r"- (sdt_\w+) \[[^\]]+\] tag=(\w+)", listed.text)}


def control(xml: bytes, tag: str) -> etree._Element:
    root = etree.fromstring(xml)
    return root.xpath(f"//w:sdt[w:sdtPr/w:tag/@w:val='{tag}']", namespaces=NS)[0]


def shown(sdt: etree._Element) -> str:
    return "".join(sdt.xpath("w:sdtContent//w:t/text()", namespaces=NS))


async def test_list_shows_every_kind_level_and_property(docx, tmp_path):
    await docx.open(controls_doc(tmp_path / "controls.docx"))
    text = (await docx.ok("docx_list_content_controls")).text
    for kind, level, tag in [("text", "inline", "customer"), ("checkbox", "inline", "agree"),
                             ("dropdown", "inline", "colour"), ("combo_box", "inline", "size"),
                             ("date", "inline", "due"), ("picture", "inline", "photo"),
                             ("rich_text", "block", "summary"), ("text", "block", "heading"),
                             ("rich_text", "row", "row_ctrl"), ("text", "cell", "cell_ctrl"),
                             ("repeating_section", "block", "people"), ("text", "inline", "company")]:
        assert re.search(rf"\[{kind}, {level}\] tag={tag} ", text), (kind, level, tag)
    assert "items=Red=r, Green=g, Blue=b" in text and "format=d MMMM yyyy" in text
    assert "lock=contentLocked" in text and "(placeholder)" in text
    assert 'bound /ns0:root[1]/ns0:name[1] = "Old name"' in text
    assert "☐ unchecked" in text


@pytest.mark.parametrize("tag,value,expect", [
    ("customer", "Grace Hopper", "Grace Hopper"),
    ("heading", "Line one\nLine two", "Line oneLine two"),
    ("summary", "Rich text", "Rich text"),
    ("cell_ctrl", "In a cell", "In a cell"),
    ("row_ctrl", "In a row", "In a rowsecond"),
    ("size", "XXL", "XXL"),  # a combo box takes free text
    ("company", "In the header", "In the header"),
])
async def test_set_text_kinds_at_every_level(docx, tmp_path, tag, value, expect):
    ids = await opened(docx, tmp_path)
    a = await docx.ok("docx_set_content_control", control_id=ids[tag], value=value)
    assert a.element_id == ids[tag] and a.head["Operation"] == "Set Content Control"
    await docx.save(tmp_path / "out.docx")
    part = "word/header1.xml" if tag == "company" else "word/document.xml"
    assert shown(control(read_part(tmp_path / "out.docx", part), tag)) == expect


async def test_checkbox_toggles_state_and_glyph(docx, tmp_path):
    ids = await opened(docx, tmp_path)
    a = await docx.ok("docx_set_content_control", control_id=ids["agree"], value=True)
    assert "⟦agree: ☒⟧" in a.section("Document Context")
    await docx.save(tmp_path / "on.docx")
    sdt = control(read_part(tmp_path / "on.docx"), "agree")
    assert sdt.xpath("string(w:sdtPr/w14:checkbox/w14:checked/@w14:val)", namespaces=NS) == "1"
    assert shown(sdt) == "☒"
    await docx.ok("docx_set_content_control", control_id=ids["agree"], value=False)
    await docx.save(tmp_path / "off.docx")
    sdt = control(read_part(tmp_path / "off.docx"), "agree")
    assert sdt.xpath("string(w:sdtPr/w14:checkbox/w14:checked/@w14:val)", namespaces=NS) == "0"
    assert shown(sdt) == "☐"


@pytest.mark.parametrize("value", ["g", "Green"])  # an item's value or its display text
async def test_dropdown_selects_an_item_and_clears_the_placeholder(docx, tmp_path, value):
    ids = await opened(docx, tmp_path)
    await docx.ok("docx_set_content_control", control_id=ids["colour"], value=value)
    await docx.save(tmp_path / "out.docx")
    sdt = control(read_part(tmp_path / "out.docx"), "colour")
    assert shown(sdt) == "Green"
    assert sdt.xpath("string(w:sdtPr/w:dropDownList/@w:lastValue)", namespaces=NS) == "g"
    assert not sdt.xpath("w:sdtPr/w:showingPlcHdr", namespaces=NS)
    assert not sdt.xpath(".//w:rStyle[@w:val='PlaceholderText']", namespaces=NS)


async def test_date_is_shown_in_its_format_with_full_date(docx, tmp_path):
    ids = await opened(docx, tmp_path)
    a = await docx.ok("docx_set_content_control", control_id=ids["due"], value="2026-03-01")
    assert a.head["Value"] == "1 March 2026"
    await docx.save(tmp_path / "out.docx")
    sdt = control(read_part(tmp_path / "out.docx"), "due")
    assert shown(sdt) == "1 March 2026"
    assert sdt.xpath("string(w:sdtPr/w:date/@w:fullDate)", namespaces=NS) == "2026-03-01T00:00:00Z"


async def test_placeholder_replacement_takes_the_controls_own_run_formatting(docx, tmp_path):
    ids = await opened(docx, tmp_path)
    await docx.ok("docx_set_content_control", control_id=ids["notes"], value="Written")
    await docx.save(tmp_path / "out.docx")
    sdt = control(read_part(tmp_path / "out.docx"), "notes")
    run = sdt.xpath("w:sdtContent/w:r", namespaces=NS)[0]
    assert run.xpath("boolean(w:rPr/w:b)", namespaces=NS) and not run.xpath("w:rPr/w:rStyle", namespaces=NS)
    assert not sdt.xpath("w:sdtPr/w:showingPlcHdr", namespaces=NS)


async def test_bound_control_updates_its_custom_xml_node(docx, tmp_path):
    ids = await opened(docx, tmp_path)
    a = await docx.ok("docx_set_content_control", control_id=ids["bound_name"], value="New name")
    assert a.head["Bound"] == "yes"
    await docx.save(tmp_path / "out.docx")
    assert shown(control(read_part(tmp_path / "out.docx"), "bound_name")) == "New name"
    item = etree.fromstring(read_part(tmp_path / "out.docx", "customXml/item1.xml"))
    assert item.xpath("string(/t:root/t:name)", namespaces=NS) == "New name"
    listed = await docx.ok("docx_list_content_controls")
    assert '= "New name"' in listed.text


async def test_picture_control_gets_the_image(docx, tmp_path):
    ids = await opened(docx, tmp_path)
    png(tmp_path / "face.png")
    await docx.ok("docx_set_content_control", control_id=ids["photo"], value=str(tmp_path / "face.png"))
    await docx.save(tmp_path / "out.docx")
    sdt = control(read_part(tmp_path / "out.docx"), "photo")
    rid = sdt.xpath("string(.//a:blip/@r:embed)", namespaces={
        "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
        "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships"})
    rels = read_part(tmp_path / "out.docx", "word/_rels/document.xml.rels").decode()
    assert rid and f'Id="{rid}"' in rels and any(n.startswith("word/media/") for n in
                                                 zipfile.ZipFile(tmp_path / "out.docx").namelist())


@pytest.mark.parametrize("tag,value,error,words", [
    ("agree", "yes", "ValidationError", "true or false"),
    ("customer", True, "ValidationError", "takes text"),
    ("due", "1st of March", "ValidationError", "not an ISO date"),
    ("colour", "purple", "ValidationError", "no item 'purple'"),
    ("locked", "x", "ValidationError", "locked (w:lock contentLocked)"),
    ("photo", "/etc/passwd", "PermissionDenied", ""),
    ("people", "x", "InvalidElementType", "repeating section"),
])
async def test_bad_values_are_refused_by_name_and_change_nothing(docx, tmp_path, tag, value, error, words):
    ids = await opened(docx, tmp_path)
    await docx.save(tmp_path / "before.docx")
    bad = await docx.call("docx_set_content_control", control_id=ids[tag], value=value)
    assert bad.is_error and bad.error_type == error and words in bad.head["Message"] and bad.head["Hint"]
    await docx.save(tmp_path / "after.docx")
    for name in ("word/document.xml", "customXml/item1.xml"):
        assert read_part(tmp_path / "before.docx", name) == read_part(tmp_path / "after.docx", name)


async def test_sdt_locked_control_can_still_be_edited(docx, tmp_path):
    ids = await opened(docx, tmp_path)  # sdtLocked forbids deleting the control, not editing it
    await docx.ok("docx_set_content_control", control_id=ids["sdt_locked"], value="Edited")


async def test_set_with_tracking_is_recorded_as_revisions(docx, tmp_path):
    ids = await opened(docx, tmp_path)
    await docx.ok("docx_set_track_changes", enabled=True, author="Filler")
    a = await docx.ok("docx_set_content_control", control_id=ids["customer"], value="Name there")
    assert a.head["Tracked"] == "yes"
    await docx.save(tmp_path / "out.docx")
    sdt = control(read_part(tmp_path / "out.docx"), "customer")
    assert sdt.xpath("string(.//w:del//w:delText)", namespaces=NS) == "here"
    assert sdt.xpath("string(.//w:ins//w:t)", namespaces=NS) == "there"
    assert sdt.xpath("string(.//w:ins/@w:author)", namespaces=NS) == "Filler"


@pytest.mark.parametrize("kind,value,expect", [
    ("text", "Typed", "Typed"), ("checkbox", True, "☒"), ("dropdown", "b", "Blue"),
    ("combo_box", "Free", "Free"), ("date", "2026-12-24", "12/24/2026"),
])
async def test_insert_a_new_control_at_a_position(docx, tmp_path, kind, value, expect):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Field: ", position="end:document_body")).element_id
    items = [{"display": "Red", "value": "r"}, {"display": "Blue", "value": "b"}] \
        if kind in ("dropdown", "combo_box") else None
    a = await docx.ok("docx_insert_content_control", kind=kind, position=f"end:{para}", tag="f", items=items,
                      value=value)
    assert a.element_id.startswith("sdt_") and a.head["Level"] == "inline"
    await docx.save(tmp_path / "out.docx")
    sdt = control(read_part(tmp_path / "out.docx"), "f")
    assert shown(sdt) == expect and sdt.xpath("w:sdtPr/w:id/@w:val", namespaces=NS)


@pytest.mark.parametrize("what", ["paragraph", "run", "table", "row", "cell"])
async def test_insert_a_control_around_existing_content(docx, tmp_path, what):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Wrapped text", position="end:document_body")).element_id
    table = (await docx.ok("docx_insert_table", rows=2, cols=2, position="end:document_body",
                           data=[["a", "b"], ["c", "d"]])).element_id
    if what == "run":
        target = (await docx.ok("docx_insert_run", text=" more", position=f"end:{para}")).element_id
    elif what == "row":
        target = (await docx.ok("docx_insert_row_at", table_id=table, position="end")).element_id
    elif what == "cell":
        target = (await docx.ok("docx_get_cell", table_id=table, row=0, col=1)).element_id
    else:
        target = para if what == "paragraph" else table
    assert target.startswith({"paragraph": "para_", "run": "run_", "table": "table_", "row": "row_",
                              "cell": "cell_"}[what])
    await docx.ok("docx_insert_content_control", kind="rich_text", element_id=target, tag="wrap")
    await docx.save(tmp_path / "out.docx")
    sdt = control(read_part(tmp_path / "out.docx"), "wrap")
    inner = {"paragraph": "p", "run": "r", "table": "tbl", "row": "tr", "cell": "tc"}[what]
    assert sdt.xpath(f"boolean(w:sdtContent/w:{inner})", namespaces=NS)
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "undone.docx")
    assert b"w:tag" not in read_part(tmp_path / "undone.docx")


async def test_repeating_items_get_fresh_word_ids(docx, tmp_path):
    ids = await opened(docx, tmp_path)
    for _ in range(3):
        a = await docx.ok("docx_add_repeating_item", control_id=ids["people"])
    assert a.head["Items"] == "4"
    await docx.ok("docx_add_repeating_item", control_id=ids["people"], empty=True)
    await docx.save(tmp_path / "out.docx")
    root = etree.fromstring(read_part(tmp_path / "out.docx"))
    section = root.xpath("//w:sdt[w:sdtPr/w:tag/@w:val='people']", namespaces=NS)[0]
    items = section.xpath("w:sdtContent/w:sdt", namespaces=NS)
    assert len(items) == 5 and shown(items[-1]) == ""
    all_ids = root.xpath("//w:sdt/w:sdtPr/w:id/@w:val", namespaces=NS)
    assert len(all_ids) == len(set(all_ids))
    ours = root.xpath("//@oxm:id", namespaces={"oxm": "urn:ooxml-mcp:ids:2026"})
    assert len(ours) == len(set(ours))


async def test_add_repeating_item_refuses_other_kinds(docx, tmp_path):
    ids = await opened(docx, tmp_path)
    bad = await docx.call("docx_add_repeating_item", control_id=ids["customer"])
    assert bad.error_type == "InvalidElementType" and "docx_list_content_controls" in bad.head["Hint"]


async def test_rich_text_takes_markdown_at_block_level(docx, tmp_path):
    ids = await opened(docx, tmp_path)
    a = await docx.ok("docx_set_content_control", control_id=ids["summary"],
                      value="Some **bold** words\n\n- first\n- second")
    assert "Some bold words" in a.section("Document Context")
    await docx.save(tmp_path / "out.docx")
    sdt = control(read_part(tmp_path / "out.docx"), "summary")
    paragraphs = sdt.xpath("w:sdtContent/w:p", namespaces=NS)
    assert ["".join(p.xpath(".//w:t/text()", namespaces=NS)) for p in paragraphs] == [
        "Some bold words", "first", "second"]
    assert sdt.xpath("boolean(.//w:r[w:t='bold']/w:rPr/w:b)", namespaces=NS)
    assert sdt.xpath("count(w:sdtContent/w:p[w:pPr/w:numPr])", namespaces=NS) == 2


async def test_inline_rich_text_refuses_blocks_and_takes_emphasis(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Note: ", position="end:document_body")).element_id
    cid = (await docx.ok("docx_insert_content_control", kind="rich_text", position=f"end:{para}",
                         tag="r")).element_id
    bad = await docx.call("docx_set_content_control", control_id=cid, value="# A heading")
    assert bad.error_type == "ValidationError" and "one paragraph" in bad.head["Message"]
    await docx.ok("docx_set_content_control", control_id=cid, value="very *important*")
    await docx.save(tmp_path / "out.docx")
    sdt = control(read_part(tmp_path / "out.docx"), "r")
    assert shown(sdt) == "very important"
    assert sdt.xpath("boolean(w:sdtContent/w:r[w:t='important']/w:rPr/w:i)", namespaces=NS)


async def test_a_value_replacing_placeholder_text_is_tracked_as_inserted(docx, tmp_path):
    ids = await opened(docx, tmp_path)
    await docx.ok("docx_set_track_changes", enabled=True, author="Filler")
    await docx.ok("docx_set_content_control", control_id=ids["notes"], value="Written")
    await docx.save(tmp_path / "out.docx")
    sdt = control(read_part(tmp_path / "out.docx"), "notes")
    assert sdt.xpath("string(w:sdtContent/w:ins[@w:author='Filler']/w:r/w:t)", namespaces=NS) == "Written"


def bare_document(path) -> str:
    """A .docx whose document.xml root declares only w: no w14, w15 or mc (as some other writers save)."""
    with zipfile.ZipFile(path.with_name("made.docx")) as z, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for item in z.infolist():
            data = z.read(item)
            if item.filename == "word/document.xml":
                data = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="{W}">'
                        '<w:body><w:p><w:r><w:t>Field</w:t></w:r></w:p><w:sectPr/></w:body></w:document>').encode()
            out.writestr(item, data)
    return str(path)


ROOT_TAG = re.compile(rb"<w:document\b[^>]*>")


@pytest.mark.parametrize("start", ["created", "bare"])
async def test_new_w14_and_w15_controls_declare_them_on_the_root_and_in_mc_ignorable(docx, tmp_path, start):
    await docx.create()
    if start == "bare":
        await docx.save(tmp_path / "made.docx")
        await docx.ok("docx_close", session_id=docx.session_id)
        await docx.open(bare_document(tmp_path / "bare.docx"))
    await docx.ok("docx_insert_content_control", kind="checkbox", position="end:document_body", tag="agree")
    await docx.ok("docx_insert_content_control", kind="repeating_section", position="end:document_body", tag="rows")
    await docx.save(tmp_path / "out.docx")
    xml = read_part(tmp_path / "out.docx")
    root_tag = ROOT_TAG.search(xml).group(0)
    root = etree.fromstring(xml)
    ignorable = root.get("{http://schemas.openxmlformats.org/markup-compatibility/2006}Ignorable").split()
    assert {"w14", "w15"} <= set(ignorable)
    assert root.nsmap["w14"] == W14 and root.nsmap["w15"] == "http://schemas.microsoft.com/office/word/2012/wordml"
    for prefix in (b"w14", b"w15"):  # declared once, on the root: never again on a control's elements
        assert xml.count(b"xmlns:" + prefix + b"=") == 1 and b"xmlns:" + prefix + b"=" in root_tag
    assert root.xpath("//w14:checkbox", namespaces=NS)


async def test_undo_and_redo_of_a_w15_control_keep_every_ignorable_prefix_declared(docx, tmp_path):
    await docx.create()
    await docx.save(tmp_path / "made.docx")
    await docx.ok("docx_close", session_id=docx.session_id)
    await docx.open(bare_document(tmp_path / "bare.docx"))
    await docx.ok("docx_insert_content_control", kind="repeating_section", position="end:document_body", tag="rows")
    await docx.ok("docx_undo")
    undone = etree.fromstring(read_part(await saved(docx, tmp_path / "undone.docx")))
    await docx.ok("docx_redo")
    redone = etree.fromstring(read_part(await saved(docx, tmp_path / "redone.docx")))
    mc = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Ignorable"
    for root in (undone, redone):
        assert set(root.get(mc, "").split()) <= set(root.nsmap)  # a listed prefix not declared: Word refuses
    assert "w15" not in undone.get(mc, "").split() and not undone.xpath("//w:sdt", namespaces=NS)
    assert "w15" in redone.get(mc).split() and redone.xpath("//w:sdt", namespaces=NS)


async def saved(docx, path):
    await docx.ok("docx_save", session_id=docx.session_id, file_path=str(path))
    return path


async def test_list_includes_a_table_of_contents_control(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_heading", text="Scope", level=1, position="end:document_body")
    toc = (await docx.ok("docx_insert_toc", position="start:document_body", page_numbers=False)).element_id
    assert toc.startswith("toc_")
    listed = await docx.ok("docx_list_content_controls")
    assert listed.head["Controls"] == "1"
    assert re.search(rf"^- {toc} \[doc_part, block\] gallery=Table of Contents", listed.text, re.M), listed.text
    again = await docx.ok("docx_update_toc", toc_id=toc, page_numbers=False)  # the listed ID is the one the TOC tools take
    assert not again.is_error
