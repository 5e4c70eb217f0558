"""The stories compared besides the body: headers and footers (by section and kind), notes (by id)."""
from __future__ import annotations

from lxml import etree

from ooxml.text import notes as N
from ooxml.xml.namespaces import R, W, w

_REFS = (w("headerReference"), w("footerReference"))
# Where section breaks stand (the body's paragraphs, also in content controls): no walk of the text.
_SECTIONS = etree.XPath("w:p/w:pPr/w:sectPr | w:sdt/w:sdtContent/w:p/w:pPr/w:sectPr | w:sectPr",
                        namespaces={"w": W})


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
    # Paragraphs' section breaks then the body's own, in document order.
    sections = _SECTIONS(doc.body)
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
