"""Inserted SVGs (a sized one with a title, a viewBox-only one, one among runs) validate in the Open XML
SDK validator and LibreOffice draws them on the page."""
from __future__ import annotations

import pytest

from ooxml.model.document import Document
from ooxml.model.integrity import check_package
from tests.support import sdk_validator
from tests.support.libreoffice import convert_cached, require_soffice

pytestmark = pytest.mark.anyio
SVGS = {
    "red.svg": ('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150"><title>Red</title>'
                '<rect width="300" height="150" fill="#ff0000"/></svg>'),
    "blue.svg": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20">'
                 '<rect width="40" height="20" fill="#0000ff"/></svg>'),
}


async def _document(docx, tmp_path):
    await docx.create()
    para = await docx.ok("docx_insert_paragraph", text="Logo here:", position="end:document_body")
    for name, text in SVGS.items():
        (tmp_path / name).write_text(text)
    await docx.ok("docx_insert_image", image_path=str(tmp_path / "red.svg"), position="end:document_body")
    await docx.ok("docx_insert_image", image_path=str(tmp_path / "blue.svg"), position=f"end:{para.element_id}",
                  width="1in")
    out = tmp_path / "svg.docx"
    await docx.save(out)
    return out


async def test_inserted_svgs_validate(docx, tmp_path):
    sdk_validator.require()
    out = await _document(docx, tmp_path)
    assert check_package(Document.open(out)) == []
    assert sdk_validator.validate_files([out])[out.resolve()] == []


async def test_libreoffice_draws_the_svgs_on_the_page(docx, tmp_path):
    require_soffice()
    import pypdfium2 as pdfium

    out = await _document(docx, tmp_path)
    pdf = convert_cached([out], label="inserted SVGs")[out.resolve()]
    assert pdf is not None, "LibreOffice refused the document"
    page = pdfium.PdfDocument(str(pdf))[0].render(scale=1).to_pil().convert("RGB")
    counts = page.getcolors(maxcolors=1 << 20)
    red = sum(n for n, (r, g, b) in counts if r > 240 and g < 15 and b < 15)
    blue = sum(n for n, (r, g, b) in counts if b > 240 and r < 15 and g < 15)
    assert red > 20_000 and blue > 2_000, (red, blue)  # 300×150 and 96×48 px at 72 dpi: about 25,000 and 2,600
