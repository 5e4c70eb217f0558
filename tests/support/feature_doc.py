"""A small Word feature-test document built in code: a table of contents in its content control,
complex and simple fields (PAGE, REF, XE), footnotes and an endnote, a header with a PAGE field, runs
of mixed formatting and a formatted table. What the corpus's feature-test files hold, without them
(tests/corpus/test_accept_untracked.py)."""
from __future__ import annotations

from pathlib import Path

from tests.builders import SECT, build_docx, part_xml

CT = "application/vnd.openxmlformats-officedocument.wordprocessingml."


def run(text: str, rpr: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


def field(instr: str, result: str, rpr: str = "") -> str:
    """A complex field: begin, instruction, separate, result, end."""
    props = f"<w:rPr>{rpr}</w:rPr>" if rpr else ""
    return (f'<w:r>{props}<w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r>{props}<w:instrText xml:space="preserve"> {instr} </w:instrText></w:r>'
            f'<w:r>{props}<w:fldChar w:fldCharType="separate"/></w:r>{run(result, rpr)}'
            f'<w:r>{props}<w:fldChar w:fldCharType="end"/></w:r>')


def note_ref(kind: str, n: int) -> str:
    style = "FootnoteReference" if kind == "footnote" else "EndnoteReference"
    return f'<w:r><w:rPr><w:rStyle w:val="{style}"/></w:rPr><w:{kind}Reference w:id="{n}"/></w:r>'


def heading(text: str, mark: str) -> str:
    return (f'<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:bookmarkStart w:id="{mark[-1]}" w:name="{mark}"/>'
            f'{run(text)}<w:bookmarkEnd w:id="{mark[-1]}"/></w:p>')


def toc() -> str:
    entry = ('<w:p><w:pPr><w:pStyle w:val="TOC1"/><w:tabs><w:tab w:val="right" w:leader="dot" w:pos="9350"/>'
             '</w:tabs></w:pPr>' + field('TOC \\o "1-3" \\h \\z \\u', "")[:-len('<w:r><w:fldChar w:fldCharType="end"/></w:r>')]
             .replace(run(""), "")
             + '<w:hyperlink w:anchor="_Toc1" w:history="1">' + run("Introduction") + '<w:r><w:tab/></w:r>'
             + field("PAGEREF _Toc1 \\h", "1") + '</w:hyperlink></w:p>')
    end = '<w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
    return ('<w:sdt><w:sdtPr><w:id w:val="7"/><w:docPartObj><w:docPartGallery w:val="Table of Contents"/>'
            '<w:docPartUnique/></w:docPartObj></w:sdtPr><w:sdtContent>'
            '<w:p><w:pPr><w:pStyle w:val="TOCHeading"/></w:pPr>' + run("Contents") + "</w:p>"
            + entry + end + "</w:sdtContent></w:sdt>")


def body() -> str:
    bold, italic, big = "<w:b/>", "<w:i/>", '<w:sz w:val="28"/>'
    cells = "".join(f'<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr><w:p>{run(t, bold)}</w:p></w:tc>'
                    for t in ("Quarter", "Revenue"))
    rows = "".join(f'<w:tr><w:tc><w:p>{run(a, italic)}</w:p></w:tc><w:tc><w:p>{run(b)}</w:p></w:tc></w:tr>'
                   for a, b in (("First", "1,200"), ("Second", "1,350")))
    table = ('<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/>'
             f'<w:gridCol w:w="3000"/></w:tblGrid><w:tr>{cells}</w:tr>{rows}</w:tbl>')
    return "".join([
        toc(),
        heading("Introduction", "_Toc1"),
        "<w:p>" + run("Plain words with ") + run("bold", bold) + run(" and ") + run("italic", italic)
        + run(" styling on page ") + field("PAGE", "1") + run(".") + note_ref("footnote", 1) + "</w:p>",
        "<w:p>" + run("Endnoted paragraph anchors ") + run("a closing note", italic) + note_ref("endnote", 1)
        + '<w:fldSimple w:instr=" XE &quot;Closing&quot; "><w:r><w:t/></w:r></w:fldSimple></w:p>',
        "<w:p>" + run("Chapter one. ", bold) + run("The larger sentence refers to ", big)
        + field("REF _Toc1 \\h", "Introduction", big) + run(" for details.", big) + "</w:p>",
        table,
        "<w:p>" + run("Final remarks close the document.") + "</w:p>",
    ])


def notes(kind: str, text: str) -> bytes:
    return part_xml(f"w:{kind}s",
                    f'<w:{kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{kind}>'
                    f'<w:{kind} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r>'
                    f'</w:p></w:{kind}><w:{kind} w:id="1"><w:p><w:pPr><w:pStyle w:val="{kind.title()}Text"/></w:pPr>'
                    f'<w:r><w:rPr><w:rStyle w:val="{kind.title()}Reference"/></w:rPr><w:{kind}Ref/></w:r>'
                    f'{run(" " + text + " with ")}{run("emphasis", "<w:i/>")}</w:p></w:{kind}>')


def feature_doc(path: Path) -> Path:
    header = part_xml("w:hdr", '<w:p><w:pPr><w:jc w:val="right"/></w:pPr>' + run("Page ") + field("PAGE", "1")
                      + "</w:p>")
    parts = {"word/header1.xml": header, "word/footnotes.xml": notes("footnote", "A footnote"),
             "word/endnotes.xml": notes("endnote", "An endnote")}
    rels = [("rId91", "header", "header1.xml"), ("rId92", "footnotes", "footnotes.xml"),
            ("rId93", "endnotes", "endnotes.xml")]
    overrides = {"word/header1.xml": CT + "header+xml", "word/footnotes.xml": CT + "footnotes+xml",
                 "word/endnotes.xml": CT + "endnotes+xml"}
    sect = SECT.replace("<w:sectPr>", '<w:sectPr><w:headerReference w:type="default" r:id="rId91"/>')
    return build_docx(path, body(), sect=sect, extra_parts=parts, rels=rels, overrides=overrides)
