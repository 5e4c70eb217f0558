"""docx_changes (issue 34): what a session changed since open or since a history step, through the
MCP client; before and after checked against the document's own text (docx_read_content, the saved file)."""
from __future__ import annotations

import json
import re

import pytest

from tests.builders import build_docx, p, tbl, tc
from tests.support.client import read_body, texts

pytestmark = pytest.mark.anyio
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def listed(answer) -> list[dict]:
    """The JSON document of a format="json" answer."""
    m = re.search(r"```json\n(.*)\n```", answer.text, re.S)
    assert m, answer.text
    return json.loads(m.group(1))["changes"]


async def start(docx, tmp_path):
    body = (p("Alpha stays as it is.") + p("Bravo gets new words.") + p("Charlie goes away.")
            + p("Delta gets bold.") + p("Echo moves to the end.")
            + tbl([[tc("<w:p><w:r><w:t>Cell one</w:t></w:r></w:p>"), tc("<w:p><w:r><w:t>Cell two</w:t></w:r></w:p>")]])
            + p("Foxtrot closes."))
    await docx.open(build_docx(tmp_path / "in.docx", body))
    listing = (await docx.ok("docx_read_content", session_id=docx.session_id)).text
    ids = dict((text.split()[0], eid) for eid, text in re.findall(r"^\[[^\]]*?\((\w+_[0-9a-f]+)\)[^\]]*\] ?(.*)$",
                                                                 listing, re.M))
    ids["table"] = re.search(r"Table \((table_\w+)\)", listing).group(1)
    return ids


async def edit_everything(docx, ids) -> dict:
    """One edit of every kind; what each should list."""
    sid = docx.session_id
    new = (await docx.ok("docx_insert_paragraph", text="Golf is new.", position=f"after:{ids['Alpha']}",
                         session_id=sid)).element_id
    await docx.ok("docx_update_paragraph_text", element_id=ids["Bravo"], new_text="Bravo got other words.",
                  session_id=sid)
    await docx.ok("docx_delete", element_id=ids["Charlie"], session_id=sid)
    await docx.ok("docx_set_font", element_id=ids["Delta"], bold=True, session_id=sid)
    moved = (await docx.ok("docx_copy_paragraph", element_id=ids["Echo"], position="end:document_body",
                           session_id=sid)).element_id
    await docx.ok("docx_delete", element_id=ids["Echo"], session_id=sid)
    await docx.ok("docx_fill_table", table_id=ids["table"], data=[["Cell one", "Cell 2"]], session_id=sid)
    return {new: "inserted", ids["Bravo"]: "text", ids["Charlie"]: "deleted", ids["Delta"]: "formatting",
            moved: "moved", ids["table"]: "text"}


async def test_an_unedited_session_lists_nothing(docx, tmp_path):
    await start(docx, tmp_path)
    a = await docx.ok("docx_changes", session_id=docx.session_id)
    assert a.head["Changes"] == "0" and "Nothing changed." in a.text
    assert listed(await docx.ok("docx_changes", session_id=docx.session_id, format="json")) == []


async def test_every_kind_of_edit_is_listed_once_with_its_id(docx, tmp_path):
    ids = await start(docx, tmp_path)
    expected = await edit_everything(docx, ids)
    found = listed(await docx.ok("docx_changes", session_id=docx.session_id, format="json"))
    assert sorted(c["id"] for c in found) == sorted(expected)  # each once, nothing else
    assert {c["id"]: c["change"] for c in found} == expected


async def test_before_and_after_are_the_documents_text(docx, tmp_path):
    ids = await start(docx, tmp_path)
    await edit_everything(docx, ids)
    found = {c["id"]: c for c in listed(await docx.ok("docx_changes", session_id=docx.session_id, format="json"))}
    body = await docx.save(tmp_path / "out.docx")
    now = {el.get("{urn:ooxml-mcp:ids:2026}id"): el for el in body if el.get("{urn:ooxml-mcp:ids:2026}id")}
    for eid, c in found.items():
        if "after" in c:
            el = now[eid]
            shown = texts(el) if el.tag == f"{{{W}}}p" else "\n".join(
                "\t".join(texts(cell) for cell in row.iter(f"{{{W}}}tc")) for row in el.iter(f"{{{W}}}tr"))
            assert c["after"] == shown, eid
    assert found[ids["Bravo"]]["before"] == "Bravo gets new words."
    assert found[ids["Charlie"]]["before"] == "Charlie goes away." and "after" not in found[ids["Charlie"]]
    assert found[ids["table"]]["before"] == "Cell one\tCell two"
    moved = [c for c in found.values() if c["change"] == "moved"][0]
    assert moved["before"] == moved["after"] == "Echo moves to the end." and moved["from_id"] == ids["Echo"]


async def test_a_formatting_change_names_the_property(docx, tmp_path):
    ids = await start(docx, tmp_path)
    await docx.ok("docx_set_font", element_id=ids["Delta"], bold=True, session_id=docx.session_id)
    a = await docx.ok("docx_changes", session_id=docx.session_id)
    assert f'- formatting changed Paragraph ({ids["Delta"]}): "Delta gets bold."; formatting: run b: none -> on' \
        in a.text


async def test_markdown_and_json_list_the_same_changes(docx, tmp_path):
    ids = await start(docx, tmp_path)
    await edit_everything(docx, ids)
    md = await docx.ok("docx_changes", session_id=docx.session_id)
    found = listed(await docx.ok("docx_changes", session_id=docx.session_id, format="json"))
    lines = [line for line in md.section("Content").splitlines() if line.startswith("- ")]
    assert len(lines) == len(found) == int(md.head["Changes"])
    for line, c in zip(lines, found):
        assert line.startswith(f"- {c['change']}") and f"({c['id']})" in line


async def test_an_undone_edit_is_gone_and_a_redone_one_back(docx, tmp_path):
    ids = await start(docx, tmp_path)
    await docx.ok("docx_update_paragraph_text", element_id=ids["Bravo"], new_text="Bravo changed.",
                  session_id=docx.session_id)
    await docx.ok("docx_delete", element_id=ids["Charlie"], session_id=docx.session_id)
    await docx.ok("docx_undo", session_id=docx.session_id)
    found = listed(await docx.ok("docx_changes", session_id=docx.session_id, format="json"))
    assert [(c["id"], c["change"]) for c in found] == [(ids["Bravo"], "text")]
    await docx.ok("docx_redo", session_id=docx.session_id)
    found = listed(await docx.ok("docx_changes", session_id=docx.session_id, format="json"))
    assert [(c["id"], c["change"]) for c in found] == [(ids["Bravo"], "text"), (ids["Charlie"], "deleted")]


async def test_listing_changes_changes_nothing(docx, tmp_path):
    ids = await start(docx, tmp_path)
    await edit_everything(docx, ids)
    await docx.save(tmp_path / "before.docx")
    history = (await docx.ok("docx_get_history", session_id=docx.session_id)).text
    await docx.ok("docx_changes", session_id=docx.session_id)
    await docx.save(tmp_path / "after.docx")
    import zipfile
    with zipfile.ZipFile(tmp_path / "before.docx") as a, zipfile.ZipFile(tmp_path / "after.docx") as b:
        assert {n: a.read(n) for n in a.namelist()} == {n: b.read(n) for n in b.namelist()}
    assert (await docx.ok("docx_get_history", session_id=docx.session_id)).text == history
    undone = await docx.ok("docx_undo", session_id=docx.session_id, steps=7)
    assert undone.head["Undone"] == "7 step(s)"


async def test_since_a_step_lists_that_step_and_later_ones(docx, tmp_path):
    ids = await start(docx, tmp_path)
    await docx.ok("docx_update_paragraph_text", element_id=ids["Bravo"], new_text="Bravo changed.",
                  session_id=docx.session_id)
    await docx.ok("docx_delete", element_id=ids["Charlie"], session_id=docx.session_id)
    history = (await docx.ok("docx_get_history", session_id=docx.session_id)).text
    step = re.search(r"^- #(\d+) \S+ docx_delete\(", history, re.M).group(1)
    a = await docx.ok("docx_changes", session_id=docx.session_id, since=int(step), format="json")
    assert a.head["Since"] == f"step {step}"
    assert [(c["id"], c["change"]) for c in listed(a)] == [(ids["Charlie"], "deleted")]


async def test_a_step_that_is_not_in_the_history_is_refused(docx, tmp_path):
    ids = await start(docx, tmp_path)
    await docx.ok("docx_delete", element_id=ids["Charlie"], session_id=docx.session_id)
    a = await docx.call("docx_changes", session_id=docx.session_id, since="3")
    assert a.is_error and a.error_type == "ValidationError" and "docx_get_history" in a.head["Hint"]


async def test_json_comes_as_structured_content_too(tmp_path):
    from mcp import Client
    from tests.tools.runtime.test_protocol_structured import structured_services
    import server
    build_docx(tmp_path / "in.docx", p("One.") + p("Two."))
    async with Client(server.build_server(structured_services(tmp_path)), cache=None) as client:
        opened = await client.call_tool("docx_open", {"file_path": str(tmp_path / "in.docx")})
        sid = opened.structured_content["sessionId"]
        await client.call_tool("docx_insert_paragraph", {"session_id": sid, "text": "Three.",
                                                         "position": "end:document_body"})
        a = await client.call_tool("docx_changes", {"session_id": sid, "format": "json"})
    data = a.structured_content["data"]
    assert data == json.loads(re.search(r"```json\n(.*)\n```", a.content[0].text, re.S).group(1))
    assert [(c["change"], c["after"]) for c in data["changes"]] == [("inserted", "Three.")]


async def test_notes_headers_comments_sections_and_styles_are_listed_where_they_are(docx, tmp_path):
    ids = await start(docx, tmp_path)
    sid = docx.session_id
    note = (await docx.ok("docx_insert_footnote", element_id=ids["Alpha"], text="A note", session_id=sid)).element_id
    await docx.ok("docx_create_header_footer", kind="header", text="Head", session_id=sid)
    await docx.ok("docx_set_margins", top="2cm", session_id=sid)
    await docx.ok("docx_modify_style", name="Normal", properties={"italic": True}, session_id=sid)
    found = listed(await docx.ok("docx_changes", session_id=sid, format="json"))
    by_id = {c["id"]: c for c in found if c["id"]}
    assert by_id[ids["Alpha"]]["change"] == "content" and by_id[ids["Alpha"]]["inline"] == ["+1 footnote"]
    assert by_id[note]["change"] == "inserted" and by_id[note]["part"] == "word/footnotes.xml"
    header = [c for c in found if c.get("part", "").startswith("word/header")]
    assert [(c["change"], c["after"]) for c in header] == [("inserted", "Head")]
    section = [c for c in found if c["kind"] == "Section"]
    assert len(section) == 1 and any(f.startswith("section pgMar:") and "top=1134" in f
                                     for f in section[0]["formatting"])
    assert {"change": "changed", "kind": "Part", "id": None, "part": "word/styles.xml", "after": "styles"} in found


async def test_steps_dropped_by_the_history_limit_are_said_not_listed(docx, tmp_path, monkeypatch):
    monkeypatch.setenv("OOXML_MCP_UNDO_STEPS", "2")
    ids = await start(docx, tmp_path)
    for name in ("Alpha", "Bravo", "Charlie"):
        await docx.ok("docx_update_paragraph_text", element_id=ids[name], new_text=f"{name} new.",
                      session_id=docx.session_id)
    a = await docx.ok("docx_changes", session_id=docx.session_id, format="json")
    assert a.head["Since"].startswith("step 2: the 1 oldest step(s) were dropped")
    assert [c["id"] for c in listed(a)] == [ids["Bravo"], ids["Charlie"]]


@pytest.mark.parametrize("tracked", [False, True], ids=["untracked", "tracked"])
async def test_after_every_editing_tool_listing_changes_changes_nothing(tmp_path, tracked):
    """Every editing tool's recipe (tests/tools/docx/test_tool_protocol.py) in turn, docx_changes every ten calls: the
    document's parts stay as they were (IDs the listing gives aside) and each element is listed once. A list
    made by undoing the steps and redoing them broke here (a nested paragraph's place, tracked)."""
    from PIL import Image
    from tests.support.client import open_direct
    from tests.tools.docx.test_tool_protocol import FIXTURE, RECIPES, _targets, _tool

    def parts(session) -> dict:
        return {n: re.sub(rb' ?oxm:id="[^"]*"', b"", p.data) for n, p in session.doc.package.parts.items()}

    Image.new("RGB", (60, 30), (30, 120, 200)).save(tmp_path / "picture.png")
    async with open_direct([FIXTURE.parent, tmp_path], check_answers=True) as docx:
        await docx.open(FIXTURE)
        sid = docx.session_id
        session = docx.services.sessions.get(None, sid)
        t = _targets((await docx.ok("docx_read_content", session_id=sid)).text) | {"image": str(tmp_path / "picture.png")}
        if tracked:
            await docx.ok("docx_set_track_changes", session_id=sid, enabled=True, author="A")
        done = 0
        for name, (setup, call) in sorted(RECIPES.items()):
            if name.split("#")[0] in ("docx_set_track_changes", "docx_accept_revisions", "docx_reject_revisions"):
                continue
            for tool, args, keep in setup:
                t[keep] = (await docx.call(tool, session_id=sid, **args(t))).element_id
            if (await docx.call(_tool(name), session_id=sid, **call(t))).is_error:
                continue  # refused while tracking (REFUSED_TRACKED): nothing to list
            done += 1
            if done % 10 == 0 or done == 1:
                before = parts(session)
                found = listed(await docx.ok("docx_changes", session_id=sid, format="json"))
                assert parts(session) == before, f"docx_changes changed the document after {name}"
                ids = [c["id"] for c in found if c["id"]]
                assert len(ids) == len(set(ids)), f"an element listed twice after {name}"
    assert done > 35  # the recipes that ran (some refuse on what an earlier one left)
