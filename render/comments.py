"""Comments in views: commented spans marked inline (⟦…⟧💬) and the comments listed under the box.

One inline kind per marker and a BELOW_BOX function, listed in render/renderers.py. Reads the
XML and never changes it.
"""
from __future__ import annotations

from lxml import etree

from ooxml.xml.namespaces import OX_ID, W, w
from render import blocks, inline
from render.renderer import Renderer
from render.width import cut

_REFS = etree.XPath(".//w:commentReference/@w:id", namespaces={"w": W})
_REF = w("commentReference")
MAX_LISTED = 5


def comment_lines(doc, el: etree._Element) -> list[str]:
    """Under a box: each comment referenced in the element, with its replies, author, state."""
    if doc is None or el.tag not in (w("p"), w("tbl"), w("sdt")):
        return []
    if next(el.iter(_REF), None) is None:  # under every box: the common case answers without XPath
        return []
    wids = list(dict.fromkeys(_REFS(el)))
    if not wids:
        return []
    from ooxml.review.comments import Comments, comment_text
    comments = Comments(doc)
    by_id = {c.get(w("id")): c for c in comments.all()}
    ext = comments.extended()
    by_para = {comments.last_para_id(c): c for c in by_id.values()}
    out = []
    for wid in wids[:MAX_LISTED]:
        c = by_id.get(wid)
        if c is None:
            out.append(f"  💬 (comment {wid} is missing from comments.xml)")
            continue
        parent = comments.parent_of(c, ext, by_para)
        state = ", resolved" if comments.resolved(parent if parent is not None else c, ext) else ""
        name = c.get(OX_ID) or f"w:id {wid}"
        text = cut(" ".join(comment_text(c).split()), 70)
        lead = "    ↳ reply" if parent is not None else "  💬"
        out.append(f"{lead} {name} ({c.get(w('author')) or '?'}{state}): {text}")
    if len(wids) > MAX_LISTED:
        out.append(f"  ... ({len(wids) - MAX_LISTED} more comments)")
    return out


def _start(el, ctx) -> str:
    prev = el.getprevious()
    return "" if prev is not None and prev.tag == el.tag else "⟦"  # a reply's marker beside its parent's


def _end(el, ctx) -> str:
    prev = el.getprevious()
    return "" if prev is not None and prev.tag == el.tag else "⟧💬"


RENDERER = Renderer(inline=(inline.InlineKind("comment_start", ".//w:commentRangeStart", _start),
                            inline.InlineKind("comment_end", ".//w:commentRangeEnd", _end)),
                    below=comment_lines, below_tags=frozenset({_REF}))
