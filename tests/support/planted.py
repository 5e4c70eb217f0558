"""Documents with a secret planted in every place a package holds text (issue 24's planted-secret suite).

``build(path, secret)`` writes a .docx holding ``secret`` in the body (whole, split across runs in
several ways, upper and lower case), a table, tracked insertions and deletions, a text box and its VML
fallback, alt text, field instructions and results (a TOC among them), a hyperlink's target and
tooltip, a bookmark's name, math, a content control, a header with a watermark, a footer, foot- and
endnotes, comments with a reply, document properties (core, app, custom), custom XML, the glossary,
and a chart's caches (series and category names, a number format, a number
that is the secret when it is digits) and its embedded workbook. ``PLACES`` names each place, for messages.
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

from tests.builders import png

NS = ('xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
      'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
      'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
      'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" '
      'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" '
      'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
      'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
      'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math" '
      'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
      'xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml" '
      'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="w14 w15"')
DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
CT = "application/vnd.openxmlformats-officedocument."
REV = 'w:author="Reviewer" w:date="2024-01-02T03:04:05Z"'
KEPT = ["Opening words stay.", "Closing words stay.", "Cell text stays.", "Header stays.", "Footer stays.",
        "Note stays.", "Comment stays."]  # text that must read the same after redaction


def _r(text: str, rpr: str = "") -> str:
    return f'<w:r>{rpr}<w:t xml:space="preserve">{text}</w:t></w:r>'


def _split(s: str, cuts: list[int], rprs: tuple[str, ...] = ("", "<w:rPr><w:b/></w:rPr>", "<w:rPr><w:i/></w:rPr>")) -> str:
    bounds = [0, *cuts, len(s)]
    return "".join(_r(s[a:b], rprs[i % len(rprs)]) for i, (a, b) in enumerate(zip(bounds, bounds[1:])))


def _p(inner: str) -> str:
    return f"<w:p>{inner}</w:p>"


def body(s: str) -> str:
    half = len(s) // 2
    up, low = s.upper(), s.lower()
    each = "".join(_r(ch) for ch in s)  # one run per character
    return "".join([
        _p(_r(KEPT[0])),
        _p(_r(f"Plain {s} here.")),
        _p(_r("Split ") + _split(s, [half]) + _r(" across two runs.")),
        _p(each),
        _p(_r(up) + _r(" and ") + _r(low)),
        _p(_split(s, [1]) + '<w:bookmarkStart w:id="5" w:name="mark"/>' + '<w:proofErr w:type="spellStart"/>'
           + _split(s, [len(s) - 1]) + '<w:proofErr w:type="spellEnd"/><w:bookmarkEnd w:id="5"/>'),
        _p(f'<w:bookmarkStart w:id="6" w:name="{s}"/>' + _r("Bookmarked") + '<w:bookmarkEnd w:id="6"/>'),
        _p(f'<w:ins w:id="10" {REV}>{_r(s[:half])}</w:ins><w:ins w:id="11" {REV}>{_r(s[half:])}</w:ins>'),
        _p(_r("Deleted: ") + f'<w:del w:id="12" {REV}><w:r><w:delText>{s[:half]}</w:delText></w:r>'
           f'<w:r><w:rPr><w:b/></w:rPr><w:delText>{s[half:]}</w:delText></w:r></w:del>'),
        _p(f'<w:hyperlink r:id="rIdLink" w:tooltip="Visit {s}">{_r(f"Link to {s}")}</w:hyperlink>'),
        _p('<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
           f'<w:r><w:instrText xml:space="preserve"> HYPERLINK "https://{low}.example.com/" \\o "</w:instrText></w:r>'
           f'<w:r><w:instrText xml:space="preserve">{s[:half]}</w:instrText></w:r>'
           f'<w:r><w:instrText xml:space="preserve">{s[half:]}" </w:instrText></w:r>'
           '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + _split(s, [2]) + '<w:r><w:fldChar w:fldCharType="end"/></w:r>'),
        _p(f'<w:fldSimple w:instr=" QUOTE &quot;{s}&quot; ">{_r(s)}</w:fldSimple>'),
        '<w:p><w:pPr><w:pStyle w:val="TOC1"/></w:pPr><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
        '<w:r><w:instrText xml:space="preserve"> TOC \\o "1-3" \\h </w:instrText></w:r>'
        f'<w:r><w:fldChar w:fldCharType="separate"/></w:r>{_r(f"Chapter on {s}")}<w:r><w:tab/></w:r>{_r("1")}'
        '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>',
        _p(f'<m:oMath><m:r><m:t>{s}</m:t></m:r></m:oMath>'),
        f'<w:sdt><w:sdtPr><w:alias w:val="{s} field"/><w:tag w:val="client"/><w:id w:val="77"/>'
        '<w:dataBinding w:xpath="/data[1]/client[1]" w:storeItemID="{11111111-2222-3333-4444-555555555555}"/>'
        f'<w:text/></w:sdtPr><w:sdtContent>{_p(_r(s))}</w:sdtContent></w:sdt>',
        '<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/>'
        f'<w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:tc>{_p(_r(KEPT[2]))}</w:tc><w:tc>{_p(_split(s, [3]))}</w:tc>'
        '</w:tr></w:tbl>',
        _p(_r("Box: ") + _text_box(s)),
        _p(_r("Picture: ") + _picture(s)),
        _p(_r("Chart: ") + _chart_ref(s)),
        _p(_r("Note") + '<w:r><w:footnoteReference w:id="1"/></w:r>' + _r("End") + '<w:r><w:endnoteReference w:id="1"/></w:r>'),
        _p('<w:commentRangeStart w:id="0"/>' + _r("Commented") + '<w:commentRangeEnd w:id="0"/>'
           '<w:r><w:commentReference w:id="0"/></w:r><w:r><w:commentReference w:id="1"/></w:r>'),
        _p(_r("Visible ") + '<w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden words</w:t></w:r>'),
        _p(_r(KEPT[1])),
    ])


def _text_box(s: str) -> str:
    half = len(s) // 2
    return ('<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor distT="0" distB="0" '
            'distL="114300" distR="114300" simplePos="0" relativeHeight="2" behindDoc="0" locked="0" layoutInCell="1" '
            'allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0'
            '</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset>'
            '</wp:positionV><wp:extent cx="1828800" cy="457200"/><wp:effectExtent l="0" t="0" r="0" b="0"/>'
            f'<wp:wrapSquare wrapText="bothSides"/><wp:docPr id="2" name="Text Box 2" descr="Box about {s}"/>'
            '<wp:cNvGraphicFramePr/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/'
            'wordprocessingShape"><wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr><a:xfrm><a:off x="0" y="0"/>'
            '<a:ext cx="1828800" cy="457200"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>'
            f'<wps:txbx><w:txbxContent>{_p(_split(s, [half]))}</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp>'
            '</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict>'
            f'<v:shape id="tb2" style="width:144pt;height:36pt" alt="Alt {s}"><v:textbox><w:txbxContent>'
            f'{_p(_split(s, [3]))}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>')


def _picture(s: str) -> str:
    return ('<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="952500" cy="476250"/>'
            f'<wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="1" name="Picture 1" descr="Photo of {s}" '
            f'title="{s.upper()} portrait"/><wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect="1"/>'
            '</wp:cNvGraphicFramePr><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/'
            f'picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="image1.png" descr="{s}"/><pic:cNvPicPr/>'
            '</pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>'
            '<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" cy="476250"/></a:xfrm><a:prstGeom prst="rect">'
            '<a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>')


def _chart_ref(s: str) -> str:
    return ('<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="3000000" cy="2000000"/>'
            f'<wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="3" name="Chart 3" title="Chart of {s}"/>'
            '<wp:cNvGraphicFramePr/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/'
            'chart"><c:chart r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>')


def chart(s: str) -> str:
    half = len(s) // 2
    return (f'{DECL}<c:chartSpace {NS}><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Sales of '
            f'{s[:half]}</a:t></a:r><a:r><a:rPr b="1"/><a:t>{s[half:]}</a:t></a:r></a:p></c:rich></c:tx>'
            '<c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/><c:plotArea><c:layout/><c:barChart>'
            '<c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/><c:ser><c:idx val="0"/>'
            '<c:order val="0"/><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0">'
            f'<c:v>{s} series</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:f>Sheet1!$A$2:$A$3</c:f>'
            f'<c:strCache><c:ptCount val="2"/><c:pt idx="0"><c:v>{s.lower()}</c:v></c:pt><c:pt idx="1"><c:v>Other'
            '</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:f>Sheet1!$B$2:$B$4</c:f><c:numCache>'
            f'<c:formatCode>"{s} "General</c:formatCode><c:ptCount val="3"/><c:pt idx="0"><c:v>4</c:v></c:pt>'
            f'<c:pt idx="1" formatCode="0 &quot;{s.upper()}&quot;"><c:v>5</c:v></c:pt><c:pt idx="2"><c:v>{_number(s)}'
            '</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser><c:axId val="1"/><c:axId val="2"/>'
            '</c:barChart><c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling>'
            '<c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/>'
            '<c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/>'
            '<c:crossAx val="1"/></c:valAx></c:plotArea><c:plotVisOnly val="1"/></c:chart>'
            '<c:externalData r:id="rId1"><c:autoUpdate val="0"/></c:externalData></c:chartSpace>')


def _number(s: str) -> str:
    """A secret made of digits is itself a cached chart value (an account number in a chart); others give 6."""
    return s if s.isdigit() else "6"


def workbook(s: str) -> bytes:
    x = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    half = len(s) // 2
    parts = {
        "[Content_Types].xml": f'{DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        'spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.'
        'openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
        "_rels/.rels": f'{DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rId1" Type="{RT}officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'{DECL}<workbook {x} xmlns:r="{RT[:-1]}"><sheets><sheet name="Sheet1" sheetId="1" '
        'r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": f'{DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
        f'relationships"><Relationship Id="rId1" Type="{RT}worksheet" Target="worksheets/sheet1.xml"/>'
        f'<Relationship Id="rId2" Type="{RT}sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": f'{DECL}<worksheet {x}><sheetData><row r="1"><c r="B1" t="s"><v>0</v></c></row>'
        '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2"><v>4</v></c></row><row r="3"><c r="A3" t="inlineStr">'
        f'<is><t>{s} inline</t></is></c><c r="B3"><v>5</v></c></row></sheetData></worksheet>',
        "xl/sharedStrings.xml": f'{DECL}<sst {x} count="2" uniqueCount="2"><si><t>{s} series</t></si><si><r><t>'
        f'{s[:half]}</t></r><r><rPr><b/></rPr><t>{s[half:]}</t></r></si></sst>',
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return buf.getvalue()


def story(root: str, inner: str) -> str:
    return f"{DECL}<{root} {NS}>{inner}</{root}>"


def notes(kind: str, s: str) -> str:
    return story(f"w:{kind}s", f'<w:{kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{kind}>'
                 f'<w:{kind} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r>'
                 f'</w:p></w:{kind}><w:{kind} w:id="1"><w:p><w:r><w:{kind}Ref/></w:r>{_r(" " + KEPT[5] + " ")}'
                 f'{_split(s, [2, 4])}</w:p></w:{kind}>')


def parts_of(s: str) -> dict[str, str | bytes]:
    half = len(s) // 2
    ct_over = {
        "word/document.xml": "wordprocessingml.document.main+xml", "word/styles.xml": "wordprocessingml.styles+xml",
        "word/settings.xml": "wordprocessingml.settings+xml", "word/header1.xml": "wordprocessingml.header+xml",
        "word/footer1.xml": "wordprocessingml.footer+xml", "word/footnotes.xml": "wordprocessingml.footnotes+xml",
        "word/endnotes.xml": "wordprocessingml.endnotes+xml", "word/comments.xml": "wordprocessingml.comments+xml",
        "word/commentsExtended.xml": "wordprocessingml.commentsExtended+xml",
        "word/people.xml": "wordprocessingml.people+xml", "word/charts/chart1.xml": "drawingml.chart+xml",
        "word/glossary/document.xml": "wordprocessingml.document.glossary+xml",
        "docProps/app.xml": "extended-properties+xml", "docProps/custom.xml": "custom-properties+xml",
        "customXml/itemProps1.xml": "customXmlProperties+xml"}
    types = ("".join(f'<Override PartName="/{n}" ContentType="{CT}{t}"/>' for n, t in ct_over.items())
             + '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.'
             'core-properties+xml"/>')
    rel = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"'
    doc_rels = [("rId1", "styles", "styles.xml"), ("rId2", "settings", "settings.xml"), ("rIdH", "header", "header1.xml"),
                ("rIdF", "footer", "footer1.xml"), ("rIdFn", "footnotes", "footnotes.xml"),
                ("rIdEn", "endnotes", "endnotes.xml"), ("rIdC", "comments", "comments.xml"),
                ("rIdImg", "image", "media/image1.png"), ("rIdChart", "chart", "charts/chart1.xml"),
                ("rIdG", "glossaryDocument", "glossary/document.xml"), ("rIdX", "customXml", "../customXml/item1.xml")]
    ms = "http://schemas.microsoft.com/office/2011/relationships/"
    rels_xml = "".join(f'<Relationship Id="{i}" Type="{RT}{t}" Target="{tg}"/>' for i, t, tg in doc_rels)
    rels_xml += (f'<Relationship Id="rIdCx" Type="{ms}commentsExtended" Target="commentsExtended.xml"/>'
                 f'<Relationship Id="rIdP" Type="{ms}people" Target="people.xml"/>'
                 f'<Relationship Id="rIdLink" Type="{RT}hyperlink" Target="https://example.com/{s}" TargetMode="External"/>')
    sect = ('<w:sectPr><w:headerReference w:type="default" r:id="rIdH"/><w:footerReference w:type="default" r:id="rIdF"/>'
            '<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" '
            'w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>')
    from ooxml.opc.template import new_package_parts
    base = new_package_parts()
    return {
        "[Content_Types].xml": f'{DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>'
        '<Default Extension="xlsx" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"/>'
        f'{types}</Types>',
        "_rels/.rels": f'{DECL}<Relationships {rel}><Relationship Id="rId1" Type="{RT}officeDocument" '
        'Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/'
        'relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId3" '
        f'Type="{RT}extended-properties" Target="docProps/app.xml"/><Relationship Id="rId4" '
        f'Type="{RT}custom-properties" Target="docProps/custom.xml"/></Relationships>',
        "word/document.xml": f'{DECL}<w:document {NS}><w:body>{body(s)}{sect}</w:body></w:document>',
        "word/_rels/document.xml.rels": f"{DECL}<Relationships {rel}>{rels_xml}</Relationships>",
        "word/styles.xml": base["word/styles.xml"],
        "word/settings.xml": story("w:settings", '<w:attachedTemplate r:id="rIdT"/><w:rsids><w:rsidRoot w:val="00A1B2C3"/>'
                                   '<w:rsid w:val="00A1B2C3"/></w:rsids>'),
        "word/_rels/settings.xml.rels": f'{DECL}<Relationships {rel}><Relationship Id="rIdT" '
        f'Type="{RT}attachedTemplate" Target="file:///C:/Users/{s}/Templates/Normal.dotm" TargetMode="External"/>'
        '</Relationships>',
        "word/header1.xml": story("w:hdr", _p(_r(KEPT[3])) + _p(_split(s, [half])) + _p(
            '<w:r><w:pict><v:shape id="WaterMark1" style="position:absolute;width:400pt;height:100pt" '
            f'fillcolor="silver" stroked="f"><v:textpath style="font-family:&quot;Calibri&quot;" string="{s}"/>'
            '</v:shape></w:pict></w:r>')),
        "word/footer1.xml": story("w:ftr", _p(_r(KEPT[4])) + _p(_r(f"Footer {s.upper()}"))),
        "word/footnotes.xml": notes("footnote", s),
        "word/endnotes.xml": notes("endnote", s),
        "word/comments.xml": story("w:comments", f'<w:comment w:id="0" {REV} w:initials="R"><w:p w14:paraId="11111111" '
                                   f'w14:textId="77777777">{_r(KEPT[6] + " ")}{_split(s, [half])}</w:p></w:comment>'
                                   f'<w:comment w:id="1" {REV} w:initials="R"><w:p w14:paraId="22222222" '
                                   f'w14:textId="77777778">{_r(f"Reply about {s}")}</w:p></w:comment>'),
        "word/commentsExtended.xml": story("w15:commentsEx", '<w15:commentEx w15:paraId="11111111" w15:done="0"/>'
                                           '<w15:commentEx w15:paraId="22222222" w15:paraIdParent="11111111" w15:done="0"/>'),
        "word/people.xml": story("w15:people", '<w15:person w15:author="Reviewer"><w15:presenceInfo '
                                 'w15:providerId="None" w15:userId="Reviewer"/></w15:person>'),
        "word/media/image1.png": b"",  # filled by build()
        "word/charts/chart1.xml": chart(s),
        "word/charts/_rels/chart1.xml.rels": f'{DECL}<Relationships {rel}><Relationship Id="rId1" '
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/package" '
        'Target="../embeddings/Microsoft_Excel_Worksheet.xlsx"/></Relationships>',
        "word/embeddings/Microsoft_Excel_Worksheet.xlsx": workbook(s),
        "word/glossary/document.xml": f'{DECL}<w:glossaryDocument {NS}><w:docParts><w:docPart><w:docPartPr>'
        '<w:name w:val="Entry"/><w:category><w:name w:val="General"/><w:gallery w:val="placeholder"/></w:category>'
        '<w:behaviors><w:behavior w:val="content"/></w:behaviors><w:guid w:val="{AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE}"/>'
        f'</w:docPartPr><w:docPartBody>{_p(_split(s, [half]))}</w:docPartBody></w:docPart></w:docParts>'
        '</w:glossaryDocument>',
        "customXml/item1.xml": f'{DECL}<data><client>{s}</client><note kind="{s}">About {s.lower()}</note></data>',
        "customXml/itemProps1.xml": f'{DECL}<ds:datastoreItem ds:itemID="{{11111111-2222-3333-4444-555555555555}}" '
        'xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"><ds:schemaRefs/></ds:datastoreItem>',
        "customXml/_rels/item1.xml.rels": f'{DECL}<Relationships {rel}><Relationship Id="rId1" '
        f'Type="{RT}customXmlProps" Target="itemProps1.xml"/></Relationships>',
        "docProps/core.xml": f'{DECL}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/'
        'metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/'
        'terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>Report on '
        f'{s}</dc:title><dc:subject>{s.upper()}</dc:subject><dc:creator>Alice Author</dc:creator><cp:keywords>{s}'
        '</cp:keywords><cp:lastModifiedBy>Bob Editor</cp:lastModifiedBy><dcterms:created xsi:type="dcterms:W3CDTF">'
        '2024-01-01T00:00:00Z</dcterms:created></cp:coreProperties>',
        "docProps/app.xml": f'{DECL}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
        'extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
        f'<Template>Normal.dotm</Template><Company>{s} Ltd</Company><Manager>Carol Manager</Manager></Properties>',
        "docProps/custom.xml": f'{DECL}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
        'custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
        '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Client"><vt:lpwstr>'
        f'{s}</vt:lpwstr></property></Properties>',
    }


def build(path: Path, secret: str) -> Path:
    parts = parts_of(secret)
    img = png(path.with_suffix(".png"))
    parts["word/media/image1.png"] = img.read_bytes()
    img.unlink()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return path


# ---- reading a saved package, independently of the product ------------------------------------

_PARAS = {"p", "si", "is"}
_TEXTS = {"t", "delText", "instrText", "delInstrText"}
_BREAKS = {"tab", "br", "cr"}
_OX = "urn:ooxml-mcp:ids:2026"


def members(data: bytes, prefix: str = ""):
    """(place, bytes) of every member of a zip, members of zips inside it included."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for info in z.infolist():
            body = z.read(info)
            place = prefix + info.filename
            yield place, body
            if body[:4] == b"PK\x03\x04":
                yield from members(body, place + " > ")


def _local(el) -> str:
    return el.tag.rpartition("}")[2] if isinstance(el.tag, str) else ""


def _own_text(p) -> str:
    """The paragraph's text; a tab or a break reads as one (a word boundary for patterns)."""
    out = []
    for el in p.iter():
        local = _local(el)
        if (local in _TEXTS and el.text) or local in _BREAKS:
            anc = next((a for a in el.iterancestors() if _local(a) in _PARAS), None)
            if anc is p:
                out.append(el.text if local in _TEXTS else "\t")
    return "".join(out)


def reading(path: Path) -> dict[str, list[str]]:
    """Per XML member: each paragraph's text read across runs, then every attribute value (our IDs
    left out) and every other element text, in document order."""
    from lxml import etree
    out = {}
    for place, body in members(Path(path).read_bytes()):
        if not place.endswith((".xml", ".rels")):
            continue
        root = etree.fromstring(body)
        texts = [_own_text(p) for p in root.iter() if _local(p) in _PARAS]
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue
            texts += [f"{k}={v}" for k, v in sorted(el.attrib.items()) if not k.startswith("{" + _OX)]
            if el.text and _local(el) not in _TEXTS and el.text.strip():
                texts.append(el.text)
        out[place] = texts
    return out


def leaks(path: Path, regex) -> list[str]:
    """Places of the saved package still holding a match: bytes (entities resolved) or text read across runs."""
    import html
    found = []
    for place, body in members(Path(path).read_bytes()):
        raw = html.unescape(body.decode("utf-8", "ignore"))
        if regex.search(raw) or regex.search(body.decode("utf-16-le", "ignore")):
            found.append(place)
        elif place.endswith(".xml") and any(regex.search(t) for t in reading_of_bytes(body)):
            found.append(place + " (across runs)")
    return found


def reading_of_bytes(body: bytes) -> list[str]:
    from lxml import etree
    root = etree.fromstring(body)
    return [_own_text(p) for p in root.iter() if _local(p) in _PARAS]


# ---- a secret planted into a real file, where it already has each kind of place -------------------

_WNS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_STORIES = ("word/document.xml", "word/header", "word/footer", "word/footnotes.xml", "word/endnotes.xml",
            "word/comments.xml", "word/glossary/document.xml")
EACH = 3  # places of one kind planted per part


def _variants(s: str) -> list[str]:
    """The secret as several runs in several ways: halves, first letter apart, a run per letter; three cases."""
    cuts = ([len(s) // 2], [1], list(range(1, len(s))))
    return [_split(" " + v, [c + 1 for c in cut]) for v, cut in zip((s, s.upper(), s.lower()), cuts)]


def _runs(xml: str):
    from lxml import etree
    return list(etree.fromstring(f'<w:p xmlns:w="{_WNS}">{xml}</w:p>'))


def _plant_story(root, s: str, counter: list[int]) -> None:
    w = f"{{{_WNS}}}"
    variants = _variants(s)

    def into(p) -> None:
        p.extend(_runs(variants[counter[0] % len(variants)]))
        counter[0] += 1

    targets = [next(box.iter(f"{w}p"), None) for box in list(root.iter(f"{w}txbxContent"))[:2 * EACH]]
    targets += [next(tbl.iter(f"{w}p"), None) for tbl in list(root.iter(f"{w}tbl"))[:EACH]]
    paras = [p for p in root.iter(f"{w}p") if p.find(f"{w}r") is not None]
    targets += paras[-1:]  # the last paragraph with text: in a header, a note, a comment too
    for p in dict.fromkeys(t for t in targets if t is not None):
        into(p)
    for d in [d for d in root.iter(f"{w}del") if d.find(f"{w}r") is not None][:EACH]:  # not a mark's w:del
        d.extend(_runs(_split(s, [len(s) // 2]).replace("<w:t ", "<w:delText ").replace("</w:t>", "</w:delText>")))
    for el in list(root.iter("{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}docPr"))[:EACH]:
        el.set("descr", f"{el.get('descr', '')} {s}".strip())
    for el in list(root.iter(f"{w}hyperlink"))[:EACH]:
        el.set(f"{w}tooltip", f"About {s.lower()}")


def _plant_data(root, s: str) -> None:
    """Document properties, custom XML, a chart: the first few elements holding text get the secret."""
    leaves = [el for el in root.iter() if isinstance(el.tag, str) and len(el) == 0 and _words(el.text or "")]
    for el in leaves[:EACH]:
        el.text = f"{el.text} {s}"


def _words(text: str) -> bool:
    """Text of words, not a typed value (a number, a date, a boolean) the schema would refuse with more."""
    t = text.strip()
    return any(c.isalpha() for c in t) and t.lower() not in ("true", "false") and not t[:1].isdigit()


def into_corpus(src: Path, dst: Path, secret: str) -> Path:
    """``src`` with ``secret`` added where the file already has each kind of place: text boxes (both
    copies), tables, the last paragraph of each story (body, headers, footers, notes, comments, glossary),
    deleted text, alt text, hyperlink tooltips, properties, custom XML and charts. Nothing else changes."""
    from lxml import etree
    counter = [0]
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            name = info.filename
            story = name.startswith(_STORIES) and name.endswith(".xml") and "/_rels/" not in name
            data_part = name.startswith(("docProps/", "customXml/item", "word/charts/chart")) and \
                name.endswith(".xml") and "itemProps" not in name and "/_rels/" not in name
            if story or data_part:
                root = etree.fromstring(data)
                _plant_story(root, secret, counter) if story else _plant_data(root, secret)
                data = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
            zout.writestr(info, data)
    return dst
