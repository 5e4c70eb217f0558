"""Proof that a redacted text is gone: every part of the package, decompressed, searched.

XML parts are read twice: as their text with entities resolved (every text node and attribute), and
as paragraphs read across runs. Packages inside the package are opened recursively. Other binary
parts (images, OLE objects) are searched as bytes in UTF-8, Latin-1 and UTF-16; a miss there proves
nothing (their text may be compressed), so they are listed as places that could not be checked.
"""
from __future__ import annotations

import base64
import binascii
import html
import re
from dataclasses import dataclass, field

from lxml import etree

from ooxml.xml import budget
from ooxml.xml.errors import OoxmlError
from ooxml.privacy import reading as RD
from ooxml.privacy import zipped as Z
from ooxml.privacy.matcher import Matcher
from ooxml.privacy.redact import xml_part_names
from ooxml.xml.safexml import parse_part

SHOWN = 8
# Base64 data inside XML (w:binData: a picture or OLE object of a VML shape): read decoded
_BINDATA = re.compile(r"<(?:[\w.-]+:)?binData\b[^>]*>([^<]*)<")
_MAX_BYTES = 256 * 1024 * 1024  # an embedded package's size when the package's own limit is not at hand


@dataclass
class Report:
    holding: list[str] = field(default_factory=list)  # places still holding a match
    unchecked: list[str] = field(default_factory=list)  # binary places a search cannot prove clean

    @property
    def clean(self) -> bool:
        return not self.holding

    def verdict(self) -> str:
        if self.holding:
            return f"FAILED: {len(self.holding)} place(s) still hold it"
        return "nothing left" + (f" ({len(self.unchecked)} place(s) not checkable)" if self.unchecked else "")

    def lines(self) -> list[str]:
        out = [f"- still there: {p}" for p in self.holding[:SHOWN]]
        if len(self.holding) > SHOWN:
            out.append(f"- ... {len(self.holding) - SHOWN} more")
        out += [f"- not checked: {p}" for p in self.unchecked[:SHOWN]]
        if len(self.unchecked) > SHOWN:
            out.append(f"- ... {len(self.unchecked) - SHOWN} more not checked")
        return out


def check_package(package, matcher: Matcher, serialized: dict[str, str] | None = None) -> Report:
    """``serialized``: loaded parts' XML as it stands now (redact.Result.serialized), read as is."""
    report = Report()
    xml_names = set(xml_part_names(package))
    for name, part in package.parts.items():
        budget.check()
        if name in xml_names:
            root = part.tree.getroot() if part.loaded else None
            xml = (serialized or {}).get(name) if root is not None else None
            _check_xml(name, None if root is not None else part.data, root, matcher, report, xml)
        else:
            _check_binary(name, part.data, matcher, report, package.limits.max_part_uncompressed, 0)
    return report


def _check_xml(place: str, data: bytes | None, root, matcher: Matcher, report: Report,
               xml: str | None = None) -> None:
    """The part as text, entities resolved (every attribute, text node, comment); then its paragraphs
    read across runs (bytes parsed only when the text with tags gone may hold a match)."""
    if xml is None:
        xml = etree.tostring(root, encoding=str) if root is not None else _decoded(data)
    if root is not None:  # comments and instructions beside the root are saved with the part
        xml += "".join(etree.tostring(n, encoding=str) for n in (*root.itersiblings(preceding=True),
                                                                 *root.itersiblings()))
    if "binData" in xml:
        _check_bin_data(place, xml, matcher, report)
    if matcher.search(html.unescape(xml)):
        report.holding.append(f"{place} (its XML text)")
        return
    if root is None:
        if matcher.loose.search(RD.text_only(xml)) is None:  # spares a parse
            return
        try:
            root = parse_part(data, place).getroot()
        except OoxmlError:
            report.unchecked.append(f"{place} (not well-formed XML: read as text only)")
            return
    if _paragraphs_hold(root, matcher):
        report.holding.append(f"{place} (text read across runs)")


def _check_bin_data(place: str, xml: str, matcher: Matcher, report: Report) -> None:
    for k, m in enumerate(_BINDATA.finditer(xml), 1):
        budget.check()
        try:
            data = base64.b64decode("".join(m.group(1).split()))
        except (binascii.Error, ValueError):
            report.unchecked.append(f"{place} > w:binData #{k} (not valid base64)")
            continue
        _check_binary(f"{place} > w:binData #{k}", data, matcher, report, _MAX_BYTES, 0)


def _paragraphs_hold(root: etree._Element, matcher: Matcher) -> bool:
    for p in RD.candidates(root, matcher):
        budget.check()
        if matcher.spans(RD.segments(p)[1]):
            return True
    return False


def _check_binary(place: str, data: bytes, matcher: Matcher, report: Report, max_bytes: int, depth: int) -> None:
    read = 0
    if Z.is_zip(data) and depth < Z.MAX_DEPTH:
        for read, member in enumerate(Z.members(data, max_bytes), 1):
            budget.check()
            inner = f"{place} > {member.name}"
            if member.body is None:
                report.unchecked.append(f"{inner} ({member.why})")
            elif Z.is_xml_name(member.name.removesuffix(Z.SALVAGED)):
                _check_xml(inner, member.body, None, matcher, report)
            else:
                _check_binary(inner, member.body, matcher, report, max_bytes, depth + 1)
    if read:
        return
    if any(matcher.search(data.decode(codec, "ignore")) for codec in ("latin-1", "utf-8", "utf-16-le")) \
            or matcher.search(data[1:].decode("utf-16-le", "ignore")):
        report.holding.append(f"{place} (binary: cannot be redacted; remove the object)")
    else:
        report.unchecked.append(place)


def _decoded(data: bytes) -> str:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16", "replace")
    return data.decode("utf-8", "replace")
