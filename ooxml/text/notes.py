"""Footnotes and endnotes: the notes part (with Word's separators), notes, references, numbering.

A note is a ``w:footnote``/``w:endnote`` in its part, referenced from the body by a run holding
``w:footnoteReference``/``w:endnoteReference`` with the same ``w:id``. Word numbers notes by the
order of their references in the document (footnotes 1, 2, 3; endnotes i, ii, iii by default).
"""
from __future__ import annotations

import copy

from lxml import etree

from ooxml.text import body as B
from ooxml.opc import parts as P
from ooxml.opc.types import CT, RT
from ooxml.text.build import make_run
from ooxml.text.doc_order import seed_empty, tracked
from ooxml.xml.namespaces import w
from ooxml.xml.order import get_or_add, set_child

KINDS = ("footnote", "endnote")
RT_OF = {"footnote": RT.FOOTNOTES, "endnote": RT.ENDNOTES}
CT_OF = {"footnote": CT.FOOTNOTES, "endnote": CT.ENDNOTES}
STYLE_TEXT = {"footnote": "footnote text", "endnote": "endnote text"}
STYLE_REF = {"footnote": "footnote reference", "endnote": "endnote reference"}
NOTE_TAGS = (w("footnote"), w("endnote"))
REF_TAGS = {"footnote": w("footnoteReference"), "endnote": w("endnoteReference")}


def kind_of(el: etree._Element) -> str:
    return "footnote" if el.tag == w("footnote") else "endnote"


def notes_root(doc, kind: str) -> etree._Element | None:
    part = doc.related_part(RT_OF[kind])
    return doc.register_part_root(part) if part is not None else None


def _first_ids(doc, kind: str) -> tuple[int, int]:
    """Separator ids as the document already numbers them: -1/0 (Word 2007+) or 0/1 (older files)."""
    other = notes_root(doc, "endnote" if kind == "footnote" else "footnote")
    if other is not None:
        for note in other:
            if note.get(w("type")) == "separator":
                return (0, 1) if note.get(w("id")) == "0" else (-1, 0)
    return -1, 0


def ensure_notes_root(doc, kind: str) -> etree._Element:
    """The notes part's root, created with Word's separator and continuation notes when missing."""
    root = notes_root(doc, kind)
    if root is not None:
        return root
    sep, cont = _first_ids(doc, kind)
    spacing = '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'
    xml = (f'<w:{kind}s {P.STORY_NAMESPACES}>'
           f'<w:{kind} w:type="separator" w:id="{sep}"><w:p>{spacing}<w:r><w:separator/></w:r></w:p></w:{kind}>'
           f'<w:{kind} w:type="continuationSeparator" w:id="{cont}"><w:p>{spacing}<w:r><w:continuationSeparator/>'
           f'</w:r></w:p></w:{kind}></w:{kind}s>')
    name = f"word/{kind}s.xml"
    if doc.package.has_part(name):
        name = P.new_part_name(doc.package, kind + "s")
    _, root = P.add_story_part(doc, name, xml, CT_OF[kind], RT_OF[kind])
    _settings_note_pr(doc, kind, sep, cont)
    return root


def _settings_note_pr(doc, kind: str, sep: int, cont: int) -> None:
    # Word lists the separator notes in settings (w:footnotePr); it opens files without it too.
    settings = P.settings_root(doc)
    if settings.find(w(f"{kind}Pr")) is not None:
        return
    pr = get_or_add(settings, f"{kind}Pr")
    for nid in (sep, cont):
        etree.SubElement(pr, w(kind), {w("id"): str(nid)})
    doc.related_part(RT.SETTINGS).touch()


def next_id(root: etree._Element) -> int:
    ids = [int(n.get(w("id"))) for n in root if n.get(w("id"), "").lstrip("-").isdigit()]
    return max(ids, default=0) + 1


def _ref_rpr(doc, kind: str) -> etree._Element:
    rpr = etree.Element(w("rPr"))
    sid = doc.styles.find_id(STYLE_REF[kind], "character")
    if sid:
        set_child(rpr, "rStyle", val=sid)
    else:
        set_child(rpr, "vertAlign", val="superscript")
    return rpr


def make_note(doc, kind: str, note_id: int, text: str) -> etree._Element:
    """``w:footnote`` with one paragraph: the note mark, a space, the text."""
    note = etree.Element(w(kind), {w("id"): str(note_id)})
    p = etree.SubElement(note, w("p"))
    sid = doc.styles.find_id(STYLE_TEXT[kind])
    if sid:
        set_child(get_or_add(p, "pPr"), "pStyle", val=sid)
    mark = etree.SubElement(p, w("r"))
    mark.append(_ref_rpr(doc, kind))
    etree.SubElement(mark, w(f"{kind}Ref"))
    p.append(make_run(" " + text))
    return note


def add_note(doc, kind: str, paragraphs: list[etree._Element], note_id: int | None = None) -> int:
    """A new note holding ``paragraphs`` as they are (the caller puts the note mark in); its id.
    A caller adding many notes in one call passes the id after its last one (no rescan per note)."""
    root = ensure_notes_root(doc, kind)
    note_id = next_id(root) if note_id is None else note_id
    doc.part_of(root).touch()
    note = etree.SubElement(root, w(kind), {w("id"): str(note_id)})
    for p in paragraphs or [etree.Element(w("p"))]:
        note.append(p)
    return note_id


def notes_part_name(doc, kind: str) -> str:
    """The notes part's name, the part created first when missing."""
    return doc.part_of(ensure_notes_root(doc, kind)).name


def make_reference(doc, kind: str, note_id: int) -> etree._Element:
    r = etree.Element(w("r"))
    r.append(_ref_rpr(doc, kind))
    etree.SubElement(r, REF_TAGS[kind], {w("id"): str(note_id)})
    return r


# ---- numbering, as Word shows it --------------------------------------------------------------------

def references(doc, kind: str) -> list[etree._Element]:
    """The body's note references of ``kind`` in document order (cached across edits)."""
    return tracked(doc, kind + "_refs", (REF_TAGS[kind],))


def before_reference_insert(doc, kind: str) -> None:
    """Call before adding a reference: with no note of ``kind`` yet, the body references none, so
    the reference list starts empty instead of scanning the body after the insert (50 ms at
    50,000 paragraphs)."""
    root = notes_root(doc, kind)
    if root is None or not any(is_user_note(n) for n in root.iterchildren(w(kind))):
        seed_empty(doc, kind + "_refs", (REF_TAGS[kind],))


def _roman(n: int) -> str:
    out = ""
    for value, sym in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
                       (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= value:
            out, n = out + sym, n - value
    return out


def label(kind: str, n: int) -> str:
    return str(n) if kind == "footnote" else _roman(n)


def _cached(doc, key: str, build):
    """A value computed once per document version (views ask for every reference of a paragraph)."""
    per_doc = doc.caches.setdefault("notes", {})
    hit = per_doc.get(key)
    if hit is None or hit[0] != doc.version:
        hit = per_doc[key] = (doc.version, build())
    return hit[1]


def number_of(doc, ref: etree._Element) -> int | None:
    kind = "footnote" if ref.tag == REF_TAGS["footnote"] else "endnote"

    def build():  # custom marks (w:customMarkFollows) take no number
        refs = [r for r in references(doc, kind) if r.getparent().get(w("customMarkFollows")) is None]
        return {r: i + 1 for i, r in enumerate(refs)}
    return _cached(doc, kind + "_numbers", build).get(ref)


def note_by_id(doc, kind: str, note_id: str) -> etree._Element | None:
    def build():
        root = notes_root(doc, kind)
        return {} if root is None else {n.get(w("id")): n for n in root if n.tag == w(kind)}
    return _cached(doc, kind + "_by_id", build).get(note_id)


def note_text(note: etree._Element) -> str:
    return " ".join(B.paragraph_text(p).strip() for p in note.iter(B.W_P)).strip()


def reference_of(doc, note: etree._Element) -> etree._Element | None:
    kind = kind_of(note)
    nid = note.get(w("id"))
    for ref in references(doc, kind):
        if ref.get(w("id")) == nid:
            return ref
    return None


def insert_reference(holder_run_or_p: etree._Element, ref_run: etree._Element, at_end: bool) -> None:
    if at_end:
        holder_run_or_p.append(ref_run)
    else:
        holder_run_or_p.addnext(ref_run)


def is_user_note(note: etree._Element) -> bool:
    return note.get(w("type")) in (None, "normal")



def copy_references(doc, copy_root: etree._Element, target: etree._Element) -> None:
    """Give the note references of a copy (see ``prepare_copy(keep_notes=True)``) notes of their own:
    each referenced note is duplicated under a new id. Outside the body (a header, a note) the
    references are dropped, as notes can only be referenced from the body."""
    in_body = doc.part_of(target) is doc.main
    for kind in KINDS:
        refs = list(copy_root.iter(REF_TAGS[kind]))
        if not refs:
            continue
        root = notes_root(doc, kind) if in_body else None
        free = next_id(root) if root is not None else 0  # counted on: no rescan of the notes per copy
        for ref in refs:
            note = note_by_id(doc, kind, ref.get(w("id"))) if root is not None else None
            if note is None:
                ref.getparent().remove(ref)
                continue
            dup = copy.deepcopy(note)
            from ooxml.xml.wordids import prepare_copy
            prepare_copy(dup, doc.word_ids(root))
            new_id, free = free, free + 1
            dup.set(w("id"), str(new_id))
            doc.insert_block(dup, container=root)
            ref.set(w("id"), str(new_id))
