"""Validate WordprocessingML main parts against the ISO/IEC 29500 transitional schemas.

The schemas live in ``$OOXML_MCP_SCHEMAS`` (default ``../shared/ooxml-schemas`` next to the
repository). They are loaded once per process: ``wml.xsd`` together with the Microsoft
extension schemas (w14, w15, w16, w16cex, w16cid, w16se, w16sdtdh), which load with it.

Documents are validated on a *copy* after Markup Compatibility preprocessing
(ECMA-376 Part 3), as ``ooxml-schemas/README.md`` describes:

1. ``mc:AlternateContent`` -> children of the first ``mc:Choice`` whose ``Requires``
   prefixes all map to namespaces the loaded schemas cover, else of ``mc:Fallback``
   (or nothing);
2. elements and attributes in namespaces listed in ``mc:Ignorable`` (prefixes resolved
   in the scope of the element carrying it) are removed, elements named by
   ``mc:ProcessContent`` are unwrapped instead;
3. remaining ``mc:*`` attributes are removed.

The product lists its own ID namespace (``urn:ooxml-mcp:ids:2026``) in ``mc:Ignorable``, so
step 2 strips the IDs; nothing here special-cases it (a file that forgot to list it would
show schema errors, which is the point).

Error messages are normalised (no line numbers, namespace URIs shortened to prefixes) so
the errors of an original and of a saved file can be compared as multisets:
:func:`new_schema_errors`.
"""
from __future__ import annotations

import copy
import functools
import hashlib
import io
import json
import os
import re
import tempfile
import zipfile
from collections import Counter
from pathlib import Path

from lxml import etree

from tests.support.fidelity import main_part_name

REPO_ROOT = Path(__file__).resolve().parents[2]
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_MC_AC, _MC_CHOICE, _MC_FALLBACK = f"{{{MC}}}AlternateContent", f"{{{MC}}}Choice", f"{{{MC}}}Fallback"
_MC_IGNORABLE, _MC_PROCESS = f"{{{MC}}}Ignorable", f"{{{MC}}}ProcessContent"

# Prefixes used when shortening namespace URIs in messages (same style as SCHEMA_VALIDATION.tsv).
SHORT = {
    "http://schemas.openxmlformats.org/wordprocessingml/2006/main": "w",
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships": "r",
    "http://schemas.openxmlformats.org/officeDocument/2006/math": "m",
    "http://schemas.openxmlformats.org/drawingml/2006/main": "a",
    "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing": "wp",
    "http://schemas.openxmlformats.org/drawingml/2006/picture": "pic",
    "http://schemas.microsoft.com/office/word/2010/wordml": "w14",
    "http://schemas.microsoft.com/office/word/2012/wordml": "w15",
    "urn:schemas-microsoft-com:vml": "v",
    "urn:schemas-microsoft-com:office:office": "o",
    "urn:schemas-microsoft-com:office:word": "w10",
    MC: "mc",
    "urn:ooxml-mcp:ids:2026": "oxm",
}
_EXTENSIONS = ("wml-2010.xsd", "wml-2012.xsd", "wml-2018.xsd", "wml-cex-2018.xsd", "wml-cid-2016.xsd",
               "wml-symex-2015.xsd", "wml-sdtdatahash-2020.xsd")


def schemas_dir() -> Path | None:
    """The ooxml-schemas folder, or None if it is not there."""
    env = os.environ.get("OOXML_MCP_SCHEMAS")
    path = Path(env) if env else REPO_ROOT.parent / "shared" / "ooxml-schemas"
    return path if (path / "ISO-IEC29500-4_2016" / "wml.xsd").is_file() else None


def require_schemas() -> Path:
    """The schemas folder, or skip the calling test with a reason."""
    import pytest

    path = schemas_dir()
    if path is None:
        pytest.skip("OOXML schemas not found: set OOXML_MCP_SCHEMAS to the ooxml-schemas folder "
                    f"(default {REPO_ROOT.parent / 'shared' / 'ooxml-schemas'})")
    return path


@functools.lru_cache(maxsize=None)
def load_schema(with_extensions: bool = True) -> etree.XMLSchema:
    """wml.xsd (and, by default, the Microsoft extension schemas), loaded once."""
    root = schemas_dir()
    if root is None:
        raise FileNotFoundError("ooxml-schemas not found (set OOXML_MCP_SCHEMAS)")
    wml = root / "ISO-IEC29500-4_2016" / "wml.xsd"
    parser = etree.XMLParser(no_network=True, resolve_entities=False)
    if not with_extensions:
        return etree.XMLSchema(etree.parse(str(wml), parser))
    imports = [(wml, "http://schemas.openxmlformats.org/wordprocessingml/2006/main")]
    for name in _EXTENSIONS:
        path = root / "microsoft" / name
        tns = etree.parse(str(path), parser).getroot().get("targetNamespace")
        imports.append((path, tns))
    xs = "http://www.w3.org/2001/XMLSchema"
    driver = etree.Element(f"{{{xs}}}schema", nsmap={"xs": xs})
    for path, tns in imports:
        etree.SubElement(driver, f"{{{xs}}}import", namespace=tns, schemaLocation=path.resolve().as_uri())
    # The driver needs a base URL for libxml2 to resolve file: URIs consistently.
    with tempfile.TemporaryDirectory() as tmp:
        drv = Path(tmp) / "driver.xsd"
        drv.write_bytes(etree.tostring(driver))
        return etree.XMLSchema(etree.parse(str(drv), parser))


@functools.lru_cache(maxsize=None)
def covered_namespaces(with_extensions: bool = True) -> frozenset[str]:
    """Target namespaces of every schema file reachable from what :func:`load_schema` loads."""
    root = schemas_dir()
    parser = etree.XMLParser(no_network=True, resolve_entities=False)
    start = [root / "ISO-IEC29500-4_2016" / "wml.xsd"]
    if with_extensions:
        start += [root / "microsoft" / n for n in _EXTENSIONS]
    seen: set[Path] = set()
    out: set[str] = set()
    todo = [p.resolve() for p in start]
    xs = "{http://www.w3.org/2001/XMLSchema}"
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        doc = etree.parse(str(path), parser).getroot()
        if doc.get("targetNamespace"):
            out.add(doc.get("targetNamespace"))
        for imp in doc.iter(f"{xs}import", f"{xs}include"):
            loc = imp.get("schemaLocation")
            if loc and "://" not in loc:
                nxt = (path.parent / loc).resolve()
                if nxt.is_file():
                    todo.append(nxt)
    return frozenset(out)


# ---- Markup Compatibility preprocessing --------------------------------------------------------

def _remove_keep_tail(el: etree._Element) -> None:
    parent = el.getparent()
    if el.tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def _replace_with_children(el: etree._Element, children: list) -> list:
    """Put ``children`` where ``el`` is (keeping text/tails); return the moved elements."""
    parent = el.getparent()
    idx = parent.index(el)
    moved = []
    for i, child in enumerate(children):
        parent.insert(idx + i, child)
        moved.append(child)
    _remove_keep_tail(el)
    return moved


def _understood(choice: etree._Element, covered: frozenset[str]) -> bool:
    requires = choice.get("Requires", "").split()
    if not requires:
        return False
    nsmap = choice.nsmap
    return all(nsmap.get(p) in covered for p in requires)


def _resolve_qnames(value: str, nsmap: dict) -> set[tuple[str, str]]:
    out = set()
    for token in value.split():
        prefix, _, local = token.partition(":")
        uri = nsmap.get(prefix)
        if uri is not None and local:
            out.add((uri, local))
    return out


def _scope(el: etree._Element, ignorable: frozenset[str], process: frozenset[tuple[str, str]]):
    """The Ignorable namespaces and ProcessContent names in force inside ``el``."""
    ign_attr = el.get(_MC_IGNORABLE)
    if ign_attr:
        nsmap = el.nsmap
        ignorable = ignorable | {nsmap[p] for p in ign_attr.split() if p in nsmap}
    proc_attr = el.get(_MC_PROCESS)
    if proc_attr:
        process = process | _resolve_qnames(proc_attr, el.nsmap)
    return ignorable, process


_SCOPED = etree.XPath("//@mc:Ignorable | //@mc:ProcessContent", namespaces={"mc": MC})
_ACS = etree.XPath("//mc:AlternateContent", namespaces={"mc": MC})


def mce_preprocess(root: etree._Element, covered: frozenset[str] | None = None) -> etree._Element:
    """Markup Compatibility preprocessing of a COPY of ``root`` (the argument is untouched).

    Documents whose only ``mc:Ignorable`` is on the root (nearly all) take a fast path with
    XPath; others are walked element by element. Both give the same result.
    """
    if covered is None:
        covered = covered_namespaces()
    root = copy.deepcopy(root)
    scoped = _SCOPED(root)  # attribute values; their parents carry them
    if not scoped or (len(scoped) == 1 and scoped[0].getparent() is root and scoped[0].attrname == _MC_IGNORABLE):
        return _mce_fast(root, covered)
    return _mce_walk(root, covered)


def _detached(el: etree._Element, root: etree._Element) -> bool:
    top = el
    while (parent := top.getparent()) is not None:
        top = parent
    return top is not root


def _mce_fast(root: etree._Element, covered: frozenset[str]) -> etree._Element:
    ign_attr = root.get(_MC_IGNORABLE, "")
    ignorable = {root.nsmap[p] for p in ign_attr.split() if p in root.nsmap}
    for ac in _ACS(root):  # document order: outer before nested
        if _detached(ac, root):
            continue  # inside a branch that was dropped
        chosen = next((c for c in ac if c.tag == _MC_CHOICE and _understood(c, covered)), None)
        if chosen is None:
            chosen = next((c for c in ac if c.tag == _MC_FALLBACK), None)
        _replace_with_children(ac, list(chosen) if chosen is not None else [])
    for ns in sorted(ignorable):
        for el in list(root.iter(f"{{{ns}}}*")):  # document order: outer before nested
            if el is not root and not _detached(el, root):
                _remove_keep_tail(el)
    uris = [*sorted(ignorable), MC]
    names = {f"n{i}": u for i, u in enumerate(uris)}
    for value in etree.XPath(" | ".join(f"//@{p}:*" for p in names), namespaces=names)(root):
        parent = value.getparent()
        if parent is not None:
            del parent.attrib[value.attrname]
    return root


def _mce_walk(root: etree._Element, covered: frozenset[str]) -> etree._Element:

    def element(el: etree._Element, ignorable, process) -> None:
        """Process an element that stays: its attributes, then its children."""
        ignorable, process = _scope(el, ignorable, process)
        for name in list(el.attrib):
            if name.startswith("{"):
                uri = name[1:].partition("}")[0]
                if uri in ignorable or uri == MC:
                    del el.attrib[name]
        for child in [c for c in el if isinstance(c.tag, str)]:
            child_of(child, ignorable, process)

    def child_of(el: etree._Element, ignorable, process) -> None:
        """Process a child: it may be replaced (AlternateContent), removed or unwrapped."""
        if el.tag == _MC_AC:
            chosen = next((c for c in el if c.tag == _MC_CHOICE and _understood(c, covered)), None)
            if chosen is None:
                chosen = next((c for c in el if c.tag == _MC_FALLBACK), None)
            inner_ign, inner_proc = _scope(el, ignorable, process)
            if chosen is not None:
                inner_ign, inner_proc = _scope(chosen, inner_ign, inner_proc)
            moved = _replace_with_children(el, list(chosen) if chosen is not None else [])
            for m in moved:
                if isinstance(m.tag, str):
                    child_of(m, inner_ign, inner_proc)
            return
        q = etree.QName(el)
        if q.namespace in ignorable:
            if (q.namespace, q.localname) in process or (q.namespace, "*") in process:
                inner_ign, inner_proc = _scope(el, ignorable, process)
                moved = _replace_with_children(el, list(el))
                for m in moved:
                    if isinstance(m.tag, str):
                        child_of(m, inner_ign, inner_proc)
            else:
                _remove_keep_tail(el)
            return
        element(el, ignorable, process)

    element(root, frozenset(), frozenset())
    return root


# ---- validation ------------------------------------------------------------------------------------

_URI_RE = re.compile(r"\{([^}]*)\}")


def normalise_message(message: str) -> str:
    """A schema error message without position and with short namespace prefixes."""
    def short(m: re.Match) -> str:
        uri = m.group(1)
        return f"{SHORT[uri]}:" if uri in SHORT else f"{{{uri}}}"
    msg = _URI_RE.sub(short, message)
    # "Element 'w:tcW': ..." is already position-free; drop any trailing whitespace noise.
    return " ".join(msg.split())


def validate_root(root: etree._Element, *, preprocess: bool = True, with_extensions: bool = True) -> list[str]:
    """Normalised schema error messages of a parsed main part (``[]`` when valid)."""
    schema = load_schema(with_extensions)
    tree = mce_preprocess(root, covered_namespaces(with_extensions)) if preprocess else root
    try:
        schema.validate(tree)
    except Exception as e:  # e.g. libxml2 cannot validate a tree holding entity references
        return [f"validator-error: {type(e).__name__}: {e}"]
    return [normalise_message(e.message) for e in schema.error_log]


_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True)


def parse_xml(data: bytes) -> etree._Element:
    return etree.fromstring(data, _PARSER)


def main_part_bytes(docx: str | os.PathLike | bytes) -> bytes:
    """The main document part's bytes of a .docx given as a path or its bytes."""
    name = main_part_name(docx)
    with zipfile.ZipFile(io.BytesIO(docx) if isinstance(docx, bytes) else docx) as z:
        return z.read(name)


def validate_main_part(data: bytes, **kw) -> list[str]:
    """Normalised errors of a main part given as bytes."""
    return validate_root(parse_xml(data), **kw)


_memo: dict[str, list[str]] = {}
CACHE_VERSION = "1"  # bump when preprocessing or normalisation changes


def _cache_file(sha: str) -> Path | None:
    try:
        root = Path(os.environ.get("OOXML_MCP_CACHE") or "/tmp/ooxml-mcp-cache")
        base = schemas_dir()
        stamp = hashlib.sha256(f"{CACHE_VERSION}:{base}:{(base / 'ISO-IEC29500-4_2016' / 'wml.xsd').stat().st_mtime_ns}"
                               .encode()).hexdigest()[:12]
        folder = root / f"schema-{stamp}"
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{sha}.json"
    except OSError:
        return None


def schema_errors_cached(data: bytes) -> list[str]:
    """:func:`validate_main_part` of a main part, memoised by sha256 in this process and on
    disk under ``$OOXML_MCP_CACHE`` (for originals, which many tests validate again)."""
    sha = hashlib.sha256(data).hexdigest()
    if sha in _memo:
        return list(_memo[sha])
    path = _cache_file(sha)
    if path is not None and path.is_file():
        try:
            errors = json.loads(path.read_text(encoding="utf-8"))
            _memo[sha] = errors
            return list(errors)
        except (OSError, ValueError):
            pass
    errors = validate_main_part(data)
    _memo[sha] = errors
    if path is not None:
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(errors), encoding="utf-8")
        os.replace(tmp, path)
    return list(errors)


def new_schema_errors(original_bytes: bytes, saved_bytes: bytes) -> list[str]:
    """Errors of the saved main part that the original did not have (multiset difference).

    Arguments are main-part XML bytes (use :func:`main_part_bytes` to get them from a .docx).
    The original's errors are cached (:func:`schema_errors_cached`).
    """
    before = Counter(schema_errors_cached(original_bytes))
    after = Counter(validate_main_part(saved_bytes))
    return sorted((after - before).elements())
