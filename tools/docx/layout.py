"""Sections and page setup, headers and footers (SPEC §10, toolset layout)."""
from __future__ import annotations

from typing import Literal

from lxml import etree

from ooxml.text import body as B
from ooxml.layout import headers as H
from ooxml.layout import page_setup as PS
from ooxml.review import edits
from ooxml.layout import sections as S
from ooxml.text.build import make_paragraph
from ooxml.xml.errors import ElementNotFound, ValidationError
from ooxml.xml.namespaces import w
from ooxml.xml.order import get_or_add, insert_child
from ooxml.xml.units import twips
from render.answer import success_answer
from ooxml.model.insertion import body_insertion, insertion_neighbours
from tools.docx.common import clean_id, section_index, session_of
from tools.docx.protocol import Edit
from tools.docx.view import context_text, cursor_line
from tools.runtime.call.registry import CallContext, tool
from tools.runtime.sessions.sessions import Cursor, Session

MAX_LISTED = 200


def _twips_line(box) -> str:
    return (f"top {box.top / 1440:.2f}in, bottom {box.bottom / 1440:.2f}in, "
            f"left {box.left / 1440:.2f}in, right {box.right / 1440:.2f}in")


def _hf_summary(doc, sections: list, i: int) -> str:
    parts = []
    for kind in H.KINDS:
        for which in H.WHICH:
            found = H.shown(doc, sections, i, kind, which)
            if found.root is None:
                continue
            note = "" if found.from_section == i else f" (inherited from section {found.from_section + 1})"
            parts.append(f"{kind} {which}: {doc.id_of(found.root)}{note}")
    return "; ".join(parts) or "no headers or footers"


@tool(toolset="layout", read_only=True, idempotent=True, title="List sections")
def docx_list_sections(ctx: CallContext, session_id: str | None) -> str:
    """List sections: ID, range, page size, orientation, margins, columns, header/footer IDs."""
    session = session_of(ctx, session_id)
    doc = session.doc
    infos = PS.sections_with_ranges(doc)
    if not infos:  # a read-only tool does not add one: say what Word assumes
        return success_answer("List Sections", fields={"Sections": 1}, content=(
            "- (one section without properties: Word's defaults, Letter 8.50in × 11.00in portrait, 1in margins, "
            "no headers or footers; docx_set_page_setup, docx_set_margins or docx_create_header_footer add them)"))
    sections = [info.sect for info in infos]
    lines = []
    for i, info in enumerate(infos[:MAX_LISTED]):
        box = S.page_box(info.sect)
        rng = (f"{doc.id_of(info.first)} .. {doc.id_of(info.last)}" if info.first is not None and info.last is not None
               else "(empty)")
        lines += [f"- {doc.id_of(info.sect)} (section {i + 1}): {rng}",
                  f"  {PS.setup_line(i, info.sect).split(': ', 1)[1]}; starts: {PS.break_kind(info.sect)}"
                  + ("; different first page" if H.title_page_on(info.sect) else ""),
                  f"  margins: {_twips_line(box)}",
                  f"  {_hf_summary(doc, sections, i)}"]
    fields = {"Sections": len(infos)}
    if len(infos) > MAX_LISTED:
        fields["Shown"] = f"first {MAX_LISTED}"
    return success_answer("List Sections", fields=fields, content="\n".join(lines))


@tool(toolset="layout", title="Insert a section break")
def docx_insert_section_break(ctx: CallContext, e: Edit, session_id: str | None, position: str,
                              kind: Literal["next_page", "continuous", "even_page", "odd_page"] = "next_page") -> None:
    """Insert a section break: the content before it becomes its own section.

    Args:
        kind: How the next section starts.
    """
    _section_break(e, position, kind)


def _section_break(e, position: str, kind: str) -> None:
    doc = e.doc
    if kind not in PS.BREAK_KINDS:
        raise ValidationError(f"kind '{kind}' is not next_page, continuous, even_page or odd_page.",
                              hint="Pass kind='next_page' (the usual break), or continuous, even_page or odd_page.")
    pos, container, where = body_insertion(doc, e.position(position), "section break",
                                           "A section break can only go between blocks of the document body.",
                                           "Use a position such as after:para_… on a paragraph of the body.")
    prev, nxt = insertion_neighbours(container, where)
    # Tracked, the break is a new paragraph mark (an inserted one), as Word records a section break.
    reuse = (prev is not None and prev.tag == B.W_P and prev.find(f"{w('pPr')}/{w('sectPr')}") is None
             and not edits.tracking(doc))
    e.show(*PS_lines(doc))
    e.after(lambda: PS_lines(doc))
    if reuse:
        old = S.section_of(doc, prev)
        holder = prev
        e.change(holder)
    else:
        old = S.section_of(doc, nxt) if nxt is not None else None
        holder = make_paragraph()
        doc.insert_block(holder, container=container, **where)
        e.changed(holder)
    if old is None:
        old = PS.ensure_body_section(doc)
    e.change(old)
    with edits.formatting(doc, sections=[old]):  # tracked: how the next section starts, as it was
        new = PS.split_section(old, kind)
    insert_child(get_or_add(holder, "pPr"), new)
    e.done(holder, marker="NEW", element_id=doc.id_of(new), inserted=new, cursor=(holder, "after"),
           fields={"Position": pos.text, "Kind": kind, "Break Paragraph": doc.id_of(holder)})


def PS_lines(doc) -> list[str]:  # noqa: N802 - reads as "page setup lines"
    sections = PS.section_list(doc)
    lines = [PS.setup_line(i, s) + f", starts {PS.break_kind(s)}" for i, s in enumerate(sections[:20])]
    if len(sections) > 20:
        lines.append(f"... ({len(sections) - 20} more sections)")
    return lines


def _setup_from_args(page_size, width, height, orientation, columns, column_spacing) -> PS.PageSetup:
    setup = PS.PageSetup(orientation=orientation, columns=columns)
    if page_size is not None:
        size = PS.PAGE_SIZES.get(str(page_size).strip().lower())
        if size is None:
            raise ValidationError(f"page_size '{page_size}' is not a known size.",
                                  hint="Use A4, A5, A3, Letter or Legal, or give width and height.")
        setup.size = size
    if width is not None or height is not None:
        if page_size is not None:
            raise ValidationError("Give page_size or width/height, not both.",
                                  hint="Drop page_size to set an exact width and height, or drop width and height.")
        setup.exact = (twips(width, "width") if width is not None else None,
                       twips(height, "height") if height is not None else None)
    if column_spacing is not None:
        setup.column_spacing = twips(column_spacing, "column_spacing")
    PS.check_setup(setup)
    return setup


@tool(toolset="layout", idempotent=True, title="Set page setup")
def docx_set_page_setup(ctx: CallContext, e: Edit, session_id: str | None, section_id: str | None = None,
                        orientation: Literal["portrait", "landscape"] | None = None, page_size: str | None = None,
                        width: float | str | None = None, height: float | str | None = None,
                        columns: int | None = None, column_spacing: float | str | None = None) -> None:
    """Set page size, orientation and columns of section_id's section, or of all.

    Args:
        page_size: A4, A5, A3, Letter or Legal.
        width: Instead of page_size.
        height: Instead of page_size.
        columns: 1 for none.
    """
    _page_setup(e, section_id, orientation, page_size, width, height, columns, column_spacing)


def _page_setup(e, section_id, orientation, page_size, width, height, columns, column_spacing) -> None:
    session, doc = e.session, e.doc
    if all(v is None for v in (orientation, page_size, width, height, columns, column_spacing)):
        raise ValidationError("Nothing to change.",
                              hint="Give orientation, page_size, width/height, columns or column_spacing.")
    setup = _setup_from_args(page_size, width, height, orientation, columns, column_spacing)
    sections, index = section_index(session, section_id)
    if not sections:
        sections = [PS.ensure_body_section(doc)]
    targets = [sections[index]] if section_id else sections
    PS.check_result(targets, setup)
    e.show(*PS_lines(doc))
    e.after(lambda: PS_lines(doc))
    e.change(*targets)
    with edits.formatting(doc, sections=targets):  # tracked: w:sectPrChange keeps the old setup
        for sect in targets:
            PS.apply_setup(sect, setup)
    e.report()
    fields = {"Sections": len(targets) if not section_id else f"{index + 1} ({doc.id_of(targets[0])})"}
    el = PS.sections_with_ranges(doc)[index if section_id else 0].last
    e.done(el, fields=fields, head_id=False)


# ---- headers and footers ------------------------------------------------------------------------------

def _hf_answer(session: Session, operation: str, root: etree._Element, fields: dict,
               before: list[str] | None = None) -> str:
    doc = session.doc
    context = context_text(doc, root, None, session.cursor)
    changes = None
    if before is not None:
        from render.diff import render_diff
        from tools.docx.common import box_lines
        changes = render_diff(before, box_lines(doc, list(B.iter_blocks(root))[:15]))
    return success_answer(operation, element_id=doc.id_of(root), fields=fields, context=context,
                          changes=changes, cursor=cursor_line(doc, session.cursor))


@tool(toolset="layout", read_only=True, idempotent=True, title="Show a header or footer")
def docx_get_header_footer(ctx: CallContext, session_id: str | None, kind: Literal["header", "footer"] = "header",
                           which: Literal["default", "first", "even"] = "default",
                           section_id: str | None = None) -> str:
    """Show a section's header or footer with IDs."""
    session = session_of(ctx, session_id)
    doc = session.doc
    H.check_kind(kind, which)
    sections, index = section_index(session, section_id)
    found = H.shown(doc, sections, index, kind, which) if sections else H.Shown(None, None)
    if found.root is None:
        raise ElementNotFound(f"Section {index + 1} has no {which} {kind}.",
                              hint=f"Create one with docx_create_header_footer(kind='{kind}', which='{which}'"
                                   + (f", section_id='{clean_id(section_id)}'" if section_id else "") + ").")
    fields = {"Kind": kind, "Which": which, "Section": index + 1}
    if found.from_section != index:
        fields["Inherited From"] = f"section {found.from_section + 1} ({doc.id_of(sections[found.from_section])})"
    if which == "first" and not H.title_page_on(sections[index]):
        fields["Note"] = "the section has no different first page (w:titlePg): Word shows the default one"
    return _hf_answer(session, "Get Header Footer", found.root, fields)


@tool(toolset="layout", title="Create a header or footer")
def docx_create_header_footer(ctx: CallContext, e: Edit, session_id: str | None,
                              kind: Literal["header", "footer"] = "header",
                              which: Literal["default", "first", "even"] = "default",
                              section_id: str | None = None, text: str | None = None) -> None:
    """Create a header or footer for a section with one paragraph."""
    _create_header_footer(e, kind, which, section_id, text)


def _create_header_footer(e, kind: str, which: str, section_id: str | None, text: str | None) -> None:
    session, doc = e.session, e.doc
    H.check_kind(kind, which)
    sections, index = section_index(session, section_id)
    sect = sections[index] if sections else None
    if sect is not None and (kind, which) in PS.header_footer_refs(sect):
        raise ValidationError(f"Section {index + 1} already has a {which} {kind} of its own.",
                              hint=f"Show and edit it with docx_get_header_footer(kind='{kind}', which='{which}').")
    if sect is None:
        sect = PS.ensure_body_section(doc)
    style = doc.styles.find_id(H.STYLE_NAME[kind])
    with edits.formatting(doc, sections=[sect]):  # tracked: a first-page switch (w:titlePg) is a section change
        root = H.create(doc, sect, kind, which)
    p = make_paragraph(text or "", style)
    doc.insert_block(p, container=root)
    pid = doc.id_of(p)
    session.cursor = Cursor(pid, "after")  # before the answer, which shows it
    fields = {"Kind": kind, "Which": which, "Section": index + 1, "Paragraph": pid,
              "Part": doc.part_of(root).name}
    if edits.tracking(doc):
        fields["Tracked"] = ("text only: Word records no revision for adding a header or footer part; "
                             "its text is marked inserted")
    e.plain(_hf_answer(session, "Create Header Footer", root, fields, before=[]), inserted=root)
