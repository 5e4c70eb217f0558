"""A section break that goes away: the two sections merge the way Word merges them.

A section break is a paragraph mark holding a ``w:sectPr`` with the properties of the section
*before* it. When the mark goes (a deleted mark accepted, an inserted one rejected) Word removes
the break's properties: the text before it joins the following section and takes that section's
page setup. The following section keeps what it showed: headers and footers it inherited from the
removed section ("link to previous", no reference of its own) move to it; parts no section
references any more leave the package with their relationship and content type.
"""
from __future__ import annotations

from lxml import etree

from ooxml.layout import headers as H
from ooxml.xml.namespaces import R, w
from ooxml.xml.order import insert_child
from ooxml.layout.page_setup import HF_REFS, section_list

W_SECTPR = w("sectPr")
R_ID = f"{{{R}}}id"


def break_of(p: etree._Element) -> etree._Element | None:
    """The section break (sectPr) a paragraph's mark holds, if any."""
    ppr = p.find(w("pPr"))
    return ppr.find(W_SECTPR) if ppr is not None else None


def merge_into_next(doc, p: etree._Element) -> None:
    """``p``'s mark, holding a section break, is going: merge its section into the next one."""
    sect = break_of(p)
    if sect is None:
        return
    sections = section_list(doc)
    if not any(s is sect for s in sections):
        return  # not a section of the body (a stray sectPr in a cell): it goes with its paragraph
    nxt = next((s for s, prev in zip(sections[1:], sections) if prev is sect), None)
    doc.will_change(p)
    if nxt is None:  # no section after it (a file without the body's own): it becomes the body's
        p.find(w("pPr")).remove(sect)
        doc.body.append(sect)
        doc.changed(p)
        doc.changed(doc.body)
        return
    doc.will_change(nxt)
    _inherit_references(sect, nxt)
    for rid in {ref.get(R_ID) for ref in sect if ref.tag in HF_REFS}:
        _drop_if_unused(doc, sect, rid)
    sect.getparent().remove(sect)
    doc.changed(p)
    doc.changed(nxt)


def _inherit_references(sect: etree._Element, nxt: etree._Element) -> None:
    """References of ``sect`` that ``nxt`` inherited (none of that kind and type): now its own."""
    own = {(ref.tag, ref.get(w("type"))) for ref in nxt if ref.tag in HF_REFS}
    for ref in [r for r in sect if r.tag in HF_REFS]:
        if (ref.tag, ref.get(w("type"))) not in own:
            _place_reference(nxt, ref)


def _place_reference(sect: etree._Element, ref: etree._Element) -> None:
    # Word writes headers before footers; any order inside the group is valid.
    same = [c for c in sect if c.tag == ref.tag]
    if same:
        same[-1].addnext(ref)
    elif ref.tag == w("headerReference") and (first := next((c for c in sect if c.tag in HF_REFS), None)) is not None:
        first.addprevious(ref)
    else:
        insert_child(sect, ref)


def _drop_if_unused(doc, sect: etree._Element, rid: str | None) -> None:
    """The header/footer part ``rid`` leaves the package when only the going break references it."""
    if not rid:
        return
    for other in section_list(doc):
        if other is not sect and any(ref.get(R_ID) == rid for ref in other if ref.tag in HF_REFS):
            return
    root = H.part_root(doc, rid)
    if root is not None:
        H.remove(doc, root)
