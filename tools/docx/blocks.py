"""Block tools: copy a range of blocks, replace text, page margins (SPEC §7)."""
from __future__ import annotations

from lxml import etree

from ooxml.model import places as P
from ooxml.text import body as B
from ooxml.text import replace as RP
from ooxml.charts import rename as chart_text
from ooxml.math import replace as math_text
from ooxml.layout import sections as S
from ooxml.review import edits
from ooxml.text.copies import check_copy_size, copy_blocks
from ooxml.lists.list_copies import renumber_whole_lists
from ooxml.xml.errors import InvalidElementType, OoxmlError, ValidationError
from ooxml.xml.namespaces import w
from ooxml.xml.units import twips
from ooxml.model.stories import TEXT
from render.width import cut
from tools.docx.common import call_limits, resolve
from ooxml.model.insertion import block_insertion
from tools.docx.common import section_index
from tools.docx.protocol import Edit, place_blocks
from tools.runtime.call.registry import CallContext, tool
from tools.runtime.sessions.sessions import Session

SHOWN = 10
MAX_TEXT = 100_000


# ---- copy a range ---------------------------------------------------------------------------------

def _block(session: Session, raw: str, arg: str) -> etree._Element:
    el = resolve(session, raw, arg)
    if not P.is_placed_block(el):
        raise InvalidElementType(f"{arg} must be a block (paragraph, table, content control) of the body, "
                                 f"a cell, a header ..., not a {B.kind(el)}.",
                                 hint="Use the ID of a paragraph or table (docx_get_structure lists them).")
    return el


@tool(title="Copy a range of elements")
def docx_copy_elements_range(ctx: CallContext, e: Edit, session_id: str | None, start_id: str, end_id: str,
                             position: str) -> None:
    """Copy the blocks start_id..end_id (one container) to a position.

    Args:
        end_id: Last block (same container).
    """
    session, doc = e.session, e.doc
    start, end = _block(session, start_id, "start_id"), _block(session, end_id, "end_id")
    originals = P.block_range(start, end)
    check_copy_size(originals, call_limits(ctx, doc).max_call_growth_bytes)
    pos = e.position(position)
    container, _ = block_insertion(doc, pos, "paragraph" if end.tag == B.W_P else B.kind(end).lower())
    copies = copy_blocks(doc, originals, pos.target, container)
    renumber_whole_lists(doc, originals, copies, _after(doc, end, pos))  # a copied whole list numbers afresh
    fields = {"Source": f"{doc.id_of(start)} .. {doc.id_of(end)}",
              "Blocks Copied": sum(1 for el in copies if B.is_block(el))}
    place_blocks(e, copies, pos, fields, first_field="First Copy")


def _after(doc, end: etree._Element, pos) -> bool:
    """Whether the copy goes after the range (both among the body's blocks), else unknown: False."""
    target = pos.target
    if pos.mode in ("start", "end") or end.getparent() is not doc.body or target.getparent() is not doc.body:
        return pos.mode == "end" and target is doc.body
    order = doc.order(doc.body)
    return order.index(target) >= order.index(end)


# ---- replace ----------------------------------------------------------------------------------------

def _scopes(session: Session, scope_id: str | None) -> list[etree._Element]:
    """The roots to search: one element, or the body, headers, footers and notes."""
    doc = session.doc
    if scope_id and scope_id.split()[0] == "document_body":
        return [doc.body]
    if scope_id:
        el = resolve(session, scope_id, "scope_id")
        if el.tag != B.W_P and B.find_ancestor(el, B.W_P) is not None:
            raise InvalidElementType(f"scope_id must be a paragraph, table, cell or container, not a {B.kind(el)}.",
                                     hint="Use the ID of the paragraph that holds it.")
        return [el]
    return doc.story_roots(TEXT, body=True)  # registered: IDs and edits work there too


def _spaced(paragraphs: list[etree._Element]) -> list:
    """The paragraphs with an empty line between their boxes."""
    out: list = []
    for p in paragraphs:
        out += ["", p] if out else [p]
    return out


@tool(title="Replace text")
def docx_replace_text(ctx: CallContext, e: Edit, session_id: str | None, old_text: str, new_text: str,
                      scope_id: str | None = None) -> None:
    """Replace every old_text (exact, case-sensitive) with new_text across runs, in equations (LaTeX) and charts
    too.

    Args:
        old_text: Not empty; no tabs or line breaks.
        new_text: May be empty (delete); newlines become line breaks.
        scope_id: Only inside this element (paragraph, table, cell, header ...), or document_body.
    """
    session, doc = e.session, e.doc
    RP.check_old_text(old_text)
    if len(new_text) > MAX_TEXT:
        raise OoxmlError(f"new_text is over {MAX_TEXT} characters.", error_type="LimitExceeded",
                         hint="Replace with a shorter text, or in several calls.")
    found, maths, charts = [], [], []
    for root in _scopes(session, scope_id):
        found += RP.find_in_scope(root, old_text)
        maths += math_text.planned(root, old_text, new_text)
        charts += chart_text.matching(doc, root, old_text)
    fields = {"Old Text": old_text, "New Text": new_text, "Scope": scope_id or "whole document"}
    if found or maths or charts:
        _replace(ctx, e, (found, maths, charts), old_text, new_text, fields)
    else:
        _no_match(e, fields)


def _replace(ctx, e, matches: tuple, old_text: str, new_text: str, fields: dict) -> None:
    """The runs' matches, equations (in LaTeX) and charts (titles, series names) replaced."""
    doc, (found, maths, charts) = e.doc, matches
    RP.check_growth(found, old_text, new_text, call_limits(ctx, doc).max_call_growth_bytes)
    changed = list(dict.fromkeys([m.p for m in found] + [B.find_ancestor(x, B.W_P) for x, *_ in maths + charts]))
    more = f"  ... ({len(changed) - SHOWN} more changed paragraphs not shown) ..."
    e.show(*_spaced(changed[:SHOWN]), note=["", more] if len(changed) > SHOWN else None)
    e.change(*changed)
    total = edits.replace_matches(doc, found, old_text, new_text) if found else 0
    for math, built, count in maths:
        math.getparent().replace(math, built)
        total += count
    total += sum(chart_text.replace(doc, chart, old_text, new_text) for _, chart in charts)
    fields.update({"Replacements": total, "Paragraphs Changed": len(changed)})
    if maths:
        fields["Equations Changed"] = len(maths)
    if charts:
        fields["Charts Changed"] = len(charts)
    if (maths or charts) and e.not_tracked(""):  # the runs' replacements are revisions, these are not
        fields["Tracked"] = "not in equations or charts: Word records no revision there"
    e.done(changed[-1], marker="UPDATED", updated=changed[-1], fields=fields)


def _no_match(e, fields: dict) -> None:
    fields["Replacements"] = 0
    e.done(_context_element(e.session), fields=fields, head_id=False,
           content=f"No occurrence of '{cut(fields['Old Text'], 80)}' in {fields['Scope']}: nothing changed.")


def _context_element(session: Session) -> etree._Element | None:
    doc = session.doc
    el = doc.ids.get(session.cursor.element_id) if session.cursor.element_id else None
    if el is None:
        el = next(B.iter_blocks(doc.body), None)
    return el


# ---- margins --------------------------------------------------------------------------------------

@tool(toolset="format", idempotent=True, title="Set page margins")
def docx_set_margins(ctx: CallContext, e: Edit, session_id: str | None, top: float | str | None = None,
                     bottom: float | str | None = None, left: float | str | None = None,
                     right: float | str | None = None, section_id: str | None = None) -> None:
    """Set the page margins of every section, or of section_id's."""
    _set_margins(e, top, bottom, left, right, section_id)


def _set_margins(e, top, bottom, left, right, section_id) -> None:
    session, doc = e.session, e.doc
    values = {k: twips(v, k) for k, v in (("top", top), ("bottom", bottom), ("left", left), ("right", right))
              if v is not None}
    if not values:
        raise ValidationError("Give at least one of top, bottom, left, right.", hint="Example: top='2cm', left=1.25")
    sections = S.body_sections(doc.body)
    if section_id:
        every, index = section_index(session, section_id)
        sections = [every[index]]
    S.check_margins(sections, values)
    if not sections:
        sections = [etree.Element(w("sectPr"))]  # the body's own section, made explicit
        doc.insert_block(sections[0], container=doc.body)
    shown = sections[:20]
    note = [f"... ({len(sections) - 20} more sections changed the same way)"] if len(sections) > 20 else None
    e.show(*[S.margins_line(i, s) for i, s in enumerate(shown)], note=note)
    e.change(*sections)
    with edits.formatting(doc, sections=sections):  # tracked: w:sectPrChange keeps the old margins
        for sect in sections:
            S.set_margins(sect, values)
    e.changed(doc.body)
    e.after(*[S.margins_line(i, s) for i, s in enumerate(shown)])
    fields = {"Sections": len(sections),
              "Margins": ", ".join(f"{k} {v / 1440:.2f}in" for k, v in values.items())}
    e.done(_context_element(session), fields=fields, head_id=False)
