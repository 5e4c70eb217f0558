"""docx_check (issue 34): fixtures built by code with one planted problem each, for both rule sets, and clean
controls. Each problem is found at the right element's ID (or part); controls are clean; repair removes a
repairable problem without changing the text, the Open XML SDK validator agrees, and one undo restores
the bytes."""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from ooxml.opc.template import STYLES
from tests.builders import build_docx, p, png, tbl, tc
from tests.support import sdk_validator
from tests.support.client import read_body

pytestmark = pytest.mark.anyio

CORE = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cp:coreProperties xmlns:cp="http://schemas.'
        'openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">'
        '<dc:title>Planted</dc:title></cp:coreProperties>').encode()
UNTITLED = CORE.replace(b"<dc:title>Planted</dc:title>", b"")
NO_LANG = re.sub(r'<w:lang [^>]*/>', "", STYLES).encode()
SETTINGS_OUT_OF_ORDER = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:settings xmlns:w="http://schemas.openxmlformats.org/'
    'wordprocessingml/2006/main" xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math">'
    '<w:defaultTabStop w:val="720"/><w:compat/><w:rsids><w:rsidRoot w:val="00A1B2C3"/></w:rsids>'
    '<w:docVars><w:docVar w:name="a" w:val="b"/></w:docVars><m:mathPr><m:mathFont m:val="Cambria Math"/></m:mathPr>'
    '<w:doNotAutoCompressPictures/><w:themeFontLang w:val="en-US"/></w:settings>').encode()
IMAGE_REL = [("rId9", "image", "media/image1.png")]
PNG_TYPE = {"word/media/image1.png": "image/png"}
LINK_REL = [("rId8", "hyperlink", "https://example.com/report")]
TEXT = "Some ordinary text that reads as a sentence."


def drawing(descr: str = "", extra: str = "") -> str:
    attrs = f' descr="{descr}"' if descr else ""
    return ('<w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="457200"/>'
            f'<wp:docPr id="1" name="Picture 1"{attrs}>{extra}</wp:docPr>'
            '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>'
            '<pic:nvPicPr><pic:cNvPr id="0" name="p.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill>'
            '<a:blip r:embed="rId9"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm>'
            '<a:off x="0" y="0"/><a:ext cx="914400" cy="457200"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr>'
            '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>')


DECORATIVE = ('<a:extLst><a:ext uri="{C183D7F6-B498-43B3-948B-1728B52AA6E4}"><adec:decorative '
              'xmlns:adec="http://schemas.microsoft.com/office/drawing/2017/decorative" val="1"/></a:ext></a:extLst>')
BOX = ('<w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" id="box1" style="position:absolute;'
       'width:100pt;height:50pt"><v:textbox><w:txbxContent>{}</w:txbxContent></v:textbox></v:shape></w:pict></w:r>')
HEADER_ROW = '<w:trPr><w:tblHeader/></w:trPr>'


def header_table(second_row: list[str]) -> str:
    head = f"<w:tr>{HEADER_ROW}{tc(p('Region'))}{tc(p('Sales'))}</w:tr>"
    body = "<w:tr>" + "".join(second_row) + "</w:tr>"
    return ('<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/>'
            f'<w:gridCol w:w="2000"/></w:tblGrid>{head}{body}</w:tbl>')


# name -> (rule, code, severity, body, build options, how the test finds the element: XPath on the
# session's main part, or None when the finding names a part)
PLANTED = {
    "order": ("word", "order", "error", '<w:p><w:pPr><w:jc w:val="center"/><w:spacing w:after="0"/></w:pPr>'
              '<w:r><w:t>PLANT</w:t></w:r></w:p>', {}, "//w:p[.//w:t='PLANT']"),
    "para-id-range": ("word", "para-id", "error", '<w:p w14:paraId="80000001"><w:r><w:t>PLANT</w:t></w:r></w:p>',
                      {}, "//w:p[.//w:t='PLANT']"),
    "para-id-twice": ("word", "para-id", "warning", '<w:p w14:paraId="1234ABCD"><w:r><w:t>one</w:t></w:r></w:p>'
                      '<w:p w14:paraId="1234ABCD"><w:r><w:t>PLANT</w:t></w:r></w:p>', {}, "//w:p[.//w:t='PLANT']"),
    "bookmark-twice": ("word", "duplicate-id", "error", '<w:p><w:bookmarkStart w:id="5" w:name="a"/><w:r><w:t>one'
                       '</w:t></w:r><w:bookmarkEnd w:id="5"/></w:p><w:p><w:bookmarkStart w:id="5" w:name="b"/><w:r>'
                       '<w:t>PLANT</w:t></w:r><w:bookmarkEnd w:id="5"/></w:p>', {}, "//w:bookmarkStart[@w:name='b']"),
    "revision-twice": ("word", "duplicate-id", "warning", '<w:p><w:ins w:id="7" w:author="a"><w:r><w:t>one</w:t>'
                       '</w:r></w:ins><w:ins w:id="7" w:author="a"><w:r><w:t>PLANT</w:t></w:r></w:ins></w:p>', {},
                       "//w:ins[.//w:t='PLANT']"),
    "unpaired": ("word", "unpaired", "warning", '<w:p><w:bookmarkStart w:id="3" w:name="lone"/><w:r><w:t>PLANT'
                 '</w:t></w:r></w:p>', {}, "//w:bookmarkStart"),
    "settings-order": ("word", "order", "error", p(TEXT), {"settings": True}, None),
    "missing-part": ("word", "missing-part", "error", p(TEXT), {"rels": [("rId7", "header", "header9.xml")]}, None),
    "content-type": ("word", "content-type", "error", p(TEXT), {"image": True}, None),
    "undeclared-prefix": ("word", "undeclared-prefix", "error", p(TEXT), {"ignorable": "w14 w99"}, None),
    "no-fallback": ("word", "no-fallback", "warning", '<w:p><w:r><mc:AlternateContent><mc:Choice Requires="w14">'
                    '<w:t>PLANT</w:t></mc:Choice></mc:AlternateContent></w:r></w:p>', {}, "//w:r[.//w:t='PLANT']"),
    "box-revision": ("word", "box-revision", "error", "<w:p>" + BOX.format(
        '<w:p><w:ins w:id="1" w:author="a"><w:r><w:t>PLANT</w:t></w:r></w:ins></w:p>') + "</w:p>", {}, "//w:ins"),
    "cell-end": ("word", "cell-end", "error", tbl([[tc(p("PLANT") + tbl([[tc(p("inner"))]])), tc(p("b"))]]), {},
                 "//w:tc[w:p//w:t='PLANT']"),
    "newline": ("word", "newline", "error", '<w:p><w:r><w:t>PLANT\nnext line</w:t></w:r></w:p>', {},
                "//w:r[contains(.//w:t, 'PLANT')]"),
    "deleted-text": ("word", "deleted-text", "error", '<w:p><w:del w:id="4" w:author="a"><w:r><w:t>PLANT</w:t>'
                     '</w:r></w:del><w:r><w:t>kept</w:t></w:r></w:p>', {}, "//w:del/w:r"),
    "missing-relationship": ("word", "missing-relationship", "error", '<w:p><w:hyperlink r:id="rId99"><w:r><w:t>'
                             'PLANT</w:t></w:r></w:hyperlink></w:p>', {}, "//w:hyperlink"),
    "alt-text": ("accessibility", "alt-text", "error", "<w:p>" + drawing() + "</w:p>", {"picture": True},
                 "//w:drawing"),
    "heading-skip": ("accessibility", "heading-skip", "warning", '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>'
                     '<w:r><w:t>Top</w:t></w:r></w:p><w:p><w:pPr><w:pStyle w:val="Heading3"/></w:pPr><w:r><w:t>PLANT'
                     '</w:t></w:r></w:p>' + p(TEXT), {}, "//w:p[.//w:t='PLANT']"),
    "looks-like-heading": ("accessibility", "looks-like-heading", "warning", p(TEXT) + '<w:p><w:r><w:rPr><w:b/>'
                           '</w:rPr><w:t>PLANT overview</w:t></w:r></w:p>' + p(TEXT), {},
                           "//w:p[.//w:t='PLANT overview']"),
    "table-header": ("accessibility", "table-header", "error", tbl([[tc(p("PLANT")), tc(p("b"))],
                                                                    [tc(p("c")), tc(p("d"))]]), {}, "//w:tbl"),
    "merged-cells": ("accessibility", "merged-cells", "warning", header_table(
        [tc(p("PLANT"), '<w:gridSpan w:val="2"/>')]), {}, "//w:tc[.//w:t='PLANT']"),
    "empty-paragraphs": ("accessibility", "empty-paragraphs", "warning", p(TEXT) + "<w:p/><w:p/><w:p/>" + p(TEXT),
                         {}, "(//w:p[not(.//w:t)])[1]"),
    # empty, yet bold as a heading made by looks: the two rules share one search of the paragraphs
    "empty-bold-paragraphs": ("accessibility", "empty-paragraphs", "warning", p(TEXT) + '<w:p><w:r><w:rPr><w:b/>'
                              '</w:rPr></w:r></w:p>' * 2 + p(TEXT), {}, "(//w:p[not(.//w:t)])[1]"),
    "contrast": ("accessibility", "contrast", "error", '<w:p><w:r><w:rPr><w:color w:val="DDDDDD"/></w:rPr><w:t>'
                 'PLANT</w:t></w:r></w:p>', {}, "//w:r[.//w:t='PLANT']"),
    "no-title": ("accessibility", "no-title", "error", p(TEXT), {"untitled": True}, None),
    "no-language": ("accessibility", "no-language", "error", p(TEXT), {"no_lang": True}, None),
    "link-text": ("accessibility", "link-text", "warning", '<w:p><w:hyperlink r:id="rId8"><w:r><w:t>click here'
                  '</w:t></w:r></w:hyperlink></w:p>', {"link": True}, "//w:hyperlink"),
    "floating-text": ("accessibility", "floating-text", "warning", "<w:p>" + BOX.format(p("PLANT")) + "</w:p>", {},
                      "//w:pict"),
}
# Problems repair=True removes, with the arguments it needs.
REPAIRABLE = {"order": {}, "settings-order": {}, "para-id-range": {}, "para-id-twice": {}, "bookmark-twice": {}, "revision-twice": {},
              "content-type": {}, "undeclared-prefix": {}, "cell-end": {}, "newline": {}, "deleted-text": {},
              "no-title": {"title": "Planted report"}, "no-language": {"language": "en-GB"}}
CLEAN = (p("Report", ' w14:paraId="0000AB01"').replace("<w:p w14", '<w:p w14').replace(
    "<w:r>", '<w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r>', 1)
    + '<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t>Details</w:t></w:r></w:p>' + p(TEXT)
    + "<w:p>" + drawing("A red square") + "</w:p>" + "<w:p>" + drawing(extra=DECORATIVE).replace('id="1"', 'id="2"')
    + "</w:p>" + header_table([tc(p("North")), tc(p("12"))])
    + '<w:p><w:hyperlink r:id="rId8"><w:r><w:t>the annual report</w:t></w:r></w:hyperlink></w:p>' + p(TEXT)
    + '<w:p><w:r><w:rPr><w:color w:val="1F3864"/></w:rPr><w:t>Dark blue text.</w:t></w:r></w:p>'
    + '<w:p><w:pPr><w:shd w:val="clear" w:color="auto" w:fill="1F3864"/></w:pPr><w:r><w:rPr><w:color w:val="FFFFFF"/>'
      '</w:rPr><w:t>White on navy.</w:t></w:r></w:p>'
    + '<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>Note:</w:t></w:r><w:r><w:t> a bold lead-in is no heading.</w:t></w:r></w:p>'
    + p(TEXT) + "<w:p/>")


def build(tmp_path: Path, name: str, body: str, opts: dict) -> Path:
    rels = list(opts.get("rels", []))
    extra = {"docProps/core.xml": UNTITLED if opts.get("untitled") else CORE}
    overrides = {}
    if opts.get("settings"):  # w:rsids before w:docVars, m:mathPr (another namespace) after them, w:doNotAutoCompressPictures early
        extra["word/settings.xml"] = SETTINGS_OUT_OF_ORDER
    if opts.get("no_lang"):
        extra["word/styles.xml"] = NO_LANG
    if opts.get("picture") or opts.get("image"):
        extra["word/media/image1.png"] = png(tmp_path / "image.png").read_bytes()
        rels += IMAGE_REL
        overrides = {} if opts.get("image") else PNG_TYPE  # "image": no content type for it
    if opts.get("link"):
        rels.append(("rId8", "hyperlink", "https://example.com/report"))
    path = build_docx(tmp_path / f"{name}.docx", body, rels=rels or None, overrides=overrides, extra_parts=extra)
    if opts.get("link"):
        _external(path)
    if opts.get("ignorable"):
        _rewrite(path, "word/document.xml", lambda d: d.replace(b'mc:Ignorable="w14"',
                                                                 f'mc:Ignorable="{opts["ignorable"]}"'.encode()))
    return path


def _external(path: Path) -> None:
    _rewrite(path, "word/_rels/document.xml.rels", lambda d: d.replace(
        b'Target="https://example.com/report"/>', b'Target="https://example.com/report" TargetMode="External"/>'))


def _rewrite(path: Path, name: str, change) -> None:
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts[name] = change(parts[name])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in parts.items():
            z.writestr(n, data)


def expected_where(docx, xpath: str | None, part: str | None) -> str:
    """The ID the finding must name: the planted element's (or its nearest element with IDs), else the part."""
    if xpath is None:
        return part
    from ooxml.check.findings import Finding, locate
    doc = docx.services.sessions.get(None, docx.session_id).doc
    el = doc.root.xpath(xpath, namespaces={"w": NS_W, "w14": NS_W14})[0]
    return locate(doc, [Finding("", "", "", "word/document.xml", "", "", el)])[0].where


NS_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS_W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
PARTS = {"settings-order": "word/settings.xml", "missing-part": "word/_rels/document.xml.rels", "content-type": "word/media/image1.png",
         "undeclared-prefix": "word/document.xml", "no-title": "docProps/core.xml", "no-language": "word/styles.xml"}


def finding_lines(text: str, code: str) -> list[str]:
    """The places listed under the kind ``code`` in docx_check's answer."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("- "):
            inside = re.match(rf"- \w+ {re.escape(code)} \(", line) is not None
        elif inside and line.startswith("  - "):
            out.append(line[4:])
    return out


@pytest.mark.parametrize("name", sorted(PLANTED))
async def test_each_planted_problem_is_found_at_its_element(docx, tmp_path, name):
    rule, code, severity, body, opts, xpath = PLANTED[name]
    await docx.open(build(tmp_path, name, body, opts))
    answer = await docx.ok("docx_check", session_id=docx.session_id, rules=[rule])
    where = expected_where(docx, xpath, PARTS.get(name))
    assert re.search(rf"^- {severity} {re.escape(code)} \(", answer.text, re.M), answer.text
    assert any(line.startswith(f"{where}") or line.startswith(f"{where} ") for line in
               finding_lines(answer.text, code)), f"{where} not listed:\n{answer.text}"


async def test_a_clean_document_has_no_finding(docx, tmp_path):
    path = build(tmp_path, "clean", CLEAN, {"picture": True, "link": True})
    await docx.open(path)
    answer = await docx.ok("docx_check", session_id=docx.session_id)
    assert "word: nothing found" in answer.text and "accessibility: nothing found" in answer.text, answer.text


async def test_the_template_docx_create_writes_passes_the_word_rules(docx):
    await docx.create()
    answer = await docx.ok("docx_check", session_id=docx.session_id, rules=["word"])
    assert "word: nothing found" in answer.text, answer.text


async def test_unknown_rules_and_title_without_repair_are_refused_and_change_nothing(docx, tmp_path):
    await docx.open(build(tmp_path, "plain", p(TEXT), {}))
    bad = await docx.call("docx_check", session_id=docx.session_id, rules=["spelling"])
    assert bad.is_error and "spelling" in bad.text and "accessibility" in bad.text
    bad = await docx.call("docx_check", session_id=docx.session_id, title="T")
    assert bad.is_error and "repair=True" in bad.text
    bad = await docx.call("docx_check", session_id=docx.session_id, repair=True, language="not a tag")
    assert bad.is_error and "en-US" in bad.text


def _parts(docx) -> dict[str, bytes]:
    doc = docx.services.sessions.get(None, docx.session_id).doc
    return {name: part.data for name, part in doc.package.parts.items()}


def _texts(path: Path) -> list[str]:
    """What each paragraph says (a line break as a newline, deleted text included); empty ones left out."""
    body = read_body(path)
    tags = [f"{{{NS_W}}}{t}" for t in ("t", "delText", "br")]
    out = ["".join("\n" if el.tag == tags[2] else (el.text or "") for el in p.iter(*tags))
           for p in body.iter(f"{{{NS_W}}}p")]
    return [t for t in out if t]


async def test_repair_removes_each_repairable_problem_keeps_the_text_and_undoes_in_one_step(docx, tmp_path):
    saved = {}
    for name in sorted(REPAIRABLE):
        rule, code, _, body, opts, _ = PLANTED[name]
        original = build(tmp_path, name, body, opts)
        await docx.open(original)
        before = _parts(docx)
        await docx.ok("docx_save", session_id=docx.session_id, file_path=str(tmp_path / f"{name}-same.docx"))
        fixed = await docx.ok("docx_check", session_id=docx.session_id, rules=[rule], repair=True,
                              **REPAIRABLE[name])
        assert re.search(rf"^Repaired \([1-9]", fixed.text, re.M), f"{name}: {fixed.text}"
        after = await docx.ok("docx_check", session_id=docx.session_id, rules=[rule])
        assert not finding_lines(after.text, code), f"{name}: still there\n{after.text}"
        out = tmp_path / f"{name}-repaired.docx"
        await docx.ok("docx_save", session_id=docx.session_id, file_path=str(out))
        assert _texts(out) == _texts(tmp_path / f"{name}-same.docx"), name
        await docx.ok("docx_undo", session_id=docx.session_id)
        now = _parts(docx)
        changed = sorted(n for n in set(before) | set(now) if before.get(n) != now.get(n))
        assert not changed, f"{name}: undo left {changed}"
        saved[name] = (original, out)
    _validator_agrees(saved)


def _validator_agrees(saved: dict) -> None:
    """The repaired files add no validator error kind, and lose the planted one the validator sees."""
    sdk_validator.require()
    found = sdk_validator.validate_files([f for pair in saved.values() for f in pair])
    for name, (original, repaired) in saved.items():
        before = sdk_validator.kinds(found[original.resolve()])
        after = sdk_validator.kinds(found[repaired.resolve()])
        assert after <= before, f"{name}: the repair added {sorted(after - before)}"
        if name in ("order", "settings-order", "para-id-range", "bookmark-twice"):
            assert before and not after, f"{name}: the validator saw {sorted(before)} -> {sorted(after)}"
