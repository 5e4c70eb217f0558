"""Broken documents for the fuzz test: seeded mutations of real files.

Each mutation is seeded, so a failing case is reproduced by its number:
- ``flip``: a few bytes of the zip flipped;
- ``truncate``: the file cut short;
- ``xml``: ``word/document.xml`` damaged (a slice cut or doubled, a stray '<', an unknown entity,
  a mismatched end tag, an undeclared prefix);
- ``numbers``: absurd values in spans, grid columns, sizes, ids, levels and lengths;
- ``tables``: ``w:tbl`` without ``w:tr``, ``w:tc`` without ``w:p``, merges everywhere;
- ``compression``: a part with a compression method Word cannot read, or marked encrypted;
- ``parts``: a part (styles, numbering, relationships ...) left out;
- ``strings``: hostile text and attribute values (line breaks before Markdown, a fake head line,
  20,000 characters, bidi overrides) in text, style names, alt text, authors.
"""
from __future__ import annotations

import io
import random
import re
import struct
import zipfile
from dataclasses import dataclass
from pathlib import Path

KINDS = ("flip", "truncate", "xml", "numbers", "tables", "compression", "parts", "strings")
# Values that must never change an answer's shape: line breaks before Markdown, a fake head line,
# very long values, bidi overrides and zero-width characters (as XML character references).
EVIL = ("a&#10;## Injected&#10;---", "&#13;**Status**: ❌ Error", "x" * 20_000, "&#x202E;evil&#x200B;",
        "&#9;tab&#x85;next&#x2028;line", "]]&gt;&lt;!--", "")
ABSURD = ("2147483647", "4294967296", "99999999999999999999", "-1", "-2147483648", "1e400", "NaN", "", "²",
          "9" * 5000, "0x10", "12.5")
NUMERIC_ATTRS = ("w:val", "w:w", "w:id", "w:sz", "w:line", "w:left", "w:right", "w:hanging", "w:firstLine",
                 "w:before", "w:after", "w:h", "w:top", "w:bottom", "cx", "cy", "id", "w:char", "w:space")
MAIN = "word/document.xml"


# ---- mutations ---------------------------------------------------------------------------------

def _members(data: bytes) -> list[tuple[zipfile.ZipInfo, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return [(info, z.read(info)) for info in z.infolist()]


def _rezip(members: list[tuple[zipfile.ZipInfo, bytes]], replace: dict[str, bytes] | None = None,
           drop: tuple[str, ...] = ()) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in members:
            if info.filename not in drop:
                z.writestr(info.filename, (replace or {}).get(info.filename, data))
    return out.getvalue()


def _main_name(members) -> str:
    names = [info.filename for info, _ in members]
    return MAIN if MAIN in names else next((n for n in names if n.endswith("document.xml")), MAIN)


def mutate_flip(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(out))
        out[i] ^= 1 << rng.randrange(8)
    return bytes(out)


def mutate_truncate(data: bytes, rng: random.Random) -> bytes:
    return data[:rng.randrange(len(data))]


def mutate_xml(data: bytes, rng: random.Random) -> bytes:
    members = _members(data)
    name = _main_name(members)
    xml = dict((i.filename, d) for i, d in members)[name].decode("utf-8", "replace")
    a = rng.randrange(len(xml))
    b = min(len(xml), a + rng.randint(1, 300))
    choice = rng.randrange(6)
    if choice == 0:
        xml = xml[:a] + xml[b:]
    elif choice == 1:
        xml = xml[:b] + xml[a:]
    elif choice == 2:
        xml = xml[:a] + "<" + xml[a:]
    elif choice == 3:
        xml = xml[:a] + "&bogus;" + xml[a:]
    elif choice == 4:
        xml = xml.replace("</w:p>", "</w:r>", 1) if rng.random() < 0.5 else xml.replace("</w:tc>", "</w:tr>", 1)
    else:
        at = xml.find("<w:r>", a) if xml.find("<w:r>", a) >= 0 else xml.find("<w:p")
        xml = xml[:at] + "<zz:unknown zz:a='1'/>" + xml[at:]
    return _rezip(members, {name: xml.encode("utf-8")})


def _xml_texts(members):
    """(member, its text) for the XML parts a text mutation may change (not the content types, not huge ones)."""
    for info, part in members:
        if info.filename.endswith(".xml") and not info.filename.startswith("[") and len(part) <= 4_000_000:
            yield info, part.decode("utf-8", "replace")


def mutate_numbers(data: bytes, rng: random.Random) -> bytes:
    members = _members(data)
    replace = {}
    for info, text in _xml_texts(members):
        attrs = rng.sample(NUMERIC_ATTRS, rng.randint(1, 4))
        pattern = re.compile(r'(\s(?:%s)=")([^"]*)(")' % "|".join(re.escape(a) for a in attrs))
        text = pattern.sub(lambda m: m.group(1) + (rng.choice(ABSURD) if rng.random() < 0.3 else m.group(2))
                           + m.group(3), text)
        if info.filename == _main_name(members):
            span = rng.choice(ABSURD)
            text = re.sub(r"<w:tcPr>", lambda m: m.group() + (f'<w:gridSpan w:val="{span}"/>'
                                                                if rng.random() < 0.3 else ""), text)
            text = re.sub(r"<w:pPr>", lambda m: m.group() + (f'<w:numPr><w:ilvl w:val="{rng.choice(ABSURD)}"/>'
                                                               f'<w:numId w:val="{rng.choice(ABSURD)}"/></w:numPr>'
                                                               if rng.random() < 0.1 else ""), text)
        replace[info.filename] = text.encode("utf-8")
    return _rezip(members, replace)


_TABLE_SEED = ('<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/>'
               '<w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc>'
               '<w:tc><w:p/></w:tc></w:tr><w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc>'
               '<w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p/></w:tc></w:tr></w:tbl><w:p/>')


def mutate_tables(data: bytes, rng: random.Random) -> bytes:
    from lxml import etree

    members = _members(data)
    name = _main_name(members)
    root = etree.fromstring(dict((i.filename, d) for i, d in members)[name])
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    body = root.find(f"{w}body")
    if root.find(f".//{w}tbl") is None:
        for el in reversed(etree.fromstring(f'<w:x xmlns:w="{w[1:-1]}">{_TABLE_SEED}</w:x>')):
            body.insert(0, el)
    choice = rng.randrange(5)
    if choice == 0:  # tables without rows
        for tr in list(root.iter(f"{w}tr")):
            tr.getparent().remove(tr)
    elif choice == 1:  # cells without paragraphs
        for tc in root.iter(f"{w}tc"):
            for p in tc.findall(f"{w}p"):
                tc.remove(p)
    elif choice == 2:  # every cell continues a vertical merge
        for tc in root.iter(f"{w}tc"):
            tcpr = tc.find(f"{w}tcPr")
            if tcpr is None:
                tcpr = etree.Element(f"{w}tcPr")
                tc.insert(0, tcpr)
            etree.SubElement(tcpr, f"{w}vMerge")
    elif choice == 3:  # an empty table and a table with an empty row
        body.insert(0, etree.fromstring(f'<w:tbl xmlns:w="{w[1:-1]}"/>'))
        body.insert(1, etree.fromstring(f'<w:tbl xmlns:w="{w[1:-1]}"><w:tr/></w:tbl>'))
        body.insert(2, etree.fromstring(f'<w:p xmlns:w="{w[1:-1]}"/>'))
    else:  # gridBefore/After past the grid
        n = rng.choice(ABSURD)
        for tr in root.iter(f"{w}tr"):
            trpr = etree.Element(f"{w}trPr")
            etree.SubElement(trpr, f"{w}gridBefore").set(f"{w}val", n)
            etree.SubElement(trpr, f"{w}gridAfter").set(f"{w}val", n)
            tr.insert(0, trpr)
    return _rezip(members, {name: etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)})


def mutate_compression(data: bytes, rng: random.Random) -> bytes:
    """Patch one member's method (or its encryption flag) in both its headers."""
    out = bytearray(data)
    members = zipfile.ZipFile(io.BytesIO(data)).infolist()
    target = rng.choice(members).filename.encode()
    method = rng.choice((1, 6, 9, 12, 14, 95, 99))
    encrypt = rng.random() < 0.25
    eocd = out.rfind(b"PK\x05\x06")
    pos = struct.unpack("<L", out[eocd + 16:eocd + 20])[0]
    while out[pos:pos + 4] == b"PK\x01\x02":
        n, e, c = struct.unpack("<3H", out[pos + 28:pos + 34])
        local = struct.unpack("<L", out[pos + 42:pos + 46])[0]
        if out[pos + 46:pos + 46 + n] == target:
            for flags_at, method_at in ((pos + 8, pos + 10), (local + 6, local + 8)):
                if encrypt:
                    out[flags_at:flags_at + 2] = struct.pack("<H", struct.unpack("<H", out[flags_at:flags_at + 2])[0] | 1)
                else:
                    out[method_at:method_at + 2] = struct.pack("<H", method)
        pos += 46 + n + e + c
    return bytes(out)


def mutate_parts(data: bytes, rng: random.Random) -> bytes:
    members = _members(data)
    names = [i.filename for i, _ in members if i.filename != "[Content_Types].xml" or rng.random() < 0.2]
    return _rezip(members, drop=(rng.choice(names),))


def mutate_strings(data: bytes, rng: random.Random) -> bytes:
    """Hostile text and attribute values (names, styles, alt text, authors) in the XML parts."""
    members = _members(data)
    replace = {}
    for info, text in _xml_texts(members):
        text = re.sub(r"(<w:t(?: [^>]*)?>)([^<]*)(</w:t>)",
                      lambda m: m.group(1) + (rng.choice(EVIL) if rng.random() < 0.2 else m.group(2)) + m.group(3),
                      text)
        text = re.sub(r'(\s(?:w:val|descr|name|title|w:author|w:name|w:styleId)=")([^"]*)(")',
                      lambda m: m.group(1) + (rng.choice(EVIL) if rng.random() < 0.15 else m.group(2)) + m.group(3),
                      text)
        replace[info.filename] = text.encode("utf-8")
    return _rezip(members, replace)


MUTATORS = {"flip": mutate_flip, "truncate": mutate_truncate, "xml": mutate_xml, "numbers": mutate_numbers,
            "tables": mutate_tables, "compression": mutate_compression, "parts": mutate_parts,
            "strings": mutate_strings}


@dataclass
class Case:
    index: int
    seed_file: str
    kind: str
    path: str
    out: str


def make_cases(seeds: list[Path], count: int, seed: int, folder: Path) -> list[Case]:
    """``count`` cases, kinds and seed files in turn, each mutated by its own seeded generator."""
    folder.mkdir(parents=True, exist_ok=True)
    cases = []
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        src = seeds[(i // len(KINDS)) % len(seeds)]
        rng = random.Random(f"{seed}:{i}")
        data = src.read_bytes()
        try:
            broken = MUTATORS[kind](data, rng)
        except (zipfile.BadZipFile, ValueError, IndexError, KeyError, SyntaxError):
            broken = mutate_flip(data, rng)  # a seed the mutation cannot apply to still gets broken
        path = folder / f"case{i:04d}.docx"
        path.write_bytes(broken)
        cases.append(Case(i, src.name, kind, str(path), str(folder / f"case{i:04d}.out.docx")))
    return cases
