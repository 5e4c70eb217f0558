"""Our list labels next to the ones LibreOffice writes in its text export ('txt:Text').

LibreOffice writes each paragraph on its own line: indentation, the list label, a space, the
text. We find each body paragraph's line by its text (in order, searching forward) and take what
stands before the text as LibreOffice's label. Bullets agree when both sides draw a bullet: the
glyph depends on fonts, and LibreOffice's text export writes symbol-font bullets as '•' or '◦'.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ooxml import body as B
from ooxml.document import Document
from ooxml.numbering import label_of

from ooxml import numbering as N
from ooxml.namespaces import w

SEARCH_AHEAD = 40  # lines LibreOffice may write that are no body paragraph (text boxes, notes)
_ASIDE = {w("txbxContent"), "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"}
_TEXT = {w("t"): None, w("delText"): None, w("tab"): "\t", w("br"): "\n", w("cr"): "\n"}


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


def full_text(p) -> str:
    """The paragraph's text as LibreOffice writes it: deleted text too (it shows revisions)."""
    return "".join(el.text or "" if _TEXT[el.tag] is None else _TEXT[el.tag]
                   for el in p.iter(*_TEXT)).strip()


def _ends_with(line: str, seg: str) -> bool:
    """The line is the text, or a label, white space and the text."""
    return line == seg or (line.endswith(seg) and line[-len(seg) - 1].isspace())


def _prefix(line: str, seg: str, whole: bool) -> str | None:
    cut = len(line) - len(seg) if whole and line.endswith(seg) else line.find(seg)
    return line[:cut].strip() or None


def _is_bullet(label: str | None) -> bool:
    return bool(label) and len(label) == 1 and not label.isalnum()


def compare(docx: Path, txt: Path) -> Comparison:
    doc = Document.open(docx)
    try:
        lines = lo_lines(txt)
        defs = N.definitions(doc)
        out = Comparison()
        at = 0
        for p in doc.body.iter(B.W_P):
            if any(a.tag in _ASIDE for a in p.iterancestors()):
                continue  # text boxes: LibreOffice writes them elsewhere (and mc:Fallback repeats them)
            text = full_text(p)
            whole = "\n" not in text
            seg = text.split("\n")[0].strip()
            ours = label_of(doc, p)
            if not seg:
                continue
            window = range(at, min(len(lines), at + SEARCH_AHEAD))
            found = [i for i in window if _ends_with(lines[i], seg)] if whole else []
            if not found and len(seg) >= 3:
                found = [i for i in window if seg in lines[i]]
            if not found:
                out.unmatched += ours is not None
                continue
            prefixes = [(i, _prefix(lines[i], seg, whole)) for i in found]
            # The same text can stand on several lines (text boxes, repeated paragraphs): the one
            # with our label is ours if there is one, else the first.
            i, lo = next(((i, pre) for i, pre in prefixes if pre == ours), prefixes[0])
            at = i + 1
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
