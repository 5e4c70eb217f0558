"""docx_redact in places that names, links and lists refer to (issue 29, defect 10): the secret goes from
every part (nested packages too), the leak check passes, the answer lists the part, and what referred to
a renamed thing (hyperlinks, fields, styles, formulas) still finds it."""
from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from tests.support import planted
from tests.support import planted_places as PP
from tests.support.client import read_part

pytestmark = pytest.mark.anyio
SECRET = "Quillfeather"
MARKS = "█" * len(SECRET)
FOUND = re.compile(SECRET, re.IGNORECASE)
W = f"{{{PP.W_NS}}}"
X = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


async def redacted(docx, tmp_path: Path, place: str, builder=None, **args):
    """The planted file, the saved redacted file, the answer; the checks every place shares."""
    src = tmp_path / f"{place}.docx"
    if builder is None:
        PP.build(src, place, SECRET)
    else:
        builder().write(src)
    assert planted.leaks(src, re.compile(args.get("pattern") or SECRET)), "nothing planted"
    await docx.open(src)
    a = await docx.ok("docx_redact", session_id=docx.session_id, **(args or {"text": SECRET}))
    out = tmp_path / f"{place}-redacted.docx"
    await docx.save(out, strip_ids=True)
    assert a.head["Leak Check"].startswith("nothing left"), a.text
    assert planted.leaks(out, re.compile(args.get("pattern") or SECRET)) == []
    assert integrity(out) == [], integrity(out)
    return src, out, a


def integrity(path: Path) -> list[str]:
    from ooxml.model.document import Document
    from ooxml.model.integrity import check_package
    return check_package(Document.from_bytes(path.read_bytes()), all_parts=True)


def xml(path: Path, name: str = "word/document.xml") -> etree._Element:
    return etree.fromstring(read_part(path, name))


def instructions(root: etree._Element) -> list[str]:
    """Each paragraph's field instructions (complex fields joined across runs), and each simple field's."""
    out = ["".join(t.text or "" for t in p.iter(f"{W}instrText")) for p in root.iter(f"{W}p")]
    return [i for i in out if i.strip()] + [f.get(f"{W}instr") for f in root.iter(f"{W}fldSimple")]


def field_targets(root: etree._Element) -> list[str]:
    found = []
    for instr in instructions(root):
        found += re.findall(r"\b(?:PAGE)?REF\s+(\S+)", instr) + re.findall(r'HYPERLINK\s+\\l\s+"([^"]+)"', instr)
    return found


def lists_part(a, place: str) -> bool:
    return f"- {PP.PLACES[place][1]}: " in a.text


async def test_table_alt_text_is_redacted(docx, tmp_path):
    _, out, a = await redacted(docx, tmp_path, "table_alt_text")
    assert lists_part(a, "table_alt_text")
    tbl_pr = xml(out).find(f".//{W}tblPr")
    assert tbl_pr.find(f"{W}tblCaption").get(f"{W}val") == f"{MARKS} fees"
    assert tbl_pr.find(f"{W}tblDescription").get(f"{W}val") == f"Fees paid to {MARKS} in 2024"


async def test_a_form_fields_name_is_redacted_with_its_bookmark_and_references(docx, tmp_path):
    _, out, a = await redacted(docx, tmp_path, "form_field_name")
    assert lists_part(a, "form_field_name")
    root = xml(out)
    name = root.find(f".//{W}ffData/{W}name").get(f"{W}val")
    assert name == MARKS and root.find(f".//{W}bookmarkStart").get(f"{W}name") == name
    assert field_targets(root) == [name]


async def test_a_document_variables_name_is_redacted_with_the_fields_using_it(docx, tmp_path):
    _, out, a = await redacted(docx, tmp_path, "document_variable")
    assert lists_part(a, "document_variable")
    var = xml(out, "word/settings.xml").find(f".//{W}docVar")
    assert var.get(f"{W}name") == f"Client{MARKS}" and var.get(f"{W}val") == "Acme"
    assert instructions(xml(out)) == [f" DOCVARIABLE Client{MARKS} "]


async def test_a_hyperlinks_anchor_follows_its_renamed_bookmark(docx, tmp_path):
    _, out, a = await redacted(docx, tmp_path, "hyperlink_anchor")
    assert lists_part(a, "hyperlink_anchor")
    root = xml(out)
    names = {b.get(f"{W}name") for b in root.iter(f"{W}bookmarkStart")}
    assert names == {f"{MARKS}_terms"}
    assert [h.get(f"{W}anchor") for h in root.iter(f"{W}hyperlink")] == [f"{MARKS}_terms"]
    assert sorted(field_targets(root)) == [f"{MARKS}_terms"] * 3  # PAGEREF, REF, HYPERLINK \l


async def test_dropdown_items_are_redacted_and_stay_distinct(docx, tmp_path):
    _, out, a = await redacted(docx, tmp_path, "dropdown")
    assert lists_part(a, "dropdown")
    root = xml(out)
    for box in (*root.iter(f"{W}dropDownList"), *root.iter(f"{W}comboBox")):
        items = [(i.get(f"{W}displayText"), i.get(f"{W}value")) for i in box.iter(f"{W}listItem")]
        values = [v for _, v in items]
        assert len(set(values)) == len(values) and box.get(f"{W}lastValue") in values
    assert [(i.get(f"{W}displayText"), i.get(f"{W}value")) for i in root.iter(f"{W}listItem")] == [
        (f"{MARKS} Ltd", MARKS), ("Acme", "Acme"), ("Acme", "Acme"), (f"{MARKS} Inc", f"{MARKS}2")]
    assert [e.get(f"{W}val") for e in root.iter(f"{W}listEntry")] == ["Acme", f"{MARKS} Ltd"]


async def test_a_placeholders_building_block_is_renamed_with_the_reference_to_it(docx, tmp_path):
    _, out, a = await redacted(docx, tmp_path, "building_block")
    assert lists_part(a, "building_block") and "- word/document.xml: " in a.text
    names = [n.get(f"{W}val") for n in xml(out, "word/glossary/document.xml").iter(f"{W}name")]
    assert names == [f"{MARKS}Placeholder", "General"]
    assert [p.get(f"{W}val") for p in xml(out).iter(f"{W}docPart")] == [f"{MARKS}Placeholder"]


def _style_refs(out: Path) -> tuple[list[str], list[str], list[str]]:
    """The style IDs defined, the IDs referred to (body and styles), the style names."""
    styles, body = xml(out, "word/styles.xml"), xml(out)
    ids = [s.get(f"{W}styleId") for s in styles.iter(f"{W}style")]
    refs = [e.get(f"{W}val") for root in (styles, body) for e in root.iter(
        f"{W}pStyle", f"{W}rStyle", f"{W}basedOn", f"{W}next", f"{W}link")]
    names = [s.find(f"{W}name").get(f"{W}val") for s in styles.iter(f"{W}style")]
    return ids, refs, names


async def test_style_names_and_ids_are_redacted_and_every_reference_still_resolves(docx, tmp_path):
    _, out, a = await redacted(docx, tmp_path, "style_name")
    assert lists_part(a, "style_name") and "- word/document.xml: " in a.text
    ids, refs, names = _style_refs(out)
    assert len(set(ids)) == len(ids) and set(refs) <= set(ids)
    assert {f"{MARKS}Heading", f"{MARKS}HeadingChar", f"{MARKS}Body"} <= set(refs)
    assert f"{MARKS} Heading" in names and instructions(xml(out)) == [f' STYLEREF "{MARKS} Heading" ']


def _two_styles() -> PP.Parts:
    """Two styles whose IDs differ only in a number that a pattern redacts."""
    d = PP.Parts()
    for number, prop in (("1234567890", "<w:b/>"), ("0987654321", "<w:i/>")):
        d.insert("word/styles.xml", "</w:styles>", f'<w:style w:type="paragraph" w:customStyle="1" '
                 f'w:styleId="Acct{number}"><w:name w:val="Account {number}"/><w:rPr>{prop}</w:rPr></w:style>')
        d.body(PP._p(PP._r("Account"), f'<w:pPr><w:pStyle w:val="Acct{number}"/></w:pPr>'))
    return d


async def test_style_ids_a_pattern_makes_equal_stay_distinct(docx, tmp_path):
    _, out, _ = await redacted(docx, tmp_path, "two_styles", _two_styles, pattern=r"\d{10}")
    ids, refs, names = _style_refs(out)
    assert len(set(ids)) == len(ids) and set(refs) <= set(ids)
    styles = {s.get(f"{W}styleId"): s for s in xml(out, "word/styles.xml").iter(f"{W}style")}
    used = [styles[p.get(f"{W}val")].find(f"{W}rPr")[0].tag for p in xml(out).iter(f"{W}pStyle")]
    assert used == [f"{W}i", f"{W}b"]  # each paragraph keeps its own style (the body lists the second first)


async def test_numbering_text_is_redacted_and_keeps_its_number(docx, tmp_path):
    _, out, a = await redacted(docx, tmp_path, "numbering_text")
    assert lists_part(a, "numbering_text")
    numbering = xml(out, "word/numbering.xml")
    assert numbering.find(f".//{W}lvlText").get(f"{W}val") == f"{MARKS} %1."
    assert numbering.find(f".//{W}abstractNum/{W}name").get(f"{W}val") == f"{MARKS} clauses"


def _members(out: Path) -> dict[str, etree._Element]:
    book = zipfile.ZipFile(io.BytesIO(read_part(out, PP.EMBEDDED)))
    return {n: etree.fromstring(book.read(n)) for n in book.namelist() if n.endswith(".xml")}


def _sheet_refs(formula: str) -> list[str]:
    """The sheet names a formula refers to, quoted or not."""
    return [q.replace("''", "'") if q else u for q, u in re.findall(r"'((?:[^']|'')+)'!|([^\s'!(),=+\-*/&^<>:;]+)!",
                                                                       formula)]


async def test_an_embedded_workbooks_sheet_names_formulas_and_comments_are_redacted(docx, tmp_path):
    _, out, a = await redacted(docx, tmp_path, "workbook_sheet")
    assert lists_part(a, "workbook_sheet") and "- word/charts/chart1.xml: " in a.text
    book = _members(out)
    sheets = [s.get("name") for s in book["xl/workbook.xml"].iter(f"{X}sheet")]
    assert sheets == [MARKS, f"{MARKS} notes"]
    formulas = [f.text for f in book["xl/worksheets/sheet2.xml"].iter(f"{X}f")]
    formulas += [d.text for d in book["xl/workbook.xml"].iter(f"{X}definedName")]
    formulas += [f.text for f in xml(out, "word/charts/chart1.xml").iter(
        "{http://schemas.openxmlformats.org/drawingml/2006/chart}f")]
    refs = [r for f in formulas for r in _sheet_refs(f)]
    assert len(refs) == 6 and set(refs) == set(sheets)
    assert all(f"'{MARKS}'!" in f or f"'{MARKS} notes'!" in f for f in formulas)  # quoted: not a plain name
    comments = book["xl/comments1.xml"]
    assert [t.text for t in comments.iter(f"{X}t")] == ["Checked by ", MARKS]
    assert [t.text for t in comments.iter(f"{X}author")] == [f"Jane {MARKS}"]


async def test_xml_comments_are_redacted_in_every_part(docx, tmp_path):
    _, out, a = await redacted(docx, tmp_path, "xml_comment")
    assert lists_part(a, "xml_comment") and "- word/document.xml: " in a.text
    with zipfile.ZipFile(out) as z:
        body, styles = z.read("word/document.xml").decode(), z.read("word/styles.xml").decode()
    assert f"<!-- template by {MARKS} -->" in body and f"<!-- drafted by {MARKS} -->" in body
    assert f"<!-- styles of {MARKS} -->" in styles


async def test_a_redacted_authors_comment_initials_follow_the_new_name(docx, tmp_path):
    _, out, a = await redacted(docx, tmp_path, "comment_initials")
    assert lists_part(a, "comment_initials")
    comment = xml(out, "word/comments.xml").find(f"{W}comment")
    assert comment.get(f"{W}author") == f"Jane {MARKS}" and comment.get(f"{W}initials") == "J█"


async def test_every_place_redacted_still_validates(docx, tmp_path):
    """The Open XML SDK validator finds no kind of error the planted file did not have."""
    from tests.support import sdk_validator
    sdk_validator.require()
    pairs = []
    for place in PP.PLACES:
        src, out, _ = await redacted(docx, tmp_path, place)
        pairs.append((src, out))
    pairs.append((await redacted(docx, tmp_path, "two_styles", _two_styles, pattern=r"\d{10}"))[:2])
    pairs.append((await redacted(docx, tmp_path, "equal_items", _equal_items, text=SECRET, case_sensitive=False))[:2])
    found = sdk_validator.validate_files([f for pair in pairs for f in pair])
    new = {r.name: sorted(sdk_validator.kinds(found[r.resolve()]) - sdk_validator.kinds(found[o.resolve()]))
           for o, r in pairs}
    assert {k: v for k, v in new.items() if v} == {}


@pytest.mark.parametrize("place", list(PP.PLACES))
async def test_undo_puts_every_place_back(docx, tmp_path, place):
    options = {"beside_root": False} if place == "xml_comment" else {}
    await docx.open(PP.build(tmp_path / f"{place}.docx", place, SECRET, **options))
    await docx.save(tmp_path / "before.docx")
    await docx.ok("docx_redact", text=SECRET)
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "after.docx")
    before, after = (dict(planted.members((tmp_path / n).read_bytes())) for n in ("before.docx", "after.docx"))
    assert before == after


async def test_the_leak_check_reads_a_comment_beside_the_root_of_an_open_part(docx, tmp_path):
    d = PP.Parts()
    d.parts["word/document.xml"] = d.parts["word/document.xml"].replace(PP.DECL, f"{PP.DECL}<!-- by {SECRET} -->", 1)
    await docx.open(d.write(tmp_path / "beside.docx"))
    a = await docx.ok("docx_inspect", find=SECRET)
    assert a.head["Leak Check"].startswith("FAILED") and "still there: word/document.xml" in a.text


async def test_views_after_the_redaction_show_the_redacted_list_label(docx, tmp_path):
    """The list definitions are read again: a view drawn after the call does not show the old label."""
    await docx.open(PP.build(tmp_path / "n.docx", "numbering_text", SECRET))
    assert f"{SECRET} 1." in (await docx.ok("docx_read_content")).text
    await docx.ok("docx_redact", text=SECRET)
    seen = (await docx.ok("docx_read_content")).text
    assert f"{MARKS} 1." in seen and SECRET not in seen


def _equal_items() -> PP.Parts:
    """A dropdown whose items differ only in the case of the secret."""
    d = PP.Parts()
    d.body('<w:sdt><w:sdtPr><w:id w:val="5"/><w:dropDownList w:lastValue="Acme">'
           f'<w:listItem w:displayText="{SECRET}" w:value="{SECRET}"/>'
           f'<w:listItem w:displayText="{SECRET.upper()}" w:value="{SECRET.upper()}"/>'
           '<w:listItem w:displayText="Acme" w:value="Acme"/></w:dropDownList></w:sdtPr>'
           f'<w:sdtContent>{PP._p(PP._r("Acme"))}</w:sdtContent></w:sdt>')
    return d


async def test_dropdown_items_the_redaction_makes_equal_stay_distinct(docx, tmp_path):
    _, out, _ = await redacted(docx, tmp_path, "equal_items", _equal_items, text=SECRET, case_sensitive=False)
    items = [(i.get(f"{W}displayText"), i.get(f"{W}value")) for i in xml(out).iter(f"{W}listItem")]
    assert items == [(MARKS, MARKS), (f"{MARKS} 2", f"{MARKS} 2"), ("Acme", "Acme")]
