"""Note references in a paragraph's line: ``[^1]`` numbered as Word numbers them, and the notes'
text after the paragraph's box. Listed in render/renderers.py; reads, never edits."""
from __future__ import annotations

from lxml import etree

from ooxml.text import notes as N
from ooxml.xml.namespaces import OX_ID, w
from render.blocks import MAX_BELOW
from render.inline import InlineKind, LineContext
from render.renderer import Renderer


def _draw(el: etree._Element, ctx: LineContext) -> str:
    if ctx.doc is None:
        return "[^?]"
    kind = "footnote" if el.tag == N.REF_TAGS["footnote"] else "endnote"
    n = N.number_of(ctx.doc, el)
    return f"[^{N.label(kind, n)}]" if n is not None else "[^*]"


def note_lines(doc, p: etree._Element) -> list[str]:
    """``[^1]: the note's text`` for each note referenced in paragraph ``p``, under its box.

    Past MAX_BELOW lines the box shows only how many more there are: those get a placeholder
    instead of the note's text, so a paragraph with many notes costs no more to draw than one
    with a few (text for every note made each insert into such a paragraph grow slower)."""
    lines: list[str] = []
    if doc is None or p.tag != w("p"):
        return lines
    for ref in p.iter(N.REF_TAGS["footnote"], N.REF_TAGS["endnote"]):
        if len(lines) >= MAX_BELOW:  # (a custom mark or a missing note here is counted too)
            lines.append("")  # counted in "N more lines not shown", never drawn
            continue
        kind = "footnote" if ref.tag == N.REF_TAGS["footnote"] else "endnote"
        note = N.note_by_id(doc, kind, ref.get(w("id")))
        n = N.number_of(doc, ref)
        if note is not None and n is not None:
            shown_id = f" ({note.get(OX_ID)})" if note.get(OX_ID) else ""
            lines.append(f"    [^{N.label(kind, n)}]: {N.note_text(note)}{shown_id}")
    return lines


RENDERER = Renderer(inline=(InlineKind("footnote_ref", ".//w:footnoteReference", _draw),
                            InlineKind("endnote_ref", ".//w:endnoteReference", _draw)),
                    below=note_lines, below_tags=frozenset(N.REF_TAGS.values()))
