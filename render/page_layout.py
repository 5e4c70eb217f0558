"""Page numbers from LibreOffice's layout of a document's current state (optional: needs soffice
and pypdfium2). Reads the state, never changes it: the package is written to a temporary file.

LibreOffice exports headings as PDF bookmarks (the outline) with their page; headings are matched
to outline entries in order by their text.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

TIMEOUT_S = 180


def soffice() -> str | None:
    env = os.environ.get("OOXML_MCP_SOFFICE")
    if env:
        return env if Path(env).exists() else shutil.which(env)
    return shutil.which("soffice") or shutil.which("libreoffice")


def available() -> str | None:
    """None when page numbers can be had, else what is missing."""
    if soffice() is None:
        return "LibreOffice (soffice) is not installed"
    try:
        import pypdfium2  # noqa: F401
    except ImportError:
        return "the pypdfium2 package is not installed"
    return None


def to_pdf(doc, folder: Path, convert=None) -> Path:
    """The state laid out as a PDF in ``folder``: by ``convert(src, pdf)`` when given (the server's
    warm LibreOffice), else by a LibreOffice process of its own."""
    src = folder / "layout.docx"
    doc.package.save(src, remember=False)  # a throwaway copy: the session's saved state stays as it is
    if convert is not None:
        convert(src, folder / "layout.pdf")
        return folder / "layout.pdf"
    from ooxml.opc.office_copy import prepare
    from tools.runtime.office_profile import seed
    prepare(src)  # external references cut: see ooxml/opc/office_copy.py
    profile = seed(folder / "profile")
    cmd = [soffice(), f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
           "--convert-to", "pdf", "--outdir", str(folder), str(src)]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=TIMEOUT_S, check=False)
    pdf = folder / "layout.pdf"
    if not pdf.exists():
        raise RuntimeError("LibreOffice produced no PDF")
    return pdf


def heading_pages(doc, texts: list[str], convert=None) -> list[int | None]:
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
