"""Fields compare by their instruction: the cached result of a field Word computes (a PAGE number,
a DATE, a cross-reference) is no change a reviewer would call one.

Text a reader types stays compared: the results of HYPERLINK, MERGEFIELD, IF, TOC and fields not
listed here. Only text (not items) inside such a result is a cached result.
"""
from __future__ import annotations

from lxml import etree

from ooxml.xml.namespaces import w

COMPUTED = frozenset(
    "PAGE NUMPAGES SECTIONPAGES SECTION PAGEREF NOTEREF REF STYLEREF SEQ DATE TIME PRINTDATE SAVEDATE "
    "CREATEDATE EDITTIME NUMWORDS NUMCHARS FILESIZE FILENAME REVNUM DOCPROPERTY AUTHOR LASTSAVEDBY TITLE "
    "SUBJECT KEYWORDS COMMENTS TEMPLATE USERNAME USERINITIALS AUTONUM AUTONUMLGL AUTONUMOUT LISTNUM =".split())
_FLD_CHAR, _INSTR, _SIMPLE = w("fldChar"), w("instrText"), w("fldSimple")
_TYPE, _INSTR_ATTR = w("fldCharType"), w("instr")
FIELD_TAGS = (_FLD_CHAR, _SIMPLE)  # without either in a paragraph, no cached result (asked first: 2x cheaper)
_TEXT = {w("t"), w("tab"), w("br"), w("cr"), w("noBreakHyphen"), w("ptab")}


def computed(instr: str) -> bool:
    words = instr.split()
    return bool(words) and (words[0].upper() in COMPUTED or words[0].startswith("="))


def cached_segments(segs) -> dict[int, str]:
    """Indices of ``segs`` (tracked_text.Seg) holding the cached result of a computed field, each
    with what names its field where no item does: a simple field's instruction (else "")."""
    out: dict[int, str] = {}
    stack: list[list] = []  # per open complex field: [instruction pieces, past its separator]
    for k, seg in enumerate(segs):
        tag = seg.child.tag
        if tag == _FLD_CHAR:
            kind = seg.child.get(_TYPE)
            if kind == "begin":
                stack.append([[], False])
            elif kind == "separate" and stack:
                stack[-1][1] = True
            elif kind == "end" and stack:
                stack.pop()
        elif tag == _INSTR:
            if stack and not stack[-1][1]:
                stack[-1][0].append(seg.child.text or "")
        elif tag in _TEXT:
            simple = simple_field(seg.child)
            if simple is not None and computed(simple.get(_INSTR_ATTR, "")):
                out[k] = " ".join(simple.get(_INSTR_ATTR, "").split())
            elif any(past and computed("".join(instr)) for instr, past in stack):
                out[k] = ""
    return out


def simple_field(child: etree._Element) -> etree._Element | None:
    """The w:fldSimple directly holding the run of ``child``, if any."""
    run = child.getparent()
    holder = run.getparent() if run is not None else None
    return holder if holder is not None and holder.tag == _SIMPLE else None


def masked_ranges(segs, cached: dict[int, str]) -> list[tuple[int, int, str]]:
    """The text offsets [start, end) the cached results cover (adjacent ones of one field joined),
    with their field's name (``cached_segments``)."""
    out: list[tuple[int, int, str]] = []
    for k in sorted(cached):
        s, e = segs[k].start, segs[k].start + len(segs[k].text)
        if out and out[-1][1] == s and out[-1][2] == cached[k]:
            out[-1] = (out[-1][0], e, cached[k])
        else:
            out.append((s, e, cached[k]))
    return out
