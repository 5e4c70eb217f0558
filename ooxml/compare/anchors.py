"""The comments of the original on words a kept paragraph lost: their marks go with the deleted words.

A comment's marks (range start and end between runs, the reference in a run of its own) take no
place in the text; each is placed at the offset of the text after it. A comment whose marks all
lie inside one deleted stretch comes back in that stretch's ``w:del`` (the Copier renames it to a
copy of the comment); one that reaches into kept text is the revised document's to show.
"""
from __future__ import annotations

from lxml import etree

from ooxml.xml.namespaces import w
from ooxml.review.tracked_text import _shell

START, END, REF = w("commentRangeStart"), w("commentRangeEnd"), w("commentReference")


def comment_marks(p: etree._Element, segs) -> list[tuple[int, etree._Element]]:
    """(offset, mark) of every comment mark in ``p``, in document order ([] when it has none)."""
    if next(p.iter(START, END, REF), None) is None:
        return []
    start_of = {id(s.child): s.start for s in segs}
    out, pending = [], []
    for el in p.iter():
        if el.tag in (START, END, REF):
            pending.append(el)
        elif pending and id(el) in start_of:
            out.extend((start_of[id(el)], m) for m in pending)
            pending = []
    end = segs[-1].start + len(segs[-1].text) if segs else 0
    return out + [(end, m) for m in pending]


def within(marks: list[tuple[int, etree._Element]], lo: int, hi: int) -> list[tuple[int, etree._Element]]:
    """Copies of the marks of the comments wholly inside [lo, hi] (a reference, and both range ends
    or neither), in document order; a reference comes in a run of its own."""
    by_id: dict[str | None, list] = {}
    for at, m in marks:
        by_id.setdefault(m.get(w("id")), []).append((at, m))
    keep = set()
    for wid, found in by_id.items():
        tags = [m.tag for _, m in found]
        spots = [at for at, _ in found]
        inside = all(lo <= at <= hi for at in spots) and (min(spots) < max(spots) or lo < spots[0] < hi)
        if inside and REF in tags and (START in tags) == (END in tags):
            keep.add(wid)
    return [(at, _copy(m)) for at, m in marks if m.get(w("id")) in keep]


def _copy(mark: etree._Element) -> etree._Element:
    if mark.tag != REF:
        return etree.Element(mark.tag, {w("id"): mark.get(w("id"))})
    run = _shell(mark.getparent())
    etree.SubElement(run, REF, {w("id"): mark.get(w("id"))})
    return run


def place(deleted: etree._Element, starts: list[int], marks: list[tuple[int, etree._Element]]) -> None:
    """Put each mark into ``deleted`` before the first run starting at or after its offset."""
    runs = list(deleted)
    for at, mark in marks:
        k = next((n for n, s in enumerate(starts) if s >= at), None)
        if k is None:
            deleted.append(mark)
        else:
            runs[k].addprevious(mark)
