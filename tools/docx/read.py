"""Reading tools: content pages, structure tree, search, context, cursor."""
from __future__ import annotations

from typing import Literal

from ooxml.model import places as P
from ooxml.text import body as B
from ooxml.charts.text import charts_text
from ooxml.math import text as math_text
from ooxml.xml import budget
from ooxml.xml.errors import InvalidPosition, OoxmlError
from ooxml.tabular.grid import TableGrid
from ooxml.lists.numbering import fallback_formats, label_of
from render.answer import success_answer
from render.blocks import heading_level, labelled_line, title_of
from render.text_boxes_view import box_lines
from render.width import cut
from tools.docx.common import answer, resolve, session_of
from tools.runtime.call.registry import CallContext, tool
from tools.runtime.sessions.sessions import Cursor
from tools.docx.view import focus_block

MAX_PAGE = 200
MAX_CHARS = 30_000
MAX_TREE_LINES = 400
TREE_PAGE = 100  # tree lines per docx_get_structure page: about 8 KB
MAX_MATCHES = 50


def _line_for(doc, el, full: bool = False) -> str:
    title = title_of(doc, el)
    if full:
        return f"[{title}] {_full_text(doc, el)}"
    if el.tag == B.W_P:
        return "\n".join([f"[{title}] {cut(labelled_line(doc, el), 200)}", *box_lines(doc, el)])
    if el.tag == B.W_TBL:
        first = TableGrid(el).text_matrix()[:1]
        return "\n".join([f"[{title}] first row: " + cut(" | ".join(first[0]) if first else "", 160),
                          *box_lines(doc, el)])
    text = B.block_text(el, 400).replace("\n", " ↵ ").replace("\t", "→")
    return f"[{title}] {cut(text, 160)}"


def _full_text(doc, el) -> str:
    """A block's whole text (lines cut at 200 characters otherwise): tables row by row."""
    if el.tag == B.W_P:
        text = labelled_line(doc, el)
    elif el.tag == B.W_TBL:
        text = "\n".join(" | ".join(row) for row in TableGrid(el).text_matrix())
    else:
        text = B.block_text(el, MAX_CHARS)
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS] + f"… ({len(text) - MAX_CHARS} more characters)"


@tool(read_only=True, idempotent=True, title="Read document content")
def docx_read_content(ctx: CallContext, session_id: str | None, start_element_id: str | None = None,
                      max_elements: int = 50, full_text: bool = False) -> str:
    """The body's blocks, a line each with its ID, a page at a time; lines cut at 200 characters unless
    full_text.

    Args:
        start_element_id: First block (from the previous page).
        max_elements: 1-200.
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    if not 1 <= max_elements <= MAX_PAGE:
        raise OoxmlError(f"max_elements must be between 1 and {MAX_PAGE}, not {max_elements}.",
                         error_type="ValidationError", hint="Use 1 to the maximum; page with start_element_id.")
    if start_element_id:
        el = focus_block(resolve(session, start_element_id, "start_element_id"))
        if el.getparent() is not doc.body:
            raise InvalidPosition("start_element_id must be a block of the document body.",
                                  hint="Use the ID of a paragraph or table of the body (docx_get_structure).")
    else:
        el = next(B.iter_blocks(doc.body), None)
    lines, used = [], 0
    full = full_text or (bool(start_element_id) and max_elements == 1)
    first_index = doc.order(doc.body).index(el) if el is not None else 0
    while el is not None and len(lines) < max_elements and used < MAX_CHARS:
        doc.id_of(el)
        line = _line_for(doc, el, full)
        lines.append(line)
        used += len(line)
        el = B.next_block(el)
    total = len(doc.order(doc.body))
    fields = {"Session ID": session.id, "Range": f"{first_index + 1}-{first_index + len(lines)} of {total}"}
    if el is not None:
        fields["Next Page"] = f"start_element_id={doc.id_of(el)}"
    content = "\n".join(lines) if lines else "(the body is empty)"
    return success_answer("Read Content", fields=fields, content=content)


def tree_lines(entries: list[tuple[int, str]]) -> list[str]:
    """Draw (depth, label) entries as a ├──/└── tree."""
    last = [True] * len(entries)
    following: set[int] = set()  # depths that have a later sibling
    for i in range(len(entries) - 1, -1, -1):
        d = entries[i][0]
        last[i] = d not in following
        following = {k for k in following if k < d} | {d}
    lines: list[str] = []
    open_levels: list[bool] = []
    for i, (d, label) in enumerate(entries):
        open_levels = open_levels[:d] + [False] * (d - len(open_levels))
        prefix = "".join("│   " if still_open else "    " for still_open in open_levels)
        lines.append(prefix + ("└── " if last[i] else "├── ") + label)
        open_levels.append(not last[i])
    return lines


def _depth_before(doc, el) -> int:
    """The tree depth blocks at ``el`` stand under: that of the last heading before it (-1: none)."""
    prev = B.prev_block(el) if el is not None else None
    while prev is not None:
        level = heading_level(doc, prev) if prev.tag == B.W_P else None
        if level:
            return level - 1
        prev = B.prev_block(prev)
    return -1


def _structure_page(doc, first, limit: int) -> tuple[list[tuple[int, str]], object]:
    """(depth, label) entries from block ``first`` on, at most about ``limit``, and the block the
    next page starts at (None at the end). Runs of paragraphs are one entry."""
    entries: list[tuple[int, str]] = []
    depth, pending, run_start = _depth_before(doc, first), 0, None
    el = first
    while el is not None:
        level = heading_level(doc, el) if el.tag == B.W_P else None
        if el.tag == B.W_P and not level:
            run_start = run_start if pending else el
            pending += 1
            el = B.next_block(el)
            continue
        if len(entries) + 1 + bool(pending) > limit and (entries or pending):
            if pending and len(entries) < limit:
                entries.append(_run(depth, pending))
                return entries, el
            return entries, run_start if pending else el
        if pending:
            entries.append(_run(depth, pending))
            pending = 0
        if level:
            depth = level - 1
            label = label_of(doc, el)
            text = f"{label} {B.paragraph_text(el)}" if label else B.paragraph_text(el)
            entries.append((depth, f"H{level} {cut(text, 70)} ({doc.id_of(el)})"))
        elif el.tag == B.W_TBL:
            grid = TableGrid(el)
            entries.append((depth + 1, f"Table {doc.id_of(el)} ({grid.n_rows}×{grid.n_cols})"))
        else:
            entries.append((depth + 1, f"{B.kind(el)} {doc.id_of(el)}"))
        el = B.next_block(el)
    if pending:
        entries.append(_run(depth, pending))
    return entries, None


def _run(depth: int, n: int) -> tuple[int, str]:
    return depth + 1, f"({n} paragraph{'s' if n > 1 else ''})"


@tool(read_only=True, idempotent=True, title="Get document structure")
def docx_get_structure(ctx: CallContext, session_id: str | None, start_element_id: str | None = None,
                       max_entries: int = TREE_PAGE) -> str:
    """The heading tree with levels and the blocks under them, with IDs, a page at a time.

    Args:
        start_element_id: First block (the previous Next Page).
        max_entries: Tree lines per page, 1-400.
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    if not 1 <= max_entries <= MAX_TREE_LINES:
        raise OoxmlError(f"max_entries must be between 1 and {MAX_TREE_LINES}, not {max_entries}.",
                         error_type="ValidationError", hint="Use 1 to the maximum; page with start_element_id.")
    first = _body_block(session, start_element_id) if start_element_id else next(B.iter_blocks(doc.body), None)
    entries, nxt = _structure_page(doc, first, max_entries)
    order = doc.order(doc.body)
    total = len(order)
    start = order.index(first) if first is not None else 0
    end = order.index(nxt) if nxt is not None else total
    head = "📄 Document" + (f" ({session.path.name})" if session.path else "")
    tree = ([head] if start == 0 else [f"📄 … from block {start + 1}"]) + tree_lines(entries)
    fields = {"Session ID": session.id, "Blocks": total, "Range": f"{start + 1}-{end} of {total}" if total else None}
    if nxt is not None:
        fields["Next Page"] = f"start_element_id={doc.id_of(nxt)}"
    fallback = fallback_formats(doc)
    if fallback:
        fields["List formats shown as decimal"] = ", ".join(fallback)
    return success_answer("Get Structure", fields=fields, content="```\n" + "\n".join(tree) + "\n```")


def _body_block(session, element_id: str):
    el = focus_block(resolve(session, element_id, "start_element_id"))
    if el.getparent() is not session.doc.body:
        raise InvalidPosition("start_element_id must be a block of the document body.",
                              hint="Use the 'Next Page' value of the last answer, or a block ID from it.")
    return el


@tool(read_only=True, idempotent=True, title="Find paragraphs")
def docx_find_paragraphs(ctx: CallContext, session_id: str | None, query: str) -> str:
    """Find paragraphs (tables too) containing query, case-insensitive; equations as LaTeX, charts by title and
    series."""
    session = session_of(ctx, session_id)
    doc = session.doc
    if not query:
        raise OoxmlError("query is empty.", hint="Pass some text to look for.", error_type="ValidationError")
    needle = query.casefold()
    found, total = [], 0
    for p in B.shown_paragraphs(doc.body):
        budget.check()
        text = _searched_text(doc, p)
        if needle in text.casefold():
            total += 1
            if len(found) < MAX_MATCHES:
                found.append(f"- {doc.id_of(p)}: {_snippet(text, needle)}")
    fields = {"Query": query, "Matches": total}
    if total > len(found):
        fields["Shown"] = f"first {len(found)}; refine the query to see others"
    content = "\n".join(found) if found else f"No paragraph contains '{query}'."
    return success_answer("Find Paragraphs", fields=fields, content=content)


def _searched_text(doc, p) -> str:
    """The runs, equations as LaTeX and charts' titles and series names (``[chart: …]``)."""
    charts = charts_text(doc, p)
    return f"{math_text.paragraph_text(p)} {charts}".lstrip() if charts else math_text.paragraph_text(p)


def _snippet(text: str, needle: str, span: int = 60) -> str:
    at = text.casefold().find(needle)
    start = max(0, at - span // 2)
    piece = text[start:start + span + len(needle)].replace("\n", " ↵ ").replace("\t", " ")
    return ("..." if start else "") + piece + ("..." if start + span + len(needle) < len(text) else "")


@tool(read_only=True, idempotent=True, title="Get context around an element")
def docx_get_context(ctx: CallContext, session_id: str | None, element_id: str | None = None) -> str:
    """Show about a page around an element (default: the cursor)."""
    session = session_of(ctx, session_id)
    if element_id:
        el = resolve(session, element_id)
    elif session.cursor.element_id:
        el = resolve(session, "cursor")
    else:
        return answer(session, "Get Context", None)
    return answer(session, "Get Context", el, marker="CURRENT")


@tool(read_only=True, idempotent=True, title="Get the cursor")
def docx_cursor_get(ctx: CallContext, session_id: str | None) -> str:
    """Where the cursor is, with context."""
    session = session_of(ctx, session_id)
    el = resolve(session, "cursor") if session.cursor.element_id else None
    return answer(session, "Cursor Get", el, marker="CURRENT" if el is not None else None)


# kind edit: later edits go by the cursor, so a batch may move it
@tool(idempotent=True, title="Move the cursor", kind="edit")
def docx_cursor_move(ctx: CallContext, session_id: str | None, element_id: str,
                     position: Literal["before", "after", "inside_start", "inside_end"] = "after") -> str:
    """Move the cursor to an element."""
    session = session_of(ctx, session_id)
    el = resolve(session, element_id)
    if position.startswith("inside") and el.tag != B.W_P and el.tag not in P.CONTAINERS:
        raise InvalidPosition(f"The cursor cannot go inside a {B.kind(el)}.",
                              hint="Use before or after for this element; inside works for paragraphs and cells.")
    session.cursor = Cursor(session.doc.id_of(el), position)
    return answer(session, "Cursor Move", el, marker="CURRENT", fields={"Position": position})
