"""The stories compared besides the body: headers and footers (by section and kind), notes (by id)."""
from __future__ import annotations

from lxml import etree

from ooxml.text import notes as N
from ooxml.xml.namespaces import R, W, w

_REFS = (w("headerReference"), w("footerReference"))
# Where section breaks stand (the body's paragraphs, also in content controls): no walk of the text.
_SECTIONS = etree.XPath("w:p/w:pPr/w:sectPr | w:sdt/w:sdtContent/w:p/w:pPr/w:sectPr | w:sectPr",
                        namespaces={"w": W})


KEYS = tuple((kind, which) for kind in ("headerReference", "footerReference")
             for which in ("default", "first", "even"))


def sections(doc) -> list[etree._Element]:
    return _SECTIONS(doc.body)


def effective(refs: list[dict]) -> list[dict]:
    """Each section's headers and footers as a reader sees them: its own, else the previous
    section's (Word's "link to previous")."""
    out, current = [], {}
    for own in refs:
        current = {**current, **own}
        out.append(current)
    return out


def section_refs(doc) -> list[dict[tuple[str, str], str]]:
    """Each section's own headers and footers: (reference tag, type) -> part name."""
    rels = {r.get("Id"): r for r in doc.package.rels(doc.main_name)}
    return [own_refs(doc, sect, rels) for sect in sections(doc)]


def own_refs(doc, sect, rels: dict) -> dict[tuple[str, str], str]:
    refs = {}
    for ref in sect.iter(*_REFS):
        rel = rels.get(ref.get(f"{{{R}}}id"))
        if rel is not None and rel.get("TargetMode") != "External":
            name = doc.package.resolve_target(doc.main_name, rel.get("Target", ""))
            if doc.package.has_part(name):
                refs[(etree_local(ref), ref.get(w("type"), "default"))] = name
    return refs


def etree_local(el) -> str:
    return el.tag.rsplit("}", 1)[-1]


def note_pairs(doc_a, doc_b, kind: str, refs: list[tuple[str, str, str]]) -> list:
    """(original note, revised note) for each reference the body kept in place (``refs``: what the
    paragraph diffs found); each revised note once."""
    pairs, seen = [], set()
    for tag, id_a, id_b in refs:
        if tag != N.REF_TAGS[kind] or id_b in seen:
            continue
        note_a, note_b = N.note_by_id(doc_a, kind, id_a), N.note_by_id(doc_b, kind, id_b)
        if note_a is not None and note_b is not None and N.is_user_note(note_a) and N.is_user_note(note_b):
            seen.add(id_b)
            pairs.append((note_a, note_b))
    return pairs
