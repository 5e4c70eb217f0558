"""Markdown in and out: docx_export_markdown and docx_insert_markdown."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ooxml import body as B
from ooxml.errors import InvalidPosition, OoxmlError
from render.answer import success_answer
from render.markdown import Exporter, _longest_run
from tools.docx.common import resolve, session_of
from tools.docx.view import focus_block
from tools.runtime.progress import progress
from tools.runtime.registry import CallContext, tool
from tools.runtime.sandbox import resolve_in_roots

PAGE = 50
MAX_PAGE = 200
MAX_CHARS = 30_000
CHUNK = 2_000  # blocks between progress notifications of a whole-document export
MERGED = "repeated in every row and column they cover (GFM tables have no spans)"


def _first_block(session, start_element_id: str | None):
    doc = session.doc
    if not start_element_id:
        return next(B.iter_blocks(doc.body), None)
    el = focus_block(resolve(session, start_element_id, "start_element_id"))
    if el.getparent() is not doc.body:
        raise InvalidPosition("start_element_id must be a block of the document body (or inside one).",
                              hint="Use an ID from docx_read_content or docx_get_structure.")
    return el


def _take(el, n: int) -> tuple[list, object]:
    """Up to n blocks from el on, and the block after them (None at the end)."""
    out = []
    while el is not None and len(out) < n:
        out.append(el)
        el = B.next_block(el)
    return out, el


@tool(idempotent=True, title="Export Markdown")
async def docx_export_markdown(ctx: CallContext, session_id: str, start_element_id: str | None = None,
                               max_elements: int | None = None, file_path: str | None = None,
                               ids: bool = True) -> str:
    """Export the body as GitHub-flavoured Markdown: a page in the answer, or the whole document to a file.

    Headings, nested lists (bullets, numbers), GFM tables (the first row is the header; merged
    cells are repeated in every slot they cover), links, bold/italic/strikethrough/code,
    footnotes as [^n], images as ![alt](name), tracked changes as {++inserted++}/{--deleted--},
    block quotes and code blocks. Each block ends with its ID in an HTML comment
    (<!-- para_3f9a2c -->) unless ids is false, so an edit can follow.

    Args:
        session_id: The session.
        start_element_id: Start at this block (from a previous page); default: the first block.
        max_elements: Blocks to export: per page 1-200 (default 50); with file_path default all.
        file_path: Write the Markdown to this file (inside the allowed folders) instead of the answer.
        ids: Add each block's ID as an HTML comment (default true).
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    limit = MAX_PAGE if file_path is None else None
    if max_elements is not None and (max_elements < 1 or (limit and max_elements > limit)):
        raise OoxmlError(f"max_elements must be between 1 and {limit or 'the document size'}, not {max_elements}.",
                         error_type="ValidationError")
    target = resolve_in_roots(file_path, ctx.services.roots, must_exist=False) if file_path else None
    first = _first_block(session, start_element_id)
    exporter = Exporter(doc, doc.id_of if ids else None)
    total = len(doc.order(doc.body))
    first_index = doc.order(doc.body).index(first) if first is not None else 0
    if target is not None:
        return await _to_file(ctx, session, exporter, first, max_elements, target, first_index, total)
    blocks, nxt = _take(first, max_elements or PAGE)
    text, used = "", 0
    for i, el in enumerate(blocks):  # stop early on long blocks so the answer stays bounded
        used += len(B.block_text(el, MAX_CHARS))
        if used > MAX_CHARS and i:
            blocks, nxt = blocks[:i], el
            break
    text = exporter.blocks(blocks)
    fence = "`" * max(3, _longest_run(text, "`") + 1)
    fields = {"Session ID": session.id,
              "Range": f"{first_index + 1}-{first_index + len(blocks)} of {total}" if blocks else f"0 of {total}",
              "Merged Cells": MERGED}
    if nxt is not None:
        fields["Next Page"] = f"start_element_id={doc.id_of(nxt)}"
    content = f"{fence}markdown\n{text.rstrip()}\n{fence}" if blocks else "(the body is empty)"
    return success_answer("Export Markdown", fields=fields, content=content)


async def _to_file(ctx, session, exporter, first, max_elements, target: Path, first_index: int, total: int) -> str:
    doc = session.doc
    version = doc.version
    count = total - first_index if max_elements is None else min(max_elements, total - first_index)
    pieces, el, done = [], first, 0
    while el is not None and done < count:
        chunk, el = _take(el, min(CHUNK, count - done))
        pieces.append(exporter.blocks(chunk))
        done += len(chunk)
        await progress(ctx, done, count, f"Exported {done} of {count} blocks")
        if doc.version != version:  # another call edited the document while we waited on the client
            raise OoxmlError("The document changed during the export.", error_type="ValidationError",
                             hint="Export again.")
    text = "\n".join(p.rstrip("\n") for p in pieces if p) + "\n"
    data = text.encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    fields = {"Session ID": session.id, "File": str(target), "Blocks": done, "Size": f"{len(data)} bytes",
              "Merged Cells": MERGED}
    return success_answer("Export Markdown", fields=fields)
