"""Remove what the Inspector finds, per category; layout, styles, lists and numbering stay whole.

Story parts change through ``doc.will_change``/``changed`` (undo keeps their blocks); other parts
are touched (undo keeps their bytes) or dropped from the package's table (undo puts them back).
"""
from __future__ import annotations

import re

from lxml import etree

from ooxml.xml import budget
from ooxml.review import comments as C
from ooxml.layout import headers as H
from ooxml.review import review_ops as RO
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import W
from ooxml.opc.parts import set_flag
from ooxml.privacy import hidden as HD
from ooxml.privacy import inspect as I
from ooxml.opc.parts import story_part_names

ALIAS = "Author"
DEFAULT = ("personal_info", "properties", "comments", "revisions", "custom_xml", "hidden_text")
CATEGORIES = (*DEFAULT, "headers_footers", "embedded_objects", "chart_data", "alt_text")


def _w(local: str) -> str:
    return f"{{{W}}}{local}"


def check(categories: list[str] | None) -> tuple[str, ...]:
    chosen = tuple(categories) if categories else DEFAULT
    unknown = [c for c in chosen if c not in CATEGORIES]
    if unknown:
        raise ValidationError(f"Unknown categor{'y' if len(unknown) == 1 else 'ies'}: {', '.join(unknown)}.",
                              hint=f"Choose from {', '.join(CATEGORIES)} (none given: {', '.join(DEFAULT)}).")
    return tuple(c for c in CATEGORIES if c in chosen)  # a fixed order: revisions before authors go


def scrub(doc, categories: tuple[str, ...]) -> dict[str, int]:
    """How many things each category removed."""
    order = ("revisions", "comments", "hidden_text", "custom_xml", "headers_footers", "embedded_objects",
             "chart_data", "alt_text", "properties", "personal_info")
    done = {}
    for category in [c for c in order if c in categories]:
        budget.check()
        done[category] = _DO[category](doc)
    return {c: done[c] for c in categories}


def _edit_attrs(doc, els, change) -> int:
    n = 0
    for el in els:
        doc.will_change(el)
        parent = el.getparent()
        change(el)
        doc.changed(el if el.getparent() is not None else parent)  # a removed element: its parent changed
        n += 1
    return n


# ---- categories --------------------------------------------------------------------------------------

def _revisions(doc) -> int:
    roots = tuple(doc.story_roots())
    revs = [el for root in roots for el in RO.all_revisions(root)]
    if not revs:
        return 0
    tops = list(dict.fromkeys(doc.top_block(el) for el in revs))
    for t in tops:
        doc.will_change(t)
    done = RO.decide(doc, revs, True, roots)
    for root in roots:
        RO.drop_move_ranges(root)
    for t in tops:
        if RO.attached(t, roots):
            doc.changed(t)
    return done


def _comments(doc) -> int:
    comments = C.Comments(doc)
    found = comments.all()
    if not found:
        return 0
    for root in doc.story_roots():
        marks = list(root.iter(C.START, C.END, C.REF))
        tops = list(dict.fromkeys(doc.top_block(m) for m in marks))  # a marker of the body is its own
        for t in tops:
            doc.will_change(t)
        C.remove_markers(doc, marks)  # one pass: by comment ID it was a search of the story per comment
        for t in tops:
            doc.changed(t)
    comments.remove(found)
    return len(found)


def _hidden_text(doc) -> int:
    n = 0
    hidden = HD.Hidden(doc.styles)
    for root in doc.story_roots():
        runs = hidden.runs(root)
        for r in runs:
            doc.will_change(r.getparent())
            doc.remove_block(r)
        for spec in list(root.iter(_w("specVanish"))):
            doc.will_change(spec)
            parent = spec.getparent()
            parent.remove(spec)
            doc.changed(parent)
        n += len(runs)
    return n





def _custom_xml(doc) -> int:
    n = 0
    for root in doc.story_roots():
        n += _edit_attrs(doc, list(root.iter(_w("dataBinding"))), lambda b: b.getparent().remove(b))
    items = I.custom_xml_names(doc)
    doc.package.remove_parts([x for x in items if not x.endswith(".rels")])
    return n + len([x for x in items if re.match(r"customXml/item\d*\.xml$", x)])


def _headers_footers(doc) -> int:
    n = 0
    for root in doc.story_roots(frozenset({"header", "footer"})):
        if root.tag in (_w("hdr"), _w("ftr")):
            H.remove(doc, root)
            n += 1
    return n


def _embedded_objects(doc) -> int:
    n = 0
    for root in doc.story_roots():
        runs = [o.getparent() for o in root.iter(_w("object")) if o.getparent() is not None]
        for r in runs:
            doc.remove_block(r)
        n += len(runs)
    embedded = [x for x in doc.package.parts if "/embeddings/" in f"/{x}"]
    doc.package.remove_parts(embedded)
    _unlink_charts(doc)
    return n + len(embedded)


def _unlink_charts(doc) -> None:
    """Charts whose workbook went keep their caches, without the link to data that is no more."""
    for name, root in I.chart_roots(doc).items():
        ids = {r.get("Id") for r in _rels_or_empty(doc, name)}
        gone = [ext for ext in root.iter(f"{{{I.C}}}externalData") if ext.get(f"{{{I.R}}}id") not in ids]
        for ext in gone:
            ext.getparent().remove(ext)
        if gone:
            doc.package.part(name).touch()


def _chart_data(doc) -> int:
    """Every chart's cached values (emptied: the chart keeps its place, size and titles) and its workbook."""
    n = 0
    for name, root in I.chart_roots(doc).items():
        points = I.chart_points(root)
        for pt in points:
            pt.getparent().remove(pt)
        for count in root.iter(f"{{{I.C}}}ptCount"):
            count.set("val", "0")
        for code in root.iter(f"{{{I.C}}}formatCode"):
            code.text = "General"  # a format may quote words
        if points:
            doc.package.part(name).touch()
        doc.package.remove_parts(I.chart_workbooks(doc, name))
        n += len(points)
    _unlink_charts(doc)
    return n


def _rels_or_empty(doc, name):
    return doc.package.rels(name) if doc.package.rels_name(name) in doc.package.parts else []


def _alt_text(doc) -> int:
    return sum(_edit_attrs(doc, I.alt_text_elements(root), _drop_alt_text) for root in doc.story_roots())


def _drop_alt_text(el) -> None:
    if el.tag in I.TABLE_ALT:
        el.getparent().remove(el)
    else:
        for name in ("descr", "title", "alt"):
            el.attrib.pop(name, None)


def _properties(doc) -> int:
    roots = {n: doc.package.part(n).tree.getroot() for n in (I.CORE, I.APP, I.CUSTOM) if doc.package.has_part(n)}
    items = I.property_items(roots)
    for name, el in items:
        el.getparent().remove(el)
    for name in {name for name, _ in items}:
        doc.package.part(name).touch()
    return len(items)


def _personal_info(doc) -> int:
    n = 0
    for root in doc.story_roots():
        authored = root.xpath("//*[@w:author and @w:author != $a]", namespaces={"w": W}, a=ALIAS)
        n += _edit_attrs(doc, authored, _anonymous)
    n += _rsids(doc)
    core = doc.package.part(I.CORE).tree.getroot() if doc.package.has_part(I.CORE) else None
    if core is not None:
        gone = [el for el in core if etree.QName(el).localname in I.PERSONAL_CORE]
        for el in gone:
            core.remove(el)
        if gone:
            doc.package.part(I.CORE).touch()
        n += len(gone)
    for name, root in list(I.xml_roots(doc).items()):
        if etree.QName(root).localname == "people":
            doc.package.remove_parts([name])
            n += 1
        elif I.comment_dates(root):
            n += _comment_dates(doc.package.part(name))
    n += _settings_personal(doc)
    return n


def _comment_dates(part) -> int:
    dated = I.comment_dates(part.tree.getroot())
    for el in dated:
        del el.attrib[I.DATE_UTC]
    part.touch()
    return len(dated)


def _rsids(doc) -> int:
    """rsid attributes (and w:rsids, w:rsid lists) in every WordprocessingML part: they tie edits to sessions."""
    n = 0
    stories = {doc.package.part(x) for x in story_part_names(doc.package, doc.main_name)}
    for name, root in I.xml_roots(doc).items():
        if etree.QName(root).namespace != W or not I.rsid_count(root):
            continue
        part = doc.package.part(name)
        story = part in stories
        root = doc.register_part_root(part) if story else part.tree.getroot()
        attrs = root.xpath("//*[@*[starts-with(local-name(), 'rsid')]]")
        lists = root.xpath("//w:rsids|//w:rsid", namespaces={"w": W})
        if story:
            _edit_attrs(doc, attrs, _no_rsids)
            _edit_attrs(doc, lists, lambda el: el.getparent().remove(el))
        elif attrs or lists:
            for el in attrs:
                _no_rsids(el)
            for el in lists:
                el.getparent().remove(el)
            part.touch()
        n += len(attrs) + len(lists)
    return n


def _anonymous(el: etree._Element) -> None:
    el.set(_w("author"), ALIAS)
    if el.get(_w("initials")) is not None:
        el.set(_w("initials"), "A")
    el.attrib.pop(_w("date"), None)


def _no_rsids(el: etree._Element) -> None:
    for name in [a for a in el.attrib if a.rpartition("}")[2].startswith("rsid")]:
        del el.attrib[name]


def _settings_personal(doc) -> int:
    name = I.settings_name(doc)
    if not name or not doc.package.has_part(name):
        return 0
    n = 0
    root = doc.package.part(name).tree.getroot()
    for tag in ("attachedTemplate",):
        for el in root.findall(_w(tag)):
            root.remove(el)
            n += 1
    if n:
        doc.package.part(name).touch()
    if doc.package.rels_name(name) in doc.package.parts:
        rels = doc.package.part(doc.package.rels_name(name))
        for rel in [r for r in rels.tree.getroot() if r.get("Type", "").endswith("/attachedTemplate")]:
            rels.tree.getroot().remove(rel)
            rels.touch()
    set_flag(doc, "removePersonalInformation")
    set_flag(doc, "removeDateAndTime")
    return n


_DO = {"revisions": _revisions, "comments": _comments, "hidden_text": _hidden_text, "custom_xml": _custom_xml,
       "headers_footers": _headers_footers, "embedded_objects": _embedded_objects, "chart_data": _chart_data,
       "alt_text": _alt_text,
       "properties": _properties, "personal_info": _personal_info}
