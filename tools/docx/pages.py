"""docx_render_page: the page as LibreOffice lays it out, as a PNG the agent can look at."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import anyio

from ooxml.text import body as B
from ooxml.xml import budget
from ooxml.xml.errors import InvalidElementType, OoxmlError
from ooxml.text.marks import save_marked_copy
from render.answer import Answer, OneOf, success_answer
from render.blocks import paragraph_line, title_of
from render.pages import blocks_on_page, laid_out_page
from render.width import cut
from tools.docx.common import resolve
from tools.runtime.sessions.lifetime import holding
from tools.office.service import to_pdf_in_budget
from tools.runtime.call.progress import progress
from tools.runtime.call.registry import CallContext, Image, ToolResult, tool

MAX_LISTED = 30  # elements named in the answer for one page
STEPS = 4


def body_block_of(doc, el):
    """The top-level body block holding ``el``; pages are found for body blocks only."""
    cur = doc.top_block(el)
    if cur is None or cur.getparent() is not doc.body:
        raise InvalidElementType(f"{B.kind(el)} {el.get('{urn:ooxml-mcp:ids:2026}id') or ''} is not in the "
                                 "document body: its page cannot be looked up.",
                                 hint="Pass a paragraph or table of the body (or an element inside one), or a page number.")
    return cur


def _line(doc, el) -> str:
    text = paragraph_line(el) if el.tag == B.W_P else B.block_text(el, 200).replace("\n", " ")
    return f"- [{title_of(doc, el)}] {cut(text, 80)}"


def _check_args(page: int | None, dpi: int) -> None:
    if not 24 <= dpi <= 600:
        raise OoxmlError(f"dpi must be between 24 and 600, not {dpi}.", error_type="ValidationError",
                         hint="Leave dpi out for 96, or pass up to 600 for a sharper image.")
    if page is not None and page < 1:
        raise OoxmlError(f"page must be 1 or more, not {page}.", error_type="ValidationError",
                         hint="Pages are numbered from 1.")


@tool(read_only=True, idempotent=True, title="Render a page as an image")
async def docx_render_page(ctx: CallContext, session_id: str | None, page: int | None = None,
                           element_id: str | None = None, dpi: int = 96) -> ToolResult:
    """Render a page of the current state (unsaved edits included) as PNG.

    Args:
        page: From 1 (default: element_id's page, else 1).
        dpi: 24-600 (96: A4 is 794×1123 px).
    """
    _check_args(page, dpi)
    office = ctx.services.office
    folder = Path(tempfile.mkdtemp(prefix="ooxml-mcp-render-"))
    try:
        await progress(ctx, 0, STEPS, "Writing a temporary copy")
        src, pdf_path = folder / "render.docx", folder / "render.pdf"
        # The session is held only while its copy is written (in a worker thread, never on the
        # event loop): other calls on it run while LibreOffice lays the copy out.
        session_id, target, blocks = await anyio.to_thread.run_sync(_marked_copy, ctx, session_id, element_id, src)
        await progress(ctx, 1, STEPS, "LibreOffice is laying out the document")
        # Within the call's time limit (set by dispatch): LibreOffice is stopped at the deadline.
        note = await anyio.to_thread.run_sync(to_pdf_in_budget, office, src, pdf_path)
        await progress(ctx, 2, STEPS, "Rasterising the page")
        # Reading the PDF takes seconds on long documents: never on the event loop.
        starts, number, total, (png, width, height) = await anyio.to_thread.run_sync(
            laid_out_page, pdf_path, len(blocks), lambda starts, n: _page_number(page, target, blocks, starts, n), dpi)
        budget.check()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    await progress(ctx, STEPS, STEPS, "Done")
    shown = [blocks[i] for i in blocks_on_page(starts, number - 1)]
    answer = await anyio.to_thread.run_sync(_answer, ctx, session_id, (number, total, width, height, dpi), shown, note)
    return ToolResult(answer, [Image(png, "image/png")])


def _marked_copy(ctx, session_id, element_id, src: Path):
    """(the session's ID, the target block or None, the body blocks in order), with the marked copy
    written to ``src``. The ID is the one to use from here: the call may have named no session."""
    with holding(ctx, session_id, budget.remaining()) as session:
        target = body_block_of(session.doc, resolve(session, element_id)) if element_id else None
        return session.id, target, save_marked_copy(session.doc, src)


def _page_number(page, target, blocks, starts, total) -> int:
    if page is None and target is not None:
        index = next((i for i, b in enumerate(blocks) if b is target), None)
        if index is None:
            raise OoxmlError("The element was removed while the page was being rendered.",
                             error_type="ElementNotFound", hint="Render again.")
        return starts[index] + 1
    number = page or 1
    if number > total:
        raise OoxmlError(f"Page {number} does not exist: the document has {total} page(s).",
                         error_type="ValidationError", hint=f"Pass a page from 1 to {total}.")
    return number


def _answer(ctx, session_id, figures, shown, note: str | None) -> Answer:
    number, total, width, height, dpi = figures
    with holding(ctx, session_id, budget.remaining()) as session:
        doc = session.doc
        shown = [el for el in shown if el.getparent() is doc.body]  # an edit may have run meanwhile
        ids = [doc.id_of(el) for el in shown]
        lines = [_line(doc, el) for el in shown[:MAX_LISTED]]
    listed = ", ".join(ids[:MAX_LISTED]) + (f" and {len(ids) - MAX_LISTED} more" if len(ids) > MAX_LISTED else "")
    fields = {"Session ID": session.id, "Page": OneOf(number, total),
              "Image": f"PNG {width}×{height} px at {dpi} dpi", "Elements": listed or "(none starts on this page)",
              "LibreOffice": note}
    if len(shown) > MAX_LISTED:
        lines.append(f"... ({len(shown) - MAX_LISTED} more elements on this page)")
    content = "Elements starting on this page:\n" + "\n".join(lines) if lines else \
        "No element starts on this page (it continues the element before it)."
    return success_answer("Render Page", fields=fields, content=content)
