"""Page numbers from LibreOffice's layout of a document's current state (the PDF made by the
server's LibreOffice, read with pypdfium2). Reads the state, never changes it: the package is
written to a temporary file.

LibreOffice exports headings as PDF bookmarks (the outline) with their page; headings are matched
to outline entries in order by their text.
"""
from __future__ import annotations

import tempfile
from pathlib import Path


def to_pdf(doc, folder: Path, convert) -> Path:
    """The state laid out as a PDF in ``folder`` by ``convert(src, pdf)`` (the server's LibreOffice,
    tools/office/service.py)."""
    src, pdf = folder / "layout.docx", folder / "layout.pdf"
    doc.package.save(src, remember=False)  # a throwaway copy: the session's saved state stays as it is
    convert(src, pdf)
    return pdf


def heading_pages(doc, texts: list[str], convert) -> list[int | None]:
    """The page (1-based) of each heading text, in document order, from LibreOffice's layout
    (``convert``: see to_pdf)."""
    import pypdfium2 as pdfium

    from render.pages import PDFIUM

    with tempfile.TemporaryDirectory(prefix="ooxml-mcp-layout-") as tmp:
        made = to_pdf(doc, Path(tmp), convert)
        with PDFIUM:
            pdf = pdfium.PdfDocument(str(made))
            try:
                outline = [(" ".join((bm.get_title() or "").split()), bm.get_dest()) for bm in pdf.get_toc()]
                outline = [(t, d.get_index() + 1 if d is not None else None) for t, d in outline]
            finally:
                pdf.close()
    pages: list[int | None] = []
    i = 0
    for text in texts:
        page = None
        for j in range(i, len(outline)):
            if outline[j][0] == text:
                page, i = outline[j][1], j + 1
                break
        pages.append(page)
    return pages
