"""Stable element IDs: ``para_3f9a2c`` kept as an ``oxm:id`` attribute in our own namespace.

IDs are given lazily (when an element is first shown or addressed) because giving every
element an ID up front costs several times the parse. Once given, an ID stays with its
element; the attribute is saved, so it survives save and reopen. The namespace is declared
on the part's root and listed in ``mc:Ignorable`` so Word accepts the file (and drops the IDs
when it re-saves).
"""
from __future__ import annotations


from lxml import etree

from ooxml.xml import minting
from ooxml.xml.id_bytes import OUR_ID
from ooxml.xml.namespaces import MC, M, OX, OX_ID, OX_PREFIX, W

PREFIXES = {
    "p": "para", "r": "run", "tbl": "table", "tr": "row", "tc": "cell", "sdt": "sdt",
    "drawing": "img", "pict": "img", "hyperlink": "link", "bookmarkStart": "bkm", "sectPr": "sect",
    "footnote": "note", "endnote": "note", "comment": "comment", "hdr": "hdr", "ftr": "ftr",
    "ins": "rev", "del": "rev", "moveFrom": "rev", "moveTo": "rev", "rPrChange": "rev", "pPrChange": "rev",
    "tblPrChange": "rev", "trPrChange": "rev", "tcPrChange": "rev", "sectPrChange": "rev",
    "tblGridChange": "rev", "numberingChange": "rev", "cellIns": "rev", "cellDel": "rev", "cellMerge": "rev",
    "customXml": "cxml", "altChunk": "chunk", "fldSimple": "fld", "fldChar": "fld", "txbxContent": "tbx",
}
_CHART_NS = "http://schemas.openxmlformats.org/drawingml/2006/chart"
_IGNORABLE = f"{{{MC}}}Ignorable"
# Selecting the attributes is ~3x faster than selecting elements by attribute predicate.
_XPATH_ID_ATTRS = etree.XPath("//@oxm:id", namespaces={"oxm": OX})


_TOC_GALLERY = etree.XPath("w:sdtPr/w:docPartObj/w:docPartGallery[@w:val='Table of Contents']",
                           namespaces={"w": W})


_W_PREFIXES = {f"{{{W}}}{name}": prefix for name, prefix in PREFIXES.items() if name != "sdt"}
_W_PREFIXES.update({f"{{{M}}}oMath": "eq", f"{{{M}}}oMathPara": "eq"})  # equations: no QName either


def prefix_for(el: etree._Element) -> str:
    prefix = _W_PREFIXES.get(el.tag)  # the common kinds without parsing the tag
    if prefix is not None:
        return prefix
    q = etree.QName(el)
    if q.namespace == W:
        if q.localname == "sdt" and _TOC_GALLERY(el):
            return "toc"  # Word wraps a table of contents in a content control of this gallery
        return PREFIXES.get(q.localname, "el")
    if q.localname == "chart" and q.namespace == _CHART_NS:  # the c:chart reference in a w:drawing
        return "chart"
    return "eq" if q.localname in ("oMath", "oMathPara") else "el"


def declare_namespace(root: etree._Element) -> None:
    """Make sure our prefix is declared on the part's root and listed in mc:Ignorable."""
    if root.nsmap.get(OX_PREFIX) != OX:
        _declare_late(root)
    ignorable = root.get(_IGNORABLE, "").split()
    if OX_PREFIX not in ignorable:
        root.set(_IGNORABLE, " ".join([*ignorable, OX_PREFIX]))


def _declare_late(root: etree._Element) -> None:
    # Only for parts predeclare could not handle (UTF-16): cleanup_namespaces may move
    # prefixes around, which is still valid XML. Without keep_ns_prefixes the root's unused
    # declarations (w14 ... that mc:Ignorable names) would vanish and Word would refuse the file.
    top = {OX_PREFIX: OX}
    if MC not in root.nsmap.values():
        top["mc" if "mc" not in root.nsmap else "mcx"] = MC
    keep = [p for p in root.nsmap if p] + list(top)
    etree.cleanup_namespaces(root, top_nsmap=top, keep_ns_prefixes=keep)


def strip_ids(root: etree._Element) -> None:
    """Remove our attributes and mc:Ignorable token (on a copy, for strip_ids saves).

    The namespace declaration itself is removed from the serialised bytes by ``undeclare``.
    """
    # lxml's C walk: libxml2 evaluated //*[@oxm:id] in about quadratic time on Word's bodies
    etree.strip_attributes(root, OX_ID)
    ignorable = [p for p in root.get(_IGNORABLE, "").split() if p != OX_PREFIX]
    if ignorable:
        root.set(_IGNORABLE, " ".join(ignorable))
    elif _IGNORABLE in root.attrib:
        del root.attrib[_IGNORABLE]


class IdIndex:
    """ID -> element for every loaded part, built lazily from the attributes in the files.

    A part this server saved comes with its IDs' line numbers (``mark_ids``): its IDs are found
    by line, a few children lists on the way down, when one of them is first asked for, instead
    of by a walk of the whole tree (100 ms for 50,000 paragraphs). Other parts are walked once.
    """

    def __init__(self):
        self._given: list[etree._Element] = []  # IDs given since mark(), for rollback()
        self._by_id: dict[str, etree._Element] = {}
        self._roots: list[etree._Element] = []
        self._root_set: set[etree._Element] = set()  # the same, for lookups (elements hash by identity)
        self._pending: list[etree._Element] = []
        self._declared: set[etree._Element] = set()  # roots known to declare our namespace
        self._old: dict[str, tuple[etree._Element, int]] = {}  # marked ID not found yet -> root, line

    def add_root(self, root: etree._Element, may_have_ids: bool = True,
                 marks: dict[str, int] | None = None) -> None:
        self._roots.append(root)
        self._root_set.add(root)
        if not may_have_ids or root.nsmap.get(OX_PREFIX) != OX:  # only files we saved carry IDs
            return
        if marks is None:
            self._pending.append(root)
        else:
            self._old.update((key, (root, line)) for key, line in marks.items())

    def _build(self) -> None:
        while self._pending:
            for attr in _XPATH_ID_ATTRS(self._pending.pop()):
                el, key = attr.getparent(), str(attr)
                if not OUR_ID.fullmatch(key) or (key in self._by_id and self._by_id[key] is not el):
                    # a duplicate someone copied, or a value we never write (it would be shown in
                    # answers as given): it gets a fresh ID on use
                    del el.attrib[OX_ID]
                else:
                    self._by_id[key] = el

    def _find_marked(self, root: etree._Element) -> None:
        """Find every marked ID of ``root`` not found yet, by line; walk the tree for any that moved."""
        targets = sorted((line, key) for key, (r, line) in self._old.items() if r is root)
        for _, key in targets:
            del self._old[key]
        if targets and targets[0][0] == 0 and root.get(OX_ID) == targets[0][1]:
            self._by_id[targets.pop(0)[1]] = root  # the root's own ID (a header's, a footer's)
        missing = _by_line(root, targets, self._by_id)
        if missing:  # an edit moved it before it was looked up (or removed it without forget)
            wanted = set(missing)
            for attr in _XPATH_ID_ATTRS(root):
                if str(attr) in wanted:
                    self._by_id[str(attr)] = attr.getparent()

    def get(self, element_id: str) -> etree._Element | None:
        el = self._by_id.get(element_id)  # IDs given since opening are known without the scan
        if (el is None or not self._attached(el)) and self._pending:
            self._build()
            el = self._by_id.get(element_id)
        if (el is None or not self._attached(el)) and element_id in self._old:
            self._find_marked(self._old[element_id][0])
            el = self._by_id.get(element_id)
        if el is None or not self._attached(el):
            return None
        return el

    def _attached(self, el: etree._Element) -> bool:
        top = el
        while (parent := top.getparent()) is not None:
            top = parent
        return top in self._root_set

    def known(self, el: etree._Element, key: str) -> str:
        """``el``'s ID when it carries ``key`` (``id_of`` without the look for a missing one)."""
        if self._pending:  # the scan may find ``key`` a duplicate and take it off
            return self.id_of(el)
        if key not in self._by_id:
            self._by_id[key] = el
        return key

    def id_of(self, el: etree._Element, root: etree._Element | None = None) -> str:
        """The element's ID, given now if it has none (``root``: its tree's root, when known)."""
        if self._pending:
            self._build()
        existing = el.get(OX_ID)
        if existing is not None:
            if existing not in self._by_id:
                self._by_id[existing] = el
                self._old.pop(existing, None)
            return existing
        prefix = prefix_for(el)
        while True:
            candidate = f"{prefix}_{minting.token_hex(3)}"
            if candidate not in self._by_id and candidate not in self._old:
                break
        if root is None:
            root = el.getroottree().getroot()
        if root not in self._declared:
            declare_namespace(root)
            if root in self._root_set:  # a declaration stays: only the list in mc:Ignorable can go (undo)
                self._declared.add(root)
        elif OX_PREFIX not in root.get(_IGNORABLE, "").split():
            declare_namespace(root)
        el.set(OX_ID, candidate)
        self._by_id[candidate] = el
        self._given.append(el)
        return candidate

    def mark(self) -> None:
        """Start recording the IDs given from now on (a tool call starts)."""
        self._given = []

    def rollback(self) -> None:
        """Take back the IDs given since mark(): a failed call must leave no trace."""
        for el in self._given:
            key = el.attrib.pop(OX_ID, None)
            if key is not None and self._by_id.get(key) is el:
                del self._by_id[key]
        self._given = []

    def given(self) -> list[etree._Element]:
        """Elements given an ID since mark()."""
        return self._given

    def drop(self, key: str, el: etree._Element) -> None:
        """Forget one ID (undo takes back an ID a call gave)."""
        if self._by_id.get(key) is el:
            del self._by_id[key]

    def adopt(self, el: etree._Element, own_only: bool = False) -> None:
        """Index the IDs found on ``el`` (and inside it): content put back by undo or redo."""
        self._build()
        for sub in ((el,) if own_only else el.iter()):
            key = sub.get(OX_ID) if isinstance(sub.tag, str) else None
            if key is not None:
                self._by_id[key] = sub
                self._old.pop(key, None)

    def forget(self, el: etree._Element) -> None:
        """Drop a removed subtree's IDs from the index."""
        for sub in el.iter():
            key = sub.get(OX_ID) if isinstance(sub.tag, str) else None
            if key is not None and self._by_id.get(key) is sub:
                del self._by_id[key]
            elif key is not None and key in self._old:
                del self._old[key]  # not found yet, and gone now: no need to look for it

    @staticmethod
    def clear_ids(el: etree._Element) -> None:
        """Remove IDs from a copied subtree: copies get new IDs."""
        for sub in el.iter():
            if isinstance(sub.tag, str) and OX_ID in sub.attrib:
                del sub.attrib[OX_ID]


_FEW = 64  # children out of line searched one by one


def _by_line(parent: etree._Element, targets: list[tuple[int, str]], found: dict) -> list[str]:
    """Find the elements of ``targets`` (line, ID; sorted) inside ``parent``; returns the IDs not found.

    Start tags come in document order, so the n-th marked element is the first to end on its line:
    the elements before it end on earlier lines, its ancestors among them. At each level it is the
    child on its line, or inside the last child ending on an earlier one (or one of the copies of
    that child before it: a copy keeps its source's line). Elements made since the parse (no line)
    and elements moved down (a line below their neighbours') are searched whole, last. One pass
    over the children, stopping after the last target's line.
    """
    missing, new, ti = [], [], 0
    run: list[etree._Element] = []  # the last children, all on one line before the next target
    run_line = 0
    for child in parent.iterchildren(etree.Element):  # 51,000 in a large body: kept lean
        line = child.sourceline
        if line == run_line:
            run.append(child)
            continue
        if line is None or line < run_line:  # made since, or moved here from further up
            new.append(child)
            continue
        ti = _inside(run, targets, ti, line, found, missing)
        if ti < len(targets) and targets[ti][0] == line:
            if child.get(OX_ID) == targets[ti][1]:
                found[targets[ti][1]] = child
                ti += 1
            else:  # it starts on the target's line after it: the target is in the run before
                ti = _inside(run, targets, ti, line + 1, found, missing)
        if ti == len(targets):
            break
        run, run_line = [child], line
    else:
        _inside(run, targets, ti, None, found, missing)
    if missing and len(new) > _FEW:  # many out of line (a block moved up): the caller walks, in C
        return missing
    for child in new:  # made since (a tracked change around old runs) or moved: walked if need be
        if missing:
            wanted = set(missing)
            for sub in child.iter():
                key = sub.get(OX_ID) if isinstance(sub.tag, str) else None
                if key in wanted:
                    found[key] = sub
                    missing.remove(key)
    return missing


def _inside(run: list, targets: list, ti: int, below: int | None, found: dict, missing: list) -> int:
    """Look inside ``run`` (children on one line) for the targets from ``ti`` on lines before
    ``below`` (all, if None); returns the index of the first target left for later children."""
    end = ti
    while end < len(targets) and (below is None or targets[end][0] < below):
        end += 1
    group = targets[ti:end]
    for child in reversed(run):  # the last one, unless copies of it came after the original
        if not group:
            break
        left = set(_by_line(child, group, found))
        group = [t for t in group if t[1] in left]
    missing += [key for _, key in group]
    return end
