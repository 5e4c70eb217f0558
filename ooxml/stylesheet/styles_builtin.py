"""THE table of the styles we write: Word's built-ins as Word defines them when it first uses one
(Normal.dotm, Word 2016+), and the two of ours Markdown needs. Every tool that adds a style writes it
from here (headings, TOC, hyperlinks, Markdown, docx_apply_style).

A document lists most built-ins only as *latent* styles (``w:latentStyles``): names Word knows
but has not written out. Applying one makes it real with this definition. Style names match
the way Word matches them: the name case-insensitively, and a built-in's English name or ID.
"""
from __future__ import annotations

from lxml import etree

from ooxml.opc.types import RT
from ooxml.xml.namespaces import W, w
from ooxml.xml.safexml import parse_part

_ACCENT = '<w:color w:val="2F5496" w:themeColor="accent1" w:themeShade="BF"/>'
_DARK = '<w:color w:val="1F3763" w:themeColor="accent1" w:themeShade="7F"/>'
_MAJOR = '<w:rFonts w:asciiTheme="majorHAnsi" w:eastAsiaTheme="majorEastAsia" w:hAnsiTheme="majorHAnsi" w:cstheme="majorBidi"/>'


def _heading(n: int) -> tuple:
    color = _DARK if n in (3, 6, 7) else ('<w:color w:val="272727" w:themeColor="text1" w:themeTint="D8"/>'
                                         if n >= 8 else _ACCENT)
    before = 240 if n == 1 else 40
    italic = "<w:i/><w:iCs/>" if n in (4, 7, 9) else ""
    size = {1: 32, 2: 26, 3: 24, 8: 21, 9: 21}.get(n)
    sz = f'<w:sz w:val="{size}"/><w:szCs w:val="{size}"/>' if size else ""
    return ("paragraph", f"heading {n}", f"Heading{n}", 9,
            f'<w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="{before}" w:after="0"/>'
            f'<w:outlineLvl w:val="{n - 1}"/></w:pPr><w:rPr>{_MAJOR}{italic}{color}{sz}</w:rPr>')


# name -> (type, Word's stored name, ID, uiPriority, properties XML)
BUILTIN: dict[str, tuple] = {
    **{f"heading {n}": _heading(n) for n in range(1, 10)},
    "title": ("paragraph", "Title", "Title", 10,
              '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/><w:contextualSpacing/></w:pPr>'
              f'<w:rPr>{_MAJOR}<w:spacing w:val="-10"/><w:kern w:val="28"/><w:sz w:val="56"/><w:szCs w:val="56"/></w:rPr>'),
    "subtitle": ("paragraph", "Subtitle", "Subtitle", 11,
                 '<w:pPr><w:numPr><w:ilvl w:val="1"/></w:numPr><w:spacing w:after="160"/></w:pPr>'
                 '<w:rPr><w:rFonts w:eastAsiaTheme="minorEastAsia"/><w:color w:val="5A5A5A" w:themeColor="text1" '
                 'w:themeTint="A5"/><w:spacing w:val="15"/><w:sz w:val="22"/><w:szCs w:val="22"/></w:rPr>'),
    "quote": ("paragraph", "Quote", "Quote", 29,
              '<w:pPr><w:spacing w:before="200" w:after="160"/><w:ind w:left="864" w:right="864"/><w:jc w:val="center"/>'
              '</w:pPr><w:rPr><w:i/><w:iCs/><w:color w:val="404040" w:themeColor="text1" w:themeTint="BF"/></w:rPr>'),
    "intense quote": ("paragraph", "Intense Quote", "IntenseQuote", 30,
                      '<w:pPr><w:pBdr><w:top w:val="single" w:sz="4" w:space="10" w:color="4472C4" '
                      'w:themeColor="accent1"/><w:bottom w:val="single" w:sz="4" w:space="10" w:color="4472C4" '
                      'w:themeColor="accent1"/></w:pBdr><w:spacing w:before="360" w:after="360"/>'
                      '<w:ind w:left="864" w:right="864"/><w:jc w:val="center"/></w:pPr>'
                      '<w:rPr><w:i/><w:iCs/><w:color w:val="4472C4" w:themeColor="accent1"/></w:rPr>'),
    "list paragraph": ("paragraph", "List Paragraph", "ListParagraph", 34,
                       '<w:pPr><w:ind w:left="720"/><w:contextualSpacing/></w:pPr>'),
    "list bullet": ("paragraph", "List Bullet", "ListBullet", 99, '<w:pPr><w:contextualSpacing/></w:pPr>'),
    "list number": ("paragraph", "List Number", "ListNumber", 99, '<w:pPr><w:contextualSpacing/></w:pPr>'),
    "no spacing": ("paragraph", "No Spacing", "NoSpacing", 1,
                   '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'),
    "caption": ("paragraph", "caption", "Caption", 35,
                '<w:pPr><w:spacing w:after="200" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:i/><w:iCs/>'
                '<w:color w:val="44546A" w:themeColor="text2"/><w:sz w:val="18"/><w:szCs w:val="18"/></w:rPr>'),
    "strong": ("character", "Strong", "Strong", 22, "<w:rPr><w:b/><w:bCs/></w:rPr>"),
    "emphasis": ("character", "Emphasis", "Emphasis", 20, "<w:rPr><w:i/><w:iCs/></w:rPr>"),
    "subtle emphasis": ("character", "Subtle Emphasis", "SubtleEmphasis", 19,
                        '<w:rPr><w:i/><w:iCs/><w:color w:val="404040" w:themeColor="text1" w:themeTint="BF"/></w:rPr>'),
    "intense emphasis": ("character", "Intense Emphasis", "IntenseEmphasis", 21,
                         '<w:rPr><w:i/><w:iCs/><w:color w:val="4472C4" w:themeColor="accent1"/></w:rPr>'),
    "book title": ("character", "Book Title", "BookTitle", 33,
                   '<w:rPr><w:b/><w:bCs/><w:i/><w:iCs/><w:spacing w:val="5"/></w:rPr>'),
    **{f"toc {n}": ("paragraph", f"toc {n}", f"TOC{n}", 39, '<w:pPr><w:spacing w:after="100"/>'
                    + (f'<w:ind w:left="{220 * (n - 1)}"/>' if n > 1 else "") + "</w:pPr>") for n in range(1, 10)},
    "table of figures": ("paragraph", "table of figures", "TableofFigures", 99, '<w:pPr><w:spacing w:after="0"/></w:pPr>'),
    "toc heading": ("paragraph", "TOC Heading", "TOCHeading", 39, '<w:pPr><w:outlineLvl w:val="9"/></w:pPr>'),
    "footnote text": ("paragraph", "footnote text", "FootnoteText", 99,
                      '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'
                      '<w:rPr><w:sz w:val="20"/><w:szCs w:val="20"/></w:rPr>'),
    "footnote reference": ("character", "footnote reference", "FootnoteReference", 99,
                           '<w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'),
    "hyperlink": ("character", "Hyperlink", "Hyperlink", 99,
                  '<w:rPr><w:color w:val="0563C1" w:themeColor="hyperlink"/><w:u w:val="single"/></w:rPr>'),
    "table grid": ("table", "Table Grid", "TableGrid", 39,
                   '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:tblPr><w:tblBorders>'
                   + "".join(f'<w:{s} w:val="single" w:sz="4" w:space="0" w:color="auto"/>'
                             for s in ("top", "left", "bottom", "right", "insideH", "insideV"))
                   + "</w:tblBorders></w:tblPr>"),
}
_MONO = '<w:rFonts w:ascii="Courier New" w:hAnsi="Courier New" w:cs="Courier New"/>'
# Styles of ours (pandoc's names) that Word has no built-in for: written like the built-ins, never
# offered as latent built-ins.
OWN: dict[str, tuple] = {
    "source code": ("paragraph", "Source Code", "SourceCode", 99,
                    f'<w:pPr><w:spacing w:after="0"/></w:pPr><w:rPr>{_MONO}<w:sz w:val="20"/></w:rPr>'),
    "verbatim char": ("character", "Verbatim Char", "VerbatimChar", 99, f"<w:rPr>{_MONO}</w:rPr>"),
}
_BY_ID = {spec[2].lower(): key for key, spec in BUILTIN.items()}
_BASE = {"paragraph": "Normal", "character": "Default Paragraph Font", "table": "TableNormal"}
_TOCS = tuple(f"toc {n}" for n in range(1, 10))
# The flags Word writes on its definitions (Normal.dotm).
_NEXT_NORMAL = {*(f"heading {n}" for n in range(1, 10)), "title", "subtitle", "caption", "toc heading", *_TOCS,
                "table of figures"}
_UNHIDE = {*(f"heading {n}" for n in range(2, 10)), "caption", "toc heading", "table of figures", "footnote text",
           "footnote reference", "hyperlink", "list bullet", "list number", "table grid", *_TOCS}
_SEMI_HIDDEN = {"footnote text", "footnote reference"}
_NO_QFORMAT = {"hyperlink", "table grid", "table of figures", "footnote text", "footnote reference", "list bullet", "list number",
               *_TOCS}
_LIST_STYLES = {"list bullet": "bullet", "list number": "decimal"}


def builtin_key(name: str) -> str | None:
    """The built-in a name or ID means ('Heading 4', 'heading4', 'Quote'), or None."""
    low = " ".join(name.split()).lower()
    if low in BUILTIN:
        return low
    return _BY_ID.get(low.replace(" ", ""))


def _styles_root(doc) -> etree._Element | None:
    part = doc.related_part(RT.STYLES)
    return part.tree.getroot() if part is not None else None


def _flags(key: str, priority: int) -> str:
    return ("<w:autoRedefine/>" if key in _TOCS else "") + f'<w:uiPriority w:val="{priority}"/>' + (
        "<w:semiHidden/>" if key in _SEMI_HIDDEN else "") + ("<w:unhideWhenUsed/>" if key in _UNHIDE else "") + (
        "" if key in _NO_QFORMAT else "<w:qFormat/>")


def _free_id(doc, sid: str) -> str:
    while sid in doc.styles.by_id:  # the ID is taken by a style of another name
        sid += "0"
    return sid


def make_real(doc, key: str) -> str | None:
    """Write the definition of ``key`` (BUILTIN or OWN) into styles.xml; its style ID (None without a
    styles part)."""
    part = doc.related_part(RT.STYLES)
    if part is None:
        return None
    kind, stored, sid, priority, props = BUILTIN.get(key) or OWN[key]
    sid = _free_id(doc, sid)
    base = find_style(doc, "heading 1") if key == "toc heading" else doc.styles.find_id(_BASE[kind], kind)
    based = f'<w:basedOn w:val="{base}"/>' if base else ""
    normal = doc.styles.find_id("Normal")
    nxt = f'<w:next w:val="{normal}"/>' if key in _NEXT_NORMAL and normal else ""
    xml = (f'<w:style xmlns:w="{W}" w:type="{kind}" w:styleId="{sid}"><w:name w:val="{stored}"/>{based}{nxt}'
           f'{_flags(key, priority)}{props}</w:style>')
    style = parse_part(xml.encode(), "built-in style").getroot()
    part.tree.getroot().append(style)
    if key in _LIST_STYLES:  # Word links these to a list of their own
        from ooxml.lists.lists_edit import new_style_list
        from ooxml.xml.order import insert_child
        nid = new_style_list(doc, _LIST_STYLES[key], sid)
        numpr = etree.Element(w("numPr"))
        etree.SubElement(numpr, w("numId"), {w("val"): str(nid)})
        insert_child(style.find(w("pPr")), numpr)
    part.touch()
    doc.reset_styles()
    return sid


def ensure_style(doc, name: str) -> str | None:
    """The ID of the style ``name`` (matched as Word matches names), made real if it is a latent built-in
    or one of OWN."""
    sid = find_style(doc, name)
    if sid is not None:
        return sid
    key = builtin_key(name) or (name.lower() if name.lower() in OWN else None)
    return make_real(doc, key) if key else None


def ensure_heading_style(doc, level: int) -> str:
    """The style ID for heading ``level`` (0 = Title), added if missing. Without a styles part Word's
    ID all the same (Word falls back to Normal)."""
    key = "title" if level == 0 else f"heading {level}"
    return ensure_style(doc, key) or BUILTIN[key][2]


def find_style(doc, name: str, kind: str | None = None) -> str | None:
    """A style ID by name (case-insensitive), by ID, or a built-in's English name."""
    styles = doc.styles
    low = " ".join(name.split()).lower()
    key = builtin_key(name)
    stored = BUILTIN[key][1].lower() if key else None
    by_id = None
    for sid, st in styles.by_id.items():
        if kind and st.get(w("type"), "paragraph") != kind:
            continue
        n = st.find(w("name"))
        sname = (n.get(w("val"), "") if n is not None else "").lower()
        if sname == low or (stored and sname == stored):
            return sid
        if sid.lower() == low.replace(" ", "") or (key and sid == BUILTIN[key][2]):
            by_id = by_id or sid
    return by_id
