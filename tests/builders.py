"""Hand-made .docx files for tests: a minimal valid package around a body given as XML.

Tests that need structures no tool creates (merged cells from elsewhere, tracked changes,
fields, headers with pictures) write them here as WordprocessingML text.
"""
from __future__ import annotations

import zipfile
from pathlib import Path

from PIL import Image

from ooxml.opc.template import new_package_parts

NAMESPACES = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" '
    'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="w14"'
)
SECT = ('<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" '
        'w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>')
RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS = {"w": W, "r": RT.rstrip("/"), "wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
      "a": "http://schemas.openxmlformats.org/drawingml/2006/main", "oxm": "urn:ooxml-mcp:ids:2026",
      "w14": "http://schemas.microsoft.com/office/word/2010/wordml",
      "ct": "http://schemas.openxmlformats.org/package/2006/content-types",
      "pr": "http://schemas.openxmlformats.org/package/2006/relationships"}


def document_xml(body: str, sect: str | None = SECT) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document {NAMESPACES}>'
            f'<w:body>{body}{sect or ""}</w:body></w:document>').encode()


def part_xml(root: str, body: str) -> bytes:
    """A header/footer/notes part: ``root`` is e.g. 'w:hdr'."""
    return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<{root} {NAMESPACES}>{body}</{root}>'.encode()


def build_docx(path: Path, body: str, *, sect: str | None = SECT, styles: bool = True,
               extra_parts: dict[str, bytes] | None = None,
               rels: list[tuple[str, str, str]] | None = None,
               overrides: dict[str, str] | None = None) -> Path:
    """Write a .docx: the product's template with ``body`` as the body's content.

    ``rels``: extra (Id, type name such as 'header', target) relationships of the main part;
    ``overrides``: part name -> content type.
    """
    parts = new_package_parts()
    parts["word/document.xml"] = document_xml(body, sect)
    if not styles:
        del parts["word/styles.xml"]
        parts["word/_rels/document.xml.rels"] = parts["word/_rels/document.xml.rels"].replace(
            b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" '
            b'Target="styles.xml"/>', b"")
        parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
            b'<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.'
            b'wordprocessingml.styles+xml"/>', b"")
    if rels:
        extra = "".join(f'<Relationship Id="{i}" Type="{RT}{t}" Target="{target}"/>' for i, t, target in rels)
        parts["word/_rels/document.xml.rels"] = parts["word/_rels/document.xml.rels"].replace(
            b"</Relationships>", extra.encode() + b"</Relationships>")
    if overrides:
        extra = "".join(f'<Override PartName="/{n}" ContentType="{ct}"/>' for n, ct in overrides.items())
        parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(b"</Types>", extra.encode() + b"</Types>")
    parts.update(extra_parts or {})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return path


def png(path: Path, size=(300, 150), dpi=(150, 150), colour=(200, 30, 30)) -> Path:
    Image.new("RGB", size, colour).save(path, dpi=dpi)
    return path


def p(text: str = "", attrs: str = "") -> str:
    return f"<w:p{attrs}>" + (f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>' if text else "") + "</w:p>"


def tc(content: str = "", tcpr: str = "") -> str:
    return f"<w:tc>{f'<w:tcPr>{tcpr}</w:tcPr>' if tcpr else ''}{content or '<w:p/>'}</w:tc>"


def tbl(rows: list[list[str]], grid: list[int] | None = None) -> str:
    """A table from rows of ready-made ``<w:tc>`` strings."""
    n = max(len(r) for r in rows)
    grid = grid or [2000] * n
    cols = "".join(f'<w:gridCol w:w="{g}"/>' for g in grid)
    body = "".join("<w:tr>" + "".join(r) + "</w:tr>" for r in rows)
    return f'<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{cols}</w:tblGrid>{body}</w:tbl>'
