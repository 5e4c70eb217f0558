"""Our list labels next to the ones LibreOffice writes in its text export ('txt:Text').

LibreOffice writes each paragraph on its own line: indentation, the list label, a space, the
text. We pair body paragraphs with lines by their text, keeping document order on both sides
(the longest such pairing), and take what stands before the text as LibreOffice's label.
Bullets agree when both sides draw a bullet: the glyph depends on fonts, and LibreOffice's text
export writes symbol-font bullets as '•' or '◦'.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ooxml.text import body as B
from ooxml.model.document import Document
from ooxml.lists.numbering import label_of

from ooxml.lists import numbering as N
from ooxml.xml.namespaces import w

_ASIDE = {w("txbxContent"), "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"}
W_SYM = w("sym")
_TEXT = {w("t"): None, w("delText"): None, w("tab"): "\t", w("br"): "\n", w("cr"): "\n",
         w("noBreakHyphen"): "\u2011"}


@dataclass
class Comparison:
    compared: int = 0  # list paragraphs (ours or LibreOffice's) matched to a line
    agree: int = 0
    bullets: int = 0  # of the agreeing: both a bullet, drawn with different glyphs
    unmatched: int = 0  # list paragraphs whose line was not found
    differences: list[tuple[str, str | None, str | None]] = field(default_factory=list)  # (text, ours, lo)
    fallback: int = 0  # of the differences: in a number format we show as decimal

    @property
    def strict(self) -> int:
        return self.agree - self.bullets


def lo_lines(txt: Path) -> list[str]:
    raw = txt.read_bytes().decode("utf-8", errors="replace").lstrip("\ufeff")
    return [line.strip() for line in raw.splitlines()]


def _piece(el) -> str:
    if el.tag == W_SYM:  # a symbol-font character: LibreOffice writes its code (U+F0xx)
        raw = el.get(w("char")) or ""
        return chr(int(raw, 16)) if raw and all(c in "0123456789abcdefABCDEF" for c in raw) else ""
    return el.text or "" if _TEXT[el.tag] is None else _TEXT[el.tag]


def full_text(p) -> str:
    """The paragraph's text as LibreOffice writes it: deleted text too (it shows revisions)."""
    return "".join(_piece(el) for el in p.iter(W_SYM, *_TEXT)).strip()


def _drop_cap(p) -> bool:
    """A drop cap: a framed paragraph of its own that LibreOffice writes at the start of the next."""
    frame = p.find(f"{w('pPr')}/{w('framePr')}")
    return frame is not None and frame.get(w("dropCap")) in ("drop", "margin")


_STOP = {w("footnoteReference"), w("endnoteReference"), w("fldChar"), w("fldSimple")}


def head_text(p) -> str:
    """The paragraph's first line up to its first note mark or field, whose text LibreOffice writes
    differently (the note's number, a field's new result)."""
    out = []
    for el in p.iter(*_TEXT, *_STOP):
        if el.tag in _STOP:
            break
        out.append(el.text or "" if _TEXT[el.tag] is None else _TEXT[el.tag])
    return "".join(out).split("\n")[0].strip()


def _ends_with(line: str, seg: str) -> bool:
    """The line is the text, or a label, white space and the text."""
    return line == seg or (line.endswith(seg) and line[-len(seg) - 1].isspace())


def _prefix(line: str, seg: str, whole: bool) -> str | None:
    cut = len(line) - len(seg) if whole and line.endswith(seg) else line.find(seg)
    return line[:cut].strip() or None


def _is_bullet(label: str | None) -> bool:
    return bool(label) and len(label) == 1 and not label.isalnum()


class _Lines:
    """LibreOffice's lines, looked up by the text that ends them after a label, or by a piece."""
    LABEL_ROOM = 48  # indentation and label stand within this many characters of a line's start

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.ends: dict[str, list[int]] = {}
        for i, line in enumerate(lines):  # a line is its text, or a label, white space and its text
            self.ends.setdefault(line, []).append(i)
            for cut in range(min(len(line), self.LABEL_ROOM)):
                if line[cut].isspace():
                    self.ends.setdefault(line[cut + 1:], []).append(i)
        self.joined = "\n".join(lines)
        self.starts = [0]
        for line in lines:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def holding(self, seg: str) -> list[int]:
        import bisect
        out, at = [], self.joined.find(seg)
        while at >= 0:
            out.append(bisect.bisect_right(self.starts, at) - 1)
            at = self.joined.find(seg, at + 1)
        return out

    def candidates(self, seg: str, whole: bool) -> list[int]:
        """Lines that may be this paragraph's: the text alone or after a label (or, for a paragraph
        LibreOffice writes on several lines, or after other text, a line holding its first line)."""
        found = [i for i in self.ends.get(seg, ()) if _ends_with(self.lines[i], seg)] if whole else []
        if not found and len(seg) >= 3:
            found = self.holding(seg)
        return sorted(set(found), reverse=True)


def _align(pairs: list[tuple[int, int]]) -> dict[int, int]:
    """paragraph -> line: the longest chain of (paragraph, line) pairs rising in both, i.e. the
    matching that keeps document order on both sides (LibreOffice writes text boxes, notes and
    repeated texts elsewhere, so a greedy forward search can lose its place)."""
    import bisect
    tails: list[int] = []  # tails[k]: the smallest line ending a chain of length k + 1
    ends: list[int] = []  # the pair index ending it
    back: list[int] = [-1] * len(pairs)
    for n, (_, line) in enumerate(pairs):  # pairs of one paragraph come with lines descending
        k = bisect.bisect_left(tails, line)
        if k == len(tails):
            tails.append(line)
            ends.append(n)
        else:
            tails[k], ends[k] = line, n
        back[n] = ends[k - 1] if k else -1
    out, n = {}, ends[-1] if ends else -1
    while n >= 0:
        out[pairs[n][0]] = pairs[n][1]
        n = back[n]
    return out


def lo_labels(doc, txt: Path) -> list[tuple[object, str, str | None, str | None, str | None]]:
    """(paragraph, its text, LibreOffice's line, its label, ours) for each body paragraph with text
    (the line and LibreOffice's label None when no line was found)."""
    lines = lo_lines(txt)
    found = _Lines(lines)
    paras, pairs = [], []
    cap = ""
    for p in doc.body.iter(B.W_P):
        if any(a.tag in _ASIDE for a in p.iterancestors()):
            continue  # text boxes: LibreOffice writes them elsewhere (and mc:Fallback repeats them)
        if _drop_cap(p):
            cap = full_text(p)
            continue
        text, cap = cap + full_text(p), ""
        seg = text.split("\n")[0].strip()
        if not seg:
            continue
        whole = "\n" not in text
        lines_of = found.candidates(seg, whole)
        head = head_text(p)
        if not lines_of and len(head) >= 3 and head != seg:  # LibreOffice writes note marks, field results
            seg, whole, lines_of = head, False, sorted(set(found.holding(head)), reverse=True)
        n = len(paras)
        paras.append((p, seg, whole, label_of(doc, p)))
        pairs.extend((n, i) for i in lines_of)
    matched = _align(pairs)
    return [(p, seg, lines[matched[n]], _prefix(lines[matched[n]], seg, whole), ours) if n in matched
            else (p, seg, None, None, ours) for n, (p, seg, whole, ours) in enumerate(paras)]


def compare(docx: Path, txt: Path) -> Comparison:
    doc = Document.open(docx)
    try:
        defs = N.definitions(doc)
        out = Comparison()
        for p, seg, line, lo, ours in lo_labels(doc, txt):
            if line is None:
                out.unmatched += ours is not None
                continue
            if ours is None and lo is None:
                continue
            out.compared += 1
            ref = defs.para_num(p)
            level = defs.level(*ref) if ref else None
            if ours == lo:
                out.agree += 1
            elif level is not None and level.fmt == "bullet" and _is_bullet(lo):
                out.agree += 1
                out.bullets += 1
            else:
                out.differences.append((seg[:40], ours, lo))
                out.fallback += level is not None and level.fell_back
        return out
    finally:
        doc.close()
