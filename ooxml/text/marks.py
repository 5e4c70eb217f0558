"""A copy of the document with a bookmark at the start of every body block, for page lookup.

LibreOffice exports bookmarks as PDF named destinations, so the page of each mark in the PDF is
the page where its block starts. The marks go into the live tree only while the copy is written
and are taken out again before the call returns: the session's document is left as it was.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

from lxml import etree

from ooxml.text import body as B
from ooxml.xml.namespaces import W, w

MARK_PREFIX = "OXMCPB"  # letters and digits only: PDF writers escape other characters in names


def mark_name(index: int) -> str:
    return f"{MARK_PREFIX}{index}"


def _anchor_paragraph(block: etree._Element) -> etree._Element | None:
    """The paragraph where a block's first line starts (a table's first cell paragraph ...)."""
    return block if block.tag == B.W_P else next(block.iter(B.W_P), None)


def _free_bookmark_id(root: etree._Element) -> int:
    ids = [int(v) for v in root.xpath("//w:bookmarkStart/@w:id", namespaces={"w": W})
           if v.lstrip("-").isdigit()]
    return max(ids, default=0) + 1


@contextmanager
def block_marks(doc, only: set | None = None):
    """Bookmarks on every body block (or those in ``only``) while the block is inside; yields the
    body blocks in order (mark i names block i)."""
    blocks = list(B.iter_blocks(doc.body))
    next_id = _free_bookmark_id(doc.root)
    added: list[etree._Element] = []
    try:
        for i, block in enumerate(blocks):
            if only is not None and block not in only:
                continue
            p = _anchor_paragraph(block)
            if p is None:
                continue
            start = etree.Element(w("bookmarkStart"), {w("id"): str(next_id + i), w("name"): mark_name(i)})
            end = etree.Element(w("bookmarkEnd"), {w("id"): str(next_id + i)})
            ppr = p.find(w("pPr"))
            at = 0 if ppr is None else p.index(ppr) + 1
            p.insert(at, start)
            start.addnext(end)
            added += (start, end)
        yield blocks
    finally:
        for el in added:
            el.getparent().remove(el)


def save_marked_copy(doc, path: Path, only: set | None = None) -> list[etree._Element]:
    """Write the session's current state with block marks to ``path``; the session stays unchanged.

    Returns the body blocks, in order (mark i names block i); ``only``: the blocks to mark (a
    mark per block makes LibreOffice's layout of a long document measurably slower).
    """
    main = doc.main
    was_dirty, was_modified = main.dirty, doc.modified
    with block_marks(doc, only) as blocks:
        # The marks are only in the tree: the copy must re-serialise it. (Not Part.touch(): the
        # session's history must not see this.)
        main.dirty = True
        try:
            doc.save(path)
        finally:
            main.dirty, doc.modified = was_dirty, was_modified
            doc.package.stamps.pop(os.path.realpath(path), None)  # a throwaway copy: no stamp to keep
    return blocks
