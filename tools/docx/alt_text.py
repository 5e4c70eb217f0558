"""docx_set_alt_text: alternative text of images, charts, shapes and tables (SPEC §12)."""
from __future__ import annotations

from ooxml.review.format_changes import PropertyChanges
from ooxml.text import alt_text as ALT
from ooxml.text import body as B
from tools.docx.protocol import Edit
from tools.runtime.call.registry import CallContext, tool

UNTRACKED = "Word records no revision for a drawing's alt text"


@tool(title="Set alt text")
def docx_set_alt_text(ctx: CallContext, e: Edit, session_id: str | None, element_id: str, text: str,
                      decorative: bool = False) -> None:
    """Set alt text of an image, chart, shape or table; decorative=True: readers skip it."""
    el = e.element(element_id)
    holder = ALT.holder_of(el)
    ALT.check(holder, text, None, decorative)
    block = holder if holder.tag == B.W_TBL else B.find_ancestor(el, B.W_P)
    e.show(block)
    e.change(block)
    fields = {"Alt Text": text or "(none)", "Decorative": "yes" if decorative else "no"}
    if holder.tag == B.W_TBL:
        with PropertyChanges(e.doc, tables=[holder]):  # Word tracks it as a table property change
            ALT.write(holder, text, None, decorative)
    else:
        ALT.write(holder, text, None, decorative)
        fields.update(e.not_tracked(UNTRACKED))
    e.done(block, marker="UPDATED", updated=block, element_id=e.doc.id_of(el), fields=fields)
