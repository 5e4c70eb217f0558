"""Strict OOXML (ISO/IEC 29500 Strict): read as Transitional, written back as Strict.

Strict and Transitional name the same vocabulary under other namespace URIs
(``http://purl.oclc.org/ooxml/wordprocessingml/main`` for
``http://schemas.openxmlformats.org/wordprocessingml/2006/main``); relationship types follow the
same rule (``.../ooxml/officeDocument/relationships/styles``); content types are the same. A
Strict package is mapped to Transitional URIs in the bytes of each part we parse, so every other
module sees the vocabulary it knows, and mapped back in the bytes of each part we write. Parts
nobody changed are copied raw, so they stay byte-identical.

A few values that Transitional allows are not Strict: ``w:jc`` ``left``/``right`` (Strict:
``start``/``end``), tab stops likewise, the ``w:left``/``w:right`` indentation attributes and table border/margin
elements (Strict: ``start``/``end``). ``strict_values`` rewrites those in trees about to be
written as Strict.
"""
from __future__ import annotations

import re

from lxml import etree

from ooxml.opc.types import RT
from ooxml.xml.namespaces import W

_AREAS = rb"(wordprocessingml|drawingml|officeDocument|schemaLibrary|spreadsheetml|presentationml)"
_TO_TRANSITIONAL = re.compile(rb"http://purl\.oclc\.org/ooxml/" + _AREAS + rb"/")
_TO_STRICT = re.compile(rb"http://schemas\.openxmlformats\.org/" + _AREAS + rb"/2006/")
STRICT_MARK = b"http://purl.oclc.org/ooxml/"
STRICT_OFFICE_DOCUMENT = RT.STRICT_OFFICE_DOCUMENT.encode()


def is_strict_package(root_rels: bytes) -> bool:
    """A package is Strict when its main relationship has the Strict type."""
    return STRICT_OFFICE_DOCUMENT in root_rels


# Transitional URIs a Strict part already holds (e.g. an extension's minVer) are parked under a URI
# of ours while the part is in memory, so that writing back as Strict leaves them as they were.
_PARKED = b"urn:ooxml-mcp:transitional:"
_PARK = re.compile(rb"http://schemas\.openxmlformats\.org/" + _AREAS + rb"/2006/")
_UNPARK = re.compile(re.escape(_PARKED) + _AREAS + rb"/")


def to_transitional(data: bytes) -> bytes:
    if STRICT_MARK not in data:
        return data
    if _PARK.search(data):
        data = _PARK.sub(_PARKED + rb"\1/", data)
    return _TO_TRANSITIONAL.sub(rb"http://schemas.openxmlformats.org/\1/2006/", data)


def to_strict(data: bytes) -> bytes:
    data = _TO_STRICT.sub(rb"http://purl.oclc.org/ooxml/\1/", data)
    if _PARKED in data:
        data = _UNPARK.sub(rb"http://schemas.openxmlformats.org/\1/2006/", data)
    return data


_JC = {"left": "start", "right": "end"}
_SIDE_ATTRS = {f"{{{W}}}left": f"{{{W}}}start", f"{{{W}}}right": f"{{{W}}}end",
               f"{{{W}}}leftChars": f"{{{W}}}startChars", f"{{{W}}}rightChars": f"{{{W}}}endChars"}
_SIDE_PARENTS = {f"{{{W}}}{n}" for n in ("tblBorders", "tcBorders", "tblCellMar", "tcMar")}  # pBdr keeps left/right
_SIDE_TAGS = {f"{{{W}}}left": f"{{{W}}}start", f"{{{W}}}right": f"{{{W}}}end"}


def strict_values(root: etree._Element) -> None:
    """Rewrite Transitional-only values into their Strict forms (on a tree about to be saved)."""
    jc_val = f"{{{W}}}val"
    for el in root.iter(f"{{{W}}}jc", f"{{{W}}}tab", f"{{{W}}}ind", *_SIDE_TAGS):
        if el.tag in (f"{{{W}}}jc", f"{{{W}}}tab"):
            value = el.get(jc_val)
            if value in _JC:
                el.set(jc_val, _JC[value])
        elif el.tag == f"{{{W}}}ind":
            for old, new in _SIDE_ATTRS.items():
                if old in el.attrib:
                    value = el.attrib.pop(old)
                    if new not in el.attrib:
                        el.set(new, value)
        elif el.tag in _SIDE_TAGS and el.getparent() is not None and el.getparent().tag in _SIDE_PARENTS:
            el.tag = _SIDE_TAGS[el.tag]


def strict_bytes(data: bytes, name: str) -> bytes:
    """A serialised (Transitional) part as Strict bytes: values first, then the URIs."""
    if b'"left"' in data or b'"right"' in data or b":left" in data or b":right" in data:
        from ooxml.xml.safexml import parse_part, serialize
        tree = parse_part(data, name)
        strict_values(tree.getroot())
        data = serialize(tree)
    return to_strict(data)
