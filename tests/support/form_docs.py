"""Documents with content controls and templates, built as WordprocessingML text for the forms tests.

``controls_doc``: every kind of control at block, inline, row and cell level, bound and unbound,
locked and not, in the body and a header. ``template_doc``: ``{{placeholders}}`` split the ways Word
splits them (formatting changes, proofing marks, bookmarks, field boundaries), in body, tables,
header, footer and a footnote, with MERGEFIELDs, a repeated table row and a repeating section.
"""
from __future__ import annotations

from pathlib import Path

from tests.builders import SECT, build_docx, p, part_xml

W15 = 'xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml"'
STORE = "{6B6C3A1D-1111-4222-8333-944455556666}"
CT_HDR = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"
CT_FTR = "application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"
CT_NOTES = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
CT_PROPS = "application/vnd.openxmlformats-officedocument.customXmlProperties+xml"
PLACEHOLDER_RPR = '<w:rPr><w:rStyle w:val="PlaceholderText"/><w:color w:val="808080"/></w:rPr>'
_ID = iter(range(1000, 100000))


def run(text: str, rpr: str = "") -> str:
    return f'<w:r>{rpr}<w:t xml:space="preserve">{text}</w:t></w:r>'


def sdt(pr: str, content: str, tag: str | None = None, extra: str = "", rpr: str = "") -> str:
    tag_xml = f'<w:alias w:val="{tag.title()}"/><w:tag w:val="{tag}"/>' if tag else ""
    return (f'<w:sdt><w:sdtPr>{rpr}{tag_xml}<w:id w:val="{next(_ID)}"/>{extra}{pr}</w:sdtPr>'
            f"<w:sdtContent>{content}</w:sdtContent></w:sdt>")


def checkbox(tag: str, checked: bool = False) -> str:
    pr = (f'<w14:checkbox><w14:checked w14:val="{int(checked)}"/>'
          '<w14:checkedState w14:val="2612" w14:font="MS Gothic"/>'
          '<w14:uncheckedState w14:val="2610" w14:font="MS Gothic"/></w14:checkbox>')
    glyph = "☒" if checked else "☐"
    return sdt(pr, run(glyph, '<w:rPr><w:rFonts w:ascii="MS Gothic" w:hAnsi="MS Gothic" w:eastAsia="MS Gothic"/></w:rPr>'),
               tag)


def dropdown(tag: str, kind: str = "dropDownList") -> str:
    items = "".join(f'<w:listItem w:displayText="{d}" w:value="{v}"/>' for d, v in
                    (("Red", "r"), ("Green", "g"), ("Blue", "b")))
    return sdt(f"<w:{kind}>{items}</w:{kind}>", run("Choose an item.", PLACEHOLDER_RPR), tag,
               extra="<w:showingPlcHdr/>")


def date(tag: str, fmt: str = "d MMMM yyyy") -> str:
    pr = (f'<w:date><w:dateFormat w:val="{fmt}"/><w:lid w:val="en-GB"/>'
          '<w:storeMappedDataAs w:val="dateTime"/><w:calendar w:val="gregorian"/></w:date>')
    return sdt(pr, run("Click to enter a date.", PLACEHOLDER_RPR), tag, extra="<w:showingPlcHdr/>")


def bound(tag: str, node: str, text: str) -> str:
    binding = (f'<w:dataBinding w:prefixMappings="xmlns:ns0=\'urn:forms-test\'" '
               f'w:xpath="/ns0:root[1]/ns0:{node}[1]" w:storeItemID="{STORE}"/>')
    return sdt("<w:text/>", run(text), tag, extra=binding)


def custom_xml_parts(values: dict[str, str]) -> tuple[dict[str, bytes], list, dict]:
    nodes = "".join(f"<{k}>{v}</{k}>" for k, v in values.items())
    item = f'<?xml version="1.0" encoding="UTF-8" standalone="no"?><root xmlns="urn:forms-test">{nodes}</root>'
    props = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?><ds:datastoreItem '
             f'ds:itemID="{STORE}" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml">'
             '<ds:schemaRefs/></ds:datastoreItem>')
    rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships '
            'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" '
            'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps" '
            'Target="itemProps1.xml"/></Relationships>')
    parts = {"customXml/item1.xml": item.encode(), "customXml/itemProps1.xml": props.encode(),
             "customXml/_rels/item1.xml.rels": rels.encode()}
    return parts, [("rId90", "customXml", "../customXml/item1.xml")], {"customXml/itemProps1.xml": CT_PROPS}


def table(rows: list[str], cols: int = 2) -> str:
    grid = "".join('<w:gridCol w:w="3000"/>' for _ in range(cols))
    return f'<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{grid}</w:tblGrid>{"".join(rows)}</w:tbl>'


def tr(*cells: str) -> str:
    return "<w:tr>" + "".join(cells) + "</w:tr>"


def tc(content: str) -> str:
    return f"<w:tc>{content}</w:tc>"


def repeating_section(tag: str, item_content: str) -> str:
    item = (f'<w:sdt><w:sdtPr><w:id w:val="{next(_ID)}"/><w15:repeatingSectionItem/></w:sdtPr>'
            f"<w:sdtContent>{item_content}</w:sdtContent></w:sdt>")
    return sdt("<w15:repeatingSection/>", item, tag)


def _with_w15(xml: bytes) -> bytes:
    return xml.replace(b'mc:Ignorable="w14"', W15.encode() + b' mc:Ignorable="w14 w15"', 1)


def _header_sect(extra_refs: str) -> str:
    return SECT.replace("<w:sectPr>", f"<w:sectPr>{extra_refs}")


def controls_doc(path: Path) -> Path:
    """Every kind of control, at every level; names are the tags the tests use."""
    inline = ("<w:p>" + run("Customer: ") + sdt("<w:text/>", run("Name here"), "customer") + run(" agrees ")
              + checkbox("agree") + run(" colour ") + dropdown("colour") + run(" size ")
              + dropdown("size", "comboBox") + run(" due ") + date("due") + "</w:p>")
    more = ("<w:p>" + bound("bound_name", "name", "Old name") + run(" ")
            + sdt("<w:text/>", run("Fixed"), "locked", extra='<w:lock w:val="contentLocked"/>') + run(" ")
            + sdt("<w:text/>", run("Click here to enter text.", PLACEHOLDER_RPR), "notes",
                  extra="<w:showingPlcHdr/>", rpr="<w:rPr><w:b/></w:rPr>") + run(" ")
            + sdt("<w:picture/>", "<w:r/>", "photo") + run(" ")
            + sdt("<w:text/>", run("Deletable only"), "sdt_locked", extra='<w:lock w:val="sdtLocked"/>') + "</w:p>")
    block = sdt("<w:richText/>", p("Block rich text"), "summary") + sdt("<w:text/>", p("Block plain"), "heading")
    tbl = table([tr(tc(p("Head A")), tc(p("Head B"))),
                 sdt("", tr(tc(p("Row control")), tc(p("second"))), "row_ctrl"),
                 tr(tc(p("Left")), sdt("<w:text/>", tc(p("Cell control")), "cell_ctrl"))])
    section = repeating_section("people", "<w:p>" + run("Name: ") + sdt("<w:text/>", run("nobody"), "name")
                                + run(" ") + checkbox("member") + "</w:p>")
    body = inline + more + block + tbl + section + p("End")
    header = part_xml("w:hdr", "<w:p>" + run("Header: ") + sdt("<w:text/>", run("Company"), "company") + "</w:p>")
    parts, rels, overrides = custom_xml_parts({"name": "Old name"})
    parts["word/header1.xml"] = _with_w15(header)
    overrides["word/header1.xml"] = CT_HDR
    rels.append(("rId91", "header", "header1.xml"))
    out = build_docx(path, body, sect=_header_sect('<w:headerReference w:type="default" r:id="rId91"/>'),
                     extra_parts=parts, rels=rels, overrides=overrides)
    return _patch_document(out)


def _patch_document(path: Path) -> Path:
    """Declare w15 on the main part (the builders declare w14 only)."""
    import zipfile
    with zipfile.ZipFile(path) as z:
        items = {n: z.read(n) for n in z.namelist()}
    items["word/document.xml"] = _with_w15(items["word/document.xml"])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in items.items():
            z.writestr(n, data)
    return path


BOLD = "<w:rPr><w:b/></w:rPr>"
ITALIC = "<w:rPr><w:i/></w:rPr>"


def split_by_formatting(name: str) -> str:
    half = len(name) // 2
    return run("{{" + name[:half], BOLD) + run(name[half:] + "}}", ITALIC)


def split_by_proofing(name: str) -> str:
    return (run("{{") + '<w:proofErr w:type="spellStart"/>' + run(name) + '<w:proofErr w:type="spellEnd"/>'
            + run("}}"))


def split_by_bookmark(name: str) -> str:
    bid = next(_ID)
    return (run("{" + "{" + name[:2]) + f'<w:bookmarkStart w:id="{bid}" w:name="mark{bid}"/>' + run(name[2:] + "}")
            + f'<w:bookmarkEnd w:id="{bid}"/>' + run("}"))


def split_by_field(name: str) -> str:
    """The placeholder's tail is the result of a field: the field's characters and instruction are no text."""
    return (run("{{" + name[:3]) + '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            '<w:r><w:instrText xml:space="preserve"> QUOTE x </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + run(name[3:] + "}}")
            + '<w:r><w:fldChar w:fldCharType="end"/></w:r>')


def merge_simple(name: str) -> str:
    return (f'<w:fldSimple w:instr=" MERGEFIELD {name} \\* MERGEFORMAT ">'
            + run(f"«{name}»", BOLD) + "</w:fldSimple>")


def merge_complex(name: str) -> str:
    return ('<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r><w:instrText xml:space="preserve"> MERGEFIELD "{name}" </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + run(f"«{name}»", ITALIC)
            + '<w:r><w:fldChar w:fldCharType="end"/></w:r>')


def text_box(content: str) -> str:
    """A VML text box (w:pict) holding paragraphs."""
    return ('<w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" id="box1" '
            'style="width:200pt;height:40pt"><v:textbox><w:txbxContent>'
            f"{content}</w:txbxContent></v:textbox></v:shape></w:pict></w:r>")


def template_doc(path: Path) -> Path:
    body = ("<w:p>" + run("Dear ") + split_by_formatting("customer.name") + run(",") + "</w:p>"
            + "<w:p>" + run("City: ") + split_by_proofing("city") + run(" on ") + split_by_bookmark("date")
            + "</w:p>"
            + "<w:p>" + run("Amount: ") + split_by_field("amount") + run(" (") + merge_simple("currency")
            + run(") for ") + merge_complex("first_name")
            + '<w:r><w:footnoteReference w:id="1"/></w:r></w:p>'
            + table([tr(tc(p("Item")), tc(p("Qty"))),
                     tr(tc("<w:p>" + split_by_formatting("items.name") + "</w:p>"), tc(p("{{items.qty}}"))),
                     tr(tc(p("Total")), tc(p("{{total}}")))])
            + repeating_section("people", "<w:p>" + run("Person: ") + sdt("<w:text/>", run("x"), "name")
                                + run(" is {{people.role}} ") + checkbox("member") + "</w:p>")
            + "<w:p>" + run("Box: ") + text_box("<w:p>" + split_by_formatting("box") + "</w:p>") + "</w:p>"
            + "<w:p>" + run("Signed: ") + checkbox("signed") + run(" ") + dropdown("colour") + run(" ")
            + date("due") + "</w:p>")
    header = part_xml("w:hdr", "<w:p>" + split_by_formatting("company") + "</w:p>")
    footer = part_xml("w:ftr", "<w:p>" + run("Page note: ") + split_by_proofing("page_note") + "</w:p>")
    notes = part_xml("w:footnotes",
                     '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
                     '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/>'
                     '</w:r></w:p></w:footnote><w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r>'
                     + run(" Note: ") + split_by_bookmark("note") + "</w:p></w:footnote>")
    parts = {"word/header1.xml": _with_w15(header), "word/footer1.xml": _with_w15(footer),
             "word/footnotes.xml": _with_w15(notes)}
    rels = [("rId91", "header", "header1.xml"), ("rId92", "footer", "footer1.xml"),
            ("rId93", "footnotes", "footnotes.xml")]
    overrides = {"word/header1.xml": CT_HDR, "word/footer1.xml": CT_FTR, "word/footnotes.xml": CT_NOTES}
    out = build_docx(path, body, sect=_header_sect('<w:headerReference w:type="default" r:id="rId91"/>'
                                                   '<w:footerReference w:type="default" r:id="rId92"/>'),
                     extra_parts=parts, rels=rels, overrides=overrides)
    return _patch_document(out)


TEMPLATE_DATA = {
    "customer": {"name": "Ada Lovelace"}, "city": "London", "date": "10 December 1815", "amount": "£1,000",
    "currency": "GBP", "first_name": "Ada", "total": "7", "company": "Analytical Engines Ltd",
    "page_note": "Confidential", "note": "Footnote filled",
    "items": [{"name": "Gears", "qty": "3"}, {"name": "Cards", "qty": "4"}],
    "people": [{"name": "Charles", "role": "inventor", "member": True},
               {"name": "Mary", "role": "tutor", "member": False},
               {"name": "Augustus", "role": "mathematician", "member": True}],
    "signed": True, "colour": "Green", "due": "2026-03-01", "box": "In a text box",
}
