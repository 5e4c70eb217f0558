"""Answer views (SPEC §11): full (default), compact (head, what changed, Changes), none (the head alone),
chosen per call, per session (docx_open/docx_create view=) and per server (config answers.view)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from mcp import Client
from PIL import Image

import server
from render.answer import CHANGES_HEADING, CONTEXT_HEADING
from tests.support.client import DocxClient, read_body, texts
from tests.support.corpus import require_corpus
from tools.config.loading import parse_config
from tools.builtin import builtin
from tools.services import Services

pytestmark = pytest.mark.anyio
CORPUS_DOC = "Open-XML-SDK__BackgroundReport_-_THE_WORKING_GROUP_ON_INTERNET_GOVERNANCE.docx"


async def every_editing_tool(docx: DocxClient, tmp_path: Path, view: str) -> dict[str, str]:
    """One call of every tool that answers with context, each with ``view``; answer text by tool."""
    Image.new("RGB", (20, 10), "red").save(tmp_path / "dot.png")
    out: dict[str, str] = {}

    async def ok(name, /, **args):
        a = await docx.ok(name, view=view, **args)
        out[name] = a.text
        return a.head.get("Element ID")

    await ok("docx_create")
    docx.session_id = re.search(r"\*\*Session ID\*\*: (\S+)", out["docx_create"]).group(1)
    h = await ok("docx_insert_heading", text="Title", level=1, position="end:document_body")
    p = await ok("docx_insert_paragraph", text="Alpha beta gamma", position=f"after:{h}")
    await ok("docx_insert_run", text=" delta", position=f"end:{p}")
    run = re.search(r"run_\w+", out["docx_insert_run"]).group(0)
    await ok("docx_update_run_text", element_id=run, new_text=" epsilon")
    await ok("docx_update_paragraph_text", element_id=p, new_text="Alpha beta gamma zeta")
    await ok("docx_insert_page_break", position=f"after:{p}")
    c = await ok("docx_copy_paragraph", element_id=p, position="end:document_body")
    await ok("docx_copy_elements_range", start_id=h, end_id=p, position="end:document_body")
    await ok("docx_replace_text", old_text="zeta", new_text="eta")
    await ok("docx_set_margins", top="2cm")
    await ok("docx_set_font", element_id=p, bold=True)
    await ok("docx_set_alignment", element_id=p, alignment="center")
    await ok("docx_set_properties", element_id=p, properties={"space_after": "6pt"})
    await ok("docx_format_copy", source_id=p, target_id=c)
    t = await ok("docx_insert_table", rows=3, cols=3, position="end:document_body")
    await ok("docx_insert_paragraph_to_cell", text="cell", table_id=t, row=0, col=0)
    await ok("docx_fill_table", table_id=t, data=[["a", "b", "c"]])
    await ok("docx_insert_row_at", table_id=t, position="end")
    await ok("docx_insert_col_at", table_id=t, position="end")
    await ok("docx_delete_row", table_id=t, row_index=3)
    await ok("docx_delete_col", table_id=t, col_index=3)
    await ok("docx_merge_cells", table_id=t, start_row=1, start_col=0, end_row=1, end_col=1)
    await ok("docx_copy_table", table_id=t, position="end:document_body")
    img = await ok("docx_insert_image", image_path=str(tmp_path / "dot.png"), position="end:document_body")
    await ok("docx_set_alt_text", element_id=img, text="A red dot")
    await ok("docx_cursor_move", element_id=p, position="after")
    await ok("docx_insert_markdown", markdown="# Md\n\nSome *text*.", position="end:document_body")
    await ok("docx_add_comment", element_id=p, text="Note")
    comment = re.search(r"comment_\w+", out["docx_add_comment"]).group(0)
    await ok("docx_reply_comment", comment_id=comment, text="Reply")
    await ok("docx_resolve_comment", comment_id=comment)
    await ok("docx_delete_comment", comment_id=comment)
    await ok("docx_insert_section_break", position=f"after:{c}")
    await ok("docx_set_page_setup", orientation="landscape")
    await ok("docx_create_header_footer", kind="footer", text="Footer")
    await ok("docx_insert_field", field="PAGE", position=f"end:{p}")
    await ok("docx_insert_hyperlink", text="link", url="https://example.com", position=f"end:{p}")
    await ok("docx_add_bookmark", name="mark", element_id=p)
    await ok("docx_insert_footnote", element_id=p, text="A note")
    await ok("docx_insert_toc", position="start:document_body", page_numbers=False)
    await ok("docx_update_toc", page_numbers=False)
    cap = await ok("docx_insert_caption", element_id=p, text="A figure")
    await ok("docx_insert_cross_reference", target_id=cap, position=f"end:{c}", kind="label_and_number")
    await ok("docx_insert_table_of_figures", position="start:document_body", page_numbers=False)
    await ok("docx_update_fields", kinds=["SEQ", "REF"])
    lst = await ok("docx_insert_list", items=["one", "two"], position="end:document_body", list_type="number")
    await ok("docx_set_list", element_id=c, list_type="bullet")
    await ok("docx_restart_numbering", element_id=lst, start=3)
    await ok("docx_apply_style", element_id=c, style="Quote")
    sdt = await ok("docx_insert_content_control", kind="text", position=f"end:{p}", tag="name")
    await ok("docx_set_content_control", control_id=sdt, value="Ada")
    section = await ok("docx_insert_content_control", kind="repeating_section", position="end:document_body",
                       tag="people")
    await ok("docx_add_repeating_item", control_id=section)
    await ok("docx_fill_template", data={"name": "Bo"})
    eq = await ok("docx_insert_equation", latex=r"x^2", position="end:document_body")
    await ok("docx_set_equation", element_id=eq, latex=r"\frac{a}{b}")
    chart = await ok("docx_insert_chart", kind="column", categories=["a", "b"],
                     series=[{"name": "S", "values": [1, 2]}], position="end:document_body")
    await ok("docx_update_chart", chart_id=chart, title="T")
    box = await ok("docx_insert_text_box", text="Boxed", position="end:document_body")
    await ok("docx_insert_paragraph", text="In the box", position=f"end:{box}")
    await docx.ok("docx_set_track_changes", enabled=True)
    await ok("docx_insert_paragraph", text="Tracked", position="end:document_body")
    await ok("docx_reject_revisions")
    await ok("docx_insert_paragraph", text="Tracked again", position="end:document_body")
    await ok("docx_accept_revisions")
    await ok("docx_delete", element_id=c)
    await ok("docx_batch", calls=[{"tool": "docx_insert_paragraph",
                                   "arguments": {"text": "In a batch", "position": "end:document_body"}}])
    await ok("docx_redact", text="Alpha")
    await ok("docx_scrub", categories=["properties"])
    await ok("docx_check", repair=True, title="Views")
    await docx.save(tmp_path / "views.docx")
    await ok("docx_open", file_path=str(tmp_path / "views.docx"))
    await ok("docx_compare", original_path=str(tmp_path / "views.docx"), revised_path=str(tmp_path / "views.docx"))
    return out


@pytest.mark.parametrize("view", ["compact", "none"])
async def test_every_editing_tool_answers_its_head_in_compact_and_none(docx, tmp_path, view):
    answers = await every_editing_tool(docx, tmp_path, view)
    assert set(answers) == {t.name for t in builtin().values() if t.answers_context}  # every one, no other
    for name, text in answers.items():  # each passed the validator in docx.ok; the head is there
        assert "**Status**: ✅ Success" in text and "**Operation**: " in text, name
        if view == "none":
            assert "## " not in text and "Cursor: " not in text, name
        else:
            assert "┌" not in text.partition(CONTEXT_HEADING)[2].partition("---")[0], name  # boxes on one line
            assert len(text.encode()) <= 2_500, f"{name}: {len(text.encode())} bytes"


async def test_compact_shows_what_the_call_made_and_its_changes(docx):
    await docx.create()
    a = await docx.ok("docx_insert_paragraph", text="First", position="end:document_body")
    b = await docx.ok("docx_insert_paragraph", text="Second " + "word " * 40, position="end:document_body",
                      view="compact")
    context = b.section("Document Context")
    assert context.strip().startswith(f"[Paragraph ({b.element_id}) ⭐ NEW] Second word")
    assert context.strip().endswith("...") and a.element_id not in context
    changes = b.section("Changes")
    assert f"+  [Paragraph ({b.element_id})]" in changes and f"   [Paragraph ({a.element_id})] First" in changes


async def test_session_default_and_per_call_view(docx, tmp_path):
    created = await docx.ok("docx_create", view="none")
    docx.session_id = created.head["Session ID"]  # the head is all a none answer has, and all it needs
    quiet = await docx.ok("docx_insert_paragraph", text="Quiet", position="end:document_body")
    assert quiet.element_id and CONTEXT_HEADING not in quiet.text and CHANGES_HEADING not in quiet.text
    loud = await docx.ok("docx_insert_paragraph", text="Loud", position="end:document_body", view="full")
    assert "┌" in loud.section("Document Context") and loud.cursor_line
    read = await docx.ok("docx_get_context", element_id=quiet.element_id)  # read tools always answer in full
    assert "┌" in read.section("Document Context")
    body = await docx.save(tmp_path / "quiet.docx")
    assert [texts(p) for p in body.iter("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}p")] == [
        "Quiet", "Loud"]


async def test_server_default_from_config(tmp_path):
    services = Services(roots=[tmp_path], config=parse_config({"answers": {"view": "compact"}}, base_dir=tmp_path))
    async with Client(server.build_server(services), cache=None) as client:
        docx = DocxClient(client, [tmp_path], services)
        await docx.create()
        a = await docx.ok("docx_insert_paragraph", text="Compact", position="end:document_body")
        assert a.section("Document Context").strip().startswith(f"[Paragraph ({a.element_id}) ⭐ NEW]")
        full = await docx.ok("docx_insert_paragraph", text="Full", position="end:document_body", view="full")
        assert "┌" in full.section("Document Context")


def test_config_refuses_an_unknown_view(tmp_path):
    from tools.config.model import ConfigError
    with pytest.raises(ConfigError) as e:
        parse_config({"answers": {"view": "tiny"}}, base_dir=tmp_path)
    assert e.value.findings == ["answers.view: unknown view 'tiny' (known: full, compact, none)"]


async def corpus_script(docx: DocxClient, path: Path, view: str | None) -> list[tuple[str, int]]:
    """22 calls: open, structure, find, 10 inserts, 5 updates, a tracked insert, a comment, save."""
    sizes: list[tuple[str, int]] = []

    async def call(name, **args):
        a = await docx.ok(name, **args)
        sizes.append((name, len(a.text.encode())))
        return a
    await call("docx_open", file_path=str(path), **({"view": view} if view else {}))
    await call("docx_get_structure")
    found = await call("docx_find_paragraphs", query="governance")
    target = re.findall(r"para_\w+", found.text)[2]
    for i in range(10):
        await call("docx_insert_paragraph", text=f"Inserted paragraph {i}: the working group's findings on "
                   "access, security and development.", position=f"after:{target}" if i == 0 else "after:last_insert")
    for i in range(5):
        await call("docx_update_paragraph_text", element_id="last_insert" if i == 0 else "last_update",
                   new_text=f"Updated text {i}")
    await call("docx_set_track_changes", enabled=True)
    await call("docx_insert_paragraph", text="A tracked insertion.", position="after:last_insert")
    await call("docx_add_comment", element_id="last_insert", text="Please check this.")
    await call("docx_save", file_path=str(path.with_name(f"saved-{view}.docx")))
    return sizes


async def test_compact_pays_under_a_third_on_a_corpus_script(tmp_path):
    corpus = require_corpus()
    path = tmp_path / "report.docx"
    shutil.copy(corpus / CORPUS_DOC, path)
    results = {}
    for view in (None, "compact"):
        async with Client(server.build_server(Services(roots=[tmp_path])), cache=None) as client:
            results[view] = await corpus_script(DocxClient(client, [tmp_path]), path, view)
    full, compact = sum(n for _, n in results[None]), sum(n for _, n in results["compact"])
    edits = [n for name, n in results["compact"] if name.startswith(("docx_insert", "docx_update", "docx_add"))]
    print(f"\n22-call corpus script: full {full} bytes, compact {compact} bytes ({compact / full:.0%}); "
          f"compact editing answers {min(edits)}-{max(edits)} bytes")
    assert len(results["compact"]) == 22
    assert max(edits) <= 1536 and compact <= 0.30 * full
    saved = read_body(path.with_name("saved-compact.docx"))
    assert "A tracked insertion." in "".join(texts(p) for p in saved.iter(
        "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}p"))
