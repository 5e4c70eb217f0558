"""A paragraph's text as the comparison reads it: segments, one character per non-text item, tokens.

Text, tabs and breaks read as themselves; every other item of a run (an image, a field
character, a note reference, a symbol) reads as one character, and its *signature* (what it
is, not its IDs) decides whether two of them are equal.
"""
from __future__ import annotations

import hashlib
import re
from itertools import accumulate
from dataclasses import dataclass, field

from lxml import etree

from ooxml.text import body as B
from ooxml.compare import fields as F
from ooxml.xml.namespaces import A, W, WP, w
from ooxml.review.tracked_text import BARRIER, Seg, segments

ITEM = BARRIER  # stands for a non-text item in the text (clean text never holds NUL)
WORD = re.compile(r"\w+|[^\w\s]|\s+", re.U)
_ZERO = {w(n) for n in "rPr lastRenderedPageBreak commentReference annotationRef footnoteRef endnoteRef "
                       "separator continuationSeparator softHyphen".split()}
_SKIP_ATTRS = ("id", "rsid", "paraId", "textId", "embed", "link", "name")


@dataclass(slots=True)
class Text:
    segs: list[Seg]
    text: str
    sigs: list[str]  # the signature of each ITEM, in order
    keys: list[str] = field(default_factory=list)  # token keys
    starts: list[int] = field(default_factory=list)  # token start offsets (+ the end)
    cached: dict[int, str] = field(default_factory=dict)  # segs of computed fields' results (fields.py)
    formats: tuple | None = None  # where the formatting changes (paragraphs._formats), once asked


def read(p: etree._Element, granularity: str = "word", images=None) -> Text:
    """``images``: blip -> the hash of its image's bytes (ooxml.compare.media.Images); without it an
    image is known by its size and text only."""
    sigs: list[str] = []
    segs, text = segments(B.iter_runs(p), _ZERO, lambda child: sigs.append(signature(child, images)))
    fields = next(p.iter(F.FIELD_TAGS), None) is not None
    if not fields and ITEM not in text:  # plain text (the usual): its tokens are the keys
        keys = WORD.findall(text) if granularity == "word" else list(text)
        return Text(segs, text, sigs, keys, [0, *accumulate(map(len, keys))], {})
    out = Text(segs, text, sigs, None, None, F.cached_segments(segs) if fields else {})
    _tokenize(out, granularity)
    return out


_CACHED = "\x01"  # a cached field result's token (text in XML never holds it)


def _pieces(t: Text, granularity: str) -> list:
    """The tokens' texts; each cached field result one token, (key, text): compared by its field."""
    def split(text):
        return WORD.findall(text) if granularity == "word" else list(text)
    if not t.cached:
        return split(t.text)
    out, pos = [], 0
    for s, e, name in F.masked_ranges(t.segs, t.cached):
        out += split(t.text[pos:s])
        out.append((_CACHED + name, t.text[s:e]))
        pos = e
    return out + split(t.text[pos:])


def _tokenize(t: Text, granularity: str) -> None:
    pieces = _pieces(t, granularity)
    if ITEM not in t.text and not t.cached:
        t.keys, t.starts = pieces, [0, *accumulate(map(len, pieces))]
        return
    keys, starts, pos, item = [], [], 0, 0
    for piece in pieces:
        starts.append(pos)
        if isinstance(piece, tuple):  # (key, text)
            pos += len(piece[1])
            keys.append(piece[0])
            continue
        pos += len(piece)
        if ITEM in piece:
            n = piece.count(ITEM)
            piece = piece + "".join(t.sigs[item:item + n])
            item += n
        keys.append(piece)
    starts.append(pos)
    t.keys, t.starts = keys, starts


def signature(el: etree._Element, images=None) -> str:
    """What a non-text item is, without the IDs and names that differ between two saves."""
    tag = etree.QName(el).localname
    if tag == "instrText":
        return "instr:" + (el.text or "").strip()
    if tag == "fldChar":
        return "fld:" + el.get(w("fldCharType"), "")
    if tag == "sym":
        return "sym:" + el.get(w("font"), "") + el.get(w("char"), "")
    if tag in ("footnoteReference", "endnoteReference"):
        return tag
    if tag in ("drawing", "pict", "object"):
        return tag + ":" + _drawing_sig(el, images)
    if tag == "AlternateContent":  # what readers draw: the Choice (else the Fallback)
        shown = next((c for c in el.iterchildren(B.MC_CHOICE, B.MC_FALLBACK) if len(c)), None)
        return "alt:" + "".join(signature(c, images) for c in shown.iterchildren() if isinstance(c.tag, str)) \
            if shown is not None else "alt:"
    return tag + ":" + ",".join(f"{etree.QName(k).localname}={v}" for k, v in sorted(el.attrib.items())
                                if etree.QName(k).localname not in _SKIP_ATTRS)


def _drawing_sig(el: etree._Element, images=None) -> str:
    extent = el.find(f".//{{{WP}}}extent")
    size = f"{extent.get('cx')}x{extent.get('cy')}" if extent is not None else ""
    # not the layout between a copy's elements, nor the text of its text boxes (compared as containers:
    # a box is known by how many there are)
    texts = "".join(t.strip() for t in _OUTSIDE_BOXES(el)) + f"|{len(boxes(el))}"
    blips = [images(b) if images else "" for b in el.iter(f"{{{A}}}blip")]
    blips += [images.chart(ref) if images else "" for ref in el.iter(_CHART)]
    return size + ":" + hashlib.sha1((texts + "|" + str(len(blips)) + "|" + ",".join(blips)).encode()).hexdigest()[:12]


_CHART = "{http://schemas.openxmlformats.org/drawingml/2006/chart}chart"
_OUTSIDE_BOXES = etree.XPath(".//text()[not(ancestor::w:txbxContent)]", namespaces={"w": W})


def boxes(item: etree._Element) -> list[etree._Element]:
    """The text boxes an inline item (drawing, VML picture, alternate content) shows, in order:
    not its fallback copies, nor boxes inside its boxes."""
    return [t for t in item.iter(B.W_TXBX) if _outermost(t, item)]


def _outermost(box: etree._Element, item: etree._Element) -> bool:
    for up in box.iterancestors():
        if up is item:
            return True
        if up.tag == B.W_TXBX or up.tag == B.MC_FALLBACK:
            return False
    return False
