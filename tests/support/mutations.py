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
  20,000 characters, bidi overrides) in text, style names, alt text, authors;
- ``links``: external references of every kind (linked images ``r:link``, INCLUDEPICTURE,
  INCLUDETEXT, LINK and DDE fields, OLE links, an attached template, a linked subdocument and
  frame, ``file:`` hyperlinks) to ``../`` paths, absolute paths and ``http://127.0.0.1:1/``
  (port 1: nothing listens; never another host), and internal relationship targets that leave
  the package;
- ``nesting``: elements nested deep (content controls, tables in cells, unknown wrappers), up to
  past the parser's depth limit. (The fuzz child also gives these cases deeply nested Markdown
  and JSON arguments: tests/support/fuzz.py.)
- ``binding``: a content control bound to a custom XML part of thousands of elements (flat or nested
  deep) by a costly XPath (N³ counts, any-depth steps, hundreds of steps, bad syntax): the fuzz
  child lists and sets it (issue 29 #12: an XPath engine ran such a path for minutes).
"""
from __future__ import annotations

import base64
import io
import random
import re
import struct
import zipfile
from dataclasses import dataclass
from pathlib import Path

KINDS = ("flip", "truncate", "xml", "numbers", "tables", "compression", "parts", "strings", "links", "nesting",
         "binding", "secrets")
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


# ---- external references and deep nesting -------------------------------------------------------

NS_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
# Where the references point: outside the roots, up the tree, and a loopback port nothing listens on.
OUTSIDE = ("file:///etc/passwd", "../../../../../../etc/hostname", "/etc/hostname", "http://127.0.0.1:1/x.png",
           "file://127.0.0.1/etc/passwd", "..\\..\\secret.docx", "C:\\Windows\\win.ini",
           "\\\\127.0.0.1\\share\\x.png")
_FIELDS = ('INCLUDEPICTURE "{t}" \\d', 'INCLUDETEXT "{t}"', 'LINK Excel.Sheet.12 "{t}" "Sheet1!R1C1" \\a',
           'DDEAUTO cmd "/c calc.exe"', 'DDE "{t}" "x"', 'IMPORT "{t}"', 'INCLUDEPICTURE \\d "{t}"')
_PIC = ('<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">'
        '<wp:extent cx="952500" cy="952500"/><wp:docPr id="{n}" name="linked"/><a:graphic '
        'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData '
        'uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic '
        'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="0" '
        'name="linked"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="{rid}"/><a:stretch>'
        '<a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" '
        'cy="952500"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic>'
        '</a:graphicData></a:graphic></wp:inline></w:drawing></w:r>')
_OLE = ('<w:r><w:object><v:shape xmlns:v="urn:schemas-microsoft-com:vml" id="_x0000_i10{n}" style="width:50pt;'
        'height:20pt"/><o:OLEObject xmlns:o="urn:schemas-microsoft-com:office:office" Type="Link" '
        'ProgID="Excel.Sheet.12" ShapeID="_x0000_i10{n}" DrawAspect="Content" r:id="{rid}" ObjectID="_1{n}">'
        '<o:LinkType>EnhancedMetaFile</o:LinkType><o:LockedField>false</o:LockedField></o:OLEObject>'
        '</w:object></w:r>')


def _xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _field(instr: str, rng: random.Random) -> str:
    instr = _xml_escape(instr)
    if rng.random() < 0.5:
        return f'<w:fldSimple w:instr=" {instr} "><w:r><w:t>cached</w:t></w:r></w:fldSimple>'
    return (f'<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> {instr} '
            '</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>cached</w:t></w:r>'
            '<w:r><w:fldChar w:fldCharType="end"/></w:r>')


def _add_rels(rels: bytes, new: list[tuple[str, str, str, bool]]) -> bytes:
    mode = ' TargetMode="External"'
    extra = "".join(f'<Relationship Id="{i}" Type="{RT}{t}" Target="{_xml_escape(target)}"'
                    f'{mode if external else ""}/>' for i, t, target, external in new)
    return rels.replace(b"</Relationships>", extra.encode() + b"</Relationships>")


def mutate_links(data: bytes, rng: random.Random) -> bytes:
    """A paragraph of external references at the start of the body, their relationships, and
    maybe an attached template and a relationship target that leaves the package."""
    members = _members(data)
    files = dict((i.filename, d) for i, d in members)
    name = _main_name(members)
    rels_name = name.replace("word/", "word/_rels/") + ".rels"
    rels, runs = [], []
    for n in range(rng.randint(2, 5)):
        target, rid = rng.choice(OUTSIDE), f"rIdFz{n}"
        kind = rng.randrange(6)
        if kind == 0:
            rels.append((rid, "image", target, True))
            runs.append(_PIC.format(n=9000 + n, rid=rid))
        elif kind == 1:
            runs.append(_field(rng.choice(_FIELDS).format(t=target), rng))
        elif kind == 2:
            rels.append((rid, "oleObject", target, True))
            runs.append(_OLE.format(n=n, rid=rid))
        elif kind == 3:
            rels.append((rid, "hyperlink", target, True))
            runs.append(f'<w:hyperlink r:id="{rid}"><w:r><w:t>link</w:t></w:r></w:hyperlink>')
        elif kind == 4:
            rels.append((rid, "subDocument", target, True))
            runs.append(f'</w:p><w:subDoc r:id="{rid}"/><w:p>')
        else:
            runs.append(f'<w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:9pt;'
                        f'height:9pt"><v:imagedata r:id="{rid}" o:title="" xmlns:o="urn:schemas-microsoft-com:'
                        f'office:office"/></v:shape></w:pict></w:r>')
            rels.append((rid, "image", target, True))
    xml = files[name].decode("utf-8", "replace")
    if f'xmlns:r="{NS_R}"' not in xml[:3000]:
        xml = xml.replace("<w:document ", f'<w:document xmlns:r="{NS_R}" ', 1)
    body = xml.find("<w:body>")
    if body < 0:
        raise ValueError("no body")
    xml = xml[:body + 8] + "<w:p>" + "".join(runs) + "</w:p>" + xml[body + 8:]
    replace = {name: xml.encode("utf-8")}
    if rels_name in files:
        main_rels = files[rels_name]
        if rng.random() < 0.3:  # an internal part whose target leaves the package
            main_rels = re.sub(rb'(Target=")(styles\.xml|numbering\.xml|settings\.xml|fontTable\.xml)(")',
                               lambda m: m.group(1) + rng.choice((b"../../../etc/passwd", b"/../../x.xml",
                                                                  b"../word/../../" + m.group(2))) + m.group(3),
                               main_rels, count=1)
        replace[rels_name] = _add_rels(main_rels, rels)
    settings, settings_rels = "word/settings.xml", "word/_rels/settings.xml.rels"
    if settings in files and rng.random() < 0.5:
        text = files[settings].decode("utf-8", "replace")
        if f'xmlns:r="{NS_R}"' not in text[:3000]:
            text = text.replace("<w:settings ", f'<w:settings xmlns:r="{NS_R}" ', 1)
        replace[settings] = re.sub(r"(<w:settings[^>]*>)", r'\1<w:attachedTemplate r:id="rIdFzT"/>', text,
                                   count=1).encode("utf-8")
        rels_xml = files.get(settings_rels, b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                             b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                             b'</Relationships>')
        replace[settings_rels] = _add_rels(rels_xml, [("rIdFzT", "attachedTemplate", rng.choice(OUTSIDE), True)])
    out = _rezip(members, replace)
    if settings_rels in replace and settings_rels not in files:
        out = _with_member(out, settings_rels, replace[settings_rels])
    return out


def _with_member(data: bytes, name: str, content: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            z.writestr(info.filename, src.read(info))
        z.writestr(name, content)
    return out.getvalue()


DEPTHS = (40, 120, 255, 400, 3000)


def mutate_nesting(data: bytes, rng: random.Random) -> bytes:
    """One paragraph of the body wrapped in many levels: content controls, tables in cells, or
    unknown elements (what a reader of the file must survive: a parser depth limit, recursion)."""
    members = _members(data)
    name = _main_name(members)
    xml = dict((i.filename, d) for i, d in members)[name].decode("utf-8", "replace")
    depth = rng.choice(DEPTHS)
    kind = rng.randrange(4)
    inner = "<w:p><w:r><w:t>deep</w:t></w:r></w:p>"
    if kind == 0:
        nested = "<w:sdt><w:sdtContent>" * depth + inner + "</w:sdtContent></w:sdt>" * depth
    elif kind == 1:
        depth = min(depth, 300)
        cell = '<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc>'
        nested = cell * depth + inner + "</w:tc></w:tr></w:tbl><w:p/>" * depth
    elif kind == 2:
        nested = "<w:p>" + '<w:smartTag w:element="x">' * depth + "<w:r><w:t>deep</w:t></w:r>" + \
                 "</w:smartTag>" * depth + "</w:p>"
    else:
        nested = ('<zz:x xmlns:zz="urn:fuzz">' * depth) + "</zz:x>" * depth + inner
    body = xml.find("<w:body>")
    if body < 0:
        raise ValueError("no body")
    xml = xml[:body + 8] + nested + xml[body + 8:]
    return _rezip(members, {name: xml.encode("utf-8")})


BIND_NS = "urn:fuzz-binding"
BIND_STORE = "{0F0F0F0F-1111-4222-8333-944455556666}"
_BIND_PATHS = (
    "/ns0:root[1]/ns0:v[count(//ns0:v[count(//ns0:v) > 0]) > 0]",  # N³ in an XPath engine
    "//ns0:v[last()]//ns0:v[position() = last()]",
    "/ns0:root[1]/ns0:v[99999999999]",
    "/ns0:root[1]/ns0:v[1]/@ns9:undeclared",
    "/ns0:root[1]/ns0:v[",
)


def _binding_parts(rng: random.Random) -> tuple[str, bytes]:
    """(XPath, custom XML item): thousands of elements, flat or nested deep (a deep path to the last)."""
    if rng.random() < 0.5:
        n = rng.choice((2_400, 10_000))
        return rng.choice(_BIND_PATHS), (f'<root xmlns="{BIND_NS}">' + "<v>x</v>" * n + "</root>").encode()
    depth = rng.choice((60, 100, 600))
    xml = f'<root xmlns="{BIND_NS}">' + "<v>" * depth + "deep" + "</v>" * depth + "</root>"
    return "/ns0:root[1]" + "/ns0:v[1]" * depth, xml.encode()


def mutate_binding(data: bytes, rng: random.Random) -> bytes:
    """A bound text control at the start of the body, its store a new custom XML part."""
    members = _members(data)
    name = _main_name(members)
    files = dict((i.filename, d) for i, d in members)
    xml = files[name].decode("utf-8", "replace")
    body = xml.find("<w:body>")
    if body < 0 or "[Content_Types].xml" not in files:
        raise ValueError("no body")
    xpath, item = _binding_parts(rng)
    sdt = ('<w:sdt><w:sdtPr><w:tag w:val="bound"/><w:dataBinding w:prefixMappings="xmlns:ns0=\'' + BIND_NS + '\'" '
           f'w:xpath="{_xml_escape(xpath)}" w:storeItemID="{BIND_STORE}"/><w:text/></w:sdtPr><w:sdtContent>'
           '<w:p><w:r><w:t>bound</w:t></w:r></w:p></w:sdtContent></w:sdt>')
    xml = xml[:body + 8] + sdt + xml[body + 8:]
    props = (f'<?xml version="1.0" encoding="UTF-8" standalone="no"?><ds:datastoreItem ds:itemID="{BIND_STORE}" '
             'xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"><ds:schemaRefs/>'
             '</ds:datastoreItem>').encode()
    rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxml'
            'formats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.'
            'org/officeDocument/2006/relationships/customXmlProps" Target="itemProps90.xml"/></Relationships>').encode()
    types = files["[Content_Types].xml"].replace(
        b"</Types>", b'<Override PartName="/customXml/itemProps90.xml" ContentType="application/vnd.openxmlformats-'
                     b'officedocument.customXmlProperties+xml"/></Types>')
    if b'Extension="xml"' not in types:
        types = types.replace(b"</Types>", b'<Default Extension="xml" ContentType="application/xml"/></Types>')
    out = _rezip(members, {name: xml.encode("utf-8"), "[Content_Types].xml": types})
    for member, content in (("customXml/item90.xml", item), ("customXml/itemProps90.xml", props),
                            ("customXml/_rels/item90.xml.rels", rels)):
        out = _with_member(out, member, content)
    return out


SECRET = "Quillfeather"  # what mutate_secrets hides; the harness redacts it (tests/support/fuzz.py)
INVISIBLE = ("\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff")


def _zip_of(member: str, text: str, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        z.writestr(member, f'<?xml version="1.0"?><doc><t>Client {text} here</t></doc>')
    return buf.getvalue()


def _odd_member(data: bytes, rng: random.Random) -> bytes:
    """The zip's one member flagged encrypted or compressed by a method zipfile cannot read."""
    out, central = bytearray(data), data.index(b"PK\x01\x02")
    if rng.random() < 0.3:
        for at in (6, central + 8):
            out[at] |= 1
    else:
        method = struct.pack("<H", rng.choice((9, 6, 95, 98, 99)))
        out[8:10], out[central + 10:central + 12] = method, method
    return bytes(out)


def mutate_secrets(data: bytes, rng: random.Random) -> bytes:
    """SECRET hidden where a leak check must find it or say it could not look: invisible characters
    inside it, base64 w:binData, an embedded zip with a damaged directory or odd compression."""
    members = _members(data)
    name = _main_name(members)
    xml = dict((i.filename, d) for i, d in members)[name].decode("utf-8", "replace")
    how = rng.randrange(4)
    if how == 0:
        cut = rng.randrange(1, len(SECRET))
        text = SECRET[:cut] + "".join(rng.sample(INVISIBLE, rng.randrange(1, 3))) + SECRET[cut:]
        para = f"<w:p><w:r><w:t>Client {text} signed.</w:t></w:r></w:p>"
    elif how == 1:
        blob = base64.b64encode(b"\x89PNG\r\n\x1a\n" + SECRET.encode(rng.choice(("utf-16-le", "utf-8")))).decode()
        para = f'<w:p><w:r><w:pict><w:binData w:name="wordml://f.png">{blob}</w:binData></w:pict></w:r></w:p>'
    else:
        para = ""
    body = xml.find("<w:body>")
    if body < 0:
        raise ValueError("no body")
    out = _rezip(members, {name: (xml[:body + 8] + para + xml[body + 8:]).encode("utf-8")})
    if how >= 2:
        package = _zip_of(rng.choice(("word/document.xml", "xl/sharedStrings.xml", "notes.txt")), SECRET)
        if how == 2:
            package = package[:package.index(b"PK\x01\x02") + rng.randrange(0, 40)]  # its directory cut short
        else:
            package = _odd_member(_zip_of("secret.xml", SECRET, zipfile.ZIP_STORED), rng)
        out = _with_member(out, "word/embeddings/oleObject9.bin", package)
    return out


MUTATORS = {"secrets": mutate_secrets, "flip": mutate_flip, "truncate": mutate_truncate, "xml": mutate_xml,
            "numbers": mutate_numbers,
            "tables": mutate_tables, "compression": mutate_compression, "parts": mutate_parts,
            "strings": mutate_strings, "links": mutate_links, "nesting": mutate_nesting,
            "binding": mutate_binding}


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
