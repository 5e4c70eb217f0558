"""Prompts for the common jobs: short guides naming the tools in the order an agent uses them.

Tool names are SPEC's (§7, §11): docx_compare and docx_fill_template are in the review and forms
toolsets; a tool not listed can still be called.
"""
from __future__ import annotations

from dataclasses import dataclass

import mcp_types as types
from mcp.shared.exceptions import MCPError


@dataclass(frozen=True)
class Guide:
    name: str
    title: str
    description: str
    arguments: tuple[tuple[str, str, bool], ...]  # (name, description, required)
    text: str


GUIDES = {g.name: g for g in (
    Guide("review_with_comments", "Review a document with comments",
          "Read a document and leave review comments on the passages that need work.",
          (("file_path", "The .docx to review", True), ("focus", "What to look for (default: clarity and errors)", False)),
          "Review {file_path} for {focus}.\n"
          "1. docx_open file_path={file_path}.\n"
          "2. docx_get_structure for the outline, then docx_read_content page by page (docx_find_paragraphs to jump).\n"
          "3. For each problem: docx_add_comment on the paragraph's ID (element_id), saying what is wrong and a fix; "
          "docx_reply_comment to answer existing ones (docx_list_comments).\n"
          "4. Leave the text itself unchanged. docx_save to a new file_path, e.g. the name with '-reviewed'."),
    Guide("redline_versions", "Redline two versions",
          "Show what changed between two versions of a document as tracked changes.",
          (("original_path", "The earlier .docx", True), ("revised_path", "The later .docx", True)),
          "Redline {original_path} against {revised_path}.\n"
          "1. docx_compare original_path={original_path} revised_path={revised_path} (review toolset): its answer "
          "opens a session holding the redline.\n"
          "2. docx_list_revisions to summarise the changes; docx_render_page to look at a page.\n"
          "3. docx_save to a new file_path, e.g. the revised name with '-redline'."),
    Guide("fill_template", "Fill a template",
          "Fill a template's content controls and {{placeholders}} from data.",
          (("file_path", "The template .docx", True), ("data", "The values, as JSON or prose", True)),
          "Fill the template {file_path} with: {data}\n"
          "1. docx_open file_path={file_path}.\n"
          "2. docx_list_content_controls (forms toolset) and docx_find_paragraphs query='{{{{' to see what it asks for.\n"
          "3. docx_fill_template data={{...}} with a JSON object keyed by tag, alias or placeholder name; arrays "
          "repeat sections or table rows. Check what the answer lists as unfilled or unused.\n"
          "4. docx_save to a new file_path, keeping the template unchanged."),
    Guide("tidy_formatting", "Tidy formatting",
          "Make headings, body text and lists consistent by using styles instead of direct formatting.",
          (("file_path", "The .docx to tidy", True),),
          "Tidy the formatting of {file_path}.\n"
          "1. docx_open file_path={file_path}; docx_get_structure and docx_list_styles.\n"
          "2. Paragraphs that look like headings but are not: docx_apply_style (Heading 1-3). Body text: one "
          "body style; docx_modify_style rather than docx_set_font on each paragraph.\n"
          "3. Lists: docx_set_list; restart numbering with docx_restart_numbering where a list starts anew.\n"
          "4. Run the edits as one step with docx_batch; docx_render_page to check a page; docx_save."),
)}


def listed() -> types.ListPromptsResult:
    return types.ListPromptsResult(prompts=[
        types.Prompt(name=g.name, title=g.title, description=g.description,
                     arguments=[types.PromptArgument(name=n, description=d, required=r) for n, d, r in g.arguments])
        for g in GUIDES.values()])


def get(params: types.GetPromptRequestParams) -> types.GetPromptResult:
    guide = GUIDES.get(params.name)
    if guide is None:
        raise MCPError(types.INVALID_PARAMS, f"No prompt named '{params.name[:80]}'",
                       {"hint": f"Prompts: {', '.join(GUIDES)}."})
    given = dict(params.arguments or {})
    missing = [n for n, _, required in guide.arguments if required and not given.get(n)]
    if missing:
        raise MCPError(types.INVALID_PARAMS, f"Prompt '{guide.name}' needs {', '.join(missing)}",
                       {"hint": "Pass them as the prompt's arguments."})
    values = {n: given.get(n) or "clarity, errors and consistency" for n, _, _ in guide.arguments}
    return types.GetPromptResult(description=guide.description, messages=[
        types.PromptMessage(role="user", content=types.TextContent(type="text", text=guide.text.format(**values)))])
