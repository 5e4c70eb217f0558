"""Word's one w:id space for annotations: revisions, comments, bookmarks and their ranges share it,
so every new mark takes the next value of one counter that starts above every id the document's
stories hold (a repeated id makes Word repair the file).

The counter lives in ``doc.caches["revisions.next_id"]``; a story part not parsed yet is counted on
its bytes (``ids_in``), which gives what its tree would."""
from __future__ import annotations

import re

from lxml import etree

from ooxml.xml.namespaces import w
from ooxml.xml.wordids import REVISIONS

W_ID = w("id")
ID_TAGS = REVISIONS | {w(n) for n in "bookmarkStart commentRangeStart commentReference comment moveFromRangeStart "
                                     "moveToRangeStart customXmlInsRangeStart customXmlDelRangeStart "
                                     "customXmlMoveFromRangeStart customXmlMoveToRangeStart".split()}
_ID_BYTES = re.compile(rb"<w:(?:%s)(?=[\s/>])[^>]*?\sw:id=\"(\d+)\"" % b"|".join(
    sorted({etree.QName(t).localname.encode() for t in ID_TAGS}, key=len, reverse=True)))
_CACHE = "revisions.next_id"


def ids_in(data: bytes) -> list[int]:
    """The w:ids of ``ID_TAGS`` in a part's bytes (Word's ``w`` prefix)."""
    return [int(v) for v in _ID_BYTES.findall(data)] if b'w:id="' in data else []  # find: 4x cheaper


def floor(doc) -> int:
    """One above every w:id of ``ID_TAGS`` in the document's story parts."""
    from ooxml.opc.parts import story_part_names
    top = -1
    for name in story_part_names(doc.package, doc.main_name):
        part = doc.package.part(name)
        if part.loaded:
            values = [int(v) for el in part.tree.getroot().iter(*ID_TAGS) if (v := el.get(W_ID)) and v.isdigit()]
        else:
            values = ids_in(part.data)
        top = max([top, *values])
    return top + 1


def start_above(doc, ids: list[int]) -> None:
    """The counter set above ``ids`` too (ids of a part the document holds only in part: the
    compare fast path's reduced main part, whose whole bytes are elsewhere)."""
    doc.caches[_CACHE] = [max([floor(doc), *(n + 1 for n in ids)])]


def new_word_id(doc, near: etree._Element | None = None) -> str:
    """A w:id no revision, comment or bookmark of the document uses (one id space for all)."""
    counter = doc.caches.get(_CACHE)
    if counter is None:
        counter = doc.caches[_CACHE] = [floor(doc)]
    value = counter[0]
    # Counters copies and bookmarks use, if gathered already (gathering them scans the whole part;
    # gathered later, they start above ours anyway): they count on from ours.
    gathered = doc._word_ids  # noqa: SLF001 (none gathered, the usual: no part to look up)
    ids = gathered.get(doc.part_of(near).tree.getroot()) if near is not None and gathered else None
    if ids is not None:
        value = max(value, ids.next_revision, ids.next_bookmark)
        ids.next_revision = ids.next_bookmark = value + 1
    counter[0] = value + 1
    return str(value)


def fresh_ids(doc, el: etree._Element) -> None:
    """Revision marks in ``el`` (a piece split off a run, in the tree) get w:ids of their own: the
    piece keeps its tracked format change, but two marks sharing an id are invalid."""
    for mark in el.iter():  # a run's few elements: testing each costs less than lxml's many-tag filter
        if mark.tag in REVISIONS and mark.get(W_ID) is not None:
            mark.set(W_ID, new_word_id(doc, el))
