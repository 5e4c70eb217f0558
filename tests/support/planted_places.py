"""Documents holding a secret in one place each that names, links or lists refer to (issue 29, defect 10):
table alt text, a form field's name, a document variable, a bookmark that hyperlinks and fields target,
dropdown items, a placeholder's building block, styles (IDs and names), numbering text, an embedded workbook's sheet names, formulas and
cell comments, XML comments, a comment author's initials. ``build(path, place, secret)``; ``PLACES``
maps each place to the part the redaction answer must list.
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

from tests.support.planted import DECL, RT, _chart_ref, chart

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
CT = "application/vnd.openxmlformats-officedocument."
EMBEDDED = "word/embeddings/Microsoft_Excel_Worksheet.xlsx"


def _r(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _p(inner: str, ppr: str = "") -> str:
    return f"<w:p>{ppr}{inner}</w:p>"


def _field(instr: str, result: str) -> str:
    """A complex field, its instruction split over two runs."""
    half = len(instr) // 2
    return ('<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r><w:instrText xml:space="preserve">{instr[:half]}</w:instrText></w:r>'
            f'<w:r><w:instrText xml:space="preserve">{instr[half:]}</w:instrText></w:r>'
            f'<w:r><w:fldChar w:fldCharType="separate"/></w:r>{_r(result)}<w:r><w:fldChar w:fldCharType="end"/></w:r>')


class Parts:
    def __init__(self):
        from ooxml.opc.template import new_package_parts
        self.parts = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in new_package_parts().items()}
        self._rels = 10

    def body(self, xml: str) -> None:
        self.parts["word/document.xml"] = self.parts["word/document.xml"].replace("<w:body>", "<w:body>" + xml, 1)

    def insert(self, name: str, before: str, xml: str) -> None:
        self.parts[name] = self.parts[name].replace(before, xml + before, 1)

    def add(self, name: str, data, ctype: str, rel: str | None = None) -> str:
        """A new part with its content type, related from the main document with type ``rel``."""
        self.parts[name] = data
        self.insert("[Content_Types].xml", "</Types>", f'<Override PartName="/{name}" ContentType="{ctype}"/>')
        self._rels += 1
        rid = f"rId{self._rels}"
        if rel:
            target = name.removeprefix("word/")
            self.insert("word/_rels/document.xml.rels", "</Relationships>",
                        f'<Relationship Id="{rid}" Type="{rel}" Target="{target}"/>')
        return rid

    def write(self, path: Path) -> Path:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in self.parts.items():
                z.writestr(name, data)
        return path


def table_alt_text(d: Parts, s: str) -> None:
    d.body('<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/>'
           f'<w:tblCaption w:val="{s} fees"/><w:tblDescription w:val="Fees paid to {s} in 2024"/></w:tblPr>'
           f'<w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:tc>{_p(_r("Fee"))}</w:tc></w:tr></w:tbl>'
           + _p(_r("After the table.")))


def form_field_name(d: Parts, s: str) -> None:
    d.body(_p(f'<w:bookmarkStart w:id="1" w:name="{s}"/><w:r><w:fldChar w:fldCharType="begin"><w:ffData>'
              f'<w:name w:val="{s}"/><w:enabled/><w:calcOnExit w:val="0"/><w:textInput/></w:ffData></w:fldChar></w:r>'
              '<w:r><w:instrText xml:space="preserve"> FORMTEXT </w:instrText></w:r>'
              '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + _r("typed") +
              '<w:r><w:fldChar w:fldCharType="end"/></w:r><w:bookmarkEnd w:id="1"/>')
           + _p(_r("Copy: ") + _field(f" REF {s} \\h ", "typed")))


def document_variable(d: Parts, s: str) -> None:
    d.insert("word/settings.xml", "</w:settings>", f'<w:docVars><w:docVar w:name="Client{s}" w:val="Acme"/></w:docVars>')
    d.body(_p(_r("Client: ") + _field(f" DOCVARIABLE Client{s} ", "Acme")))


def hyperlink_anchor(d: Parts, s: str) -> None:
    name = f"{s}_terms"
    d.body(_p(f'<w:bookmarkStart w:id="3" w:name="{name}"/>' + _r("Terms") + '<w:bookmarkEnd w:id="3"/>')
           + _p(f'<w:hyperlink w:anchor="{name}" w:history="1">{_r("See the terms")}</w:hyperlink>')
           + _p(_r("Page ") + _field(f" PAGEREF {name} \\h ", "1"))
           + _p(f'<w:fldSimple w:instr=" REF {name} \\h ">{_r("Terms")}</w:fldSimple>')
           + _p(_field(f' HYPERLINK \\l "{name}" ', "Jump to the terms")))


def dropdown(d: Parts, s: str) -> None:
    d.body('<w:sdt><w:sdtPr><w:id w:val="5"/><w:dropDownList w:lastValue="Acme">'
           f'<w:listItem w:displayText="{s} Ltd" w:value="{s}"/><w:listItem w:displayText="Acme" w:value="Acme"/>'
           f'</w:dropDownList></w:sdtPr><w:sdtContent>{_p(_r("Acme"))}</w:sdtContent></w:sdt>'
           '<w:sdt><w:sdtPr><w:id w:val="6"/><w:comboBox w:lastValue="Acme">'
           f'<w:listItem w:displayText="Acme" w:value="Acme"/><w:listItem w:displayText="{s} Inc" w:value="{s}2"/>'
           f'</w:comboBox></w:sdtPr><w:sdtContent>{_p(_r("Acme"))}</w:sdtContent></w:sdt>'
           + _p('<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Choice"/><w:enabled/>'
                '<w:calcOnExit w:val="0"/><w:ddList><w:result w:val="0"/><w:listEntry w:val="Acme"/>'
                f'<w:listEntry w:val="{s} Ltd"/></w:ddList></w:ffData></w:fldChar></w:r>'
                '<w:r><w:instrText xml:space="preserve"> FORMDROPDOWN </w:instrText></w:r>'
                '<w:r><w:fldChar w:fldCharType="end"/></w:r>'))


def building_block(d: Parts, s: str) -> None:
    """A content control's placeholder: a glossary building block named with the secret."""
    ns = f'xmlns:w="{W_NS}"'
    d.add("word/glossary/document.xml", f'{DECL}<w:glossaryDocument {ns}><w:docParts><w:docPart><w:docPartPr>'
          f'<w:name w:val="{s}Placeholder"/><w:category><w:name w:val="General"/><w:gallery w:val="placeholder"/>'
          '</w:category><w:behaviors><w:behavior w:val="content"/></w:behaviors>'
          '<w:guid w:val="{AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE}"/></w:docPartPr>'
          f'<w:docPartBody>{_p(_r("Click to enter a name."))}</w:docPartBody></w:docPart></w:docParts>'
          '</w:glossaryDocument>', f"{CT}wordprocessingml.document.glossary+xml", f"{RT}glossaryDocument")
    d.body(f'<w:sdt><w:sdtPr><w:id w:val="7"/><w:placeholder><w:docPart w:val="{s}Placeholder"/></w:placeholder>'
           f'<w:showingPlcHdr/><w:text/></w:sdtPr><w:sdtContent>{_p(_r("Click to enter a name."))}</w:sdtContent></w:sdt>')


def style_name(d: Parts, s: str) -> None:
    d.insert("word/styles.xml", "</w:styles>",
             f'<w:style w:type="paragraph" w:customStyle="1" w:styleId="{s}Heading"><w:name w:val="{s} Heading"/>'
             f'<w:basedOn w:val="Normal"/><w:next w:val="{s}Body"/><w:link w:val="{s}HeadingChar"/><w:qFormat/>'
             '<w:rPr><w:b/></w:rPr></w:style>'
             f'<w:style w:type="character" w:customStyle="1" w:styleId="{s}HeadingChar"><w:name w:val="{s} Heading Char"/>'
             f'<w:link w:val="{s}Heading"/><w:rPr><w:b/></w:rPr></w:style>'
             f'<w:style w:type="paragraph" w:customStyle="1" w:styleId="{s}Body"><w:name w:val="{s} Body"/>'
             f'<w:basedOn w:val="Normal"/><w:rPr><w:i/></w:rPr></w:style>')
    d.body(_p(_r("Heading"), f'<w:pPr><w:pStyle w:val="{s}Heading"/></w:pPr>')
           + _p(f'<w:r><w:rPr><w:rStyle w:val="{s}HeadingChar"/></w:rPr><w:t>Body</w:t></w:r>',
                f'<w:pPr><w:pStyle w:val="{s}Body"/></w:pPr>')
           + _p(_r("Running head: ") + _field(f' STYLEREF "{s} Heading" ', "Heading")))


def numbering_text(d: Parts, s: str) -> None:
    ns = f'xmlns:w="{W_NS}"'
    d.add("word/numbering.xml", f'{DECL}<w:numbering {ns}><w:abstractNum w:abstractNumId="0">'
          f'<w:multiLevelType w:val="singleLevel"/><w:name w:val="{s} clauses"/><w:lvl w:ilvl="0"><w:start w:val="1"/>'
          f'<w:numFmt w:val="decimal"/><w:lvlText w:val="{s} %1."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" '
          'w:hanging="360"/></w:pPr></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
          '</w:numbering>', f"{CT}wordprocessingml.numbering+xml", f"{RT}numbering")
    d.body(_p(_r("First clause"), '<w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>'))


def workbook(s: str) -> bytes:
    """Sheets named with the secret, referred to by a formula, a defined name and the chart; a cell comment."""
    x = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rel = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"'
    sml = f"{CT}spreadsheetml."
    parts = {
        "[Content_Types].xml": f'{DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/xl/workbook.xml" ContentType="{sml}sheet.main+xml"/>'
        f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{sml}worksheet+xml"/>'
        f'<Override PartName="/xl/worksheets/sheet2.xml" ContentType="{sml}worksheet+xml"/>'
        f'<Override PartName="/xl/comments1.xml" ContentType="{sml}comments+xml"/></Types>',
        "_rels/.rels": f'{DECL}<Relationships {rel}><Relationship Id="rId1" Type="{RT}officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'{DECL}<workbook {x} xmlns:r="{RT[:-1]}"><sheets><sheet name="{s}" sheetId="1" r:id="rId1"/>'
        f'<sheet name="{s} notes" sheetId="2" r:id="rId2"/></sheets><definedNames>'
        f'<definedName name="Total">{s}!$B$2:$B$4</definedName></definedNames></workbook>',
        "xl/_rels/workbook.xml.rels": f'{DECL}<Relationships {rel}><Relationship Id="rId1" Type="{RT}worksheet" '
        f'Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="{RT}worksheet" Target="worksheets/sheet2.xml"/>'
        '</Relationships>',
        "xl/worksheets/sheet1.xml": f'{DECL}<worksheet {x}><sheetData><row r="1"><c r="B1" t="inlineStr"><is><t>Sales'
        '</t></is></c></row><row r="2"><c r="B2"><v>4</v></c></row><row r="3"><c r="B3"><v>5</v></c></row>'
        '</sheetData></worksheet>',
        "xl/worksheets/_rels/sheet1.xml.rels": f'{DECL}<Relationships {rel}><Relationship Id="rId1" '
        f'Type="{RT}comments" Target="../comments1.xml"/></Relationships>',
        "xl/worksheets/sheet2.xml": f'{DECL}<worksheet {x}><sheetData><row r="1"><c r="A1"><f>SUM({s}!B2:B3)+'
        f"'{s} notes'!A2</f><v>9</v></c></row></sheetData></worksheet>",
        "xl/comments1.xml": f'{DECL}<!-- reviewed by {s} --><comments {x}><authors><author>Jane {s}</author></authors><commentList>'
        f'<comment ref="B2" authorId="0"><text><r><t>Checked by </t></r><r><rPr><b/></rPr><t>{s}</t></r></text>'
        '</comment></commentList></comments>',
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return buf.getvalue()


def workbook_sheet(d: Parts, s: str) -> None:
    xml = chart("Sales").replace("Sheet1!", f"{s}!")
    d.parts["word/document.xml"] = d.parts["word/document.xml"].replace(
        "<w:document ", '<w:document xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" ', 1)
    rid = d.add("word/charts/chart1.xml", xml, f"{CT}drawingml.chart+xml", f"{RT}chart")
    d.parts["word/charts/_rels/chart1.xml.rels"] = (
        f'{DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship '
        f'Id="rId1" Type="{RT}package" Target="../embeddings/Microsoft_Excel_Worksheet.xlsx"/></Relationships>')
    d.parts[EMBEDDED] = workbook(s)
    d.insert("[Content_Types].xml", "</Types>", '<Default Extension="xlsx" ContentType="application/vnd.'
             'openxmlformats-officedocument.spreadsheetml.sheet"/>')
    d.body(_p(_r("Chart: ") + _chart_ref("Sales").replace("rIdChart", rid)))


def xml_comment(d: Parts, s: str, beside_root: bool = True) -> None:
    if beside_root:  # outside the story's tree: undo does not reach it (docs/privacy.md)
        d.parts["word/document.xml"] = d.parts["word/document.xml"].replace(DECL, f"{DECL}<!-- template by {s} -->", 1)
    d.body(f"<!-- drafted by {s} -->" + _p(_r("Text") + f"<!--{s}-->"))
    d.insert("word/styles.xml", "</w:styles>", f"<!-- styles of {s} -->")


def comment_initials(d: Parts, s: str) -> None:
    ns = f'xmlns:w="{W_NS}"'
    d.add("word/comments.xml", f'{DECL}<w:comments {ns}><w:comment w:id="0" w:author="Jane {s}" '
          f'w:date="2024-01-02T03:04:05Z" w:initials="JQ">{_p(_r("Looks fine."))}</w:comment></w:comments>',
          f"{CT}wordprocessingml.comments+xml", f"{RT}comments")
    d.body(_p('<w:commentRangeStart w:id="0"/>' + _r("Commented") + '<w:commentRangeEnd w:id="0"/>'
              '<w:r><w:commentReference w:id="0"/></w:r>'))


PLACES = {  # place -> (builder, the part the answer lists)
    "table_alt_text": (table_alt_text, "word/document.xml"),
    "form_field_name": (form_field_name, "word/document.xml"),
    "document_variable": (document_variable, "word/settings.xml"),
    "hyperlink_anchor": (hyperlink_anchor, "word/document.xml"),
    "dropdown": (dropdown, "word/document.xml"),
    "building_block": (building_block, "word/glossary/document.xml"),
    "style_name": (style_name, "word/styles.xml"),
    "numbering_text": (numbering_text, "word/numbering.xml"),
    "workbook_sheet": (workbook_sheet, EMBEDDED),
    "xml_comment": (xml_comment, "word/styles.xml"),
    "comment_initials": (comment_initials, "word/comments.xml"),
}


def build(path: Path, place: str, secret: str, **options) -> Path:
    d = Parts()
    d.body(_p(_r("Opening words stay.")))
    PLACES[place][0](d, secret, **options)
    return d.write(path)
