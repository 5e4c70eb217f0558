"""Word rules on text and containers: revisions inside text boxes, a cell that does not end with a
paragraph, newlines in w:t, w:t inside a deletion."""
from __future__ import annotations

from lxml import etree

from ooxml.check.findings import ERROR, Finding
from ooxml.text import body as B
from ooxml.xml.namespaces import MC, W
from ooxml.xml.wordids import REVISIONS

TXBX = f"{{{W}}}txbxContent"
DELETIONS = (f"{{{W}}}del", f"{{{W}}}moveFrom")
T, INSTR = f"{{{W}}}t", f"{{{W}}}instrText"
_FALLBACK = f"{{{MC}}}Fallback"


TAGS = (TXBX, *DELETIONS)  # kept by the walk; cells visited (``Cells``)


class Cells:
    """The cells that do not end with a paragraph, found as the walk passes them."""

    def __init__(self):
        self.open: list = []

    def visitors(self) -> dict:
        keep = self.open.append

        def visit(tc):
            if not ends_with_paragraph(tc):
                keep(tc)
        return {B.W_TC: visit}


def _box_revisions(scan):
    return [el for box in scan.get(TXBX) for el in box.iter(*REVISIONS)]


def _newline_t(scan):
    # every text node of the part in one C call (3x cheaper than itertext): no newline, nothing to find
    joined = etree.tostring(scan.root, method="text", encoding="unicode")
    if "\n" not in joined and "\r" not in joined:
        return []
    return [t for t in scan.root.iter(T) if t.text and ("\n" in t.text or "\r" in t.text)]


def _deleted_t(scan):
    return [t for d in scan.get(*DELETIONS) for t in d.iter(T, INSTR)]


def findings(name: str, scan, cells: Cells | None, newlines: bool = True) -> list[Finding]:
    """``cells`` None, ``newlines`` False: proven clean on the part's bytes (``screen_rules``)."""
    out = [Finding("word", "box-revision", ERROR, name, f"a tracked change (w:{el.tag.rpartition('}')[2]}) inside a "
                   "text box: Word cannot open it", "Accept or reject it (docx_accept_revisions / "
                   "docx_reject_revisions with its ID).", el) for el in _box_revisions(scan)
           if next(el.iterancestors(_FALLBACK), None) is None]
    out += [Finding("word", "cell-end", ERROR, name, "a table cell does not end with a paragraph",
                    "Run docx_check with repair=True: it adds an empty paragraph at the cell's end.", tc,
                    repairable=True) for tc in (cells.open if cells is not None else ())]
    out += [Finding("word", "newline", ERROR, name, "a line break typed into w:t", "Run docx_check with repair=True: "
                    "it writes the breaks as w:br.", t, repairable=True) for t in (_newline_t(scan) if newlines else ())]
    out += [Finding("word", "deleted-text", ERROR, name, f"w:{t.tag.rpartition('}')[2]} inside a deletion",
                    "Run docx_check with repair=True: deleted text becomes w:delText.", t, repairable=True)
            for t in _deleted_t(scan) if _deleted(t)]
    return out


def _deleted(t: etree._Element) -> bool:
    """Whether the nearest of a deletion and a text box around ``t`` is the deletion (a text box in a
    deleted run holds text of its own)."""
    for a in t.iterancestors(TXBX, *DELETIONS):
        return a.tag != TXBX
    return False


_WRAPPERS = {f"{{{W}}}sdt", f"{{{W}}}sdtContent", f"{{{W}}}customXml"}


def ends_with_paragraph(tc: etree._Element) -> bool:
    """The cell's last block is a paragraph (inside a content control or custom XML counts: Word opens it)."""
    for child in reversed(tc):
        if isinstance(child.tag, str) and child.tag not in B.MARKERS and child.tag != f"{{{W}}}sdtPr" \
                and child.tag != f"{{{W}}}sdtEndPr" and child.tag != f"{{{W}}}customXmlPr":
            return child.tag == B.W_P or (child.tag in _WRAPPERS and ends_with_paragraph(child))
    return False
