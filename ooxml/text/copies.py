"""Copies of blocks that are safe to insert: Word IDs, fields, relationships, cells.

``wordids.prepare_copy`` gives new IDs and drops borrowed references (comments, notes,
half bookmarks). Here, on top of that, for copies of arbitrary blocks:

- complex fields cut by the copy's edges (a TOC's ``fldChar begin`` without its ``end``) lose
  their field characters and instructions and keep their result text, so every copied field
  is balanced;
- relationship references (images, links) keep working when the copy lands in another part;
- section breaks stay out of cells, headers and notes;
- every copied cell ends with a paragraph.
"""
from __future__ import annotations

import copy
import posixpath

from lxml import etree

from ooxml.text import body as B
from ooxml.xml import budget, growth
from ooxml.xml.namespaces import R, w
from ooxml.text.notes import copy_references
from ooxml.xml.order import remove_child
from ooxml.xml.wordids import prepare_copy

_FLD_CHAR, _INSTR = w("fldChar"), {w("instrText"), w("delInstrText")}
_TYPE = w("fldCharType")


def check_copy_size(blocks: list[etree._Element], limit: int) -> None:
    """Refuse, before copying, blocks whose XML is over what the call may still add (``growth``)."""
    allowed, size = growth.left(limit), 0
    for el in blocks:
        size += len(etree.tostring(el))
        if size > allowed:
            break
    growth.spend(size, limit, "The copy", hint="Copy a smaller range, or in several calls; the operator sets "
                                               "the limit (limits.max_call_growth_bytes).")


def copy_blocks(doc, blocks: list[etree._Element], target: etree._Element,
                container: etree._Element) -> list[etree._Element]:
    """Deep copies of ``blocks`` ready to go into ``container`` (in the part of ``target``)."""
    wrapper = etree.Element(w("body"))
    for el in blocks:
        budget.check()  # copies are detached: stopping here leaves the document as it was
        wrapper.append(copy.deepcopy(el))
    budget.check()
    prepare_copy(wrapper, doc.word_ids(target), keep_notes=True)
    copy_references(doc, wrapper, target)  # copied note references get notes of their own
    balance_fields(wrapper)
    if container.tag != B.W_BODY:
        for ppr in wrapper.iter(w("pPr")):
            remove_child(ppr, "sectPr")  # a section break belongs to body paragraphs only
    for tc in wrapper.iter(B.W_TC):
        _end_with_paragraph(tc)
    src_part, dst_part = doc.part_of(blocks[0]), doc.part_of(target)
    if src_part is not dst_part:
        carry_relationships(doc.package, src_part.name, dst_part.name, wrapper)
    return list(wrapper)


def _end_with_paragraph(tc: etree._Element) -> None:
    for child in reversed(tc):
        if isinstance(child.tag, str) and child.tag not in B.MARKERS:
            if child.tag != B.W_P:
                tc.append(etree.Element(B.W_P))
            return
    tc.append(etree.Element(B.W_P))


def balance_fields(root: etree._Element) -> None:
    """Drop the codes of fields whose begin or end lies outside ``root``; their results stay."""
    stack: list[list[etree._Element]] = []  # per open field: its begin, instructions, separate
    orphans: list[etree._Element] = []
    for el in root.iter(_FLD_CHAR, *_INSTR):
        kind = el.get(_TYPE) if el.tag == _FLD_CHAR else "instr"
        if kind == "begin":
            stack.append([el])
        elif kind in ("instr", "separate"):
            (stack[-1] if stack else orphans).append(el)
        elif kind == "end":
            if stack:
                stack.pop()
            else:
                orphans.append(el)
    for el in orphans + [e for frame in stack for e in frame]:
        el.getparent().remove(el)


def carry_relationships(package, src: str, dst: str, root: etree._Element) -> None:
    """Re-create the relationships that ``r:*`` attributes in ``root`` use, in part ``dst``."""
    rels = {r.get("Id"): r for r in package.rels(src)}
    mapping: dict[str, str] = {}
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for name, value in el.attrib.items():
            if not name.startswith(f"{{{R}}}") or value not in rels:
                continue
            if value not in mapping:
                mapping[value] = _copy_relationship(package, src, dst, rels[value])
            el.set(name, mapping[value])


def _copy_relationship(package, src: str, dst: str, rel: etree._Element) -> str:
    external = rel.get("TargetMode") == "External"
    target = rel.get("Target", "")
    if not external:
        absolute = package.resolve_target(src, target)
        target = posixpath.relpath(absolute, posixpath.dirname(dst) or ".")
    return package.relate(dst, rel.get("Type"), target, external)
