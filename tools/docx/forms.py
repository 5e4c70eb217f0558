"""Content controls and template filling (SPEC §11, toolset forms): thin tools over ooxml/controls
and ooxml/fill."""
from __future__ import annotations

from typing import Literal

from lxml import etree

from ooxml.text import body as B
from ooxml.review import edits
from ooxml.review import revisions as REV
from ooxml.controls import binding as BIND
from ooxml.controls import create as C
from ooxml.controls import model as M
from ooxml.controls import values as V
from ooxml.xml import growth
from ooxml.xml.errors import InvalidElementType, InvalidPosition, ValidationError
from ooxml.fill import engine
from ooxml.text.images import add_image_part
from ooxml.opc.link_policy import policy_of
from ooxml.xml.namespaces import w
from render.answer import success_answer
from render.width import cut
from tools.docx.common import call_limits, expect, resolve, session_of
from ooxml.model.insertion import block_insertion
from tools.docx.protocol import Edit
from tools.runtime.call.registry import CallContext, tool
from tools.docx.common import raster_at

MAX_LISTED = 200
KIND = Literal["text", "rich_text", "checkbox", "dropdown", "combo_box", "date", "picture", "repeating_section"]


def _control(session, raw: str, arg: str = "control_id") -> M.Control:
    return M.read(expect(resolve(session, raw, arg), {B.W_SDT}, "content control", arg))


def _shown_block(doc, el: etree._Element) -> etree._Element:
    """The block a view shows for ``el``: its paragraph, or the top table for rows and cells."""
    level = M.level_of(el) if el.tag == B.W_SDT else None
    if el.tag == B.W_R or level == "inline":
        return B.find_ancestor(el, B.W_P)
    if el.tag in (B.W_TR, B.W_TC) or level in ("row", "cell"):
        return B.find_ancestor(el, B.W_TBL)
    return el


def _image_reader(ctx: CallContext):
    def read(path: str):
        return raster_at(ctx, path)
    return read


def _url_check(ctx: CallContext):
    return policy_of(ctx.services.config).check_url


def _describe(doc, ctrl: M.Control, stores: dict) -> str:
    bits = [f"- {doc.id_of(ctrl.el)} [{ctrl.kind}, {ctrl.level}]"]
    if ctrl.tag:
        bits.append(f"tag={ctrl.tag}")
    if ctrl.alias:
        bits.append(f"alias={ctrl.alias}")
    gallery = M.gallery(ctrl)
    if gallery:
        bits.append(f"gallery={gallery}")
    if ctrl.kind == "checkbox":
        bits.append("☒ checked" if ctrl.checked else "☐ unchecked")
    elif ctrl.kind not in ("repeating_section", "group"):
        bits.append(f'value="{cut(M.value_text(ctrl, 200).replace(chr(10), " ↵ "), 60)}"')
    else:
        items = [c for c in ctrl.content if c.tag == B.W_SDT] if ctrl.content is not None else []
        bits.append(f"{len(items)} items")
    if ctrl.placeholder:
        bits.append("(placeholder)")
    if ctrl.items:
        bits.append("items=" + cut(", ".join(v if d == v else f"{d}={v}" for d, v in ctrl.items), 60))
    if ctrl.date_format:
        bits.append(f"format={ctrl.date_format}")
    if ctrl.lock:
        bits.append(f"lock={ctrl.lock}")
    if ctrl.binding is not None:
        why = BIND.not_evaluated(ctrl.binding)
        found = None if why else BIND.bound_node(doc.package, ctrl.binding, stores)
        node = f' = "{cut(BIND.read_node(found[1]), 40)}"' if found else \
            f" (binding not evaluated: {cut(why, 60)})" if why else " (node not found)"
        bits.append(f"bound {cut(ctrl.binding.xpath, 60)}{node}")
    return " ".join(bits)


@tool(toolset="forms", read_only=True, idempotent=True, title="List content controls")
def docx_list_content_controls(ctx: CallContext, session_id: str | None, scope_id: str | None = None) -> str:
    """List content controls: ID, kind, level, tag, alias, value, items, lock, binding."""
    session = session_of(ctx, session_id)
    doc = session.doc
    scope = resolve(session, scope_id, "scope_id") if scope_id else None
    controls = M.all_controls(doc, scope)  # a table of contents too: its toc_ ID is what docx_update_toc takes
    stores = BIND.store_parts(doc.package)
    lines = [_describe(doc, c, stores) for c in controls[:MAX_LISTED]]
    if len(controls) > MAX_LISTED:
        lines.append(f"- ... {len(controls) - MAX_LISTED} more: pass scope_id to list part of the document")
    return success_answer("List Content Controls", fields={"Controls": len(controls)},
                          content="\n".join(lines) or "The document has no content controls.")


@tool(toolset="forms", title="Set a content control")
def docx_set_content_control(ctx: CallContext, e: Edit, session_id: str | None, control_id: str,
                             value: str | bool | int | float) -> None:
    """Set a control's value by kind: text, Markdown (rich text), boolean (checkbox), list item, ISO date,
    picture path."""
    _set_control(ctx, e, control_id, value)


def _set_control(ctx, e, control_id: str, value) -> None:
    doc = e.doc
    ctrl = _control(e.session, control_id)
    REV.refuse_deleted(doc, ctrl.el, "control_id")
    planned = V.plan(ctrl, value, _image_reader(ctx), _url_check(ctx))
    added = len(planned.display.encode()) + (len(planned.image.data) if planned.image else 0)
    limit = call_limits(ctx, doc).max_call_growth_bytes
    growth.spend(added, limit, "The value", hint="Pass a smaller value; the operator sets limits.max_call_growth_bytes.")
    shown = _shown_block(doc, ctrl.el)
    e.show(shown)
    # Everything is checked: from here on the document changes.
    rid = add_image_part(doc.package, doc.part_of(ctrl.el).name, planned.image) if planned.image else None
    V.apply(doc, planned, BIND.store_parts(doc.package) if ctrl.binding else None, rid)
    fields = {"Kind": ctrl.kind, "Value": cut(planned.display or planned.stored or "", 60)}
    if ctrl.binding is not None:
        fields["Bound"] = "yes" if BIND.bound_node(doc.package, ctrl.binding) else "node not found"
    e.done(shown, marker="UPDATED", element_id=doc.id_of(ctrl.el), updated=ctrl.el, fields=fields)


@tool(toolset="forms", title="Insert a content control")
def docx_insert_content_control(ctx: CallContext, e: Edit, session_id: str | None, kind: KIND,
                                position: str | None = None,
                                element_id: str | None = None, tag: str | None = None, alias: str | None = None,
                                items: list | None = None, value: str | bool | int | float | None = None) -> None:
    """Insert a content control around element_id (paragraph, table, run, row, cell), or empty at position.

    Args:
        items: Dropdown/combo choices: strings or {display, value}.
        value: Set after inserting.
    """
    _insert_control(ctx, e, kind, position, element_id, tag, alias, items, value)


def _insert_control(ctx, e, kind, position, element_id, tag, alias, items, value) -> None:
    session, doc = e.session, e.doc
    C.check_names(tag, alias)
    choices = C.check_items(kind, items)
    if (position is None) == (element_id is None):
        raise ValidationError("Pass either position (a new empty control) or element_id (wrap that element).",
                              hint="E.g. position='end:para_3f9a2c' or element_id='para_3f9a2c'.")
    if element_id is not None:
        target = expect(resolve(session, element_id), {B.W_P, B.W_TBL, B.W_R, B.W_TR, B.W_TC},
                        "paragraph, table, run, row or cell")
        REV.refuse_deleted(doc, target)
        e.show(_shown_block(doc, target))
        sdt = _wrap(e, kind, target, tag, alias, choices)
        shown = _shown_block(doc, sdt)
    else:
        sdt, shown = _insert_new(e, kind, position, tag, alias, choices)
    C.declare_namespaces(doc, sdt)
    e.after(shown)
    ctrl = M.read(sdt)
    if value is not None:
        planned = V.plan(ctrl, value, _image_reader(ctx), _url_check(ctx))
        rid = add_image_part(doc.package, doc.part_of(sdt).name, planned.image) if planned.image else None
        V.apply(doc, planned, None, rid)
    e.done(shown, marker="NEW", element_id=doc.id_of(sdt), inserted=sdt, cursor=(shown, "after"),
           fields={"Kind": kind, "Level": ctrl.level, **({"Tag": tag} if tag else {})})


def _wrap(e, kind: str, target: etree._Element, tag, alias, choices) -> etree._Element:
    doc = e.doc
    sdt, holder = C.wrapper(kind, target, tag, alias, choices)
    parent = target.getparent()
    if parent in doc.top_containers():  # a block of the body or a story: moved through the block index
        nxt = target.getnext()
        doc.remove_block(target)
        holder.append(target)
        doc.ids.adopt(target)
        doc.insert_block(sdt, container=parent, **({"before": nxt} if nxt is not None else {}), track=False)
        return sdt
    e.change(parent)  # it gets the control in the target's place (and maybe a cell's last paragraph)
    target.addprevious(sdt)
    holder.append(target)
    _keep_cell_paragraph(sdt)
    return sdt


def _keep_cell_paragraph(sdt: etree._Element) -> None:
    """A cell ends with a paragraph: a control wrapping its last paragraph gets an empty one after."""
    parent = sdt.getparent()
    if parent.tag == B.W_TC and B.next_block(sdt) is None:
        sdt.addnext(etree.Element(w("p")))


def _insert_new(e, kind: str, position: str, tag, alias, choices):
    """A new empty control at a position: (the control, the block whose box shows it)."""
    doc = e.doc
    pos = e.position(position)
    t = pos.target
    inline = (t.tag == B.W_P and pos.mode in ("start", "end")) or t.tag == B.W_R
    if inline:
        if kind == "repeating_section":
            raise InvalidPosition("A repeating section goes between blocks, not among runs.",
                                  hint="Use before:/after: a paragraph, or start:/end: a container.")
        if t.tag == B.W_R and pos.mode not in ("before", "after"):
            raise InvalidPosition("A control cannot go inside a run.", hint="Use before:/after: the run.")
        para = t if t.tag == B.W_P else B.find_ancestor(t, B.W_P)
        e.show(para)
        sdt = C.new_inline(kind, tag, alias, choices)
        e.change(para)
        if t.tag == B.W_R:
            (t.addprevious if pos.mode == "before" else t.addnext)(sdt)
        elif pos.mode == "start":
            ppr = t.find(w("pPr"))
            t.insert(1 if ppr is not None else 0, sdt)
        else:
            t.append(sdt)
        edits.mark_inserted(doc, list(sdt.iter(B.W_R)))
        e.report()  # before a value is set in it
        return sdt, para
    container, where = block_insertion(doc, pos, "paragraph" if container_ends_ok(pos) else "control")
    sdt = C.new_block(kind, tag, alias, choices)
    e.show()
    doc.insert_block(sdt, container=container, **where)
    return sdt, sdt


def container_ends_ok(pos) -> bool:
    return pos.mode != "end" or pos.target.tag != B.W_TC


@tool(toolset="forms", title="Add a repeating section item")
def docx_add_repeating_item(ctx: CallContext, e: Edit, session_id: str | None, control_id: str,
                            after_item_id: str | None = None,
                            empty: bool = False) -> None:
    """Add a repeating section item copied from after_item_id or the last item.

    Args:
        empty: Clear the copy's text.
    """
    _add_item(ctx, e, control_id, after_item_id, empty)


def _add_item(ctx, e, control_id: str, after_item_id: str | None, empty: bool) -> None:
    session, doc = e.session, e.doc
    section = _control(session, control_id)
    if section.kind != "repeating_section":
        raise InvalidElementType(f"{control_id} is a {section.kind.replace('_', ' ')} control, not a repeating "
                                 "section.", hint="docx_list_content_controls shows each control's kind.")
    if section.lock == "contentLocked":
        V.check_lock(section)
    after = None
    if after_item_id is not None:
        after = expect(resolve(session, after_item_id, "after_item_id"), {B.W_SDT}, "repeating section item",
                       "after_item_id")
        if after.getparent() is not section.content:
            raise InvalidElementType(f"{after_item_id} is not an item of {control_id}.",
                                     hint="docx_list_content_controls with scope_id=the section lists its items.")
    limit = call_limits(ctx, doc).max_call_growth_bytes
    size = len(etree.tostring(after if after is not None else section.content))
    growth.spend(size, limit, "Copying the item", hint="The operator sets limits.max_call_growth_bytes.")
    shown = _shown_block(doc, section.el)
    e.show(shown)
    e.change(section.el)
    new = C.add_item(doc, section, after, empty)
    REV.mark_inserted(doc, new)
    items = [c for c in section.content if c.tag == B.W_SDT]
    e.done(shown, marker="UPDATED", element_id=doc.id_of(new), inserted=new, keep_cursor=True,
           fields={"Section": doc.id_of(section.el), "Items": len(items)})


@tool(toolset="forms", title="Fill a template")
def docx_fill_template(ctx: CallContext, e: Edit, session_id: str | None, data: dict, strict: bool = False) -> None:
    """Fill controls (tag or alias), {{name}} placeholders and MERGEFIELDs from data; arrays repeat items or
    rows.

    Args:
        strict: Refuse (nothing changed) if data lacks a name used, or has unused names.
    """
    _fill(ctx, e, data, strict)


def _fill(ctx, e, data: dict, strict: bool) -> None:
    doc = e.doc
    limit = call_limits(ctx, doc).max_call_growth_bytes
    report = engine.fill(doc, data, strict=strict, read_image=_image_reader(ctx), max_growth=growth.left(limit),
                         check_url=_url_check(ctx))
    growth.spend(report.growth, limit, "The fill", hint="Fill fewer items per call; the operator sets "
                                                        "limits.max_call_growth_bytes.")
    tops = _top_blocks(doc, report.changed)
    fields = {"Filled": sum(report.filled.values()), "Missing": len(report.missing), "Unused": len(report.unused),
              "Unsupported": sum(report.unsupported.values()) or None,
              **{k.replace("_", " ").title(): v for k, v in report.counts.items() if v}}
    if REV.tracker(doc) is not None and tops:
        fields["Tracked"] = "yes"
    content = _report_text(report)
    if not tops:
        e.plain(success_answer("Fill Template", fields=fields, content=content))
    else:
        e.done(tops[0], marker="UPDATED", fields=fields, content=content, element_id=doc.id_of(tops[0]),
               updated=tops[0])


def _top_blocks(doc, changed: list) -> list:
    """The blocks of their containers holding what the fill changed, first first, each once."""
    out, seen = [], set()
    for el in changed:
        cur = doc.top_block(el)
        if cur is not None and cur not in seen:
            seen.add(cur)
            out.append(cur)
    main = [el for el in out if doc.part_of(el) is doc.main]  # the body first, in document order
    main.sort(key=lambda el: el.getparent().index(el))
    return main + [el for el in out if doc.part_of(el) is not doc.main]


def _listing(book, limit: int = 30) -> str:
    items = list(book.items()) if isinstance(book, dict) else [(n, 1) for n in book]
    text = ", ".join(f"{n}" + (f" ×{c}" if c > 1 else "") for n, c in items[:limit])
    return text + (f", ... {len(items) - limit} more" if len(items) > limit else "")


def _report_text(report: engine.Report) -> str:
    return "\n".join([f"Filled: {_listing(report.filled) or '-'}", f"Missing (no data): {_listing(report.missing) or '-'}",
                      f"Unused (no place): {_listing(report.unused) or '-'}"]
                     + ([f"Unsupported (left as written): {_listing(report.unsupported)}"] if report.unsupported else []))
