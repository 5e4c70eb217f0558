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


class LaidOut:
    """Pages of one LibreOffice layout of the current state (ooxml/refs/page_fields.Pages): where
    each body block starts (the marked copy's block marks) and where each bookmark is."""

    def __init__(self, total: int, blocks: dict, marks: dict[str, int]):
        self.total, self._blocks, self._marks = total, blocks, marks

    def of_block(self, block) -> int | None:
        return self._blocks.get(block)

    def of_bookmark(self, name: str) -> int | None:
        found = self._marks.get(name)
        return found if found is not None else self._marks.get(_escaped(name))


def _escaped(name: str) -> str:
    """A bookmark name as LibreOffice names its PDF destination: '_Ref12' is '5FRef12' (hex codes)."""
    return "".join(c if c.isascii() and c.isalnum() else "".join(f"{b:02X}" for b in c.encode()) for c in name)


def laid_out(doc, convert, blocks: set | None = None) -> LaidOut:
    """One layout of the state (``convert``: see to_pdf) with its bookmark pages and the pages of the
    body ``blocks`` (all when None), 1-based."""
    from ooxml.text.marks import save_marked_copy
    from render.pages import PDFIUM, PdfPages, block_pages

    with tempfile.TemporaryDirectory(prefix="ooxml-mcp-layout-") as tmp:
        src, pdf = Path(tmp) / "layout.docx", Path(tmp) / "layout.pdf"
        wanted = blocks
        blocks = save_marked_copy(doc, src, wanted)
        convert(src, pdf)
        with PDFIUM:
            pages = PdfPages(pdf)
            try:
                total, named, marks = len(pages), pages.named_pages(), pages.mark_pages()
            finally:
                pages.close()
    starts = block_pages(marks, len(blocks))
    return LaidOut(total, {b: p + 1 for b, p in zip(blocks, starts) if wanted is None or b in wanted},
                   {n: p + 1 for n, p in named.items()})
