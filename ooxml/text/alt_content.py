"""Text box fallbacks kept in step: a stale ``mc:Fallback`` goes at the end of the call that edited its Choice.

Word writes a text box twice: DrawingML in ``mc:Choice`` (what Word and LibreOffice show) and a VML
copy in ``mc:Fallback`` for older readers. Views and edits see only the Choice, so an edit there
leaves the fallback saying something else. Rather than teach every editing tool, the end of a call
looks at the blocks the undo recorder saw change (``History.gone_and_changed``): an
``mc:AlternateContent`` whose Choice text no longer matches its Fallback text loses the Fallback
(MCE allows an AlternateContent with no Fallback; Word does the same for shapes it cannot downgrade).
"""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B

_T = B.W_T


def _text(el: etree._Element | None) -> str:
    return "".join(t.text or "" for t in el.iter(_T)) if el is not None else ""


def _stale(alt: etree._Element) -> etree._Element | None:
    """The Fallback of ``alt`` when its text differs from its Choice's text."""
    choice, fallback = alt.find(B.MC_CHOICE), alt.find(B.MC_FALLBACK)
    if choice is None or fallback is None or next(choice.iter(B.W_TXBX), None) is None:
        return None
    return fallback if _text(choice) != _text(fallback) else None


def drop_stale_fallbacks(doc) -> int:
    """Remove the text box fallbacks the current call left out of step; how many went."""
    removed = 0
    for _old, live, _container in doc.history.gone_and_changed():
        if live is None or live.getparent() is None:
            continue
        for alt in list(live.iter(B.MC_ALT)):
            fallback = _stale(alt)
            if fallback is not None:
                doc.will_change(alt)
                alt.remove(fallback)
                doc.changed(alt)
                removed += 1
    return removed
