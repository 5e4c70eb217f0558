"""The stories compared besides the body: headers and footers (by section and kind), notes (by id)."""
from __future__ import annotations

from ooxml import body as B
from ooxml import notes as N
from ooxml.namespaces import R, w

_REFS = (w("headerReference"), w("footerReference"))


def header_pairs(doc_a, doc_b) -> list[tuple[str, str]]:
    """(original part, revised part) for each header and footer both documents give the same
    section and kind; each revised part once."""
    refs_a, refs_b = _section_refs(doc_a), _section_refs(doc_b)
    pairs, seen = [], set()
    for section_a, section_b in zip(refs_a, refs_b):
        for key, name_b in section_b.items():
            name_a = section_a.get(key)
            if name_a is not None and name_b not in seen:
                seen.add(name_b)
                pairs.append((name_a, name_b))
    return pairs


def _section_refs(doc) -> list[dict[tuple[str, str], str]]:
    rels = {r.get("Id"): r for r in doc.package.rels(doc.main_name)}
    # Paragraphs' section breaks then the body's own, in document order (one walk in C).
    sections = [s for s in doc.body.iter(B.W_SECTPR) if s.getparent().tag != w("sectPrChange")]
    out = []
    for sect in sections:
        refs = {}
        for ref in sect.iter(*_REFS):
            rel = rels.get(ref.get(f"{{{R}}}id"))
            if rel is not None and rel.get("TargetMode") != "External":
                name = doc.package.resolve_target(doc.main_name, rel.get("Target", ""))
                if doc.package.has_part(name):
                    refs[(etree_local(ref), ref.get(w("type"), "default"))] = name
        out.append(refs)
    return out


def etree_local(el) -> str:
    return el.tag.rsplit("}", 1)[-1]


def note_pairs(doc_a, doc_b, kind: str) -> list:
    """(original note, revised note) with the same id, for user notes both documents have."""
    root_a, root_b = N.notes_root(doc_a, kind), N.notes_root(doc_b, kind)
    if root_a is None or root_b is None:
        return []
    by_id = {n.get(w("id")): n for n in root_a if n.tag in N.NOTE_TAGS and N.is_user_note(n)}
    return [(by_id[n.get(w("id"))], n) for n in root_b
            if n.tag in N.NOTE_TAGS and N.is_user_note(n) and n.get(w("id")) in by_id]
