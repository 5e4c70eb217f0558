"""Undo steps played on a document (records made by ooxml/model/history.py): backwards for undo,
forwards for redo. Saved blocks swap contents with the live ones (their identity stays), inserted
blocks go out and come back, non-story parts get their bytes back, IDs given by the call go and return."""
from __future__ import annotations

from lxml import etree

from ooxml.xml.namespaces import OX_ID
from ooxml.xml.unlink import move_children


def undo_step(doc, known: dict, step) -> None:
    """Play ``step`` backwards: the document as before its call."""
    for given in step.given:
        el, key = _given_at(given)
        el.attrib.pop(OX_ID, None)
        doc.ids.drop(key, el)
    clean = [part for part, touches in step.clean if part.touches == touches]  # untouched since
    for op in reversed(step.ops):
        _play(doc, op, forward=False)
    _restore_parts(doc, known, step, before=True)
    for part in clean:
        part.dirty = part.content_changed = False  # as opened: saved as the original bytes again
    doc.after_history()


def redo_step(doc, known: dict, step) -> None:
    """Play ``step`` forwards again after its undo."""
    _restore_parts(doc, known, step, before=False)
    for op in step.ops:
        _play(doc, op, forward=True)
    for given in step.given:
        el, key = _given_at(given)
        el.set(OX_ID, key)
        doc.ids.adopt(el, own_only=True)
    step.clean = [(part, part.touches) for part, _ in step.clean]
    doc.after_history()


def _play(doc, op: list, forward: bool) -> None:
    kind, el = op[0], op[1]
    if kind == "swap":
        if len(op) > 3:
            el = op[1] = _at(op[3], op[4])
        _swap(el, op[2])
        doc.ids.adopt(el)
        doc.changed(el)
    elif kind == "attrs":
        now = dict(el.attrib)
        el.attrib.clear()
        el.attrib.update(op[2])
        op[2] = now
        doc.changed(el)
    elif (kind == "ins") == forward:  # put the block (back) in its place
        parent, prev = op[2], op[3]
        if prev is not None:
            prev.addnext(el)
        else:
            parent.insert(0, el)
        doc.block_back(el)
    else:  # take it out, noting its place for the way back
        op[3] = el.getprevious()
        doc.block_gone(el)
        if forward and len(op) > 4:  # it was moved into a block, not deleted: there again
            _put(el, op[4], op[5])


def _restore_parts(doc, known: dict, step, before: bool) -> None:
    package = doc.package
    table = step.parts_before if before else step.parts_after
    if table is not None:
        package.parts.clear()
        package.parts.update(table)
    for name, old, new, was_dirty in step.parts:
        data = old if before else new
        part = package.parts.get(name)
        if part is None:
            continue
        if before and not was_dirty:
            part.unload()  # as opened: saved as the original bytes again
            known.pop(name, None)
        else:
            part.restore(part.parse(data))
            known[name] = data


def _put(el: etree._Element, parent: etree._Element, prev: etree._Element | None) -> None:
    if prev is not None:
        prev.addnext(el)
    else:
        parent.insert(0, el)


def _at(top: etree._Element, path: list[int]) -> etree._Element:
    for i in path:
        top = top[i]
    return top


def _given_at(given: tuple) -> tuple[etree._Element, str]:
    """(element, ID) of a step's given ID, the element found by its place when it has one."""
    return (_at(given[2], given[3]), given[1]) if len(given) > 2 else (given[0], given[1])


def _swap(live: etree._Element, other: etree._Element) -> None:
    """Exchange attributes, text and children of two elements (tails stay)."""
    live_attrs, other_attrs = dict(live.attrib), dict(other.attrib)
    live.attrib.clear()
    live.attrib.update(other_attrs)
    other.attrib.clear()
    other.attrib.update(live_attrs)
    live.text, other.text = other.text, live.text
    live_kids, other_kids = list(live), list(other)
    move_children(live_kids, other)  # moves them out of live (linear: ooxml/xml/unlink.py)
    move_children(other_kids, live)
