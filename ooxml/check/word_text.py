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
_NEWLINE_T = etree.XPath("//w:t[contains(., '\n') or contains(., '\r')]", namespaces={"w": W})
_BOX_REVISIONS = etree.XPath("//w:txbxContent//*[" + " or ".join(
    f"self::w:{t.rpartition('}')[2]}" for t in sorted(REVISIONS)) + "]", namespaces={"w": W})
_DELETED_T = etree.XPath("//w:del//w:t | //w:moveFrom//w:t | //w:del//w:instrText | //w:moveFrom//w:instrText",
                         namespaces={"w": W})


def findings(name: str, root: etree._Element) -> list[Finding]:
    out = [Finding("word", "box-revision", ERROR, name, f"a tracked change (w:{el.tag.rpartition('}')[2]}) inside a "
                   "text box: Word cannot open it", "Accept or reject it (docx_accept_revisions / "
                   "docx_reject_revisions with its ID).", el) for el in _BOX_REVISIONS(root)
           if next(el.iterancestors(_FALLBACK), None) is None]
    out += [Finding("word", "cell-end", ERROR, name, "a table cell does not end with a paragraph",
                    "Run docx_check with repair=True: it adds an empty paragraph at the cell's end.", tc,
                    repairable=True) for tc in root.iter(B.W_TC) if not ends_with_paragraph(tc)]
    out += [Finding("word", "newline", ERROR, name, "a line break typed into w:t", "Run docx_check with repair=True: "
                    "it writes the breaks as w:br.", t, repairable=True) for t in _NEWLINE_T(root)]
    out += [Finding("word", "deleted-text", ERROR, name, f"w:{t.tag.rpartition('}')[2]} inside a deletion",
                    "Run docx_check with repair=True: deleted text becomes w:delText.", t, repairable=True)
            for t in _DELETED_T(root) if _deleted(t)]
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
