"""Style tools: list, show, create, change and apply styles (SPEC §10, toolset 'styles')."""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from ooxml.stylesheet import styles_builtin as SB
from ooxml.stylesheet import styles_props as SP
from ooxml.text import formatting as F
from ooxml.text.format_args import check_element_properties
from ooxml.stylesheet import styles_write as SW
from ooxml.xml.errors import InvalidElementType, OoxmlError, ValidationError
from ooxml.review import edits
from ooxml.xml.namespaces import w
from render.answer import success_answer
from tools.docx.common import resolve, session_of
from tools.docx.protocol import Edit
from tools.runtime.call.registry import CallContext, tool

MAX_LISTED = 300


class StyleNotFound(OoxmlError):
    error_type = "StyleNotFound"


def _styles_root(doc) -> etree._Element:
    part = SW.styles_part(doc)
    if part is None:
        raise ValidationError("This document has no styles part (word/styles.xml).",
                              hint="Open a document saved by Word, or create one with docx_create.")
    return part.tree.getroot()


def _type(st: etree._Element) -> str:
    return st.get(w("type"), "paragraph")


def _name(st: etree._Element) -> str:
    n = st.find(w("name"))
    return n.get(w("val"), st.get(w("styleId"), "")) if n is not None else st.get(w("styleId"), "")


def _known(doc, kind: str | None = None) -> str:
    names = [_name(st) for st in doc.styles.by_id.values() if kind is None or _type(st) == kind][:20]
    return ", ".join(names) or "(none)"


def find_or_latent(doc, name: str, make_real: bool) -> tuple[str | None, str | None]:
    """(style ID, builtin key): an existing style, else a latent built-in (made real if asked)."""
    sid = SB.find_style(doc, name)
    if sid is not None:
        return sid, None
    key = SB.builtin_key(name)
    if key is None:
        raise StyleNotFound(f"Style '{name}' does not exist in this document and is no Word built-in style.",
                            hint="Styles here: " + _known(doc) + ". Create one with docx_create_style.")
    return (SB.make_real(doc, key) if make_real else None), key


def _check_props(properties, style_type: str) -> None:
    if not isinstance(properties, dict):
        raise ValidationError("properties must be an object of docx_set_properties keys.",
                              hint='Example: {"bold": true, "size": 12}.')
    check_element_properties(etree.Element(w("r" if style_type == "character" else "p")), properties)


# ---- reading ------------------------------------------------------------------------------------------

@tool(toolset="styles", read_only=True, idempotent=True, title="List styles")
def docx_list_styles(ctx: CallContext, session_id: str | None, style_type: str | None = None) -> str:
    """List styles: name, ID, type, based on, use count.

    Args:
        style_type: paragraph, character, table or numbering.
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    if style_type is not None and style_type not in (*SW.STYLE_TYPES, "numbering"):
        raise ValidationError(f"style_type '{style_type}' is not paragraph, character, table or numbering.",
                              hint="Pass one of those four, or leave style_type out to list every style.")
    _styles_root(doc)
    counts = SW.usage(doc)
    rows = ["| Name | ID | Type | Based on | Used | Paragraphs |", "|---|---|---|---|---|---|"]
    shown = 0
    for sid, st in doc.styles.by_id.items():
        if style_type and _type(st) != style_type:
            continue
        shown += 1
        if shown > MAX_LISTED:
            continue
        based = st.find(w("basedOn"))
        base = doc.styles.name(based.get(w("val"))) if based is not None else ""
        n = counts.get(sid, 0)
        rows.append(f"| {_name(st)} | {sid} | {_type(st)} | {base} | {'yes' if n else 'no'} | {n} |")
    if shown > MAX_LISTED:
        rows.append(f"... ({shown - MAX_LISTED} more styles not shown)")
    latent = [spec[1] for key, spec in SB.BUILTIN.items()
              if SB.find_style(doc, key) is None and (not style_type or spec[0] == style_type)]
    content = "\n".join(rows)
    if latent:
        content += "\n\nBuilt-in styles not yet in the document (made real on first docx_apply_style): " + \
                   ", ".join(latent)
    return success_answer("List Styles", fields={"Session ID": session.id, "Styles": shown}, content=content)


@tool(toolset="styles", read_only=True, idempotent=True, title="Show a style")
def docx_get_style(ctx: CallContext, session_id: str | None, name: str) -> str:
    """A style's own and resolved properties.

    Args:
        name: Name or ID, case-insensitive.
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    root = _styles_root(doc)
    sid, key = find_or_latent(doc, name, make_real=False)
    if sid is not None:
        st = doc.styles.by_id[sid]
        chain = " → ".join(_name(s) for s in SP.chain(root, st))
        fields = {"Style": _name(st), "Style ID": sid, "Type": _type(st), "Based On Chain": chain,
                  "Custom": "yes" if st.get(w("customStyle")) in ("1", "true") else "no"}
        own, resolved = SP.own_props(st), SP.resolved_props(root, st)
    else:
        kind, stored, sid, _, props = SB.BUILTIN[key]
        fields = {"Style": stored, "Style ID": sid, "Type": kind,
                  "Latent": "yes: a Word built-in not yet in styles.xml; docx_apply_style makes it real"}
        entry = _latent_entry(root, stored)
        if entry:
            fields["Latent Settings"] = entry
        model = etree.fromstring(f'<w:style xmlns:w="{w("")[1:-1]}">{props}</w:style>')
        own = SP.own_props(model)
        normal = doc.styles.by_id.get(SB.find_style(doc, "Normal") or "")
        resolved = {**(SP.resolved_props(root, normal) if normal is not None and kind == "paragraph"
                       else SP.defaults(root)), **own}
    content = f"Own properties: {SP.show(own)}\nResolved properties: {SP.show(resolved)}"
    return success_answer("Get Style", fields={"Session ID": session.id, **fields}, content=content)


def _latent_entry(root: etree._Element, name: str) -> str | None:
    """The document's w:latentStyles settings for a built-in (its lsdException over the defaults)."""
    latent = root.find(w("latentStyles"))
    if latent is None:
        return None
    ex = next((e for e in latent.findall(w("lsdException")) if e.get(w("name"), "").lower() == name.lower()), None)
    attrs = {"uiPriority": "defUIPriority", "semiHidden": "defSemiHidden", "unhideWhenUsed": "defUnhideWhenUsed",
             "qFormat": "defQFormat", "locked": "defLockedState"}
    out = []
    for attr, default in attrs.items():
        value = ex.get(w(attr)) if ex is not None and ex.get(w(attr)) is not None else latent.get(w(default))
        if value is not None:
            out.append(f"{attr}={value}")
    return ", ".join(out) or None


# ---- changing -----------------------------------------------------------------------------------------

@tool(toolset="styles", context=False, title="Create a style")
def docx_create_style(ctx: CallContext, e: Edit, session_id: str | None, name: str, style_type: str = "paragraph",
                      based_on: str | None = None, next_style: str | None = None,
                      properties: dict | None = None) -> None:
    """Create a style formatted with docx_set_properties keys.

    Args:
        style_type: paragraph, character or table.
        based_on: Default Normal (paragraph styles).
        next_style: Style of the following paragraph.
        properties: E.g. {"bold": true, "space_after": "6pt"}.
    """
    _create_style(e, name, style_type, based_on, next_style, properties)


def _create_style(e, name, style_type, based_on, next_style, properties) -> None:
    session, doc = e.session, e.doc
    _styles_root(doc)
    if style_type not in SW.STYLE_TYPES:
        raise ValidationError(f"style_type '{style_type}' is not paragraph, character or table.",
                              hint="Pass style_type='paragraph', 'character' or 'table'; lists are made "
                                   "with docx_set_list.")
    if not name or not name.strip() or len(name) > 253:
        raise ValidationError("name must be 1 to 253 characters.", hint="Pass a short name such as 'Note Text'.")
    if SB.find_style(doc, name) is not None or SB.builtin_key(name) is not None:
        raise ValidationError(f"A style named '{name}' exists already (or is a Word built-in).",
                              hint="Change it with docx_modify_style, or choose another name.")
    properties = properties or {}
    if properties:
        _check_props(properties, style_type)
    if next_style and style_type != "paragraph":
        raise ValidationError("next_style applies to paragraph styles only.",
                              hint="Leave next_style out, or pass style_type='paragraph'.")
    base_name = based_on or ("Normal" if style_type == "paragraph" else None)
    base = _existing_or_builtin(doc, base_name, style_type, "based_on") if base_name else None
    nxt = _existing_or_builtin(doc, next_style, "paragraph", "next_style") if next_style else None
    base_id = _real(doc, base) if base else None
    next_id = _real(doc, nxt) if nxt else None
    sid = SW.create_style(doc, name.strip(), style_type, base_id, next_id, properties)
    st = doc.styles.by_id[sid]
    content = f"Own properties: {SP.show(SP.own_props(st))}\n" \
              f"Resolved properties: {SP.show(SP.resolved_props(_styles_root(doc), st))}"
    e.plain(success_answer("Create Style", fields={"Session ID": session.id, "Style": name.strip(), "Style ID": sid,
                                                   "Type": style_type, "Based On": base_id or "(none)",
                                                   **e.not_tracked(UNTRACKED)}, content=content))


def _existing_or_builtin(doc, name: str, kind: str, arg: str) -> tuple[str | None, str | None]:
    sid = SB.find_style(doc, name, kind)
    if sid is not None:
        return sid, None
    key = SB.builtin_key(name)
    if key is None or SB.BUILTIN[key][0] != kind:
        raise StyleNotFound(f"{arg}: no {kind} style '{name}' in this document.",
                            hint=f"{kind.capitalize()} styles here: " + _known(doc, kind))
    return None, key


def _real(doc, found: tuple[str | None, str | None]) -> str:
    sid, key = found
    return sid if sid is not None else SB.make_real(doc, key)


@tool(toolset="styles", idempotent=True, context=False, title="Change a style")
def docx_modify_style(ctx: CallContext, e: Edit, session_id: str | None, name: str, properties: dict) -> None:
    """Change a style with docx_set_properties keys; all in the style follows.

    Args:
        name: Name or ID (a latent built-in is made real).
    """
    _modify_style(e, name, properties)


def _modify_style(e, name: str, properties: dict) -> None:
    session, doc = e.session, e.doc
    root = _styles_root(doc)
    sid, key = find_or_latent(doc, name, make_real=False)
    kind = _type(doc.styles.by_id[sid]) if sid else SB.BUILTIN[key][0]
    if kind == "numbering":
        raise ValidationError(f"'{name}' is a numbering style; change lists with docx_set_list.",
                              hint="Use docx_set_list or docx_restart_numbering on the list paragraphs instead.")
    _check_props(properties, kind)
    if sid is None:
        sid = SB.make_real(doc, key)
    SW.modify_style(doc, sid, properties)
    st = doc.styles.by_id[sid]
    content = f"Own properties: {SP.show(SP.own_props(st))}\nResolved properties: {SP.show(SP.resolved_props(root, st))}"
    e.plain(success_answer("Modify Style", fields={"Session ID": session.id, "Style": _name(st), "Style ID": sid,
                                                   "Changed": ", ".join(sorted(properties)),
                                                   **e.not_tracked(UNTRACKED)}, content=content))


UNTRACKED = "Word does not record changes to style definitions as revisions"


@tool(toolset="styles", idempotent=True, title="Apply a style")
def docx_apply_style(ctx: CallContext, e: Edit, session_id: str | None, element_id: str, style: str) -> None:
    """Apply a paragraph, character (run or paragraph's runs) or table style."""
    _apply_style(e, element_id, style)


def _apply_style(e, element_id: str, style: str) -> None:
    session, doc = e.session, e.doc
    el = resolve(session, element_id)
    _styles_root(doc)
    sid, key = find_or_latent(doc, style, make_real=False)
    kind = _type(doc.styles.by_id[sid]) if sid else SB.BUILTIN[key][0]
    wanted = {"paragraph": {B.W_P}, "character": {B.W_R, B.W_P}, "table": {B.W_TBL}}.get(kind)
    if wanted is None or el.tag not in wanted:
        what = {"paragraph": "a paragraph", "character": "a run or paragraph", "table": "a table"}.get(kind, "")
        raise InvalidElementType(f"'{style}' is a {kind} style; it applies to {what or 'no element'}, "
                                 f"not a {B.kind(el)}.",
                                 hint="docx_list_styles shows each style's type.")
    e.show(el if el.tag != B.W_R else B.find_ancestor(el, B.W_P))
    if sid is None:
        sid = SB.make_real(doc, key)
    runs = F.runs_of(el) if kind == "character" else []
    with edits.formatting(doc, runs, [el] if kind == "paragraph" else []):  # tracked: w:pPrChange/w:rPrChange
        changed = SW.apply_style(doc, el, sid, kind)
    e.changed(*changed, el)  # announced by apply_style
    fields = {"Style": doc.styles.name(sid), "Style ID": sid, "Type": kind}
    if key:
        fields["Added"] = "Word's built-in definition (it was latent)"
    e.done(el, marker="UPDATED", updated=el, fields=fields)
