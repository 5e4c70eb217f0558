"""Markdown in and out: docx_export_markdown and docx_insert_markdown."""
from __future__ import annotations

import os
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from ooxml.text import body as B
from ooxml.xml import budget, growth
from ooxml.xml.errors import InvalidPosition, OoxmlError
from ooxml.opc.link_policy import policy_of
from ooxml.markdown.markdown_in import MAX_MARKDOWN, Builder, image_sources, link_targets, parse
from ooxml.markdown.mdlists import ListFormats, list_item
from ooxml.opc.outfile import MARKDOWN, check_file, write_bytes
from ooxml.layout.sections import page_box, section_of
from render.answer import success_answer
from render.blocks import heading_level
from render.markdown import Exporter
from render.markdown_inline import longest_run
from render.width import cut
from tools.docx.common import call_limits, resolve, session_of
from ooxml.model.insertion import block_insertion, insertion_neighbours
from tools.docx.common import raster_at
from tools.docx.protocol import SHOWN, Edit
from ooxml.tabular.fill import keep_tables_apart
from ooxml.tabular.widths import EMU_PER_TWIP, available_width
from tools.docx.view import focus_block
from tools.runtime.state.journal import replaying
from tools.runtime.call.progress import report
from tools.runtime.call.registry import CallContext, tool
from tools.runtime.sessions.sandbox import folder_check, object_target, resolve_save_target
from tools.storage.objects import check_tenant
from tools.storage.objects import storage_section
from tools.storage.documents import store_bytes
from tools.storage.roots import ObjectLocation

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


@tool(idempotent=True, context=False, title="Export Markdown", kind="session")
def docx_export_markdown(ctx: CallContext, session_id: str | None, start_element_id: str | None = None,
                               max_elements: int | None = None, file_path: str | None = None,
                               ids: bool = True, overwrite: bool = False) -> str:
    """Export the body as GitHub Markdown: a page in the answer, or all to a .md file.

    Args:
        max_elements: Per page 1-200; with file_path all.
        file_path: Write to this .md file instead.
        ids: Each block's ID as an HTML comment.
        overwrite: Replace a file this session did not write.
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    limit = MAX_PAGE if file_path is None else None
    if max_elements is not None and (max_elements < 1 or (limit and max_elements > limit)):
        raise OoxmlError(f"max_elements must be between 1 and {limit or 'the document size'}, not {max_elements}.",
                         error_type="ValidationError",
                         hint="Leave max_elements out, or page on with start_element_id from the previous answer.")
    target = _target(ctx, session, file_path, overwrite) if file_path else None
    first = _first_block(session, start_element_id)
    exporter = Exporter(doc, doc.id_of if ids else None)
    total = len(doc.order(doc.body))
    first_index = doc.order(doc.body).index(first) if first is not None else 0
    if target is not None:
        return _to_file(ctx, session, exporter, first, max_elements, target, first_index, total, overwrite)
    blocks, nxt = _take(first, max_elements or PAGE)
    text, used = "", 0
    for i, el in enumerate(blocks):  # stop early on long blocks so the answer stays bounded
        used += len(B.block_text(el, MAX_CHARS))
        if used > MAX_CHARS and i:
            blocks, nxt = blocks[:i], el
            break
    text = exporter.blocks(blocks)
    fence = "`" * max(3, longest_run(text, "`") + 1)
    fields = {"Session ID": session.id,
              "Range": f"{first_index + 1}-{first_index + len(blocks)} of {total}" if blocks else f"0 of {total}",
              "Merged Cells": MERGED}
    if nxt is not None:
        fields["Next Page"] = f"start_element_id={doc.id_of(nxt)}"
    content = f"{fence}markdown\n{text.rstrip()}\n{fence}" if blocks else "(the body is empty)"
    return success_answer("Export Markdown", fields=fields, content=content)


def _target(ctx, session, file_path: str, overwrite: bool) -> Path:
    """The export's file, refused now (before a long export) if the write would be."""
    location = object_target(file_path, ctx.services.roots)
    if location is not None:  # an object root: the name judged now, the put is conditional
        check_tenant(ctx, location)
        MARKDOWN.check(PurePosixPath(location.name))
        return location
    target = resolve_save_target(file_path, ctx.services.roots)
    check_tenant(ctx, target)  # not into another tenant's upload area
    check_file(target, kind=MARKDOWN, expected=_exported(session).get(os.path.realpath(target)), overwrite=overwrite)
    return target


def _exported(session) -> dict:
    """What this session last exported where (a second export to its own file needs no overwrite)."""
    return session.doc.package.stamps


def _to_file(ctx, session, exporter, first, max_elements, target: Path, first_index: int, total: int,
             overwrite: bool) -> str:
    # A sync tool: it runs in a worker thread holding its session, so a long export stalls no
    # other client, and no edit can come between its chunks.
    count = total - first_index if max_elements is None else min(max_elements, total - first_index)
    pieces, el, done = [], first, 0
    while el is not None and done < count:
        chunk, el = _take(el, min(CHUNK, count - done))
        pieces.append(exporter.blocks(chunk))
        done += len(chunk)
        report(ctx, done, count, f"Exported {done} of {count} blocks")
    text = "\n".join(p.rstrip("\n") for p in pieces if p) + "\n"
    data = text.encode("utf-8")
    if isinstance(target, ObjectLocation):
        if not replaying():
            store_bytes(target, data, storage_section(ctx), _exported(session), overwrite=overwrite)
    elif not replaying():  # in recovery only the IDs it gave matter: the file was written the first time
        real = os.path.realpath(target)
        _exported(session)[real] = write_bytes(target, data, kind=MARKDOWN, overwrite=overwrite,
                                               expected=_exported(session).get(real),
                                               inside=folder_check(ctx.services.roots))
    fields = {"Session ID": session.id, "File": str(target), "Blocks": done, "Size": f"{len(data)} bytes",
              "Merged Cells": MERGED}
    return success_answer("Export Markdown", fields=fields)


# ---- insert -----------------------------------------------------------------------------------------

SHOWN_IDS = 100


def _images(ctx: CallContext, doc, tree) -> dict:
    """Every image the Markdown names, checked (inside the roots, readable) before any change."""
    found = {}
    for src in image_sources(tree):
        if src not in found:
            found[src] = raster_at(ctx, unquote(src))
            growth.spend(len(found[src].data), call_limits(ctx, doc).max_call_growth_bytes,
                         f"The image {PurePosixPath(unquote(src)).name}", hint="Insert fewer or smaller images per call; the operator "
                                                        "sets limits.max_call_growth_bytes.")
    return found


def _listing(doc, blocks) -> str:
    lines = []
    formats = ListFormats(doc)
    for el in blocks[:SHOWN_IDS]:
        if el.tag == B.W_P:
            level, item = heading_level(doc, el), list_item(doc, formats, el)
            kind = f"Heading {level}" if level else \
                f"{'Numbered' if item.ordered else 'Bulleted'} item, level {item.level + 1}" if item else "Paragraph"
            text = B.paragraph_text(el)
        else:
            kind, text = B.kind(el), B.block_text(el, 200)
        text = text.replace("\n", " ↵ ").replace("\t", " ")
        lines.append(f"- {doc.id_of(el)} [{kind}] {cut(text, 70)}")
    if len(blocks) > SHOWN_IDS:
        lines.append(f"- ... and {len(blocks) - SHOWN_IDS} more")
    return "Inserted blocks:\n" + "\n".join(lines)


@tool(title="Insert Markdown")
def docx_insert_markdown(ctx: CallContext, e: Edit, session_id: str | None, markdown: str, position: str) -> None:
    """Insert Markdown (CommonMark, GFM tables) as the document's own structures."""
    _insert_markdown(ctx, e, markdown, position)


def _insert_markdown(ctx, e, markdown: str, position: str) -> None:
    doc = e.doc
    if len(markdown) > MAX_MARKDOWN:
        raise OoxmlError(f"The Markdown is {len(markdown)} characters, over the limit of {MAX_MARKDOWN}.",
                         error_type="ValidationError", hint="Insert it in parts.")
    tree = parse(markdown)
    if not tree.children or all(n.type == "html_block" and n.content.strip().startswith("<!--")
                                for n in tree.children):
        raise OoxmlError("The Markdown has no content to insert.", error_type="ValidationError",
                         hint="Pass some text, e.g. '# Title' or '- item'.")
    policy = policy_of(ctx.services.config)
    for href in link_targets(tree):
        policy.check_url(href)
    pos = e.position(position)
    container, where = block_insertion(doc, pos, _last_kind(tree))
    images = _images(ctx, doc, tree)
    anchor = pos.target  # section_of() takes the body too (its last section)
    width = available_width(doc, container, anchor)
    # Everything is checked: from here on the document changes.
    builder = Builder(doc, doc.part_of(container).name, width, images,
                      (width * EMU_PER_TWIP, page_box(section_of(doc, anchor)).text_height * EMU_PER_TWIP),
                      lambda: doc.word_ids(container))
    blocks = builder.build(tree)
    if not blocks:  # e.g. quotes nested past markdown-it's own limit, which it drops
        raise OoxmlError("The Markdown has no content to insert.", error_type="ValidationError",
                         hint="Pass some text, e.g. '# Title' or '- item'; nest quotes and lists less deep.")
    prev, nxt = insertion_neighbours(container, where)
    e.show(prev, nxt)
    last = None
    for i, el in enumerate(blocks):
        if not i % 1024:
            budget.check()
        doc.insert_block(el, container=container, **({"after": last} if last is not None else where))
        last = el
    lead, trail = keep_tables_apart(doc, container, blocks[0], blocks[-1])
    new = [b for b in (lead, *blocks, trail) if b is not None]
    more = [f"  ... ({len(new) - SHOWN} more new blocks) ..."] if len(new) > SHOWN else []
    e.after(prev, *new[:SHOWN], *more, nxt)
    fields = {"Position": pos.text, "Blocks Inserted": len(new), "First Block": doc.id_of(new[0])}
    e.done(blocks[-1], marker="NEW", inserted=blocks[-1], fields=fields, content=_listing(doc, new))


def _last_kind(tree) -> str:
    """What the last new block will be, for the cell-ends-with-a-paragraph check."""
    last = tree.children[-1]
    return "table" if last.type == "table" else "paragraph"
