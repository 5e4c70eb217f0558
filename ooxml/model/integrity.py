"""Package integrity: the things that make Word refuse or "repair" a file (NOTES.md).

``check_package(doc)`` returns one line per problem and nothing else. Real files already have
some (Word tolerates a few); callers compare a saved file's problems with the original's
rather than expect none. Each occurrence is its own line and messages name parts and values
but never counts or our own IDs, so the lists compare as multisets: a copy that repeats a
problem adds a line, a fix removes one. :func:`summarize` folds repeats for people.

By default only parts already parsed are read for XML checks (the parts an edit could have
changed), which keeps a pre-save check cheap; ``all_parts=True`` parses every XML part.
"""
from __future__ import annotations

import posixpath
from collections import Counter
from urllib.parse import unquote

from lxml import etree

from ooxml.text import body as B
from ooxml.xml.errors import LimitExceeded, OoxmlError
from ooxml.xml.namespaces import CT, MC, PR, R, W, W14, WP
from ooxml.opc.package import Package
from ooxml.xml.safexml import parse_part
from ooxml.opc.parts import story_part_names
from ooxml.xml.wordids import REVISIONS

_NS = {"w": W, "r": R, "w14": W14, "wp": WP, "mc": MC}
_R_ATTRS = etree.XPath("//@r:*", namespaces=_NS)
# Word repeats a text box's paragraphs (and their paraIds) in mc:Fallback: count one copy.
_PARA_IDS = etree.XPath("//@w14:paraId[not(ancestor::mc:Fallback)]", namespaces=_NS)
_ALL_PARA_IDS = etree.XPath("//@w14:paraId", namespaces=_NS)
_TEXT_IDS = etree.XPath("//@w14:textId", namespaces=_NS)
_DOC_PR = etree.XPath("//wp:docPr/@id", namespaces=_NS)
_BM_START = etree.XPath("//w:bookmarkStart/@w:id", namespaces=_NS)
_BM_END = etree.XPath("//w:bookmarkEnd/@w:id", namespaces=_NS)
_NEWLINE_T = etree.XPath("//w:t[contains(., '\n') or contains(., '\r')]", namespaces=_NS)
_CELLS = etree.XPath("//w:tc", namespaces=_NS)
_DEL_TEXTS = (f"{{{W}}}delText", f"{{{W}}}delInstrText")
_DELETIONS = (f"{{{W}}}del", f"{{{W}}}moveFrom")
_CM_START = etree.XPath("//w:commentRangeStart/@w:id", namespaces=_NS)
_CM_END = etree.XPath("//w:commentRangeEnd/@w:id", namespaces=_NS)
_XML_TYPES = ("xml", "+xml")


def check_package(doc, all_parts: bool = False) -> list[str]:
    """Problems found in the package of ``doc`` (an ooxml.model.document.Document)."""
    pkg = doc.package
    problems = content_type_problems(pkg) + relationship_target_problems(pkg)
    stories = set(story_part_names(pkg, doc.main_name))
    doc_prs: Counter[str] = Counter()
    for name, part in list(pkg.parts.items()):
        if not _is_xml(pkg, name) or not (part.loaded or all_parts or name in stories):
            continue
        try:
            root = part.tree.getroot()
        except Exception as e:  # an unreadable part is a problem to report, not a crash
            problems.append(f"{name}: cannot be parsed ({type(e).__name__})")
            continue
        problems += reference_problems(pkg, name, root)
        if name in stories:
            problems += story_problems(name, root)
            doc_prs.update(_DOC_PR(root))
    problems += [f"wp:docPr id {v} is used more than once across the main part, headers, footers and notes"
                 for v in _repeats(doc_prs.elements())]
    return problems


def unreadable_parts(doc) -> list[str]:
    """XML parts (relationships included) that no call parsed and that cannot be parsed: a save
    copies them unchanged, so the file stays as damaged as it came (Word may refuse or repair it).
    Such parts never change in a session, so they are judged once per package."""
    pkg = doc.package
    known = doc.caches.setdefault("integrity.unreadable", {})
    out = []
    for name, part in list(pkg.parts.items()):
        if part.loaded or part.dirty or not (_is_xml(pkg, name) or name.endswith(".rels")):
            continue
        if name not in known:
            known[name] = _parse_problem(name, part.original())
        if known[name]:
            out.append(known[name])
    return out


def _parse_problem(name: str, data: bytes | None) -> str | None:
    if data is None:
        return None
    try:
        parse_part(data, name)
    except OoxmlError as e:
        reason = "declares a DTD" if "DTD" in e.message else "nests too deep or is too big" \
            if isinstance(e, LimitExceeded) else "is not well-formed XML"
        return f"{name} {reason}"
    return None


def _is_xml(pkg, name: str) -> bool:
    if name.endswith(".rels") or name == "[Content_Types].xml":
        return False
    ctype = pkg.content_type_of(name) or ""
    return name.endswith(".xml") and (ctype.endswith(_XML_TYPES) or not ctype)


# ---- package level -----------------------------------------------------------------------------

def content_type_problems(pkg) -> list[str]:
    root = pkg.content_types
    overrides = {o.get("PartName", "").lower() for o in root.iter(f"{{{CT}}}Override")}
    defaults = {d.get("Extension", "").lower() for d in root.iter(f"{{{CT}}}Default")}
    out = []
    for name in pkg.parts:
        if name == "[Content_Types].xml":
            continue
        base = posixpath.basename(name)
        ext = base.rsplit(".", 1)[1].lower() if "." in base else ""  # '.rels' has the extension 'rels'
        if "/" + name.lower() not in overrides and ext not in defaults:
            out.append(f"{name}: no content type (no Override, no Default for '.{ext}')")
    return out


def relationship_target_problems(pkg) -> list[str]:
    out = []
    for rels_name in [n for n in pkg.parts if n.endswith(".rels")]:
        source = Package.source_of(rels_name)
        try:
            rels = pkg.part(rels_name).tree.getroot()
        except Exception as e:
            out.append(f"{rels_name}: cannot be parsed ({type(e).__name__})")
            continue
        for rel in rels.iter(f"{{{PR}}}Relationship"):
            if rel.get("TargetMode") == "External":
                continue
            target = unquote((rel.get("Target") or "").split("#")[0])
            if not target:
                continue
            name = pkg.resolve_target(source, target)
            if not pkg.has_part(name):
                out.append(f"{rels_name}: relationship {rel.get('Id')} targets missing part '{name}'")
    return out





# ---- part level ----------------------------------------------------------------------------------

def reference_problems(pkg, name: str, root: etree._Element) -> list[str]:
    """Every r:id / r:embed / r:link ... names a relationship of this part."""
    values = _R_ATTRS(root)
    if not values:
        return []
    ids = {rel.get("Id") for rel in pkg.rels(name)}
    return [f'{name}: r:{etree.QName(v.attrname).localname}="{v}" has no relationship'
            for v in values if str(v) not in ids]


def story_problems(name: str, root: etree._Element) -> list[str]:
    out = _word_id_problems(name, root) + _bookmark_problems(name, root) + _review_problems(name, root)
    out += [f"{name}: a table cell does not end with a paragraph"
            for tc in _CELLS(root) if not _ends_with_paragraph(tc)]
    out += [f"{name}: a w:t contains a newline"] * len(_NEWLINE_T(root))
    return out


def _ends_with_paragraph(tc: etree._Element) -> bool:
    for child in reversed(tc):
        if isinstance(child.tag, str) and child.tag not in B.MARKERS:
            return child.tag == B.W_P
    return False


def _hex_ok(value: str) -> bool:
    try:
        return len(value) == 8 and 0 < int(value, 16) < 0x80000000
    except ValueError:
        return False


def _repeats(values) -> list[str]:
    """Each value once per occurrence beyond its first."""
    return [v for v, n in sorted(Counter(values).items()) for _ in range(n - 1)]


def _word_id_problems(name: str, root: etree._Element) -> list[str]:
    out = [f"{name}: w14:{etree.QName(v.attrname).localname} {v} is out of range or malformed"
           for v in _ALL_PARA_IDS(root) + _TEXT_IDS(root) if not _hex_ok(str(v))]
    # Word itself repeats textId values (77777777); paraIds must be unique in the part.
    out += [f"{name}: w14:paraId {v} is used more than once"
            for v in _repeats(str(v).upper() for v in _PARA_IDS(root))]
    return out


def _bookmark_problems(name: str, root: etree._Element) -> list[str]:
    starts, ends = [str(v) for v in _BM_START(root)], [str(v) for v in _BM_END(root)]
    out = [f"{name}: bookmark id {v} starts more than once" for v in _repeats(starts)]
    out += [f"{name}: bookmark id {v} has no end" for v in sorted(set(starts) - set(ends))]
    out += [f"{name}: bookmark id {v} has no start" for v in sorted(set(ends) - set(starts))]
    return out


def _review_problems(name: str, root: etree._Element) -> list[str]:
    """Word's rules for revisions and comment ranges (NOTES.md 5 and 8)."""
    # root.iter with tags, not "//" XPaths: a union of fifteen "//" scans took a second on 370,000 elements
    ids = [el.get(f"{{{W}}}id") for el in root.iter(*REVISIONS) if el.get(f"{{{W}}}id") is not None]
    out = [f"{name}: revision w:id {v} is used more than once" for v in _repeats(ids)]
    stray = [t for t in root.iter(*_DEL_TEXTS) if next(t.iterancestors(*_DELETIONS), None) is None]
    out += [f"{name}: w:delText outside a deletion"] * len(stray)
    in_del = sum(1 for d in root.iter(*_DELETIONS) if next(d.iterancestors(*_DELETIONS), None) is None
                 for _ in d.iter(f"{{{W}}}t"))
    out += [f"{name}: w:t inside a deletion (deleted text must be w:delText)"] * in_del
    starts, ends = [str(v) for v in _CM_START(root)], [str(v) for v in _CM_END(root)]
    out += [f"{name}: comment range {v} starts more than once" for v in _repeats(starts)]
    out += [f"{name}: comment range {v} has no end" for v in sorted(set(starts) - set(ends))]
    out += [f"{name}: comment range {v} has no start" for v in sorted(set(ends) - set(starts))]
    return out


def summarize(problems: list[str]) -> list[str]:
    """Repeated lines folded into one with a count, in first-seen order."""
    counts = Counter(problems)
    return [p if counts[p] == 1 else f"{p} ({counts[p]}×)" for p in dict.fromkeys(problems)]
