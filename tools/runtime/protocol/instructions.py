"""The server's instructions: the conventions every tool shares, said once (tool descriptions and
listed schemas leave them out: tests/tools/runtime/test_tool_lists.py)."""
from __future__ import annotations

from tools.runtime.call import toolsets

TEMPLATE = """\
Edit .docx files: docx_open (or docx_create) gives a Session ID; edit with the element IDs each answer shows; docx_save.
- session_id may be left out while one session is open.
- IDs: para_, run_, table_, row_, cell_, img_, sdt_, note_, comment_, hdr_, ftr_, sect_, link_, bkm_, toc_ ... Text after the ID is ignored.
- Special IDs work wherever an ID does: last_insert, last_update, cursor.
- position is MODE:TARGET; MODE before, after, start, end (inside = end); TARGET an ID, a special ID or document_body. Examples: after:para_3f9a2c, end:document_body, end:cell_81ab2c.
- Lengths: a number of inches or '2.54cm', '25mm', '1in', '72pt'. Row, column and list indexes are 0-based.
- section_id: a sect_… from docx_list_sections (left out: every section; a header or footer's: the first). scope_id: only inside that element. author: default the server's --author, else the config's, else ooxml-mcp. Paths: absolute or relative to the first root; docx_* tools read and write only there and reach no network. Optional arguments left out change nothing; a boolean left out is false unless its default says true.
- Answers: a head of **Key**: value lines, then context, Changes and the cursor. view (on editing tools, or as the session's default on docx_open/docx_create): full (a page of context), compact (what changed), none (the head alone).
- properties (docx_set_properties, styles): paragraph: alignment, space_before, space_after, left_indent, right_indent, first_line_indent (negative: hanging), line_spacing (1.5: multiple; '14pt': at least), keep_with_next, keep_together, page_break_before, widow_control; run: bold, italic, underline, size, color_hex, font_name, east_asian_font, strike, highlight, all_caps, small_caps, superscript, subscript.
- list_type: bullet, number, lower_letter, upper_letter, lower_roman or upper_roman.
- Charts (chart_…): kind column, bar, line, pie, area or scatter; series [{{"name", "values"}}], a value per category.
- docx_batch runs many edits as one step; docx_toolsets lists more tools (toolsets: {toolsets}); a tool not listed can still be called."""


def text() -> str:
    return TEMPLATE.format(toolsets=", ".join(toolsets.names()))
