"""docx_fill_template (SPEC §11): one call fills controls, {{placeholders}} however Word split them,
and MERGEFIELDs, in every story; arrays repeat rows and repeating-section items; strict mode,
tracking, undo and limits."""
from __future__ import annotations

import copy
import json
import zipfile

import pytest
from lxml import etree
from mcp import Client

import server
from tests.support.client import DocxClient, read_part
from tests.support.form_docs import TEMPLATE_DATA, controls_doc, template_doc
from tools.config.loading import parse_config
from tools.services import Services

pytestmark = pytest.mark.anyio
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
NS = {"w": W, "w14": W14, "t": "urn:forms-test"}
STORY_PARTS = ("word/document.xml", "word/header1.xml", "word/footer1.xml", "word/footnotes.xml")


def part_text(path, name: str) -> str:
    return "".join(etree.fromstring(read_part(path, name)).xpath("//w:t/text()", namespaces=NS))


def run_of(path, name: str, text: str) -> etree._Element:
    root = etree.fromstring(read_part(path, name))
    return root.xpath(f"//w:r[w:t='{text}']", namespaces=NS)[0]


async def filled(docx, tmp_path, data=TEMPLATE_DATA, **kw):
    await docx.open(template_doc(tmp_path / "template.docx"))
    a = await docx.ok("docx_fill_template", data=data, **kw)
    await docx.save(tmp_path / "filled.docx")
    return a, tmp_path / "filled.docx"


async def test_fill_leaves_no_placeholder_in_any_part(docx, tmp_path):
    a, out = await filled(docx, tmp_path)
    assert a.head["Missing"] == "0" and a.head["Unused"] == "0"
    assert a.head["Placeholders"] == "16" and a.head["Merge Fields"] == "2" and a.head["Rows"] == "2"
    for name in STORY_PARTS:
        assert "{{" not in part_text(out, name) and "}}" not in part_text(out, name), name
    body = part_text(out, "word/document.xml")
    for value in ("Dear Ada Lovelace,", "City: London on 10 December 1815", "Amount: £1,000 (GBP) for Ada",
                  "Gears3Cards4", "Total7", "Box: In a text box"):
        assert value.replace(" ", "") in body.replace(" ", ""), value
    assert "«" not in body and "MERGEFIELD" not in read_part(out).decode()
    assert part_text(out, "word/header1.xml") == "Analytical Engines Ltd"
    assert part_text(out, "word/footer1.xml") == "Page note: Confidential"
    assert "Note: Footnote filled" in part_text(out, "word/footnotes.xml")


async def test_values_take_the_formatting_of_the_placeholders_first_character(docx, tmp_path):
    _, out = await filled(docx, tmp_path)
    assert run_of(out, "word/document.xml", "Ada Lovelace").xpath("boolean(w:rPr/w:b)", namespaces=NS)
    assert run_of(out, "word/header1.xml", "Analytical Engines Ltd").xpath("boolean(w:rPr/w:b)", namespaces=NS)
    assert run_of(out, "word/document.xml", "Gears").xpath("boolean(w:rPr/w:b)", namespaces=NS)
    assert run_of(out, "word/document.xml", "GBP").xpath("boolean(w:rPr/w:b)", namespaces=NS)  # the result's
    assert run_of(out, "word/document.xml", "Ada").xpath("boolean(w:rPr/w:i)", namespaces=NS)


async def test_arrays_repeat_rows_and_section_items_with_unique_ids(docx, tmp_path):
    a, out = await filled(docx, tmp_path)
    assert a.head["Items"] == "3"
    root = etree.fromstring(read_part(out))
    rows = root.xpath("//w:tbl/w:tr", namespaces=NS)
    assert ["".join(r.xpath(".//w:t/text()", namespaces=NS)) for r in rows] == ["ItemQty", "Gears3", "Cards4",
                                                                              "Total7"]
    section = root.xpath("//w:sdt[w:sdtPr/w:tag/@w:val='people']", namespaces=NS)[0]
    items = section.xpath("w:sdtContent/w:sdt", namespaces=NS)
    texts = ["".join(i.xpath(".//w:t/text()", namespaces=NS)) for i in items]
    assert texts == ["Person: Charles is inventor ☒", "Person: Mary is tutor ☐", "Person: Augustus is mathematician ☒"]
    checked = [i.xpath("string(.//w14:checked/@w14:val)", namespaces=NS) for i in items]
    assert checked == ["1", "0", "1"]
    ids = root.xpath("//w:sdtPr/w:id/@w:val", namespaces=NS)
    assert len(ids) == len(set(ids))


async def test_booleans_lists_and_dates_fill_their_controls(docx, tmp_path):
    _, out = await filled(docx, tmp_path)
    root = etree.fromstring(read_part(out))

    def ctrl(tag):
        return root.xpath(f"//w:sdt[w:sdtPr/w:tag/@w:val='{tag}']", namespaces=NS)[-1]
    assert ctrl("signed").xpath("string(.//w14:checked/@w14:val)", namespaces=NS) == "1"
    assert ctrl("colour").xpath("string(.//w:dropDownList/@w:lastValue)", namespaces=NS) == "g"
    assert "".join(ctrl("due").xpath(".//w:t/text()", namespaces=NS)) == "1 March 2026"
    assert ctrl("due").xpath("string(.//w:date/@w:fullDate)", namespaces=NS) == "2026-03-01T00:00:00Z"


async def test_bound_controls_write_their_custom_xml_nodes(docx, tmp_path):
    await docx.open(controls_doc(tmp_path / "controls.docx"))
    a = await docx.ok("docx_fill_template", data={"bound_name": "Filled name", "company": "Header Co",
                                                  "agree": True, "cell_ctrl": "cell", "row_ctrl": "row"})
    assert a.head["Controls"] == "5" and int(a.head["Missing"]) > 0  # the fixture's other controls
    await docx.save(tmp_path / "out.docx")
    item = etree.fromstring(read_part(tmp_path / "out.docx", "customXml/item1.xml"))
    assert item.xpath("string(/t:root/t:name)", namespaces=NS) == "Filled name"
    assert part_text(tmp_path / "out.docx", "word/header1.xml") == "Header: Header Co"


async def test_report_lists_filled_missing_and_unused(docx, tmp_path):
    data = {k: v for k, v in TEMPLATE_DATA.items() if k != "city"} | {"spare": "x", "customer": {"name": "A", "age": 3}}
    a, out = await filled(docx, tmp_path, data=data)
    content = a.section("Content")
    assert "Missing (no data): city" in content and "Unused (no place): customer.age, spare" in content
    assert "{{city}}" in part_text(out, "word/document.xml").replace("}}", "}}")  # left for a later fill


@pytest.mark.parametrize("change", ["missing", "unused"])
async def test_strict_refuses_and_changes_nothing(docx, tmp_path, change):
    data = copy.deepcopy(TEMPLATE_DATA)
    if change == "missing":
        del data["city"]
    else:
        data["spare"] = 1
    await docx.open(template_doc(tmp_path / "template.docx"))
    await docx.save(tmp_path / "before.docx")
    bad = await docx.call("docx_fill_template", data=data, strict=True)
    assert bad.error_type == "ValidationError" and ("city" if change == "missing" else "spare") in bad.head["Message"]
    await docx.save(tmp_path / "after.docx")
    for name in STORY_PARTS:
        assert read_part(tmp_path / "before.docx", name) == read_part(tmp_path / "after.docx", name)
    ok = await docx.ok("docx_fill_template", data=TEMPLATE_DATA, strict=True)
    assert ok.head["Missing"] == "0"


async def test_tracked_fill_is_recorded_as_revisions(docx, tmp_path):
    await docx.open(template_doc(tmp_path / "template.docx"))
    await docx.ok("docx_set_track_changes", enabled=True, author="Filler")
    a = await docx.ok("docx_fill_template", data=TEMPLATE_DATA)
    assert a.head["Tracked"] == "yes"
    await docx.save(tmp_path / "tracked.docx")
    root = etree.fromstring(read_part(tmp_path / "tracked.docx"))
    inserted = "".join(root.xpath("//w:ins[@w:author='Filler']//w:t/text()", namespaces=NS))
    deleted = "".join(root.xpath("//w:del[@w:author='Filler']//w:delText/text()", namespaces=NS))
    assert "Ada Lovelace" in inserted and "London" in inserted and "{{city}}" in deleted.replace("{{", "{{")
    await docx.ok("docx_accept_revisions")
    await docx.save(tmp_path / "accepted.docx")
    body = part_text(tmp_path / "accepted.docx", "word/document.xml")
    assert "{{" not in body and "Dear Ada Lovelace," in body and "Gears3" in body


async def test_undo_restores_every_part_the_fill_touched_byte_for_byte(docx, tmp_path):
    await docx.open(controls_doc(tmp_path / "controls.docx"))
    await docx.save(tmp_path / "before.docx")
    await docx.ok("docx_fill_template", data={"bound_name": "Filled", "company": "Co", "agree": True,
                                              "people": [{"name": "A"}, {"name": "B"}]})
    await docx.save(tmp_path / "filled.docx")
    assert read_part(tmp_path / "filled.docx", "customXml/item1.xml") != \
        read_part(tmp_path / "before.docx", "customXml/item1.xml")
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "undone.docx")
    names = zipfile.ZipFile(tmp_path / "before.docx").namelist()
    assert zipfile.ZipFile(tmp_path / "undone.docx").namelist() == names
    for name in names:
        assert read_part(tmp_path / "undone.docx", name) == read_part(tmp_path / "before.docx", name), name


async def test_bad_values_in_data_are_named_and_change_nothing(docx, tmp_path):
    await docx.open(template_doc(tmp_path / "template.docx"))
    await docx.save(tmp_path / "before.docx")
    for data, words in [({**TEMPLATE_DATA, "due": "someday"}, "not an ISO date"),
                        ({**TEMPLATE_DATA, "colour": "Mauve"}, "no item 'Mauve'"),
                        ({**TEMPLATE_DATA, "signed": "yes"}, "true or false"),
                        ({**TEMPLATE_DATA, "city": {"name": "x"}}, "'city' is a object")]:
        bad = await docx.call("docx_fill_template", data=data)
        assert bad.error_type == "ValidationError" and words.replace("a object", "an object") in \
            bad.head["Message"].replace("a object", "an object"), bad.text
    deep: dict = {"v": 1}
    for _ in range(10):
        deep = {"d": deep}
    too_deep = await docx.call("docx_fill_template", data=deep)
    assert too_deep.error_type == "LimitExceeded" and "levels deep" in too_deep.head["Message"]
    await docx.save(tmp_path / "after.docx")
    for name in STORY_PARTS:
        assert read_part(tmp_path / "before.docx", name) == read_part(tmp_path / "after.docx", name)


async def test_data_larger_than_the_call_limit_is_refused(tmp_path):
    services = Services(roots=[tmp_path], config=parse_config({"limits": {"max_call_growth_bytes": 2000}},
                                                              base_dir=tmp_path))
    async with Client(server.build_server(services), cache=None) as client:
        docx = DocxClient(client, [tmp_path], services)
        await docx.open(template_doc(tmp_path / "template.docx"))
        big = await docx.call("docx_fill_template", data={**TEMPLATE_DATA, "spare": "x" * 3000})
        assert big.error_type == "LimitExceeded" and "max_call_growth_bytes" in big.head["Hint"]
        many = await docx.call("docx_fill_template", data={**TEMPLATE_DATA, "items": [{"name": "n", "qty": "1"}] * 30})
        assert many.error_type == "LimitExceeded" and "would add more than" in many.head["Message"]
    assert json.dumps(TEMPLATE_DATA)  # the shared data itself was not changed by the calls


async def test_empty_arrays_remove_the_row_and_the_items(docx, tmp_path):
    data = {**TEMPLATE_DATA, "items": [], "people": []}
    a, out = await filled(docx, tmp_path, data=data)
    root = etree.fromstring(read_part(out))
    rows = root.xpath("//w:tbl/w:tr", namespaces=NS)
    assert ["".join(r.xpath(".//w:t/text()", namespaces=NS)) for r in rows] == ["ItemQty", "Total7"]
    section = root.xpath("//w:sdt[w:sdtPr/w:tag/@w:val='people']", namespaces=NS)[0]
    assert not section.xpath("w:sdtContent/w:sdt", namespaces=NS)
    assert a.head["Unused"] == "0" and "items" in a.section("Content")


async def test_names_the_document_has_without_data_are_missing(docx, tmp_path):
    data = {k: v for k, v in TEMPLATE_DATA.items() if k not in ("first_name", "currency", "company")}
    a, out = await filled(docx, tmp_path, data=data)
    assert "Missing (no data): currency, first_name, company" in a.section("Content")
    assert "«first_name»" in part_text(out, "word/document.xml")  # left as it was


async def test_an_array_of_plain_values_repeats_its_row(docx, tmp_path):
    from tests.support.form_docs import table, tc, tr
    from tests.builders import build_docx, p
    src = build_docx(tmp_path / "tags.docx", table([tr(tc(p("Tag"))), tr(tc(p("{{tags}}")))], cols=1))
    await docx.open(src)
    a = await docx.ok("docx_fill_template", data={"tags": ["red", "green", "blue"]})
    assert a.head["Rows"] == "3"
    body = await docx.save(tmp_path / "out.docx")
    assert [c for c in body.xpath("//w:tc//w:t/text()", namespaces=NS)] == ["Tag", "red", "green", "blue"]


def _filters_doc(tmp_path):
    from tests.builders import build_docx, p
    return build_docx(tmp_path / "filters.docx", p("Dear {{ name | upper }}, from {{ company }}.")
                      + p("{% if vip %}Welcome back.{% endif %}"))


async def test_unsupported_placeholders_are_reported_not_skipped(docx, tmp_path):
    await docx.open(_filters_doc(tmp_path))
    a = await docx.ok("docx_fill_template", data={"name": "Ada", "company": "Engines"})
    assert a.head["Unsupported"] == "3"
    assert "Unsupported (left as written): {{ name | upper }}, {% if vip %}, {% endif %}" in a.section("Content")
    body = await docx.save(tmp_path / "out.docx")
    text = "".join(body.xpath("//w:t/text()", namespaces=NS))
    assert "Dear {{ name | upper }}, from Engines." in text  # left for the user to see, not silently dropped


async def test_strict_refuses_unsupported_placeholders(docx, tmp_path):
    await docx.open(_filters_doc(tmp_path))
    bad = await docx.call("docx_fill_template", data={"name": "Ada", "company": "Engines", "vip": True},
                          strict=True)
    assert bad.error_type == "ValidationError" and "{{ name | upper }}" in bad.head["Message"]
    body = await docx.save(tmp_path / "out.docx")
    assert "{{ company }}" in "".join(body.xpath("//w:t/text()", namespaces=NS))


async def test_a_template_is_read_once_however_many_items_and_rows_it_fills(docx, tmp_path, monkeypatch):
    # Issue 29, defect 18: the dry run read every repeated item's and row's template once per array
    # element, and the fill read each copy again (two readings of the whole document, 2 x N of the
    # template): a fill cost about docxtpl's. The reading is shared, and copies take their template's:
    # the controls and placeholder paragraphs read are as many for 60 items and rows as for 2.
    from ooxml.controls import model as M
    from ooxml.fill import placeholders as PH
    from tests.builders import build_docx, p
    from tests.support import form_docs as F

    item = "<w:p>" + F.run("Item {{items.title}} by ") + F.run("{{items.who}}") + "</w:p>"
    row = F.tr(F.tc(p("{{rows.a}}")), F.tc(p("{{rows.b}}")))
    body = (p("Dear {{name}},") + F.repeating_section("items", item) + F.sdt("<w:text/>", F.run("x"), "city")
            + F.table([F.tr(F.tc(p("A")), F.tc(p("B"))), row], cols=2))
    path = F._patch_document(build_docx(tmp_path / "t.docx", body))
    reads = {"controls": 0, "paragraphs": 0}
    read, segments = M.read, PH.segments
    monkeypatch.setattr(M, "read", lambda sdt: (reads.__setitem__("controls", reads["controls"] + 1), read(sdt))[1])
    monkeypatch.setattr(PH, "segments", lambda el: (reads.__setitem__("paragraphs", reads["paragraphs"] + 1),
                                                    segments(el))[1])
    counts = []
    for n in (2, 60):
        data = {"name": "Ada", "city": "London", "items": [{"title": f"T{i}", "who": f"W{i}"} for i in range(n)],
                "rows": [{"a": f"a{i}", "b": f"b{i}"} for i in range(n)]}
        await docx.open(path)
        reads.update(controls=0, paragraphs=0)
        a = await docx.ok("docx_fill_template", session_id=docx.session_id, data=data, view="none")
        counts.append(dict(reads))
        assert a.head["Missing"] == "0" and a.head["Unused"] == "0" and a.head["Rows"] == str(n)
        await docx.save(tmp_path / f"filled{n}.docx")
        text = part_text(tmp_path / f"filled{n}.docx", "word/document.xml")
        last = n - 1
        assert "Dear Ada," in text and f"Item T{last} by W{last}" in text and f"a{last}b{last}" in text
        assert "London" in text and "{{" not in text
        await docx.ok("docx_close", session_id=docx.session_id)
    assert counts[0] == counts[1], counts


def test_a_planned_copy_gets_what_prepare_copy_gives_it():
    # The fill's copies of one template take Word's new IDs by a plan read once (copy_plan): the
    # same IDs, in the same order of minting (a journal replay gives the same), as prepare_copy.
    from ooxml.xml import minting
    from ooxml.xml.namespaces import OX_ID
    from ooxml.xml.wordids import WordIds, copy_plan, prepare_copy, prepare_planned

    xml = (f'<w:body xmlns:w="{W}" xmlns:w14="{W14}" '
           'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">'
           '<w:tr w14:paraId="0000000A" w14:textId="0000000B"><w:tc><w:p w14:paraId="0000000C"><w:ins w:id="3">'
           '<w:r><w:t>x</w:t></w:r></w:ins><w:sdt><w:sdtPr><w:id w:val="7"/></w:sdtPr></w:sdt>'
           '<w:r><w:drawing><wp:inline><wp:docPr id="4" name="p"/></wp:inline></w:drawing></w:r></w:p></w:tc></w:tr>'
           '</w:body>')
    root = etree.fromstring(xml)
    template = root[0]
    template.set(OX_ID, "row_1")
    plan = copy_plan(template)
    assert plan is not None
    old, new = copy.deepcopy(template), copy.deepcopy(template)
    with minting.using(minting.Tape()) as tape:
        prepare_copy(old, WordIds(root))
    with minting.using(minting.Tape(tape.values)):
        prepare_planned(list(new.iter()), plan, WordIds(root))
    assert etree.tostring(new) == etree.tostring(old)
    assert OX_ID not in new.attrib and new.get(f"{{{W14}}}paraId") != "0000000A"


async def test_a_control_inside_a_control_the_fill_set_is_not_filled_too(docx, tmp_path):
    # The outer control's value replaces its content, the inner control with it: the fill wrote the
    # inner value into the removed content and reported it filled (its dry run, which strict mode
    # reads, did not). Found comparing the fill on the corpus (Open-XML-SDK TestFiles_Document.docx).
    from tests.builders import build_docx, p
    from tests.support import form_docs as F

    inner = F.sdt("<w:text/>", p("inner text"), "inner")
    outer = F.sdt("", F.table([F.tr(F.tc(inner), F.tc(p("cell")))], cols=2), "outer")
    await docx.open(F._patch_document(build_docx(tmp_path / "t.docx", p("Top") + outer)))
    a = await docx.ok("docx_fill_template", data={"outer": "Outer value", "inner": "Inner value"})
    assert a.head["Controls"] == "1" and a.head["Unused"] == "1", a.text
    await docx.save(tmp_path / "filled.docx")
    text = part_text(tmp_path / "filled.docx", "word/document.xml")
    assert "Outer value" in text and "Inner value" not in text
