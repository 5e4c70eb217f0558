"""docx_export: the current state as PDF, ODT, RTF, HTML or text, through the server's LibreOffice."""
from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
import zipfile
from pathlib import Path, PurePosixPath
from typing import Literal

import anyio

from ooxml.opc import core_props
from ooxml.opc.outfile import HTML, ODT, PDF, RTF, TEXT, check_file, write_bytes
from ooxml.stylesheet.fonts_named import fonts_named
from ooxml.xml import budget
from ooxml.xml.errors import OoxmlError
from render.answer import success_answer
from tools.office import page_ranges, pdf_output
from tools.office.fonts import substitutes
from tools.office.service import Job, convert_in_budget
from tools.runtime.state.journal import replaying
from tools.runtime.sessions.lifetime import holding
from tools.runtime.call.progress import progress, ticking
from tools.runtime.call.registry import CallContext, tool
from tools.storage.objects import check_tenant, storage_section
from tools.runtime.sessions.sandbox import folder_check, object_target, resolve_save_target
from tools.storage.documents import check_put, store_bytes
from tools.storage.roots import ObjectLocation

FORMATS = {  # format -> (what the one writer accepts, what LibreOffice is asked)
    "pdf": (PDF, Job()),
    "odt": (ODT, Job(ext="odt", filter="writer8", data={})),
    "rtf": (RTF, Job(ext="rtf", filter="Rich Text Format", data={})),
    "html": (HTML, Job(ext="html", filter="HTML (StarWriter)", data={}, options="EmbedImages")),
    "txt": (TEXT, Job(ext="txt", filter="Text (encoded)", data={}, options="UTF8")),
}
PROFILES = {  # writer_pdf_Export's FilterData per profile
    "pdfa-2b": {"SelectPdfVersion": 2},
    "pdfua": {"PDFUACompliance": True, "UseTaggedPDF": True, "DisplayPDFDocumentTitle": True},
}
STEPS = 4
# LibreOffice gets the copy without comment anchors (ooxml/opc/office_copy.py: its headless build aborts on them).
NO_COMMENTS = "not exported (LibreOffice converts a copy without them)"


def _check_args(format: str, pages: str | None, profile: str | None, reproducible: bool) -> list | None:
    if format != "pdf" and (pages or profile or reproducible):
        raise OoxmlError(f"pages, profile and reproducible apply to PDF only, not to format '{format}'.",
                         error_type="ValidationError", hint="Leave them out, or export with format='pdf'.")
    return page_ranges.parse(pages) if pages else None


def _job(format: str, profile: str | None, ranges, title: str) -> Job:
    job = FORMATS[format][1]
    if format != "pdf":
        return job
    data = {**job.data, **PROFILES.get(profile or "", {})}
    if ranges:
        data["PageRange"] = page_ranges.page_range(ranges)
    return dataclasses.replace(job, data=data, count=True, title=title if profile == "pdfua" else None)


@tool(read_only=True, idempotent=True, context=False, title="Export to PDF or another format")
async def docx_export(ctx: CallContext, session_id: str | None, file_path: str,
                      format: Literal["pdf", "odt", "rtf", "html", "txt"] = "pdf", pages: str | None = None,
                      profile: Literal["pdfa-2b", "pdfua"] | None = None, reproducible: bool = False,
                      overwrite: bool = False) -> str:
    """Export the current state (unsaved edits too) through LibreOffice; external links not followed.

    Args:
        pages: PDF pages, e.g. '1-3,5'.
        profile: Archival or tagged (accessible) PDF.
        reproducible: Fixed PDF dates and ID.
    """
    ranges = _check_args(format, pages, profile, reproducible)
    kind = FORMATS[format][0]
    folder = Path(tempfile.mkdtemp(prefix="ooxml-mcp-export-"))
    try:
        await progress(ctx, 0, STEPS, "Writing a temporary copy")
        src, out = folder / "export.docx", folder / f"export.{FORMATS[format][1].ext}"
        session_id, target = await anyio.to_thread.run_sync(_copy, ctx, session_id, file_path, kind, overwrite, src)
        title, fonts, commented = await anyio.to_thread.run_sync(_facts, src, target)
        job = _job(format, profile, ranges, title)
        done = await ticking(ctx, 1, STEPS, "LibreOffice is converting the document",
                             convert_in_budget, ctx.services.office, src, out, job)
        await progress(ctx, 2, STEPS, "Checking the output")
        pages_out = await anyio.to_thread.run_sync(_checked_pdf, ctx, done, ranges, src, out) \
            if format == "pdf" else None
        data = out.read_bytes()
        if reproducible and format == "pdf":
            data = pdf_output.reproducible(data)
        budget.check()
        await progress(ctx, 3, STEPS, "Writing the file")
        await anyio.to_thread.run_sync(_write, ctx, session_id, target, kind, data, overwrite)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    await progress(ctx, STEPS, STEPS, "Done")
    swapped = await anyio.to_thread.run_sync(substitutes, fonts)
    fields = {"Session ID": session_id, "File": str(target), "Format": format.upper() if not profile else
              f"PDF ({profile})", "Pages": pages_out, "Size": f"{len(data)} bytes",
              "Fonts Substituted": _fonts_line(swapped), "LibreOffice": done.note,
              "Comments": NO_COMMENTS if commented and format != "pdf" else None}
    return success_answer("Export", fields=fields)


def _copy(ctx, session_id, file_path: str, kind, overwrite: bool, src: Path):
    """(the session's ID, the checked target), with the state written to ``src``: the session is
    held only while its copy is written, not while LibreOffice converts it."""
    with holding(ctx, session_id, budget.remaining()) as session:
        target = _target(ctx, session, file_path, kind, overwrite)
        session.doc.package.save(src, remember=False)  # a throwaway copy: the saved state stays as it is
        return session.id, target


def _target(ctx, session, file_path: str, kind, overwrite: bool):
    """The export's file or object, refused now (before LibreOffice runs) if the write would be."""
    stamps = session.doc.package.stamps
    location = object_target(file_path, ctx.services.roots)
    if location is not None:  # an object root: a conditional put, as docx_save's
        check_tenant(ctx, location)
        kind.check(PurePosixPath(location.name))
        if not replaying():  # in recovery the object was written the first time
            check_put(location, storage_section(ctx), stamps, overwrite=overwrite)
        return location
    target = resolve_save_target(file_path, ctx.services.roots)
    check_file(target, kind=kind, expected=stamps.get(os.path.realpath(target)), overwrite=overwrite)
    return target


def _facts(src: Path, target) -> tuple[str, list[str], bool]:
    """(the title a PDF/UA export carries, the fonts the document names, whether it has comments)."""
    with zipfile.ZipFile(src) as z:  # our own copy, just written
        parts = {n: z.read(n) for n in z.namelist()
                 if n == core_props.CORE or (n.startswith("word/") and n.endswith(".xml"))}
    return core_props.title(parts) or PurePosixPath(target.name).stem, fonts_named(parts), "word/comments.xml" in parts


def _checked_pdf(ctx, done, ranges, src: Path, out: Path) -> int:
    """Pages in the PDF written; a range past the document's end is refused (nothing is written)."""
    if ranges:
        total = done.pages
        if total is None:  # the one-off fallback counts nothing: lay the whole document out once more
            whole = out.with_name("whole.pdf")
            convert_in_budget(ctx.services.office, src, whole, Job())
            total = pdf_output.page_count(whole)
        page_ranges.check_within(ranges, total)
    return pdf_output.page_count(out)


def _write(ctx, session_id, target, kind, data: bytes, overwrite: bool) -> None:
    if replaying():  # in recovery the file was written the first time
        return
    with holding(ctx, session_id, budget.remaining()) as session:
        stamps = session.doc.package.stamps
        if isinstance(target, ObjectLocation):
            store_bytes(target, data, storage_section(ctx), stamps, overwrite=overwrite)
            return
        real = os.path.realpath(target)
        stamps[real] = write_bytes(target, data, kind=kind, overwrite=overwrite, expected=stamps.get(real),
                                   inside=folder_check(ctx.services.roots))


def _fonts_line(swapped: dict[str, str] | None) -> str:
    if swapped is None:
        return "unknown (fontconfig's fc-match is not installed)"
    if not swapped:
        return "none"
    shown = [f"{a} → {b}" for a, b in list(swapped.items())[:12]]
    return ", ".join(shown) + (f" and {len(swapped) - 12} more" if len(swapped) > 12 else "")
