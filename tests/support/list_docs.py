"""Generated documents with Word numbering: restarts, overrides, shared lists, style links, legal.

Each case is a body of paragraphs (text, numId, ilvl or a style) plus numbering definitions, so a
test can compare our labels with LibreOffice's text export line by line.
"""
from __future__ import annotations

import re
from pathlib import Path
from xml.sax.saxutils import escape

from tests.builders import build_docx

CT_NUMBERING = "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"
W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def lvl(ilvl: int, fmt: str = "decimal", text: str | None = None, start: int = 1, *, legal: bool = False,
        restart: int | None = None, pstyle: str | None = None, suff: str | None = None,
        font: str | None = None) -> str:
    text = f"%{ilvl + 1}." if text is None else text
    parts = [f'<w:start w:val="{start}"/>', f'<w:numFmt w:val="{fmt}"/>']
    if restart is not None:
        parts.append(f'<w:lvlRestart w:val="{restart}"/>')
    if pstyle:
        parts.append(f'<w:pStyle w:val="{pstyle}"/>')
    if legal:
        parts.append("<w:isLgl/>")
    if suff:
        parts.append(f'<w:suff w:val="{suff}"/>')
    parts.append(f'<w:lvlText w:val="{escape(text, {chr(34): "&quot;"})}"/>')
    parts.append('<w:lvlJc w:val="left"/>')
    parts.append(f'<w:pPr><w:ind w:left="{720 * (ilvl + 1)}" w:hanging="360"/></w:pPr>')
    if font:
        parts.append(f'<w:rPr><w:rFonts w:ascii="{font}" w:hAnsi="{font}" w:hint="default"/></w:rPr>')
    return f'<w:lvl w:ilvl="{ilvl}">{"".join(parts)}</w:lvl>'


def outline(fmts=("decimal",) * 9, texts=None, **kw) -> list[str]:
    """Nine levels: formats, and templates '%1.', '%1.%2.' ... by default."""
    out = []
    for i in range(9):
        text = texts[i] if texts else ".".join(f"%{k + 1}" for k in range(i + 1)) + "."
        out.append(lvl(i, fmts[i % len(fmts)], text, **kw))
    return out


def abstract(aid: int, levels: list[str], *, style_link: str | None = None, num_style_link: str | None = None) -> str:
    extra = ""
    if style_link:
        extra += f'<w:styleLink w:val="{style_link}"/>'
    if num_style_link:
        extra += f'<w:numStyleLink w:val="{num_style_link}"/>'
    return (f'<w:abstractNum w:abstractNumId="{aid}"><w:multiLevelType w:val="multilevel"/>{extra}'
            f'{"".join(levels)}</w:abstractNum>')


def num(nid: int, aid: int, starts: dict[int, int] | None = None, levels: dict[int, str] | None = None) -> str:
    ovs = ""
    for i in sorted(set(starts or {}) | set(levels or {})):
        inner = f'<w:startOverride w:val="{starts[i]}"/>' if starts and i in starts else ""
        inner += levels[i] if levels and i in levels else ""
        ovs += f'<w:lvlOverride w:ilvl="{i}">{inner}</w:lvlOverride>'
    return f'<w:num w:numId="{nid}"><w:abstractNumId w:val="{aid}"/>{ovs}</w:num>'


def numbering_xml(abstracts: list[str], nums: list[str]) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:numbering {W_NS}>'
            f'{"".join(abstracts)}{"".join(nums)}</w:numbering>').encode()


def para(text: str, nid: int | None = None, ilvl: int | None = None, style: str | None = None) -> str:
    ppr = f'<w:pStyle w:val="{style}"/>' if style else ""
    if nid is not None or ilvl is not None:
        inner = (f'<w:ilvl w:val="{ilvl}"/>' if ilvl is not None else "") + \
                (f'<w:numId w:val="{nid}"/>' if nid is not None else "")
        ppr += f"<w:numPr>{inner}</w:numPr>"
    ppr = f"<w:pPr>{ppr}</w:pPr>" if ppr else ""
    return f'<w:p>{ppr}<w:r><w:t xml:space="preserve">{escape(text)}</w:t></w:r></w:p>'


def build(path: Path, body: str, numbering: bytes | None, extra_styles: str = "") -> Path:
    parts = {}
    rels, overrides = [], {}
    if numbering is not None:
        parts["word/numbering.xml"] = numbering
        rels.append(("rIdNum", "numbering", "numbering.xml"))
        overrides["word/numbering.xml"] = CT_NUMBERING
    build_docx(path, body, extra_parts=parts, rels=rels, overrides=overrides)
    _rezip(path, extra_styles)
    return path


def _rezip(path: Path, styles: str) -> None:
    """Add styles, and write the zip with fixed dates: the same case gives the same bytes, so
    LibreOffice's conversions of it are found in the cache next time."""
    import zipfile
    with zipfile.ZipFile(path) as z:
        items = {n: z.read(n) for n in z.namelist()}
    if "docProps/core.xml" in items:  # creation dates: the same case must give the same bytes
        items["docProps/core.xml"] = re.sub(rb">\d{4}-\d\d-\d\dT[^<]*<", b">2020-01-01T00:00:00Z<",
                                            items["docProps/core.xml"])
    if styles:
        items["word/styles.xml"] = items["word/styles.xml"].replace(b"</w:styles>", styles.encode() + b"</w:styles>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in items.items():
            info = zipfile.ZipInfo(n, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


def pstyle(sid: str, name: str, nid: int | None = None, ilvl: int | None = None, based_on: str = "Normal",
           outline_level: int | None = None) -> str:
    numpr = ""
    if nid is not None:
        numpr = "<w:numPr>" + (f'<w:ilvl w:val="{ilvl}"/>' if ilvl is not None else "") + \
                f'<w:numId w:val="{nid}"/></w:numPr>'
    if outline_level is not None:  # a heading
        numpr += f'<w:outlineLvl w:val="{outline_level}"/>'
    return (f'<w:style w:type="paragraph" w:styleId="{sid}"><w:name w:val="{name}"/>'
            f'<w:basedOn w:val="{based_on}"/><w:pPr>{numpr}</w:pPr></w:style>')


def numstyle(sid: str, name: str, nid: int) -> str:
    return (f'<w:style w:type="numbering" w:styleId="{sid}"><w:name w:val="{name}"/>'
            f'<w:pPr><w:numPr><w:numId w:val="{nid}"/></w:numPr></w:pPr></w:style>')


# ---- the cases -------------------------------------------------------------------------------------

def _items(prefix: str, spec: list[tuple]) -> str:
    """spec: (nid, ilvl) or (nid, ilvl, style) per paragraph; None for a plain paragraph."""
    out = []
    for i, s in enumerate(spec):
        if s is None:
            out.append(para(f"{prefix} plain {i}"))
        else:
            nid, ilvl, *style = s
            out.append(para(f"{prefix} item {i}", nid, ilvl, style[0] if style else None))
    return "".join(out)


def cases() -> dict[str, tuple[str, bytes | None, str]]:
    """name -> (body, numbering.xml, extra styles)."""
    c: dict[str, tuple[str, bytes | None, str]] = {}
    c["simple"] = (_items("s", [(1, 0)] * 5 + [None] + [(1, 0)] * 2),
                   numbering_xml([abstract(0, outline())], [num(1, 0)]), "")
    c["outline_restarts"] = (_items("o", [(1, 0), (1, 1), (1, 1), (1, 2), (1, 2), (1, 1), (1, 0), (1, 1),
                                          (1, 2), (1, 0), (1, 0), (1, 1)]),
                             numbering_xml([abstract(0, outline())], [num(1, 0)]), "")
    c["formats"] = (_items("f", [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (1, 0), (1, 1), (1, 2),
                                 (1, 3), (1, 4), (1, 5), (1, 6)] + [(2, 0)] * 4),
                    numbering_xml([abstract(0, [lvl(0, "upperRoman", "%1."), lvl(1, "upperLetter", "%2)"),
                                                lvl(2, "lowerRoman", "(%3)"), lvl(3, "lowerLetter", "%4."),
                                                lvl(4, "decimalZero", "%5."), lvl(5, "decimal", "%1-%6"),
                                                lvl(6, "lowerLetter", "%1.%7")] + outline()[7:]),
                                   abstract(1, [lvl(0, "lowerLetter", "%1)", start=24)] + outline()[1:])],
                                  [num(1, 0), num(2, 1)]), "")
    c["shared_abstract"] = (_items("sh", [(1, 0), (1, 0), (2, 0), (2, 0), (1, 0), (2, 1), (1, 1), (2, 0)]),
                            numbering_xml([abstract(0, outline())], [num(1, 0), num(2, 0)]), "")
    c["start_override"] = (_items("ov", [(1, 0), (1, 0), (1, 0), (2, 0), (2, 0), (3, 0), (3, 1), (3, 1)]),
                           numbering_xml([abstract(0, outline())],
                                         [num(1, 0), num(2, 0, {0: 1}), num(3, 0, {0: 7, 1: 4})]), "")
    c["override_then_return"] = (_items("rt", [(1, 0), (1, 0), (2, 0), (2, 0), (1, 0), (3, 0), (1, 0)]),
                                 numbering_xml([abstract(0, outline())],
                                               [num(1, 0), num(2, 0, {0: 1}), num(3, 0)]), "")
    c["lvl_override"] = (_items("lo", [(1, 0), (1, 0), (2, 0), (2, 0)]),
                         numbering_xml([abstract(0, outline())],
                                       [num(1, 0), num(2, 0, {0: 1}, {0: lvl(0, "upperLetter", "%1>", 1)})]), "")
    c["lvl_restart"] = (_items("lr", [(1, 0), (1, 1), (1, 2), (1, 0), (1, 1), (1, 2), (1, 1), (1, 2)]),
                        numbering_xml([abstract(0, [lvl(0, "decimal", "%1."), lvl(1, "decimal", "%1.%2.", restart=0),
                                                    lvl(2, "decimal", "%3)", restart=1)] + outline()[3:])],
                                      [num(1, 0)]), "")
    c["legal"] = (_items("lg", [(1, 0), (1, 1), (1, 1), (1, 2), (1, 0), (1, 1)]),
                  numbering_xml([abstract(0, [lvl(0, "upperRoman", "Article %1."),
                                              lvl(1, "lowerLetter", "%1.%2", legal=True),
                                              lvl(2, "lowerRoman", "%1.%2.%3", legal=True)] + outline()[3:])],
                                [num(1, 0)]), "")
    c["bullets"] = (_items("b", [(1, 0), (1, 1), (1, 2), (1, 0)]),
                    numbering_xml([abstract(0, [lvl(0, "bullet", "\uf0b7", font="Symbol"),
                                                lvl(1, "bullet", "o", font="Courier New"),
                                                lvl(2, "bullet", "\uf0a7", font="Wingdings")] + outline()[3:])], [num(1, 0)]), "")
    styles = (pstyle("H1N", "Numbered Heading 1", 5, 0) + pstyle("H2N", "Numbered Heading 2", 5, 1)
              + pstyle("H3N", "Numbered Heading 3", 5))
    c["style_linked"] = (_items("st", [(None, None, "H1N"), (None, None, "H2N"), (None, None, "H3N"),
                                       (None, None, "H2N"), (None, None, "H1N"), (None, None, "H2N"),
                                       (5, 2), (None, None, "H2N")]),
                         numbering_xml([abstract(3, [lvl(0, "decimal", "%1", pstyle="H1N"),
                                                     lvl(1, "decimal", "%1.%2", pstyle="H2N"),
                                                     lvl(2, "lowerLetter", "%1.%2.%3", pstyle="H3N")] + outline()[3:])],
                                       [num(5, 3)]), styles)
    c["num_style_link"] = (_items("nl", [(7, 0), (7, 1), (8, 0), (8, 1), (7, 0)]),
                           numbering_xml([abstract(10, [lvl(0, "upperLetter", "%1."), lvl(1, "decimal", "%1.%2")]
                                                   + outline()[2:], style_link="MyList"),
                                          abstract(11, [], num_style_link="MyList")],
                                         [num(6, 10), num(7, 11), num(8, 11)]), numstyle("MyList", "My List", 6))
    c["skipped_level"] = (_items("sk", [(1, 1), (1, 1), (1, 0), (1, 2), (1, 0)]),
                          numbering_xml([abstract(0, outline(start=3))], [num(1, 0)]), "")
    c["ordinal_zero"] = (_items("oz", [(1, 0)] * 12 + [(2, 0)] * 3),
                         numbering_xml([abstract(0, [lvl(0, "ordinal", "%1 item", start=1)] + outline()[1:]),
                                        abstract(1, [lvl(0, "decimalZero", "%1.", start=8)] + outline()[1:])],
                                       [num(1, 0), num(2, 1)]), "")
    c["two_lists"] = (_items("tl", [(1, 0), (2, 0), (1, 0), (2, 0), (1, 0), (2, 0)]),
                      numbering_xml([abstract(0, outline()), abstract(1, [lvl(0, "lowerRoman", "%1)")] + outline()[1:])],
                                    [num(1, 0), num(2, 1)]), "")
    table_body = (_items("tb", [(1, 0), (1, 0)]) + '<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>'
                  '<w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/>'
                  f'</w:tcPr>{para("cell item", 1, 0)}{para("cell item 2", 1, 0)}</w:tc></w:tr></w:tbl>'
                  + _items("ta", [(1, 0)]))
    c["table"] = (table_body, numbering_xml([abstract(0, outline())], [num(1, 0)]), "")
    c["no_num_zero"] = (_items("nz", [(1, 0), (0, 0), (1, 0), (99, 0), (1, 0)]),
                        numbering_xml([abstract(0, outline())], [num(1, 0)]), "")
    c["numbered_headings"] = numbered_headings()
    c.update(override_cases())
    zh_starts = (1, 10, 19, 100, 110, 1001, 1010, 10010, 20300, 32760)  # two items from each start
    c["chinese_counting"] = (
        _items("zh", [(i + 1, 0) for i in range(len(zh_starts)) for _ in range(2)]),
        numbering_xml([abstract(i, [lvl(0, "chineseCounting" if i % 2 else "chineseCountingThousand", "%1、",
                                        start=s)] + outline()[1:]) for i, s in enumerate(zh_starts)],
                      [num(i + 1, i) for i in range(len(zh_starts))]), "")
    return c


def numbered_headings() -> tuple[str, bytes, str]:
    """A contract: headings numbered through their styles ('1.', '1.1'), clauses under them
    ('1.1.1', '(a)'), a '1.'/'2.1.' list, bullets, and a numbered list in a table cell."""
    styles = (pstyle("CH1", "Clause Heading 1", 5, 0, outline_level=0)
              + pstyle("CH2", "Clause Heading 2", 5, 1, outline_level=1))
    outline_levels = [lvl(0, "decimal", "%1.", pstyle="CH1"), lvl(1, "decimal", "%1.%2", pstyle="CH2"),
                      lvl(2, "decimal", "%1.%2.%3"), lvl(3, "lowerLetter", "(%4)")] + outline()[4:]
    bullets = [lvl(0, "bullet", "\u2022"), lvl(1, "bullet", "o", font="Courier New")] + outline()[2:]
    body = "".join([
        para("Definitions and Interpretation", style="CH1"), para("Definitions", style="CH2"),
        para("Agreement means this agreement.", 5, 2), para("Business Day means a weekday.", 5, 2),
        para("excluding public holidays;", 5, 3), para("and weekends.", 5, 3),
        para("Term", style="CH1"), para("Commencement", style="CH2"), para("Renewal", style="CH2"),
        para("Either party may renew.", 5, 2), para("Notice of renewal is given in writing.", 5, 2),
        para("A plain paragraph between the lists."),
        para("First step", 6, 0), para("Second step", 6, 0), para("A sub-step", 6, 1), para("Third step", 6, 0),
        para("A point", 7, 0), para("A sub-point", 7, 1),
        '<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid>'
        '<w:tr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>'
        f'{para("cell one", 5, 2)}{para("cell two", 5, 2)}</w:tc></w:tr></w:tbl>',
        para("After the table", 5, 2),
    ])
    return body, numbering_xml([abstract(4, outline_levels), abstract(6, outline()), abstract(7, bullets)],
                               [num(5, 4), num(6, 6), num(7, 7)]), styles


ALL_LEVELS = {i: 1 for i in range(9)}  # Word's "Restart at 1": a startOverride on all nine levels


def _articles() -> str:
    """A contract's outline: '1.' articles, '1.1' sections, '(a)' items, and a level showing its parents."""
    return abstract(0, [lvl(0, "decimal", "%1."), lvl(1, "decimal", "%1.%2"), lvl(2, "lowerLetter", "(%3)"),
                        lvl(3, "lowerRoman", "%1.%2.%3.%4")] + outline()[4:])


def override_cases() -> dict[str, tuple[str, bytes | None, str]]:
    """Several nums over one abstractNum, with and without startOverrides (issue 18): LibreOffice
    7.4 and Word's cached TOC count them in one set of counters, and a num's startOverride acts once,
    on the level of the num's first paragraph that has one."""
    c: dict[str, tuple[str, bytes | None, str]] = {}
    art = (None, None, "Art")
    sec = (None, None, "Sec")
    styles = pstyle("Art", "Article", 1, 0) + pstyle("Sec", "Section", 1, 1)
    # Articles and sections through paragraph styles on num 1; '(a)' items on nums 2 and 3, each
    # restarting all nine levels: the items restart, the articles and sections run on.
    c["contract_restarts"] = (_items("ct", [art, sec, (2, 2), (2, 2), (2, 3), sec, (3, 2), (3, 2), art, sec,
                                            (3, 2), (2, 0), art, (1, 2)]),
                              numbering_xml([_articles()], [num(1, 0), num(2, 0, ALL_LEVELS),
                                                            num(3, 0, ALL_LEVELS)]), styles)
    # Overrides on levels 1 and 2, first used at level 2: level 1's override is never applied.
    c["override_spent"] = (_items("sp", [(1, 0), (1, 1), (2, 2), (2, 1), (2, 2), (1, 1), (2, 1)]),
                           numbering_xml([_articles()], [num(1, 0), num(2, 0, {1: 7, 2: 9})]), "")
    # An override on level 0 waits until the num's first level-0 paragraph.
    c["override_waits"] = (_items("wt", [(1, 0), (1, 0), (2, 1), (2, 1), (2, 0), (1, 0), (2, 0)]),
                           numbering_xml([_articles()], [num(1, 0), num(2, 0, {0: 5})]), "")
    # A later num's override sets the shared counter; the plain num goes on from there.
    c["override_shared"] = (_items("sr", [(2, 0), (2, 0), (1, 0), (2, 1), (1, 1), (3, 0), (1, 0)]),
                            numbering_xml([_articles()], [num(1, 0), num(2, 0, {0: 5, 1: 3}), num(3, 0, {0: 5})]), "")
    # A level shown before its parents: they take the abstractNum's starts, not the num's overrides.
    c["override_parents"] = (_items("pa", [(2, 3), (2, 3), (1, 1), (1, 0)]),
                             numbering_xml([_articles()], [num(1, 0), num(2, 0, {0: 4, 1: 3, 3: 2})]), "")
    # Through numStyleLink: the nums of the linking abstractNum count in the linked one's counters.
    c["num_style_link_override"] = (
        _items("ns", [(7, 0), (7, 1), (8, 0), (8, 0), (7, 0), (9, 1), (7, 0)]),
        numbering_xml([abstract(10, [lvl(0, "upperLetter", "%1."), lvl(1, "decimal", "%1.%2")] + outline()[2:],
                                style_link="MyList"), abstract(11, [], num_style_link="MyList")],
                      [num(6, 10), num(7, 11), num(8, 11, {0: 1}), num(9, 10, {1: 6})]),
        numstyle("MyList", "My List", 6))
    # A level override's own start does not restart the list; a startOverride beside it does.
    c["lvl_override_start"] = (
        _items("ls", [(1, 0), (1, 0), (2, 0), (2, 0), (1, 0), (3, 0), (1, 0)]),
        numbering_xml([_articles()], [num(1, 0), num(2, 0, None, {0: lvl(0, "upperLetter", "%1>", start=10)}),
                                      num(3, 0, {0: 2}, {0: lvl(0, "upperLetter", "%1>", start=10)})]), "")
    return c


def build_all(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return {name: build(folder / f"{name}.docx", body, numbering, styles)
            for name, (body, numbering, styles) in cases().items()}
