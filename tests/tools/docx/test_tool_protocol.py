"""The edit protocol, over every registered tool that changes a document.

Each editing tool has a recipe here (a registered editing tool without one fails
``test_every_editing_tool_has_a_recipe``, so a new tool is covered as soon as it exists). On the
report fixture with Track Changes on, each recipe's call must:

- leave revisions in the document, or say in its answer ``Tracked: no: …`` why Word records none;
- answer with the head (Status, Operation), the Document Context and the Changes;
- be undone by one ``docx_undo`` back to the very bytes of every part.

One in-process server and one session: each call is undone before the next recipe runs.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from tests.support.client import open_direct
from tests.support.registered import editing_tools

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = ROOT / "fixtures" / "report.docx"
AUTHOR = "Protocol"
REVISION_TAGS = {"ins", "del", "moveFrom", "moveTo", "rPrChange", "pPrChange", "sectPrChange", "tblPrChange",
                 "trPrChange", "tcPrChange", "tblGridChange", "cellIns", "cellDel", "cellMerge", "numberingChange"}

# Registered tools that change no document content, or that move through the history themselves.
NOT_EDITS = {
    "docx_open": "opens", "docx_create": "makes a new document", "docx_close": "ends a session",
    "docx_save": "writes a file, not the document", "docx_export_markdown": "reads the document",
    "docx_cursor_move": "moves the cursor", "docx_undo": "moves through the history",
    "docx_redo": "moves through the history", "docx_toolsets": "changes what tools/list offers",
}

# tool -> (setup calls, the call). A setup call is (tool, arguments from the targets, name to keep its
# answer's element_id under). Targets: P, P2 paragraphs, H a heading, T the merged table, CELL_T the
# nested table, INS the paragraph holding a tracked insertion.
Recipe = tuple[list, object]
LIST = ("docx_insert_list", lambda t: dict(items=["one", "two"], position=f"after:{t['P2']}"), "L")
COMMENT = ("docx_add_comment", lambda t: dict(element_id=t["P"], text="Note", anchor_text="bold"), "C")
CONTROL = ("docx_insert_content_control", lambda t: dict(kind="text", position=f"after:{t['P2']}", tag="Tag",
                                                         value="Value"), "CC")
CHART = ("docx_insert_chart", lambda t: dict(kind="column", categories=["a", "b"], position=f"after:{t['P2']}",
                                             series=[{"name": "S", "values": [1, 2]}]), "CH")
TOC = ("docx_insert_toc", lambda t: dict(position=f"before:{t['H']}", page_numbers=False), "TOC")
CAPTION = ("docx_insert_caption", lambda t: dict(element_id=t["T"], text="Figures", label="Table"), "CAP")
RECIPES: dict[str, Recipe] = {
    "docx_insert_paragraph": ([], lambda t: dict(text="New words", position=f"after:{t['P']}")),
    "docx_insert_heading": ([], lambda t: dict(text="New heading", level=2, position=f"after:{t['P']}")),
    "docx_insert_page_break": ([], lambda t: dict(position=f"after:{t['P']}")),
    "docx_copy_paragraph": ([], lambda t: dict(element_id=t["P"], position=f"after:{t['P2']}")),
    "docx_update_paragraph_text": ([], lambda t: dict(element_id=t["P2"], new_text="A changed paragraph")),
    "docx_insert_run": ([], lambda t: dict(text=" more", position=f"end:{t['P']}")),
    "docx_update_run_text": ([("docx_insert_run", lambda t: dict(text=" more", position=f"end:{t['P2']}"), "R")],
                             lambda t: dict(element_id=t["R"], new_text=" less")),
    "docx_delete": ([], lambda t: dict(element_id=t["P2"])),
    "docx_copy_elements_range": ([], lambda t: dict(start_id=t["P"], end_id=t["P2"], position=f"after:{t['END']}")),
    "docx_replace_text": ([], lambda t: dict(old_text="plain", new_text="simple")),
    "docx_set_margins": ([], lambda t: dict(top="2cm")),
    "docx_add_comment": ([], lambda t: dict(element_id=t["P"], text="Note", anchor_text="bold")),
    "docx_reply_comment": ([COMMENT], lambda t: dict(comment_id=t["C"], text="Reply")),
    "docx_resolve_comment": ([COMMENT], lambda t: dict(comment_id=t["C"])),
    "docx_delete_comment": ([COMMENT], lambda t: dict(comment_id=t["C"])),
    "docx_set_font": ([], lambda t: dict(element_id=t["P"], italic=True)),
    "docx_set_alignment": ([], lambda t: dict(element_id=t["P2"], alignment="center")),
    "docx_set_properties": ([], lambda t: dict(element_id=t["P"], properties={"space_after": "6pt"})),
    "docx_format_copy": ([], lambda t: dict(source_id=t["H"], target_id=t["P2"])),
    "docx_insert_content_control": ([], lambda t: dict(kind="text", position=f"after:{t['P2']}", tag="Tag",
                                                       value="Value")),
    "docx_insert_chart": ([], CHART[1]),
    "docx_update_chart": ([CHART], lambda t: dict(chart_id=t["CH"], series=[{"name": "T", "values": [3, 4]}],
                                                  title="New")),
    "docx_set_content_control": ([CONTROL], lambda t: dict(control_id=t["CC"], value="Other")),
    "docx_add_repeating_item": ([("docx_insert_content_control", lambda t: dict(
        kind="repeating_section", element_id=t["P2"], tag="Items"), "RS")], lambda t: dict(control_id=t["RS"])),
    "docx_fill_template": ([CONTROL], lambda t: dict(data={"Tag": "Filled"})),
    "docx_insert_image": ([], lambda t: dict(image_path=t["image"], position=f"after:{t['P']}", width="2cm")),
    "docx_insert_section_break": ([], lambda t: dict(position=f"after:{t['P2']}", kind="next_page")),
    "docx_set_page_setup": ([], lambda t: dict(orientation="landscape")),
    "docx_create_header_footer": ([], lambda t: dict(kind="header", which="default", text="Head")),
    "docx_insert_field": ([], lambda t: dict(field="PAGE", position=f"end:{t['P2']}")),
    "docx_insert_hyperlink": ([], lambda t: dict(text="Link", url="https://example.com/", position=f"end:{t['P2']}")),
    "docx_add_bookmark": ([], lambda t: dict(name="Mark", element_id=t["P2"])),
    "docx_insert_footnote": ([], lambda t: dict(element_id=t["P"], text="A note", anchor_text="bold")),
    "docx_insert_toc": ([], lambda t: dict(position=f"before:{t['H']}", page_numbers=False)),
    "docx_update_toc": ([TOC], lambda t: dict(toc_id=t["TOC"], page_numbers=False)),
    "docx_insert_caption": ([("docx_set_list", lambda t: dict(element_id=t["H"], list_type="number"), "X")],
                            lambda t: dict(element_id=t["T"], text="Figures", label="Table", position="before",
                                           chapter=2)),
    "docx_insert_cross_reference": ([CAPTION], lambda t: dict(target_id=t["CAP"], position=f"end:{t['P2']}",
                                                              kind="label_and_number")),
    # a heading's text changed after a reference to it: the REF's result is stale (caption numbers
    # are kept right by every edit, tests/tools/docx/test_caption_numbers.py)
    "docx_update_fields": ([("docx_insert_cross_reference", lambda t: dict(target_id=t["H"], position=f"end:{t['P']}",
                                                                           kind="text"), "X"),
                            ("docx_update_paragraph_text", lambda t: dict(element_id=t["H"], new_text="Figures now"),
                             "H2")],
                           lambda t: dict(kinds=["REF"])),
    "docx_insert_table_of_figures": ([CAPTION], lambda t: dict(position=f"before:{t['H']}", label="Table")),
    "docx_set_list": ([], lambda t: dict(element_id=t["P2"], list_type="bullet")),
    "docx_insert_list": ([], lambda t: dict(items=["one", "two"], position=f"after:{t['P2']}")),
    "docx_restart_numbering": ([LIST], lambda t: dict(element_id=t["L"], start=3)),
    "docx_insert_markdown": ([], lambda t: dict(markdown="Some *new* text.\n\n- one\n", position=f"after:{t['P2']}")),
    "docx_redact": ([], lambda t: dict(text="plain")),
    "docx_scrub": ([], lambda t: dict(categories=["properties"])),
    "docx_check": ([], lambda t: dict(repair=True, title="Protocol report")),
    "docx_set_track_changes": ([], lambda t: dict(enabled=False)),
    "docx_accept_revisions": ([], lambda t: dict()),
    "docx_reject_revisions": ([], lambda t: dict()),
    "docx_create_style": ([], lambda t: dict(name="Fresh", style_type="paragraph", properties={"italic": True})),
    "docx_modify_style": ([], lambda t: dict(name="Heading 2", properties={"bold": False})),
    "docx_apply_style": ([], lambda t: dict(element_id=t["P2"], style="Heading 2")),
    "docx_insert_table": ([], lambda t: dict(rows=2, cols=2, position=f"after:{t['P2']}", data=[["a", "b"]])),
    "docx_copy_table": ([], lambda t: dict(table_id=t["T"], position=f"after:{t['P2']}")),
    "docx_insert_paragraph_to_cell": ([], lambda t: dict(text="In a cell", table_id=t["T"], row=2, col=1)),
    "docx_fill_table": ([], lambda t: dict(table_id=t["T"], data=[["x"], [], ["South", "1", "2"]])),
    "docx_insert_row_at": ([], lambda t: dict(table_id=t["T"], position="end")),
    "docx_insert_col_at": ([], lambda t: dict(table_id=t["T"], position="end")),
    "docx_delete_row": ([], lambda t: dict(table_id=t["T"], row_index=2)),
    "docx_delete_col": ([], lambda t: dict(table_id=t["T"], col_index=2)),
    "docx_merge_cells": ([], lambda t: dict(table_id=t["T"], start_row=2, start_col=1, end_row=2, end_col=2)),
    # docx_delete of the kinds that delete their own way (tools/docx/protocol.py DELETERS)
    "docx_delete#field": ([("docx_insert_field", lambda t: dict(field="PAGE", position=f"end:{t['P2']}"), "F")],
                          lambda t: dict(element_id=t["F"])),
    "docx_delete#note": ([("docx_insert_footnote", lambda t: dict(element_id=t["P2"], text="A note"), "N")],
                         lambda t: dict(element_id=t["N"])),
    "docx_delete#link": ([("docx_insert_hyperlink", lambda t: dict(text="Link", url="https://example.com/",
                                                                   position=f"end:{t['P2']}"), "LK")],
                         lambda t: dict(element_id=t["LK"])),
    "docx_delete#bookmark": ([("docx_add_bookmark", lambda t: dict(name="Mark", element_id=t["P2"]), "BM")],
                             lambda t: dict(element_id=t["BM"])),
    "docx_delete#section": ([("docx_insert_section_break", lambda t: dict(position=f"after:{t['P2']}"), "SB")],
                            lambda t: dict(element_id=t["SB"])),
    "docx_delete#header": ([("docx_create_header_footer", lambda t: dict(kind="header", text="Head"), "HF")],
                           lambda t: dict(element_id=t["HF"])),
    "docx_delete#chart": ([CHART], lambda t: dict(element_id=t["CH"])),
    "docx_delete#run": ([("docx_insert_run", lambda t: dict(text=" more", position=f"end:{t['P2']}"), "R")],
                        lambda t: dict(element_id=t["R"])),
    "docx_insert_equation": ([], lambda t: dict(latex=r"\frac{a}{b}", position=f"after:{t['P']}")),
    "docx_insert_equation#inline": ([], lambda t: dict(latex="x^2", position=f"end:{t['P']}", display=False)),
    "docx_set_equation": ([("docx_insert_equation", lambda t: dict(latex="x", position=f"after:{t['P2']}"), "EQ")],
                          lambda t: dict(element_id=t["EQ"], latex=r"\sqrt{y}")),
    "docx_set_alt_text": ([], lambda t: dict(element_id=t["T"], text="Figures by region")),
    "docx_set_alt_text#image": ([("docx_insert_image", lambda t: dict(image_path=t["image"], position=f"after:{t['P']}"),
                                  "IMG")], lambda t: dict(element_id=t["IMG"], text="", decorative=True)),
    "docx_insert_text_box": ([], lambda t: dict(position=f"after:{t['P']}", text="Boxed\nText", width="4cm")),
    "docx_insert_text_box#inline": ([], lambda t: dict(position=f"end:{t['P2']}", text="Aside")),
    "docx_delete#text_box": ([("docx_insert_text_box", lambda t: dict(position=f"after:{t['P']}", text="Box"), "TB")],
                             lambda t: dict(element_id=t["TB"])),
    "docx_batch": ([], lambda t: dict(calls=[
        {"tool": "docx_insert_paragraph", "arguments": {"text": "Batched", "position": f"after:{t['P']}"}},
        {"tool": "docx_set_font", "arguments": {"element_id": "last_insert", "bold": True}}])),
}

# What a tool's answer may lack, with why (the protocol answers with all three otherwise).
NO_CONTEXT = {
    "docx_set_track_changes": "a mode, not an edit of the text",
    "docx_accept_revisions": "lists what it accepted", "docx_reject_revisions": "lists what it rejected",
    "docx_create_style": "a style, not text", "docx_modify_style": "a style, not text",
    "docx_scrub": "lists what it removed", "docx_redact": "lists what it replaced",
    "docx_check": "lists what it repaired",
    "docx_fill_template": "lists what it filled", "docx_set_margins": "page layout",
    "docx_set_page_setup": "page layout", "docx_batch": "answers per call",
}
# Tools whose call is about revisions or tracking itself: no new revision is expected of them.
NOT_TRACKABLE = {
    "docx_set_track_changes": "turns tracking itself off",
    "docx_accept_revisions": "accepting makes revisions final",
    "docx_reject_revisions": "rejecting makes revisions final",
}

# Tools that refuse to run while tracking (Word has no revision for what they do); the refusal says so.
REFUSED_TRACKED = {"docx_insert_col_at", "docx_delete_col", "docx_merge_cells"}
UNTRACKABLE = r"cannot be recorded as a tracked change"


def _editing_tools() -> set[str]:
    return editing_tools() - set(NOT_EDITS)


def _tool(recipe: str) -> str:
    """``docx_delete#field``: a second recipe of docx_delete, for one kind it deletes."""
    return recipe.split("#")[0]


def test_every_editing_tool_has_a_recipe():
    missing = sorted(_editing_tools() - {_tool(name) for name in RECIPES})
    assert not missing, f"editing tools without a recipe in tests/tools/docx/test_tool_protocol.py: {missing}"


def _targets(listing: str) -> dict:
    ids = re.findall(r"^\[[^\]]*?\((\w+_[0-9a-f]+)\)[^\]]*\] ?(.*)$", listing, re.M)
    by_text = {text: eid for eid, text in ids}
    return {"P": by_text["Intro with a **bold** word."], "P2": by_text["A plain paragraph"],
            "H": by_text["Figures"], "T": [e for e, x in ids if x.startswith("first row: Region")][0],
            "END": by_text["The end."]}


def _parts(session) -> dict[str, bytes]:
    return {name: part.data for name, part in session.doc.package.parts.items()}


def _revisions(session) -> list[bytes]:
    """Every revision mark with its content: a tracked edit adds one or changes one (our own insertion
    edited again stays one insertion)."""
    marks = []
    for part in session.doc.package.parts.values():
        if part.loaded:
            marks += [etree.tostring(el) for el in part.tree.iter() if isinstance(el.tag, str)
                      and el.tag.startswith("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}")
                      and etree.QName(el).localname in REVISION_TAGS]
    return marks


def _problems(name: str, answer, before: list, after: list) -> list[str]:
    out = []
    head = answer.head
    if head.get("Status", "").find("Success") < 0 or not head.get("Operation"):
        out.append("no success head")
    if name not in NO_CONTEXT and not name.endswith("#header"):  # a header's removal: no body context
        if "## 📄 Document Context" not in answer.text:
            out.append("no Document Context")
        if "## 🔄 Changes" not in answer.text:
            out.append("no Changes")
    if name not in NOT_TRACKABLE and after == before and not head.get("Tracked", "").startswith("no:"):
        out.append(f"tracked: no revision left and no 'Tracked: no: …' (Tracked: {head.get('Tracked')!r})")
    return out


@pytest.mark.anyio
async def test_every_editing_tool_tracks_answers_and_undoes(tmp_path):
    from PIL import Image
    image = tmp_path / "picture.png"
    Image.new("RGB", (60, 30), (30, 120, 200)).save(image)
    failures: dict[str, list[str]] = {}
    async with open_direct([FIXTURE.parent, tmp_path], check_answers=True) as docx:
        await docx.open(FIXTURE)
        sid = docx.session_id
        session = docx.services.sessions.get(None, sid)
        t = _targets((await docx.ok("docx_read_content", session_id=sid)).text)
        t["image"] = str(image)
        await docx.ok("docx_set_track_changes", session_id=sid, enabled=True, author=AUTHOR)
        for name in sorted(RECIPES):
            setup, call = RECIPES[name]
            for tool, args, keep in setup:
                t[keep] = (await docx.ok(tool, session_id=sid, **args(t))).element_id
            parts, before = _parts(session), _revisions(session)
            answer = await docx.call(_tool(name), session_id=sid, **call(t))
            if answer.is_error:
                if name not in REFUSED_TRACKED or not re.search(UNTRACKABLE, answer.text):
                    failures[name] = [f"refused: {answer.text[:600]}"]
                elif _parts(session) != parts:
                    failures[name] = ["a refused call changed the document"]
            else:
                problems = _problems(name, answer, before, _revisions(session))
                await docx.ok("docx_undo", session_id=sid)
                changed = sorted(n for n in set(parts) | set(_parts(session))
                                 if parts.get(n) != _parts(session).get(n))
                if changed:
                    problems.append(f"undo left parts changed: {changed}")
                if problems:
                    failures[name] = problems
            for _ in setup:
                await docx.ok("docx_undo", session_id=sid)
            if name == "docx_set_track_changes" and session.doc.tracker is None:
                await docx.ok("docx_set_track_changes", session_id=sid, enabled=True, author=AUTHOR)
    assert not failures, "\n".join(f"{n}: {'; '.join(p)}" for n, p in sorted(failures.items()))


def test_an_argument_typed_optional_may_be_left_out():
    """session_id is optional because it is typed ``str | None`` (SPEC §2), not by its name: any such
    argument is left out of ``required`` and arrives as None."""
    from tools.runtime.call.registry import Tool, _positional_optional, schema_from_signature, unset_arguments

    def fn(ctx, session_id: str | None, text: str, other: str | None, named: str = "x"):
        return None

    schema = schema_from_signature(fn, {})
    assert schema["required"] == ["text"]
    tool = Tool("t", "", schema, fn, positional_optional=_positional_optional(fn))
    arguments = {"text": "a"}
    unset_arguments(tool, arguments)
    assert arguments == {"text": "a", "session_id": None, "other": None}


@pytest.mark.anyio
async def test_the_protocol_refuses_a_change_it_was_not_told_of_without_the_test_flag(tmp_path, monkeypatch):
    """OOXML_MCP_CHECK_UNDO is a test flag; the protocol's own check is not: an element reported changed
    (``e.changed``) that nobody announced fails the call instead of leaving an edit undo cannot put back."""
    from ooxml.text import body as B
    from tools.docx.protocol import Edit
    from tools.runtime.call import history
    from tools.runtime.sessions.lifetime import release_all
    from tools.runtime.call.registry import CallContext

    async with open_direct([FIXTURE.parent]) as docx:
        await docx.open(FIXTURE)
        session = docx.services.sessions.get(None, docx.session_id)
        session.doc.history.check = False  # as outside the tests
        ctx = CallContext(None, docx.services)
        with pytest.raises(AssertionError, match="without doc.will_change"):
            with Edit(ctx, docx.session_id, "Sneaky Edit") as e:
                p = next(B.iter_blocks(e.doc.body))
                p.set("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}rsidR", "00AB12CD")
                e.changed(p)
                e.done(p)
        history.abandon(ctx)
        release_all(ctx)
