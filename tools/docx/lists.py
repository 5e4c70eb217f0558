"""List tools: make paragraphs list items, insert nested lists, restart numbering (SPEC §10)."""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from ooxml.lists import lists_edit as L
from ooxml.lists import numbering as N
from ooxml.text.build import make_paragraph
from ooxml.xml.errors import InvalidElementType, ValidationError
from ooxml.lists.numbering_formats import MAX_VALUE
from ooxml.review import edits
from ooxml.stylesheet.styles_builtin import ensure_style
from ooxml.model.places import block_range
from tools.docx.common import expect, resolve
from ooxml.model.insertion import block_insertion, insertion_neighbours
from tools.docx.protocol import Edit, place_blocks
from tools.runtime.call.registry import CallContext, tool

SHOWN = 10
MAX_ITEMS = 10_000
MAX_ITEM_TEXT = 100_000
LIST_PARAGRAPH = "List Paragraph"


def _paragraphs(session, element_id: str, end_id: str | None) -> list[etree._Element]:
    first = expect(resolve(session, element_id), {B.W_P}, "paragraph")
    if not end_id:
        return [first]
    last = expect(resolve(session, end_id, "end_id"), {B.W_P}, "paragraph", "end_id")
    return [el for el in block_range(first, last) if el.tag == B.W_P]


def _show(e, paragraphs) -> None:
    more = [f"  ... ({len(paragraphs) - SHOWN} more paragraphs) ..."] if len(paragraphs) > SHOWN else None
    e.show(*paragraphs[:SHOWN], note=more)


@tool(toolset="styles", title="Make paragraphs a list")
def docx_set_list(ctx: CallContext, e: Edit, session_id: str | None, element_id: str, list_type: str, level: int = 0,
                  end_id: str | None = None, continue_list: bool = True) -> None:
    """Make paragraphs (element_id to end_id) items of a Word list, or take them out.

    Args:
        list_type: none: out of the list.
        level: 0-8.
        continue_list: Continue the nearest earlier list of this type.
    """
    doc = e.doc
    L.check_type(list_type)
    L.check_level(level)
    paras = _paragraphs(e.session, element_id, end_id)
    _show(e, paras)
    fields = {"List Type": list_type, "Paragraphs": len(paras)}
    if list_type == "none":
        e.change(*paras)
        with edits.formatting(doc, paragraphs=paras):
            for p in paras:
                L.clear_num(doc, p)
    else:
        nid = L.previous_list(doc, paras[0], list_type, level) if continue_list else None
        fields["List"] = "continues the list before" if nid is not None else "new list"
        if nid is None:
            nid = L.new_list(doc, list_type, level, after=paras[-1].getnext())
        fields["Level"] = level
        sid = ensure_style(doc, LIST_PARAGRAPH)
        e.change(*paras)
        with edits.formatting(doc, paragraphs=paras):  # tracked: w:pPrChange keeps the old numbering
            for p in paras:
                L.set_num(p, nid, level)
                L.set_style_if_plain(p, sid)
    e.done(paras[0], marker="UPDATED", updated=paras[-1], fields=fields)


def flatten(items, depth: int = 0, out: list | None = None) -> list[tuple[str, int]]:
    """["a", ["a1", "a2"], "b"] -> [("a", 0), ("a1", 1), ("a2", 1), ("b", 0)]."""
    out = [] if out is None else out
    if depth >= L.LEVELS:
        raise ValidationError(f"items nest deeper than {L.LEVELS} levels.", hint="Word lists have levels 0 to 8.")
    for item in items:
        if isinstance(item, str):
            if len(item) > MAX_ITEM_TEXT:
                raise ValidationError(f"An item has {len(item)} characters, over the limit of {MAX_ITEM_TEXT}.",
                                      hint="Shorten the item, or add the long text as paragraphs with "
                                           "docx_insert_paragraph.")
            out.append((item, depth))
        elif isinstance(item, list):
            flatten(item, depth + 1, out)
        else:
            raise ValidationError(f"items must hold strings and lists of strings, not {type(item).__name__}.",
                                  hint='Example: ["First", ["First, a", "First, b"], "Second"].')
        if len(out) > MAX_ITEMS:
            raise ValidationError(f"More than {MAX_ITEMS} items.",
                                  hint="Insert the list in parts with several docx_insert_list calls, "
                                       "each after the last item.")
    return out


@tool(toolset="styles", title="Insert a list")
def docx_insert_list(ctx: CallContext, e: Edit, session_id: str | None,
                     items: list, position: str, list_type: str = "bullet") -> None:
    """Insert a list, one paragraph per item.

    Args:
        items: Strings, and lists for sub-items: ["Fruit", ["Apple"], "Bread"].
    """
    doc = e.doc
    L.check_type(list_type, allow_none=False)
    flat = flatten(items)
    if not flat:
        raise ValidationError("items is empty.", hint='Pass at least one item, e.g. ["First", "Second"].')
    pos = e.position(position)
    container, where = block_insertion(doc, pos)  # fails before any change
    nid = L.new_list(doc, list_type, 0, after=insertion_neighbours(container, where)[1])
    sid = ensure_style(doc, LIST_PARAGRAPH)
    paras = []
    for text, depth in flat:
        p = make_paragraph(text, sid)
        L.set_num(p, nid, depth)
        paras.append(p)
    place_blocks(e, paras, pos, {"List Type": list_type, "Items": len(paras)}, first_field="First Item")


@tool(toolset="styles", title="Restart list numbering")
def docx_restart_numbering(ctx: CallContext, e: Edit, session_id: str | None, element_id: str, start: int = 1) -> None:
    """Restart a numbered list at this paragraph (Word's "Restart at 1")."""
    _restart(e, element_id, start)


def _restart(e, element_id: str, start: int) -> None:
    doc = e.doc
    p = expect(resolve(e.session, element_id), {B.W_P}, "paragraph")
    if not isinstance(start, int) or not 0 <= start <= MAX_VALUE:
        raise ValidationError(f"start must be 0 to {MAX_VALUE}, not {start}.",
                              hint="Pass a whole number such as start=1.")
    defs = N.definitions(doc)
    ref = defs.para_num(p)
    if ref is None:
        raise InvalidElementType(f"Paragraph {doc.id_of(p)} is not a list item.",
                                 hint="Make it one with docx_set_list first.")
    nid, ilvl = ref
    e.show(p)
    later = [q for q in _following(doc, p) if (r := defs.para_num(q)) is not None and r[0] == nid]
    new = L.restart_num(doc, nid, ilvl, start)
    levels = {id(q): defs.para_num(q)[1] for q in later}
    e.change(p, *later)
    with edits.formatting(doc, paragraphs=[p, *later]):  # tracked: w:pPrChange keeps the old numbering
        for q in [p, *later]:
            L.set_num(q, new, levels[id(q)] if q is not p else ilvl)
    e.done(p, marker="UPDATED", updated=p, fields={"Start": start, "Level": ilvl, "Later Items Moved": len(later)})


def _following(doc, p: etree._Element):
    """Paragraphs after ``p`` in its story, in document order."""
    root = p
    while root.getparent() is not None:
        root = root.getparent()
    after = False
    for q in root.iter(B.W_P):
        if after:
            yield q
        elif q is p:
            after = True

