"""Benchmark fixtures: realistic .docx files of 50 to 50,000 paragraphs, built with lxml directly.

python-docx needs minutes to build a 50,000-paragraph document (``add_paragraph`` slows on long
bodies), so the main part is built here as an lxml tree and written with ``zipfile``. The result
looks like a file Word wrote: a root declaring Word's namespaces with ``mc:Ignorable``,
``w14:paraId``/``w14:textId`` and ``w:rsid*`` attributes on every paragraph, headings, bold and
italic runs, a 4x3 table every 50 paragraphs, one inline picture, a final ``w:sectPr``; and beside
it styles, settings, font table, web settings, a theme, a PNG and docProps (parts an edit never
touches, which a save must copy as they are).

Files are cached by size and generator version in ``--out`` (default /tmp/ooxml-mcp-bench).

    python tests/bench/gen_docs.py [--sizes 50,1000,10000,50000] [--out DIR] [--check]

``--check`` opens each file with python-docx and counts its paragraphs and tables.
"""
from __future__ import annotations

import argparse
import os
import random
import struct
import sys
import time
import zipfile
import zlib
from pathlib import Path

from lxml import etree

VERSION = 2  # bump when the generated content changes (invalidates the cache)
DEFAULT_DIR = Path(os.environ.get("OOXML_MCP_BENCH_DIR", "/tmp/ooxml-mcp-bench"))
TABLE_EVERY = 50
SHORT_TABLE_EVERY = 250  # the short-paragraph variant: one run of 8-30 words a paragraph
HEADING_EVERY = 25

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from ooxml.xml.namespaces import A, MC, PIC, R, W, W14, WP, XML as XML_NS  # noqa: E402

# The declarations Word 2016+ writes on w:document (a subset that matters: w14/w15/wp14 are
# named by mc:Ignorable, so they must stay declared).
DOC_NSMAP = {
    "wpc": "http://schemas.microsoft.com/office/word/2010/wordprocessingCanvas",
    "mc": MC,
    "o": "urn:schemas-microsoft-com:office:office",
    "r": R,
    "m": "http://schemas.openxmlformats.org/officeDocument/2006/math",
    "v": "urn:schemas-microsoft-com:vml",
    "wp14": "http://schemas.microsoft.com/office/word/2010/wordprocessingDrawing",
    "wp": WP,
    "w10": "urn:schemas-microsoft-com:office:word",
    "w": W,
    "w14": W14,
    "w15": "http://schemas.microsoft.com/office/word/2012/wordml",
    "wpg": "http://schemas.microsoft.com/office/word/2010/wordprocessingGroup",
    "wps": "http://schemas.microsoft.com/office/word/2010/wordprocessingShape",
}

WORDS = ("the of and to in a is that for it as was with be by on not he this are or his from at which but "
         "have an they you were her she there been one all we their has would when if so no will more "
         "document section report figure analysis results table chapter revenue quarterly customer "
         "contract clause party agreement shall obligations delivery schedule payment terms review "
         "performance budget estimate project milestone requirement specification appendix summary").split()


def w(tag: str) -> str:
    return f"{{{W}}}{tag}"


def _sub(parent, tag: str, attrs: dict | None = None):
    return etree.SubElement(parent, tag, attrs or {})


class _Ids:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[int] = set()
        self.rsids = [f"00{rng.randrange(0x100000, 0xFFFFFF):06X}" for _ in range(12)]

    def para_id(self) -> str:
        while True:
            v = self.rng.randrange(1, 0x7FFFFFFF)
            if v not in self.used:
                self.used.add(v)
                return f"{v:08X}"

    def rsid(self) -> str:
        return self.rng.choice(self.rsids)


def _text(rng: random.Random, lo: int, hi: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def _run(p, text: str, ids: _Ids, bold=False, italic=False):
    r = _sub(p, w("r"), {w("rsidR"): ids.rsid()})
    if bold or italic:
        rpr = _sub(r, w("rPr"))
        if bold:
            _sub(rpr, w("b"))
            _sub(rpr, w("bCs"))
        if italic:
            _sub(rpr, w("i"))
            _sub(rpr, w("iCs"))
    t = _sub(r, w("t"))
    t.text = text
    if text != text.strip():
        t.set(f"{{{XML_NS}}}space", "preserve")
    return r


def _paragraph(body, ids: _Ids, style: str | None = None):
    rsid = ids.rsid()
    p = _sub(body, w("p"), {f"{{{W14}}}paraId": ids.para_id(), f"{{{W14}}}textId": "77777777",
                            w("rsidR"): rsid, w("rsidRDefault"): rsid})
    if style:
        ppr = _sub(p, w("pPr"))
        _sub(ppr, w("pStyle"), {w("val"): style})
    return p


def _body_paragraph(body, ids: _Ids, rng: random.Random, n: int):
    p = _paragraph(body, ids, "ListParagraph" if n % 37 == 5 else None)
    runs = rng.randint(2, 4)
    for k in range(runs):
        style = rng.random()
        text = _text(rng, 3, 9) + (" " if k < runs - 1 else ".")
        if k == 0:
            text = text[:1].upper() + text[1:]
        _run(p, text, ids, bold=style < 0.2, italic=0.15 < style < 0.3)


def _heading(body, ids: _Ids, rng: random.Random, n: int):
    level = 1 if n % (HEADING_EVERY * 4) == 0 else 2
    p = _paragraph(body, ids, f"Heading{level}")
    _run(p, f"{n // HEADING_EVERY + 1}. " + _text(rng, 2, 5).title(), ids)


def _table(body, ids: _Ids, rng: random.Random, rows: int = 4, cols: int = 3):
    tbl = _sub(body, w("tbl"))
    tblpr = _sub(tbl, w("tblPr"))
    _sub(tblpr, w("tblStyle"), {w("val"): "TableGrid"})
    _sub(tblpr, w("tblW"), {w("w"): "0", w("type"): "auto"})
    _sub(tblpr, w("tblLook"), {w("val"): "04A0", w("firstRow"): "1", w("lastRow"): "0", w("firstColumn"): "1",
                               w("lastColumn"): "0", w("noHBand"): "0", w("noVBand"): "1"})
    grid = _sub(tbl, w("tblGrid"))
    for _ in range(cols):
        _sub(grid, w("gridCol"), {w("w"): str(9360 // cols)})
    for r in range(rows):
        tr = _sub(tbl, w("tr"), {w("rsidR"): ids.rsid(), w("rsidTr"): ids.rsid()})
        for _ in range(cols):
            tc = _sub(tr, w("tc"))
            tcpr = _sub(tc, w("tcPr"))
            _sub(tcpr, w("tcW"), {w("w"): str(9360 // cols), w("type"): "dxa"})
            p = _paragraph(tc, ids)
            _run(p, _text(rng, 1, 3).capitalize() if r == 0 else f"{rng.randint(1, 99999):,}", ids, bold=r == 0)
    return tbl


def _picture(body, ids: _Ids, rel_id: str, cx=1828800, cy=1371600):
    p = _paragraph(body, ids)
    r = _sub(p, w("r"))
    drawing = _sub(r, w("drawing"))
    inline = _sub(drawing, f"{{{WP}}}inline", {"distT": "0", "distB": "0", "distL": "0", "distR": "0"})
    _sub(inline, f"{{{WP}}}extent", {"cx": str(cx), "cy": str(cy)})
    _sub(inline, f"{{{WP}}}effectExtent", {"l": "0", "t": "0", "r": "0", "b": "0"})
    _sub(inline, f"{{{WP}}}docPr", {"id": "1", "name": "Picture 1", "descr": "chart.png"})
    nv = _sub(inline, f"{{{WP}}}cNvGraphicFramePr")
    _sub(nv, f"{{{A}}}graphicFrameLocks", {"noChangeAspect": "1"})
    graphic = etree.SubElement(inline, f"{{{A}}}graphic", nsmap={"a": A})
    gdata = _sub(graphic, f"{{{A}}}graphicData", {"uri": PIC})
    pic = etree.SubElement(gdata, f"{{{PIC}}}pic", nsmap={"pic": PIC})
    nvpic = _sub(pic, f"{{{PIC}}}nvPicPr")
    _sub(nvpic, f"{{{PIC}}}cNvPr", {"id": "0", "name": "chart.png"})
    _sub(nvpic, f"{{{PIC}}}cNvPicPr")
    fill = _sub(pic, f"{{{PIC}}}blipFill")
    _sub(fill, f"{{{A}}}blip", {f"{{{R}}}embed": rel_id})
    stretch = _sub(fill, f"{{{A}}}stretch")
    _sub(stretch, f"{{{A}}}fillRect")
    sppr = _sub(pic, f"{{{PIC}}}spPr")
    xfrm = _sub(sppr, f"{{{A}}}xfrm")
    _sub(xfrm, f"{{{A}}}off", {"x": "0", "y": "0"})
    _sub(xfrm, f"{{{A}}}ext", {"cx": str(cx), "cy": str(cy)})
    geom = _sub(sppr, f"{{{A}}}prstGeom", {"prst": "rect"})
    _sub(geom, f"{{{A}}}avLst")


def document_xml(n_paragraphs: int, seed: int = 2026, short: bool = False) -> bytes:
    """The main part: ``n_paragraphs`` body paragraphs plus a table every TABLE_EVERY of them.
    ``short``: each paragraph one run of 8-30 words, a table every SHORT_TABLE_EVERY, no headings (a
    document whose per-element work weighs more against its parse)."""
    rng = random.Random(seed + n_paragraphs)
    ids = _Ids(rng)
    root = etree.Element(w("document"), nsmap=DOC_NSMAP)
    root.set(f"{{{MC}}}Ignorable", "w14 w15 wp14")
    body = _sub(root, w("body"))
    every = SHORT_TABLE_EVERY if short else TABLE_EVERY
    for n in range(n_paragraphs):
        if n == 2:
            _picture(body, ids, "rId8")
        elif short:
            text = _text(rng, 8, 30) + "."
            _run(_paragraph(body, ids), text[:1].upper() + text[1:], ids)
        elif n % HEADING_EVERY == 0:
            _heading(body, ids, rng, n)
        else:
            _body_paragraph(body, ids, rng, n)
        if n % every == every // 2 - 1 and n < n_paragraphs - 1:
            _table(body, ids, rng)
    sect = _sub(body, w("sectPr"), {w("rsidR"): ids.rsids[0]})
    _sub(sect, w("pgSz"), {w("w"): "12240", w("h"): "15840"})
    _sub(sect, w("pgMar"), {w("top"): "1440", w("right"): "1440", w("bottom"): "1440", w("left"): "1440",
                            w("header"): "720", w("footer"): "720", w("gutter"): "0"})
    _sub(sect, w("cols"), {w("space"): "720"})
    _sub(sect, w("docGrid"), {w("linePitch"): "360"})
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


# ---- the other parts ----------------------------------------------------------------------------

_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

CONTENT_TYPES = _DECL + """<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
<Default Extension="png" ContentType="image/png"/>\
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
<Default Extension="xml" ContentType="application/xml"/>\
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>\
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>\
<Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/>\
<Override PartName="/word/webSettings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.webSettings+xml"/>\
<Override PartName="/word/fontTable.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.fontTable+xml"/>\
<Override PartName="/word/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>\
<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>\
<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>\
</Types>"""

_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELS = _DECL + f"""<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
<Relationship Id="rId3" Type="{_RT}/extended-properties" Target="docProps/app.xml"/>\
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>\
<Relationship Id="rId1" Type="{_RT}/officeDocument" Target="word/document.xml"/>\
</Relationships>"""

DOCUMENT_RELS = _DECL + f"""<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
<Relationship Id="rId8" Type="{_RT}/image" Target="media/image1.png"/>\
<Relationship Id="rId3" Type="{_RT}/webSettings" Target="webSettings.xml"/>\
<Relationship Id="rId7" Type="{_RT}/theme" Target="theme/theme1.xml"/>\
<Relationship Id="rId2" Type="{_RT}/settings" Target="settings.xml"/>\
<Relationship Id="rId1" Type="{_RT}/styles" Target="styles.xml"/>\
<Relationship Id="rId6" Type="{_RT}/fontTable" Target="fontTable.xml"/>\
</Relationships>"""


def styles_xml() -> bytes:
    ns = f'xmlns:mc="{MC}" xmlns:r="{R}" xmlns:w="{W}" xmlns:w14="{W14}" mc:Ignorable="w14"'
    rpr_default = ('<w:rPr><w:rFonts w:asciiTheme="minorHAnsi" w:eastAsiaTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi" '
                   'w:cstheme="minorBidi"/><w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="en-US" '
                   'w:eastAsia="en-US" w:bidi="ar-SA"/></w:rPr>')
    styles = [
        '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>',
        '<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/>'
        '<w:uiPriority w:val="1"/><w:semiHidden/><w:unhideWhenUsed/></w:style>',
        '<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:uiPriority w:val="99"/>'
        '<w:semiHidden/><w:unhideWhenUsed/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/>'
        '<w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar>'
        '</w:tblPr></w:style>',
        '<w:style w:type="numbering" w:default="1" w:styleId="NoList"><w:name w:val="No List"/><w:uiPriority w:val="99"/>'
        '<w:semiHidden/><w:unhideWhenUsed/></w:style>',
    ]
    for level, (size, colour) in enumerate([(32, "2F5496"), (26, "2F5496"), (24, "1F3763")], start=1):
        styles.append(
            f'<w:style w:type="paragraph" w:styleId="Heading{level}"><w:name w:val="heading {level}"/>'
            f'<w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:link w:val="Heading{level}Char"/>'
            f'<w:uiPriority w:val="9"/><w:qFormat/><w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="240" '
            f'w:after="0"/><w:outlineLvl w:val="{level - 1}"/></w:pPr><w:rPr><w:rFonts w:asciiTheme="majorHAnsi" '
            f'w:eastAsiaTheme="majorEastAsia" w:hAnsiTheme="majorHAnsi" w:cstheme="majorBidi"/>'
            f'<w:color w:val="{colour}" w:themeColor="accent1" w:themeShade="BF"/><w:sz w:val="{size}"/>'
            f'<w:szCs w:val="{size}"/></w:rPr></w:style>'
            f'<w:style w:type="character" w:customStyle="1" w:styleId="Heading{level}Char"><w:name w:val="Heading {level} Char"/>'
            f'<w:basedOn w:val="DefaultParagraphFont"/><w:link w:val="Heading{level}"/><w:uiPriority w:val="9"/>'
            f'<w:rPr><w:rFonts w:asciiTheme="majorHAnsi" w:eastAsiaTheme="majorEastAsia" w:hAnsiTheme="majorHAnsi" '
            f'w:cstheme="majorBidi"/><w:color w:val="{colour}" w:themeColor="accent1" w:themeShade="BF"/>'
            f'<w:sz w:val="{size}"/><w:szCs w:val="{size}"/></w:rPr></w:style>')
    styles.append('<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/>'
                  '<w:basedOn w:val="Normal"/><w:uiPriority w:val="34"/><w:qFormat/><w:pPr><w:ind w:left="720"/>'
                  '<w:contextualSpacing/></w:pPr></w:style>')
    styles.append('<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/>'
                  '<w:uiPriority w:val="39"/><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'
                  '<w:tblPr><w:tblBorders>' + "".join(
                      f'<w:{side} w:val="single" w:sz="4" w:space="0" w:color="auto"/>'
                      for side in ("top", "left", "bottom", "right", "insideH", "insideV")) +
                  '</w:tblBorders></w:tblPr></w:style>')
    return (_DECL + f'<w:styles {ns}><w:docDefaults><w:rPrDefault>{rpr_default}</w:rPrDefault><w:pPrDefault><w:pPr>'
            '<w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>'
            '<w:latentStyles w:defLockedState="0" w:defUIPriority="99" w:defSemiHidden="0" w:defUnhideWhenUsed="0" '
            'w:defQFormat="0" w:count="376"/>' + "".join(styles) + '</w:styles>').encode()


def settings_xml(rsids: list[str]) -> bytes:
    rs = "".join(f'<w:rsid w:val="{r}"/>' for r in rsids)
    return (_DECL + f'<w:settings xmlns:mc="{MC}" xmlns:w="{W}" xmlns:w14="{W14}" mc:Ignorable="w14">'
            '<w:zoom w:percent="100"/><w:proofState w:spelling="clean" w:grammar="clean"/>'
            '<w:defaultTabStop w:val="720"/><w:characterSpacingControl w:val="doNotCompress"/>'
            f'<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/>'
            f'</w:compat><w:rsids><w:rsidRoot w:val="{rsids[0]}"/>{rs}</w:rsids>'
            '<w:themeFontLang w:val="en-US"/><w:decimalSymbol w:val="."/><w:listSeparator w:val=","/>'
            '<w14:docId w14:val="1A2B3C4D"/></w:settings>').encode()


def font_table_xml() -> bytes:
    fonts = "".join(f'<w:font w:name="{name}"><w:panose1 w:val="{panose}"/><w:charset w:val="00"/>'
                    f'<w:family w:val="{family}"/><w:pitch w:val="variable"/></w:font>'
                    for name, panose, family in [("Calibri", "020F0502020204030204", "swiss"),
                                                 ("Times New Roman", "02020603050405020304", "roman"),
                                                 ("Calibri Light", "020F0302020204030204", "swiss")])
    return (_DECL + f'<w:fonts xmlns:w="{W}">{fonts}</w:fonts>').encode()


def web_settings_xml() -> bytes:
    return (_DECL + f'<w:webSettings xmlns:w="{W}"><w:optimizeForBrowser/><w:allowPNG/></w:webSettings>').encode()


def theme_xml() -> bytes:
    colours = [("dk1", '<a:sysClr val="windowText" lastClr="000000"/>'),
               ("lt1", '<a:sysClr val="window" lastClr="FFFFFF"/>'),
               ("dk2", '<a:srgbClr val="44546A"/>'), ("lt2", '<a:srgbClr val="E7E6E6"/>'),
               ("accent1", '<a:srgbClr val="4472C4"/>'), ("accent2", '<a:srgbClr val="ED7D31"/>'),
               ("accent3", '<a:srgbClr val="A5A5A5"/>'), ("accent4", '<a:srgbClr val="FFC000"/>'),
               ("accent5", '<a:srgbClr val="5B9BD5"/>'), ("accent6", '<a:srgbClr val="70AD47"/>'),
               ("hlink", '<a:srgbClr val="0563C1"/>'), ("folHlink", '<a:srgbClr val="954F72"/>')]
    clr = "".join(f"<a:{n}>{v}</a:{n}>" for n, v in colours)
    scripts = "".join(f'<a:font script="{s}" typeface="{t}"/>' for s, t in [
        ("Jpan", "游ゴシック"), ("Hang", "맑은 고딕"), ("Hans", "等线"), ("Hant", "新細明體"), ("Arab", "Times New Roman"),
        ("Hebr", "Times New Roman"), ("Thai", "Angsana New"), ("Ethi", "Nyala"), ("Beng", "Vrinda"),
        ("Gujr", "Shruti"), ("Khmr", "MoolBoran"), ("Knda", "Tunga"), ("Guru", "Raavi"), ("Cans", "Euphemia"),
        ("Cher", "Plantagenet Cherokee"), ("Yiii", "Microsoft Yi Baiti"), ("Tibt", "Microsoft Himalaya"),
        ("Thaa", "MV Boli"), ("Deva", "Mangal"), ("Telu", "Gautami"), ("Taml", "Latha"), ("Syrc", "Estrangelo Edessa"),
        ("Orya", "Kalinga"), ("Mlym", "Kartika"), ("Laoo", "DokChampa"), ("Sinh", "Iskoola Pota"),
        ("Mong", "Mongolian Baiti"), ("Viet", "Times New Roman"), ("Uigh", "Microsoft Uighur"), ("Geor", "Sylfaen")])
    fonts = (f'<a:majorFont><a:latin typeface="Calibri Light" panose="020F0302020204030204"/><a:ea typeface=""/>'
             f'<a:cs typeface=""/>{scripts}</a:majorFont><a:minorFont><a:latin typeface="Calibri" '
             f'panose="020F0502020204030204"/><a:ea typeface=""/><a:cs typeface=""/>{scripts}</a:minorFont>')
    fill = ('<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>' +
            ''.join(f'<a:gradFill rotWithShape="1"><a:gsLst><a:gs pos="0"><a:schemeClr val="phClr"><a:lumMod val="{a}"/>'
                    f'<a:satMod val="103000"/><a:tint val="{b}"/></a:schemeClr></a:gs><a:gs pos="50000"><a:schemeClr '
                    f'val="phClr"><a:satMod val="103000"/><a:lumMod val="102000"/><a:tint val="73000"/></a:schemeClr>'
                    f'</a:gs><a:gs pos="100000"><a:schemeClr val="phClr"><a:satMod val="109000"/><a:lumMod val="99000"/>'
                    f'<a:shade val="78000"/></a:schemeClr></a:gs></a:gsLst><a:lin ang="5400000" scaled="0"/></a:gradFill>'
                    for a, b in (("110000", "67000"), ("102000", "94000"))))
    lines = "".join(f'<a:ln w="{wd}" cap="flat" cmpd="sng" algn="ctr"><a:solidFill><a:schemeClr val="phClr"/>'
                    f'</a:solidFill><a:prstDash val="solid"/><a:miter lim="800000"/></a:ln>' for wd in (6350, 12700, 19050))
    effects = '<a:effectStyle><a:effectLst/></a:effectStyle>' * 3
    fmt = (f'<a:fmtScheme name="Office"><a:fillStyleLst>{fill}</a:fillStyleLst><a:lnStyleLst>{lines}</a:lnStyleLst>'
           f'<a:effectStyleLst>{effects}</a:effectStyleLst><a:bgFillStyleLst>{fill}</a:bgFillStyleLst></a:fmtScheme>')
    return (_DECL + f'<a:theme xmlns:a="{A}" name="Office Theme"><a:themeElements><a:clrScheme name="Office">{clr}'
            f'</a:clrScheme><a:fontScheme name="Office">{fonts}</a:fontScheme>{fmt}</a:themeElements>'
            '<a:objectDefaults/><a:extraClrSchemeLst/></a:theme>').encode("utf-8")


def png_bytes(width: int = 160, height: int = 120, seed: int = 7) -> bytes:
    """A real PNG: a gradient with noise (compresses like a chart screenshot, a few tens of KB)."""
    rng = random.Random(seed)
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        for x in range(width):
            raw += bytes(((x * 255 // width) ^ rng.randrange(32), (y * 255 // height), rng.randrange(256)))
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def core_xml() -> bytes:
    return (_DECL + '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
            'xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
            '<dc:title>Benchmark document</dc:title><dc:creator>ooxml-mcp bench</dc:creator>'
            '<cp:lastModifiedBy>ooxml-mcp bench</cp:lastModifiedBy><cp:revision>3</cp:revision>'
            '<dcterms:created xsi:type="dcterms:W3CDTF">2026-01-05T09:00:00Z</dcterms:created>'
            '<dcterms:modified xsi:type="dcterms:W3CDTF">2026-01-05T10:30:00Z</dcterms:modified>'
            '</cp:coreProperties>').encode()


def app_xml(n: int) -> bytes:
    return (_DECL + '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" '
            'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
            f'<Template>Normal.dotm</Template><TotalTime>42</TotalTime><Pages>{max(1, n // 30)}</Pages>'
            f'<Paragraphs>{n}</Paragraphs><Application>Microsoft Office Word</Application><DocSecurity>0</DocSecurity>'
            '<AppVersion>16.0000</AppVersion></Properties>').encode()


def build_docx(path: Path, n_paragraphs: int, short: bool = False) -> None:
    main = document_xml(n_paragraphs, short=short)
    rsids = sorted(set(_Ids(random.Random(2026 + n_paragraphs)).rsids))
    parts = [
        ("[Content_Types].xml", CONTENT_TYPES.encode()),
        ("_rels/.rels", PACKAGE_RELS.encode()),
        ("word/document.xml", main),
        ("word/_rels/document.xml.rels", DOCUMENT_RELS.encode()),
        ("word/styles.xml", styles_xml()),
        ("word/settings.xml", settings_xml(rsids)),
        ("word/webSettings.xml", web_settings_xml()),
        ("word/fontTable.xml", font_table_xml()),
        ("word/theme/theme1.xml", theme_xml()),
        ("word/media/image1.png", png_bytes()),
        ("docProps/core.xml", core_xml()),
        ("docProps/app.xml", app_xml(n_paragraphs)),
    ]
    tmp = path.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    os.replace(tmp, path)


def doc_path(n: int, out: Path = DEFAULT_DIR, short: bool = False) -> Path:
    return out / f"bench_{n}p{'_short' if short else ''}_v{VERSION}.docx"


def ensure_docs(sizes: list[int], out: Path = DEFAULT_DIR, log=print, short: bool = False) -> dict[int, Path]:
    """The fixture for each size, generated if it is not cached yet (``short``: see document_xml)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for n in sizes:
        path = doc_path(n, out, short)
        if not path.exists():
            t = time.perf_counter()
            build_docx(path, n, short)
            log(f"  generated {path.name}: {path.stat().st_size / 1e6:.2f} MB zip, "
                f"document.xml {main_part_size(path) / 1e6:.2f} MB, in {time.perf_counter() - t:.1f} s")
        paths[n] = path
    return paths


def main_part_size(path: Path) -> int:
    with zipfile.ZipFile(path) as z:
        return z.getinfo("word/document.xml").file_size


def check_with_python_docx(path: Path) -> str:
    import docx
    d = docx.Document(str(path))
    return f"{path.name}: python-docx reads {len(d.paragraphs)} body paragraphs, {len(d.tables)} tables"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="50,1000,10000,50000")
    ap.add_argument("--out", default=str(DEFAULT_DIR))
    ap.add_argument("--check", action="store_true", help="open each file with python-docx")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    paths = ensure_docs(sizes, Path(args.out))
    for n, path in paths.items():
        print(f"{n:>6} paragraphs: {path}  ({path.stat().st_size / 1e6:.2f} MB zip, "
              f"document.xml {main_part_size(path) / 1e6:.2f} MB)")
        if args.check:
            print("        " + check_with_python_docx(path))


if __name__ == "__main__":
    sys.exit(main())
