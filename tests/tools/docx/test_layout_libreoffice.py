"""LibreOffice agrees: footers and page numbers on every page, even-page headers on even pages only,
footnote text, landscape page sizes, TOC page numbers as LibreOffice lays the headings out.

The documents are made through the MCP client, converted in one LibreOffice batch, and read with
pdftotext (text per page) and pypdfium2 (page sizes).
"""
from __future__ import annotations

import asyncio
import re
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from tests.builders import NS
from tests.support.client import open_client
from tests.support.libreoffice import convert_cached, pdf_text, require_soffice

W = f"{{{NS['w']}}}"


async def _pages(c, n: int, label: str = "Body") -> None:
    for i in range(n):
        await c.ok("docx_insert_paragraph", text=f"{label} page {i + 1}", position="end:document_body")
        if i < n - 1:
            await c.ok("docx_insert_page_break", position="end:document_body")


async def _footer_doc(c, out: Path) -> None:
    await c.create()
    await _pages(c, 3)
    a = await c.ok("docx_create_header_footer", kind="footer", text="Footer text Page ")
    await c.ok("docx_insert_field", field="PAGE", position=f"end:{a.head['Paragraph']}")
    await c.save(out)


async def _even_doc(c, out: Path) -> None:
    await c.create()
    await _pages(c, 4)
    await c.ok("docx_create_header_footer", kind="header", text="ODDHEAD")
    await c.ok("docx_create_header_footer", kind="header", which="even", text="EVENHEAD")
    await c.save(out)


async def _note_doc(c, out: Path) -> None:
    await c.create()
    para = (await c.ok("docx_insert_paragraph", text="A claim", position="end:document_body")).element_id
    await c.ok("docx_insert_footnote", element_id=para, text="Footnote body text here")
    await c.save(out)


async def _landscape_doc(c, out: Path) -> None:
    await c.create()
    first = (await c.ok("docx_insert_paragraph", text="Portrait part", position="end:document_body")).element_id
    await c.ok("docx_insert_paragraph", text="Landscape part", position="end:document_body")
    await c.ok("docx_insert_section_break", position=f"after:{first}")
    listing = (await c.ok("docx_list_sections")).section("Content")
    last = re.findall(r"sect_[0-9a-f]+", listing)[-1]
    await c.ok("docx_set_page_setup", section_id=last, orientation="landscape")
    await c.save(out)


async def _toc_doc(c, out: Path) -> None:
    await c.create()
    for i, name in enumerate(("Alpha", "Beta", "Gamma")):
        await c.ok("docx_insert_heading", text=f"{name} chapter", level=1, position="end:document_body")
        await c.ok("docx_insert_paragraph", text=f"Text of {name}.", position="end:document_body")
        if i < 2:
            await c.ok("docx_insert_page_break", position="end:document_body")
    a = await c.ok("docx_insert_toc", position="start:document_body", title="Contents")
    assert a.head["Page Numbers"].startswith("from LibreOffice"), a.head["Page Numbers"]
    await c.save(out)


def _r(inner: str) -> str:
    return f"<w:r>{inner}</w:r>"


async def _bare_toc_doc(c, out: Path) -> None:
    """A bare TOC field (no content control), as LibreOffice and pandoc write it, updated."""
    from tests.builders import build_docx
    begin, end = _r('<w:fldChar w:fldCharType="begin"/>'), _r('<w:fldChar w:fldCharType="end"/>')
    instr = _r('<w:instrText xml:space="preserve"> TOC \\o "1-1" \\h </w:instrText>')
    sep, page_break = _r('<w:fldChar w:fldCharType="separate"/>'), _r('<w:br w:type="page"/>')
    toc = f"<w:p>{begin}{instr}{sep}{_r('<w:t>stale</w:t>')}</w:p><w:p>{end}</w:p>"
    chapters = "".join(f'<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>{n} part</w:t></w:r></w:p>'
                       f'<w:p><w:r><w:t>Text of {n}.</w:t></w:r>{page_break if n != "Zeta" else ""}</w:p>'
                       for n in ("Delta", "Epsilon", "Zeta"))
    src = build_docx(out.parent / "bare_toc_in.docx",
                     f"<w:p><w:r><w:t>Contents</w:t></w:r></w:p>{toc}<w:p>{page_break}</w:p>{chapters}")
    await c.open(src)
    a = await c.ok("docx_update_toc")
    assert a.element_id.startswith("fld_") and a.head["Page Numbers"].startswith("from LibreOffice"), a.text
    await c.save(out)


async def _numpages_doc(c, out: Path) -> None:
    """NUMPAGES (marked dirty) in the footer and PAGE (dirty) in the body: LibreOffice lays them out."""
    await c.create()
    await _pages(c, 3)
    a = await c.ok("docx_create_header_footer", kind="footer", text="Sheet ")
    await c.ok("docx_insert_field", field="PAGE", position=f"end:{a.head['Paragraph']}")
    await c.ok("docx_insert_run", text=" of ", position=f"end:{a.head['Paragraph']}")
    await c.ok("docx_insert_field", field="NUMPAGES", position=f"end:{a.head['Paragraph']}")
    para = (await c.ok("docx_insert_paragraph", text="Here is page ", position="end:document_body")).element_id
    await c.ok("docx_insert_field", field="PAGE", position=f"end:{para}")
    await c.save(out)


BUILDERS = {"numpages": _numpages_doc, "footer": _footer_doc, "even": _even_doc, "note": _note_doc, "landscape": _landscape_doc,
            "toc": _toc_doc, "bare_toc": _bare_toc_doc}


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    require_soffice(need_pdftotext=True)
    folder = tmp_path_factory.mktemp("layout-lo")

    async def build():
        out = {}
        for name, fn in BUILDERS.items():
            async with open_client([folder]) as c:
                path = folder / f"{name}.docx"
                await fn(c, path)
                out[name] = path
        return out

    docs = asyncio.run(build())
    converted = convert_cached(docs.values(), label="layout")
    return {name: (path, converted[path.resolve()]) for name, path in docs.items()}


def pages_text(pdf: Path) -> list[str]:
    return [" ".join(p.split()) for p in pdf_text(pdf).split("\f") if p.strip()]


def test_footer_and_page_number_on_every_page(pdfs):
    pages = pages_text(pdfs["footer"][1])
    assert len(pages) == 3
    for i, text in enumerate(pages):
        assert f"Footer text Page {i + 1}" in text


def test_even_header_on_even_pages_only(pdfs):
    pages = pages_text(pdfs["even"][1])
    assert len(pages) == 4
    for i, text in enumerate(pages):
        even = (i + 1) % 2 == 0
        assert ("EVENHEAD" in text) == even and ("ODDHEAD" in text) == (not even)


def test_footnote_text_appears(pdfs):
    text = " ".join(pages_text(pdfs["note"][1]))
    assert "Footnote body text here" in text and "A claim" in text


def test_landscape_section_has_landscape_pages(pdfs):
    import pypdfium2 as pdfium
    pdf = pdfium.PdfDocument(str(pdfs["landscape"][1]))
    sizes = [pdf[i].get_size() for i in range(len(pdf))]
    pdf.close()
    assert len(sizes) == 2
    assert sizes[0][0] < sizes[0][1] and sizes[1][0] > sizes[1][1]
    assert round(sizes[1][0]) == 792 and round(sizes[1][1]) == 612  # Letter, turned


def test_toc_page_numbers_are_the_ones_libreoffice_gives_the_headings(pdfs):
    docx, pdf = pdfs["toc"]
    pages = pages_text(pdf)
    where = {name: next(i + 1 for i, t in enumerate(pages) if f"Text of {name}." in t)
             for name in ("Alpha", "Beta", "Gamma")}
    body = etree.fromstring(zipfile.ZipFile(docx).read("word/document.xml")).find("w:body", NS)
    written = {}
    for p in body.find("w:sdt/w:sdtContent", NS).findall("w:p", NS):
        texts = p.xpath(".//w:hyperlink/w:r/w:t/text()", namespaces=NS)
        if texts:
            written[texts[0].split()[0]] = int(texts[-1])
    assert written == where
    toc_page = pages[0]
    for name, page in where.items():
        assert re.search(rf"{name} chapter\W*{page}\b", toc_page), toc_page


def test_bare_toc_field_gets_the_page_numbers_libreoffice_gives_the_headings(pdfs):
    docx, pdf = pdfs["bare_toc"]
    pages = pages_text(pdf)
    where = {name: next(i + 1 for i, t in enumerate(pages) if f"Text of {name}." in t)
             for name in ("Delta", "Epsilon", "Zeta")}
    assert list(where.values()) == [2, 3, 4]
    body = etree.fromstring(zipfile.ZipFile(docx).read("word/document.xml")).find("w:body", NS)
    written = {}
    for p in body.findall("w:p", NS):
        texts = p.xpath("w:hyperlink/w:r/w:t/text()", namespaces=NS)
        if texts and p.find("w:pPr/w:pStyle", NS).get(f"{W}val") == "TOC1":
            written[texts[0].split()[0]] = int(texts[-1])
    assert written == where
    for name, page in where.items():
        assert re.search(rf"{name} part\W*{page}\b", pages[0]), pages[0]


def test_dirty_page_fields_show_laid_out_numbers_in_libreoffice(pdfs):
    pages = pages_text(pdfs["numpages"][1])
    assert len(pages) == 3
    for i, text in enumerate(pages):
        assert f"Sheet {i + 1} of 3" in text
    assert "Here is page 3" in pages[2]
