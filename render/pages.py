"""Pages of a PDF (made by LibreOffice from a marked copy): count, marks per page, PNG images."""
from __future__ import annotations

import ctypes
import io
import threading
from pathlib import Path

from ooxml.text.marks import MARK_PREFIX

POINTS_PER_INCH = 72
PDFIUM = threading.Lock()  # pdfium is not thread-safe: one PDF is read at a time, in a worker thread


class PdfPages:
    def __init__(self, path: Path):
        import pypdfium2 as pdfium  # here, not at start-up: most workers never render a page

        self.pdf = pdfium.PdfDocument(str(path))

    def __len__(self) -> int:
        return len(self.pdf)

    def close(self) -> None:
        self.pdf.close()

    def named_pages(self) -> dict[str, int]:
        """Every named destination (LibreOffice writes one per bookmark) -> 0-based page index."""
        import pypdfium2.raw as pdfium_c

        raw = self.pdf.raw
        pages: dict[str, int] = {}
        for i in range(pdfium_c.FPDF_CountNamedDests(raw)):
            size = ctypes.c_long(0)
            pdfium_c.FPDF_GetNamedDest(raw, i, None, ctypes.byref(size))
            if size.value <= 0:
                continue
            buf = ctypes.create_string_buffer(size.value)
            dest = pdfium_c.FPDF_GetNamedDest(raw, i, buf, ctypes.byref(size))
            name = buf.raw[:size.value].decode("utf-16-le", "replace").rstrip("\x00")
            page = pdfium_c.FPDFDest_GetDestPageIndex(raw, dest) if dest else -1
            if page >= 0:
                pages[name] = page
        return pages

    def mark_pages(self) -> dict[int, int]:
        """Mark index -> 0-based page index, from the PDF's named destinations."""
        return {int(name[len(MARK_PREFIX):]): page for name, page in self.named_pages().items()
                if name.startswith(MARK_PREFIX) and name[len(MARK_PREFIX):].isdigit()}

    def png(self, index: int, dpi: int) -> tuple[bytes, int, int]:
        """Page ``index`` (0-based) as PNG bytes, with its width and height in pixels."""
        page = self.pdf[index]
        try:
            image = page.render(scale=dpi / POINTS_PER_INCH).to_pil()
        finally:
            page.close()
        buf = io.BytesIO()
        image.save(buf, format="PNG", optimize=False)
        return buf.getvalue(), image.width, image.height

    def page_size_points(self, index: int) -> tuple[float, float]:
        page = self.pdf[index]
        try:
            return page.get_size()
        finally:
            page.close()


def laid_out_page(pdf_path: Path, n_blocks: int, choose, dpi: int):
    """(each block's start page, the page number ``choose(starts, total)`` picks, the page count,
    (png, width, height)): the CPU-heavy reading of LibreOffice's PDF, for a worker thread."""
    with PDFIUM:
        pages = PdfPages(pdf_path)
        try:
            starts = block_pages(pages.mark_pages(), n_blocks)
            number = choose(starts, len(pages))
            return starts, number, len(pages), pages.png(number - 1, dpi)
        finally:
            pages.close()


def block_pages(mark_pages: dict[int, int], n_blocks: int) -> list[int]:
    """The page where each block starts. A block without a mark (LibreOffice dropped it) takes
    the page of the nearest marked block before it."""
    starts, current = [], 0
    for i in range(n_blocks):
        current = mark_pages.get(i, current)
        starts.append(current)
    return starts


def blocks_on_page(starts: list[int], page: int) -> list[int]:
    """Blocks starting on ``page``; when none does (a long table), the block running across it."""
    on = [i for i, p in enumerate(starts) if p == page]
    if not on:
        earlier = [i for i, p in enumerate(starts) if p < page]
        on = earlier[-1:]
    return on
