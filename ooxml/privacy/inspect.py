"""What Word's Document Inspector reports, with counts and where: read only, nothing changes.

Categories (the names docx_scrub takes where it can remove them): comments, revisions, properties,
personal_info, custom_xml, headers_footers, hidden_text, invisible_content, embedded_objects, chart_data,
alt_text, links, glossary, settings.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from ooxml.opc.types import RT
from ooxml.review import review_ops as RO
from ooxml.xml.namespaces import A, R, V, W, WP
from ooxml.privacy import hidden as HD
from ooxml.privacy import reading as RD
from ooxml.opc.parts import story_part_names

W15 = "http://schemas.microsoft.com/office/word/2012/wordml"
W16CEX = "http://schemas.microsoft.com/office/word/2018/wordml/cex"
DATE_UTC = f"{{{W16CEX}}}dateUtc"  # commentsExtensible: when each comment was written (no text, no names)
C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
CX = "http://schemas.microsoft.com/office/drawing/2014/chartex"
CACHES = tuple(f"{{{C}}}{t}" for t in ("strCache", "numCache", "multiLvlStrCache"))
O = "urn:schemas-microsoft-com:office:office"
PIC = "http://schemas.openxmlformats.org/drawingml/2006/picture"
CORE, APP, CUSTOM = "docProps/core.xml", "docProps/app.xml", "docProps/custom.xml"
PERSONAL_CORE = {"creator", "lastModifiedBy", "lastPrinted"}
APP_NAMES = {"Company", "Manager", "HyperlinkBase", "Template"}
_LINKING = re.compile(r"\b(INCLUDETEXT|INCLUDEPICTURE|LINK|HYPERLINK|DDE|DDEAUTO|RD)\b", re.IGNORECASE)
_PATHISH = re.compile(r"(file:|\\\\|[A-Za-z]:\\|https?://|ftp://)", re.IGNORECASE)
_OFF_PAGE_EMU = 10 * 914400  # 10 inches from the anchor: beyond any page
SHOWN = 5


@dataclass
class Finding:
    category: str
    count: int = 0
    where: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, n: int, where: str | None = None, note: str | None = None) -> None:
        """``n`` more items (none: nothing noted), found in ``where``, said in ``note``."""
        if not n:
            return
        self.count += n
        if where:
            self.where.append(where)
        if note:
            self.notes.append(note)

    def line(self) -> str:
        where = sorted(dict.fromkeys(self.where))
        shown = ", ".join(where[:SHOWN]) + (f" (+{len(where) - SHOWN})" if len(where) > SHOWN else "")
        extra = "; ".join(self.notes)
        return f"- {self.category}: {self.count}" + (f" in {shown}" if shown and self.count else "") + (f"; {extra}" if extra else "")


def _attr(local: str, ns: str = W) -> str:
    return f"{{{ns}}}{local}"


def xml_roots(doc, live: bool = False) -> dict[str, etree._Element]:
    """Every XML part's root by name (parts that do not parse are left out). Not ``live``: a part not
    loaded yet is parsed aside, so reading leaves the session as it was (a loaded part is saved anew)."""
    from ooxml.xml.errors import OoxmlError
    from ooxml.privacy.redact import xml_part_names
    out = {}
    for name in xml_part_names(doc.package):
        part = doc.package.part(name)
        try:
            out[name] = (part.tree if live or part.loaded else part.parse(part.data)).getroot()
        except OoxmlError:
            continue
    return out


def inspect(doc) -> list[Finding]:
    roots = xml_roots(doc)
    stories = [n for n in story_part_names(doc.package, doc.main_name) if n in roots]
    return [_comments(doc, roots), _revisions(roots, stories), _properties(roots), _personal(doc, roots, stories),
            _custom_xml(doc, roots, stories), _headers(doc, roots), _hidden(doc, roots, stories),
            _invisible(roots, stories), _embedded(doc, roots, stories), _chart_data(doc, roots),
            _alt_text(roots, stories),
            _links(doc, roots, stories), _glossary(roots), _settings(doc, roots)]


def _comments(doc, roots) -> Finding:
    f = Finding("comments")
    for name, root in roots.items():
        if root.tag == _attr("comments"):
            found = root.findall(_attr("comment"))
            f.add(len(found), name)
            authors = sorted({c.get(_attr("author"), "") for c in found} - {""})
            if authors:
                f.notes.append("by " + ", ".join(authors[:SHOWN]))
        if etree.QName(root).localname == "commentsEx":
            replies = [e for e in root if e.get(f"{{{W15}}}paraIdParent")]
            if replies:
                f.notes.append(f"{len(replies)} repl{'y' if len(replies) == 1 else 'ies'}")
    return f


def _revisions(roots, stories) -> Finding:
    f = Finding("revisions")
    authors = set()
    for name in stories:
        found = RO.all_revisions(roots[name])
        f.add(len(found), name)
        authors |= {el.get(_attr("author"), "") for el in found}
    if authors - {""}:
        f.notes.append("by " + ", ".join(sorted(authors - {""})[:SHOWN]))
    return f


def property_items(roots) -> list[tuple[str, etree._Element]]:
    """(part, element) of every document property with a value."""
    out = []
    for name in (CORE, APP, CUSTOM):
        root = roots.get(name)
        if root is None:
            continue
        for el in root:
            local = etree.QName(el).localname
            if name == APP and local not in APP_NAMES:
                continue  # statistics (pages, words ...) describe the text, not the people
            if name == CORE and local in PERSONAL_CORE:
                continue  # personal information, its own category
            if "".join(el.itertext()).strip():
                out.append((name, el))
    return out


def _properties(roots) -> Finding:
    f = Finding("properties")
    for name, el in property_items(roots):
        f.add(1, name, el.get("name") or etree.QName(el).localname)
    f.notes = [", ".join(sorted(set(f.notes))[:8])] if f.notes else []
    return f


def rsid_count(root: etree._Element) -> int:
    return len(root.xpath("//@*[starts-with(local-name(), 'rsid')]")) + len(root.xpath("//w:rsids|//w:rsid",
                                                                                        namespaces={"w": W}))


def _personal(doc, roots, stories) -> Finding:
    f = Finding("personal_info")
    core = roots.get(CORE)
    if core is not None:
        for el in core:
            if etree.QName(el).localname in PERSONAL_CORE and (el.text or "").strip():
                f.add(1, CORE, f"{etree.QName(el).localname}: {el.text.strip()[:40]}")
    for name, root in roots.items():
        if etree.QName(root).localname == "people":
            f.add(len(root.findall(f"{{{W15}}}person")), name)
        dated = comment_dates(root)
        f.add(len(dated), name if dated else None, f"{len(dated)} comment date(s)" if dated else None)
    authors = {name: len(roots[name].xpath("//@w:author[. != 'Author']", namespaces={"w": W}))  # scrub.ALIAS
               for name in stories}
    f.where += [name for name, n in authors.items() if n]
    n = sum(authors.values())
    f.add(n, note=f"{n} author name(s) on revisions and comments")
    if f.count and not flag_state(doc, "removePersonalInformation"):
        f.notes.append("w:removePersonalInformation off")
    rsids = sum(rsid_count(root) for root in roots.values() if etree.QName(root).namespace == W)
    f.add(rsids, note=f"{rsids} rsid(s)")
    template = attached_template(doc)
    f.add(1 if template else 0, note=f"attached template: {(template or '')[:60]}")
    return f


def comment_dates(root: etree._Element) -> list[etree._Element]:
    """commentsExtensible's elements carrying a date (Word writes one per comment)."""
    if etree.QName(root).namespace != W16CEX:
        return []
    return [el for el in root.iter() if el.get(DATE_UTC) is not None]


def settings_name(doc) -> str | None:
    for rel in doc.package.rels(doc.main_name):
        if rel.get("Type") == RT.SETTINGS:
            return doc.package.resolve_target(doc.main_name, rel.get("Target", ""))
    return None


def attached_template(doc) -> str | None:
    name = settings_name(doc)
    if not name or not doc.package.has_part(doc.package.rels_name(name)):
        return None
    for rel in doc.package.rels(name):
        if rel.get("Type") == RT.ATTACHED_TEMPLATE:
            return rel.get("Target")
    return None


def custom_xml_names(doc) -> list[str]:
    return [n for n in doc.package.parts if n.startswith("customXml/")]


def _custom_xml(doc, roots, stories) -> Finding:
    f = Finding("custom_xml")
    items = [n for n in custom_xml_names(doc) if re.match(r"customXml/item\d*\.xml$", n)]
    f.count = len(items)
    f.where += items
    bindings = sum(len(roots[n].findall(f".//{_attr('dataBinding')}")) for n in stories)
    f.add(bindings, note=f"{bindings} content control binding(s)")
    return f


def _headers(doc, roots) -> Finding:
    f = Finding("headers_footers")
    for name, root in roots.items():
        if root.tag in (_attr("hdr"), _attr("ftr")) and ("".join(root.itertext()).strip()
                                                         or root.find(f".//{_attr('drawing')}") is not None):
            f.add(1, name)
            if root.findall(f".//{{{V}}}textpath") or "WaterMark" in etree.tostring(root, encoding=str):
                f.notes.append(f"watermark in {name}")
    return f


def _hidden(doc, roots, stories) -> Finding:
    f = Finding("hidden_text")
    hidden = HD.Hidden(doc.styles)
    for name in stories:
        runs = hidden.runs(roots[name])
        spec = roots[name].findall(f".//{_attr('specVanish')}")
        f.add(len(runs) + len(spec), name)
    return f


def _invisible(roots, stories) -> Finding:
    f = Finding("invisible_content")
    white = 0
    for name in stories:
        root = roots[name]
        for off in root.iter(f"{{{WP}}}posOffset"):
            try:
                far = abs(int(off.text or 0)) > _OFF_PAGE_EMU
            except ValueError:
                far = False
            f.add(1 if far else 0, name)
        white += sum(1 for c in root.iter(_attr("color")) if c.get(_attr("val"), "").upper() == "FFFFFF"
                     and c.getparent() is not None and c.getparent().getparent() is not None
                     and c.getparent().getparent().tag == _attr("r"))
    if white:
        f.notes.append(f"warning: {white} run(s) of white text (check the background)")
    return f


def _embedded(doc, roots, stories) -> Finding:
    f = Finding("embedded_objects")
    for name in doc.package.parts:
        f.add(1 if "/embeddings/" in f"/{name}" else 0, name)
    links = sum(1 for n in stories for o in roots[n].iter(f"{{{O}}}OLEObject") if o.get("Type") == "Link")
    f.add(links, note=f"{links} OLE link(s)")
    return f


def chart_roots(doc, roots: dict[str, etree._Element] | None = None) -> dict[str, etree._Element]:
    """Chart parts' roots: from ``roots``, else parsed in place (to be changed)."""
    if roots is None:
        names = [n for n in doc.package.parts if (doc.package.content_type_of(n) or "").endswith(
            ("drawingml.chart+xml", "chartex+xml"))]
        roots = {n: doc.package.part(n).tree.getroot() for n in names}
    return {n: r for n, r in roots.items() if r.tag in (f"{{{C}}}chartSpace", f"{{{CX}}}chartSpace")}


def chart_points(root: etree._Element) -> list[etree._Element]:
    """A chart's cached values: what its series and categories show, copied from its workbook."""
    return [pt for cache in root.iter(*CACHES) for pt in cache.iter(f"{{{C}}}pt")] + list(root.iter(f"{{{CX}}}pt"))


def chart_workbooks(doc, name: str) -> list[str]:
    if not doc.package.has_part(doc.package.rels_name(name)):
        return []
    return [doc.package.resolve_target(name, r.get("Target", "")) for r in doc.package.rels(name)
            if r.get("Type") == RT.PACKAGE and r.get("TargetMode") != "External"]


def _chart_data(doc, roots) -> Finding:
    f = Finding("chart_data")
    books = 0
    for name, root in chart_roots(doc, roots).items():
        f.add(len(chart_points(root)), name)
        books += len(chart_workbooks(doc, name))
    if f.count:
        books_note = f", {books} embedded workbook(s)" if books else ""
        f.notes.append(f"cached values in {len(set(f.where))} chart(s){books_note}")
    return f


def _alt_text(roots, stories) -> Finding:
    f = Finding("alt_text")
    for name in stories:
        f.add(len(alt_text_elements(roots[name])), name)
    return f


def alt_text_elements(root: etree._Element) -> list[etree._Element]:
    """Drawings and pictures with a description or title, VML shapes with alt text, tables' captions and
    descriptions (elements of their own)."""
    els = [el for el in root.iter(f"{{{WP}}}docPr", f"{{{PIC}}}cNvPr") if el.get("descr") or el.get("title")]
    vml = [el for el in root.iter() if isinstance(el.tag, str) and el.tag.startswith(f"{{{V}}}") and el.get("alt")]
    return els + vml + list(root.iter(*TABLE_ALT))


TABLE_ALT = (f"{{{W}}}tblCaption", f"{{{W}}}tblDescription")


def _links(doc, roots, stories) -> Finding:
    f = Finding("links")
    for name in stories:
        root = roots[name]
        for p in root.iter(RD.W_P):
            instr = "".join(t.text or "" for t in p.iter(_attr("instrText"))) + \
                " ".join(s.get(_attr("instr"), "") for s in p.iter(_attr("fldSimple")))
            f.add(1 if _LINKING.search(instr) and _PATHISH.search(instr) else 0, name)
    for source in [n for n in roots if not n.endswith(".rels")]:
        rels_name = doc.package.rels_name(source)
        if rels_name not in doc.package.parts:
            continue
        f.add(sum(1 for rel in doc.package.rels(source) if rel.get("TargetMode") == "External"
                  and not rel.get("Type", "").endswith("attachedTemplate")), rels_name)
    return f


def _glossary(roots) -> Finding:
    f = Finding("glossary")
    for name, root in roots.items():
        if root.tag == _attr("glossaryDocument"):
            f.add(len(root.findall(f".//{_attr('docPart')}")), name)
    return f


def _settings(doc, roots) -> Finding:
    f = Finding("settings")
    for name, root in roots.items():
        if root.tag not in (_attr("settings"), _attr("webSettings")):
            continue
        for tag in ("docVars", "mailMerge", "attachedSchema", "saveThroughXslt"):
            f.add(len(root.findall(_attr(tag))), name, tag)
    for rel_src in [n for n in roots if n.endswith(("settings.xml", "webSettings.xml"))]:
        if doc.package.rels_name(rel_src) in doc.package.parts:
            ext = [r for r in doc.package.rels(rel_src) if r.get("TargetMode") == "External"]
            f.add(len(ext), doc.package.rels_name(rel_src), "external paths")
    return f


def flag_state(doc, name: str) -> bool:
    from ooxml.opc.parts import flag_on
    return flag_on(doc, name)


_ = (A, R)  # namespaces named in the docstring's categories
