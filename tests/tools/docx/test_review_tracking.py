"""Tracked changes: every editing tool, tracked, writes exactly the revision markup Word writes.

Each test builds a small document through the tools, saves it (with IDs) as the base, then edits
it with tracking on and checks the saved XML; accepting our revisions must give the untracked
result and rejecting them the original.
"""
from __future__ import annotations

import re

import pytest

from tests.builders import png
from tests.support.client import NS, by_id, read_body

pytestmark = pytest.mark.anyio
W = NS["w"]
DATE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def q(tag: str) -> str:
    return f"{{{W}}}{tag}"


def xp(el, path: str):
    return el.xpath(path, namespaces=NS)


def texts(body) -> list[str]:
    """Every paragraph's text as it reads with all revisions accepted (w:del skipped)."""
    from ooxml.text.body import paragraph_text
    return [paragraph_text(p) for p in body.iter(q("p"))]


def assert_revision(el, author="Alice"):
    assert el.get(q("author")) == author
    assert DATE.match(el.get(q("date")) or ""), el.get(q("date"))
    assert el.get(q("id")).isdigit()


def all_w_ids(body) -> list[str]:
    return xp(body, "//w:ins/@w:id | //w:del/@w:id | //w:rPrChange/@w:id | //w:pPrChange/@w:id"
                    " | //w:bookmarkStart/@w:id | //w:commentRangeStart/@w:id")


@pytest.fixture
async def base(docx, tmp_path):
    """A saved document: a heading, a paragraph with a bold run, a table; returns the IDs."""
    await docx.create()
    ids = {}
    ids["h"] = (await docx.ok("docx_insert_heading", text="Terms", level=1, position="end:document_body")).element_id
    a = await docx.ok("docx_insert_paragraph", text="The quick brown fox jumps over the lazy dog.",
                      position="end:document_body")
    ids["p"] = a.element_id
    ids["bold"] = (await docx.ok("docx_insert_run", text=" Bold end.", position=f"end:{ids['p']}")).element_id
    await docx.ok("docx_set_font", element_id=ids["bold"], bold=True)
    ids["p2"] = (await docx.ok("docx_insert_paragraph", text="Second paragraph stays.",
                               position="end:document_body")).element_id
    ids["t"] = (await docx.ok("docx_insert_table", rows=2, cols=2, position="end:document_body",
                              data=[["a", "b"], ["c", "d"]])).element_id
    ids["last"] = (await docx.ok("docx_insert_paragraph", text="Closing words.",
                                 position="end:document_body")).element_id
    path = tmp_path / "base.docx"
    await docx.save(path)
    await docx.ok("docx_close", session_id=docx.session_id)
    ids["path"] = path
    return ids


async def tracked(docx, base, author="Alice"):
    await docx.open(base["path"])
    a = await docx.ok("docx_set_track_changes", session_id=docx.session_id, enabled=True, author=author)
    assert a.head["Tracked"] == "yes"


async def saved(docx, tmp_path, name="out.docx"):
    return await docx.save(tmp_path / name)


# ---- every editing tool, tracked ----------------------------------------------------------------

async def test_inserted_paragraph_has_its_runs_and_mark_inserted(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_insert_paragraph", text="Added clause.", position=f"after:{base['p']}")
    assert a.head["Tracked"] == "yes"
    assert "[+Added clause.+]" in a.section("Context")
    p = by_id(await saved(docx, tmp_path), a.element_id)
    mark = xp(p, "w:pPr/w:rPr/w:ins")
    assert len(mark) == 1
    assert_revision(mark[0])
    runs = xp(p, ".//w:r")
    assert runs and all(r.getparent().tag == q("ins") for r in runs)
    assert_revision(runs[0].getparent())


async def test_inserted_heading_is_tracked_like_a_paragraph(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_insert_heading", text="New Part", level=2, position="end:document_body")
    p = by_id(await saved(docx, tmp_path), a.element_id)
    assert xp(p, "w:pPr/w:pStyle") and xp(p, "w:pPr/w:rPr/w:ins")
    assert [t.text for t in xp(p, "w:ins/w:r/w:t")] == ["New Part"]


async def test_paragraph_update_marks_only_the_changed_words(docx, base, tmp_path):
    await tracked(docx, base)
    new = "The slow brown fox jumps over the lazy cat. Bold end."
    a = await docx.ok("docx_update_paragraph_text", element_id=base["p"], new_text=new)
    assert "[-quick-][+slow+]" in a.section("Context")
    p = by_id(await saved(docx, tmp_path), base["p"])
    assert [t.text for t in xp(p, "w:del/w:r/w:delText")] == ["quick", "dog"]
    assert [t.text for t in xp(p, "w:ins/w:r/w:t")] == ["slow", "cat"]
    assert not xp(p, "w:del//w:t"), "deleted text must be w:delText"
    bold = by_id(p, base["bold"])  # unchanged words keep their run and formatting
    assert bold.getparent() is p and xp(bold, "w:rPr/w:b") and xp(bold, "w:t")[0].text == " Bold end."
    assert texts(p.getparent())[1] == new


async def test_run_update_diffs_inside_the_run(docx, base, tmp_path):
    await tracked(docx, base)
    await docx.ok("docx_update_run_text", element_id=base["bold"], new_text=" Bold finish.")
    p = by_id(await saved(docx, tmp_path), base["p"])
    assert [t.text for t in xp(p, "w:del/w:r/w:delText")] == ["end"]
    ins = xp(p, "w:ins/w:r")
    assert [r.findtext(q("t")) for r in ins] == ["finish"]
    assert xp(ins[0], "w:rPr/w:b"), "inserted words take the formatting of the words they replace"
    assert texts(p.getparent())[1].endswith(" Bold finish.")


async def test_replace_text_is_a_word_level_revision(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_replace_text", old_text="lazy dog", new_text="lazy cat")
    assert a.head["Replacements"] == "1" and a.head["Tracked"] == "yes"
    p = by_id(await saved(docx, tmp_path), base["p"])
    assert [t.text for t in xp(p, "w:del/w:r/w:delText")] == ["dog"]
    assert [t.text for t in xp(p, "w:ins/w:r/w:t")] == ["cat"]


async def test_deleted_paragraph_stays_with_deleted_text_and_mark(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_delete", element_id=base["p2"])
    assert "[-Second paragraph stays.-]" in a.section("Context")
    p = by_id(await saved(docx, tmp_path), base["p2"])
    assert_revision(xp(p, "w:pPr/w:rPr/w:del")[0])
    assert [t.text for t in xp(p, "w:del/w:r/w:delText")] == ["Second paragraph stays."]
    assert not xp(p, ".//w:t")


async def test_deleted_run_goes_under_w_del(docx, base, tmp_path):
    await tracked(docx, base)
    await docx.ok("docx_delete", element_id=base["bold"])
    run = by_id(await saved(docx, tmp_path), base["bold"])
    assert run.getparent().tag == q("del") and xp(run, "w:delText")[0].text == " Bold end."


async def test_inserted_run_is_wrapped_in_w_ins(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_insert_run", text=" More.", position=f"after:{base['bold']}")
    run = by_id(await saved(docx, tmp_path), a.element_id)
    assert run.getparent().tag == q("ins")
    assert_revision(run.getparent())
    assert xp(run, "w:rPr/w:b"), "a run next to another takes its formatting"


async def test_font_change_keeps_the_old_properties_in_rprchange(docx, base, tmp_path):
    await tracked(docx, base)
    await docx.ok("docx_set_font", element_id=base["bold"], italic=True, color_hex="FF0000")
    run = by_id(await saved(docx, tmp_path), base["bold"])
    change = xp(run, "w:rPr/w:rPrChange")
    assert len(change) == 1 and change[0].getparent()[-1] is change[0], "rPrChange is the last child of rPr"
    assert_revision(change[0])
    old = [c.tag for c in change[0].find(q("rPr"))]
    assert q("b") in old and q("i") not in old and q("color") not in old
    assert xp(run, "w:rPr/w:i") and xp(run, "w:rPr/w:color")


async def test_alignment_change_keeps_the_old_properties_in_pprchange(docx, base, tmp_path):
    await tracked(docx, base)
    await docx.ok("docx_set_alignment", element_id=base["h"], alignment="center")
    p = by_id(await saved(docx, tmp_path), base["h"])
    change = xp(p, "w:pPr/w:pPrChange")
    assert len(change) == 1
    assert_revision(change[0])
    assert xp(change[0], "w:pPr/w:pStyle") and not xp(change[0], "w:pPr/w:jc")
    assert xp(p, "w:pPr/w:jc/@w:val") == ["center"]


async def test_set_properties_and_format_copy_are_tracked(docx, base, tmp_path):
    await tracked(docx, base)
    await docx.ok("docx_set_properties", element_id=base["p2"], properties={"space_after": "6pt", "strike": True})
    await docx.ok("docx_format_copy", source_id=base["bold"], target_id=base["last"])
    body = await saved(docx, tmp_path)
    p2 = by_id(body, base["p2"])
    assert xp(p2, "w:pPr/w:pPrChange") and xp(p2, ".//w:r/w:rPr/w:rPrChange")
    assert xp(by_id(body, base["last"]), ".//w:r/w:rPr/w:rPrChange/w:rPr")


async def test_inserted_table_marks_rows_marks_and_runs(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_insert_table", rows=2, cols=2, position=f"after:{base['p2']}", data=[["x", "y"]])
    tbl = by_id(await saved(docx, tmp_path), a.element_id)
    assert len(xp(tbl, "w:tr/w:trPr/w:ins")) == 2
    assert all(xp(p, "w:pPr/w:rPr/w:ins") for p in xp(tbl, ".//w:p"))
    assert [t.text for t in xp(tbl, ".//w:ins/w:r/w:t")] == ["x", "y"]


async def test_row_insert_and_delete_are_row_revisions(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_insert_row_at", table_id=base["t"], position="end")
    await docx.ok("docx_delete_row", table_id=base["t"], row_index=0)
    tbl = by_id(await saved(docx, tmp_path), base["t"])
    rows = xp(tbl, "w:tr")
    assert len(rows) == 3, "a tracked deletion keeps the row"
    assert xp(rows[0], "w:trPr/w:del") and [t.text for t in xp(rows[0], ".//w:delText")] == ["a", "b"]
    assert xp(by_id(tbl, a.element_id), "w:trPr/w:ins")


async def test_fill_table_diffs_each_cell(docx, base, tmp_path):
    await tracked(docx, base)
    await docx.ok("docx_fill_table", table_id=base["t"], data=[["a", "B"]])
    tbl = by_id(await saved(docx, tmp_path), base["t"])
    assert [t.text for t in xp(tbl, ".//w:delText")] == ["b"]
    assert [t.text for t in xp(tbl, ".//w:ins/w:r/w:t")] == ["B"]


@pytest.mark.parametrize("tool,args", [
    ("docx_merge_cells", dict(start_row=0, start_col=0, end_row=0, end_col=1)),
    ("docx_insert_col_at", dict(position="end")),
    ("docx_delete_col", dict(col_index=0)),
])
async def test_merges_and_column_changes_are_refused_under_tracking(docx, base, tmp_path, tool, args):
    await tracked(docx, base)
    a = await docx.call(tool, table_id=base["t"], **args)
    assert a.is_error and a.error_type == "ValidationError" and "tracked change" in a.head["Message"]
    await docx.ok("docx_set_track_changes", enabled=False)
    body = await saved(docx, tmp_path)
    assert not xp(body, "//w:ins | //w:del | //w:rPrChange")


async def test_copies_and_images_are_inserted(docx, base, tmp_path):
    await tracked(docx, base)
    c = await docx.ok("docx_copy_paragraph", element_id=base["p"], position="end:document_body")
    t = await docx.ok("docx_copy_table", table_id=base["t"], position="end:document_body")
    r = await docx.ok("docx_copy_elements_range", start_id=base["h"], end_id=base["p"], position="end:document_body")
    img = await docx.ok("docx_insert_image", image_path=str(png(tmp_path / "red.png")), position=f"end:{base['p2']}")
    body = await saved(docx, tmp_path)
    for pid in (c.element_id, r.element_id, r.head["First Copy"]):
        p = by_id(body, pid)
        assert xp(p, "w:pPr/w:rPr/w:ins") and not xp(p, "w:r"), "every run of a copy is inside w:ins"
    assert len(xp(by_id(body, t.element_id), "w:tr/w:trPr/w:ins")) == 2
    drawing = by_id(body, img.element_id)
    assert drawing.getparent().getparent().tag == q("ins")


async def test_deleting_our_own_insertion_removes_it(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_insert_paragraph", text="Oops", position="end:document_body")
    await docx.ok("docx_delete", element_id=a.element_id)
    r = await docx.ok("docx_insert_run", text=" typo", position=f"end:{base['p2']}")
    await docx.ok("docx_update_run_text", element_id=r.element_id, new_text="")
    body = await saved(docx, tmp_path)
    assert not xp(body, "//w:del") and "Oops" not in "".join(texts(body))
    assert texts(body) == texts(read_body(base["path"]))


async def test_other_authors_insertion_nests_and_splits(docx, base, tmp_path):
    await tracked(docx, base, author="Bob")
    await docx.ok("docx_update_paragraph_text", element_id=base["p2"], new_text="Second paragraph stays here now.")
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    await docx.ok("docx_replace_text", old_text="here now", new_text="here, surely, now")
    await docx.ok("docx_replace_text", old_text="here", new_text="")
    p = by_id(await saved(docx, tmp_path), base["p2"])
    # Alice's insertion inside Bob's insertion splits it; Alice's deletion of Bob's text sits inside Bob's w:ins
    bob = xp(p, "w:ins[@w:author='Bob']")
    assert len(bob) >= 2
    assert xp(p, "w:ins[@w:author='Bob']/w:del[@w:author='Alice']/w:r/w:delText")
    assert not xp(p, "w:ins//w:ins")
    from ooxml.text.body import paragraph_text
    assert paragraph_text(p) == "Second paragraph stays , surely, now."


async def test_tracked_is_said_only_while_tracking(docx, base):
    await docx.open(base["path"])
    a = await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")
    assert "Tracked" not in a.head
    await docx.ok("docx_set_track_changes", enabled=True)
    a = await docx.ok("docx_insert_paragraph", text="y", position="end:document_body")
    assert a.head["Tracked"] == "yes"
    await docx.ok("docx_set_track_changes", enabled=False)
    a = await docx.ok("docx_insert_paragraph", text="z", position="end:document_body")
    assert "Tracked" not in a.head


async def test_default_author_is_ooxml_mcp(docx, base, tmp_path):
    await docx.open(base["path"])
    a = await docx.ok("docx_set_track_changes", enabled=True)
    assert a.head["Author"] == "ooxml-mcp"
    await docx.ok("docx_delete", element_id=base["p2"])
    assert xp(await saved(docx, tmp_path), "//w:del/@w:author")[0] == "ooxml-mcp"


async def test_word_ids_are_unique_across_revisions_and_bookmarks(docx, base, tmp_path):
    await tracked(docx, base)
    await docx.ok("docx_update_paragraph_text", element_id=base["p"], new_text="A completely new sentence here.")
    await docx.ok("docx_copy_elements_range", start_id=base["h"], end_id=base["last"], position="end:document_body")
    await docx.ok("docx_set_font", element_id=base["p2"], bold=True)
    ids = all_w_ids(await saved(docx, tmp_path))
    assert len(ids) > 5 and len(ids) == len(set(ids))


async def test_an_error_under_tracking_changes_nothing(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.call("docx_update_paragraph_text", element_id=base["t"], new_text="x")
    assert a.is_error
    body = await saved(docx, tmp_path)
    assert not xp(body, "//w:ins | //w:del")


# ---- accept and reject ------------------------------------------------------------------------------

SCRIPT = [
    ("docx_update_paragraph_text", lambda b: dict(element_id=b["p"], new_text="A slow fox, then nothing.")),
    ("docx_insert_paragraph", lambda b: dict(text="Inserted after heading", position=f"after:{b['h']}")),
    ("docx_delete", lambda b: dict(element_id=b["p2"])),
    ("docx_replace_text", lambda b: dict(old_text="Closing", new_text="Final closing")),
    ("docx_insert_run", lambda b: dict(text=" tail", position=f"end:{b['last']}")),
    ("docx_delete_row", lambda b: dict(table_id=b["t"], row_index=1)),
    ("docx_insert_row_at", lambda b: dict(table_id=b["t"], position="start")),
    ("docx_fill_table", lambda b: dict(table_id=b["t"], data=[["new", "cells"]])),
    ("docx_set_font", lambda b: dict(element_id=b["h"], italic=True)),
    ("docx_copy_paragraph", lambda b: dict(element_id=b["last"], position="start:document_body")),
    ("docx_insert_table", lambda b: dict(rows=1, cols=2, position="end:document_body", data=[["p", "q"]])),
    ("docx_insert_page_break", lambda b: dict(position=f"before:{b['last']}")),
]


async def run_script(docx, base, track: bool, script=None):
    await docx.open(base["path"])
    if track:
        await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    for name, args in script or SCRIPT:
        await docx.ok(name, **args(base))


async def test_accepting_our_revisions_equals_the_untracked_edits(docx, base, tmp_path):
    await run_script(docx, base, track=False)
    plain = texts(await saved(docx, tmp_path, "plain.docx"))
    await docx.ok("docx_close", session_id=docx.session_id)
    await run_script(docx, base, track=True)
    a = await docx.ok("docx_accept_revisions", author="Alice")
    assert int(a.head["Accepted"]) > 10 and a.head["Remaining Revisions"] == "0"
    body = await saved(docx, tmp_path, "accepted.docx")
    assert texts(body) == plain
    assert not xp(body, "//w:ins | //w:del | //w:rPrChange | //w:pPrChange")


async def test_rejecting_our_revisions_gives_back_the_original(docx, base, tmp_path):
    original = texts(read_body(base["path"]))
    await run_script(docx, base, track=True)
    await docx.ok("docx_reject_revisions")
    body = await saved(docx, tmp_path, "rejected.docx")
    assert texts(body) == original
    assert xp(by_id(body, base["h"]), ".//w:r/w:rPr/w:i") == []


async def test_accept_and_reject_by_id_and_scope(docx, base, tmp_path):
    await tracked(docx, base)
    await docx.ok("docx_update_paragraph_text", element_id=base["p2"], new_text="Second paragraph goes.")
    await docx.ok("docx_update_paragraph_text", element_id=base["last"], new_text="Closing remarks.")
    listing = await docx.ok("docx_list_revisions", scope_id=base["p2"])
    assert listing.head["Revisions"] == "2"
    rows = [line for line in listing.section("Content").splitlines() if line.startswith("- rev_")]
    deletion = next(line.split()[1] for line in rows if "| deletion |" in line)
    assert '"stays"' in next(line for line in rows if "| deletion |" in line)
    await docx.ok("docx_reject_revisions", revision_ids=[deletion])
    await docx.ok("docx_accept_revisions", scope_id=base["last"])
    body = await saved(docx, tmp_path)
    t = texts(body)
    assert "Second paragraph staysgoes." in t and "Closing remarks." in t
    assert not xp(by_id(body, base["last"]), ".//w:ins | .//w:del")
    assert len(xp(by_id(body, base["p2"]), "w:ins")) == 1


async def test_list_revisions_filters_by_author_and_pages(docx, base):
    await tracked(docx, base, author="Bob")
    await docx.ok("docx_update_paragraph_text", element_id=base["p2"], new_text="Other words entirely.")
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    for i in range(30):
        await docx.ok("docx_insert_paragraph", text=f"line {i}", position="end:document_body")
    first = await docx.ok("docx_list_revisions", author="Alice")
    assert first.head["Revisions"] == "60" and first.head["Next Page"] == "start=50"
    assert "| Bob |" not in first.text
    second = await docx.ok("docx_list_revisions", author="Alice", start=50)
    assert second.head["Shown"] == "50-59"
    bob = await docx.ok("docx_list_revisions", author="Bob")
    assert int(bob.head["Revisions"]) >= 2 and "| Alice |" not in bob.text


async def test_find_and_replace_never_touch_deleted_text(docx, base, tmp_path):
    await tracked(docx, base)
    await docx.ok("docx_update_paragraph_text", element_id=base["p2"], new_text="Second line stays.")
    found = await docx.ok("docx_find_paragraphs", query="paragraph")
    assert base["p2"] not in found.text
    a = await docx.ok("docx_replace_text", old_text="paragraph", new_text="X")
    assert a.head["Replacements"] == "0"
    p = by_id(await saved(docx, tmp_path), base["p2"])
    assert [t.text for t in xp(p, ".//w:delText")] == ["paragraph"]


async def test_margins_are_tracked_as_a_section_change(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_set_margins", top="2cm")
    assert a.head["Tracked"] == "yes"
    sect = xp(await saved(docx, tmp_path, "m.docx"), "//w:body/w:sectPr")[0]
    change = xp(sect, "w:sectPrChange")
    assert len(change) == 1 and sect[-1] is change[0]
    assert_revision(change[0])
    assert xp(change[0], "w:sectPr/w:pgMar/@w:top") == ["1440"] and xp(sect, "w:pgMar/@w:top") == ["1134"]
    await docx.ok("docx_reject_revisions")
    sect = xp(await saved(docx, tmp_path, "m2.docx"), "//w:body/w:sectPr")[0]
    assert xp(sect, "w:pgMar/@w:top") == ["1440"] and not xp(sect, "w:sectPrChange")


async def test_author_comes_from_the_flag_then_the_config(tmp_path):
    import server
    from mcp import Client
    from tests.support.client import DocxClient

    config = tmp_path / "c.yaml"
    config.write_text("author: Config Person\n")
    for argv, expected in ((["--root", str(tmp_path), "--author", "Flag Person", "--config", str(config)], "Flag Person"),
                           (["--root", str(tmp_path), "--config", str(config)], "Config Person")):
        services = server.make_services(server.parse_args(argv))
        async with Client(server.build_server(services), cache=None) as client:
            c = DocxClient(client, [tmp_path])
            await c.create()
            a = await c.ok("docx_set_track_changes", enabled=True)
            assert a.head["Author"] == expected
            p = await c.ok("docx_insert_paragraph", text="x", position="end:document_body")
            cm = await c.ok("docx_add_comment", element_id=p.element_id, text="note")
            assert cm.head["Author"] == expected


async def test_deleted_table_keeps_its_rows_marked_until_accepted(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_delete", element_id=base["t"])
    assert "(tracked)" in a.head["Deleted"]
    tbl = by_id(await saved(docx, tmp_path, "t1.docx"), base["t"])
    assert len(xp(tbl, "w:tr/w:trPr/w:del")) == 2 and [t.text for t in xp(tbl, ".//w:delText")] == list("abcd")
    await docx.ok("docx_accept_revisions", scope_id=base["t"])
    body = await saved(docx, tmp_path, "t2.docx")
    assert not xp(body, f"//w:tbl[@oxm:id='{base['t']}']")


def test_config_author_must_be_a_string(tmp_path):
    from tools.config.model import ConfigError
    from tools.config.loading import parse_config
    with pytest.raises(ConfigError) as e:
        parse_config({"author": 5}, base_dir=tmp_path)
    assert any(f.startswith("author:") for f in e.value.findings)


async def test_a_tracked_deleted_paragraph_reads_as_gone_for_edits(docx, base, tmp_path):
    await tracked(docx, base)
    await docx.ok("docx_delete", element_id=base["p2"])
    for name, args in (("docx_update_paragraph_text", dict(element_id=base["p2"], new_text="x")),
                       ("docx_insert_paragraph", dict(text="x", position=f"after:{base['p2']}")),
                       ("docx_delete", dict(element_id=base["p2"]))):
        a = await docx.call(name, **args)
        assert a.is_error and a.error_type == "ElementNotFound" and "tracked deletion" in a.head["Message"]
    await docx.ok("docx_get_context", element_id=base["p2"])  # still shown, as [-deleted-]
    await docx.ok("docx_reject_revisions", scope_id=base["p2"])
    await docx.ok("docx_update_paragraph_text", element_id=base["p2"], new_text="Second paragraph is back.")
    assert "Second paragraph is back." in texts(await saved(docx, tmp_path))


# ---- edits of our own tracked content ---------------------------------------------------------------

async def test_rewriting_a_run_we_inserted_keeps_one_inserted_run(docx, base, tmp_path):
    """Word records no deletion of one's own new text: the run is rewritten, so a link placed after
    it lands after all of its text, as untracked."""
    await tracked(docx, base)
    run = (await docx.ok("docx_insert_run", text=" QxRun", position=f"end:{base['last']}")).element_id
    await docx.ok("docx_update_run_text", element_id=run, new_text=" QxRunChanged words")
    await docx.ok("docx_insert_hyperlink", text="site", url="https://example.com/", position=f"after:{run}")
    body = await saved(docx, tmp_path)
    para = by_id(body, base["last"])
    assert texts(body)[-1].endswith("Closing words. QxRunChanged wordssite")
    assert xp(by_id(body, run), "ancestor::w:ins") and not xp(para, ".//w:del")


async def test_format_painting_a_paragraph_we_inserted_keeps_it_inserted(docx, base, tmp_path):
    """The painted paragraph keeps its own mark's insertion: rejecting removes it."""
    original = texts(read_body(base["path"]))
    await tracked(docx, base)
    new = (await docx.ok("docx_insert_paragraph", text="Painted", position=f"after:{base['p']}")).element_id
    await docx.ok("docx_format_copy", source_id=base["h"], target_id=new)
    body = await saved(docx, tmp_path)
    assert xp(by_id(body, new), "w:pPr/w:rPr/w:ins") and xp(by_id(body, new), "w:pPr/w:pStyle")
    await docx.ok("docx_reject_revisions")
    assert texts(await saved(docx, tmp_path, "rejected.docx")) == original


# ---- accepting and rejecting around other authors' markup -------------------------------------------

BOB = 'w:author="Bob" w:date="2024-01-01T00:00:00Z"'
OXM = 'xmlns:oxm="urn:ooxml-mcp:ids:2026"'


def _built(tmp_path, body: str):
    from tests.builders import build_docx, document_xml
    main = document_xml(body).replace(b"<w:document ", f"<w:document {OXM} ".encode(), 1)
    return build_docx(tmp_path / "built.docx", "", extra_parts={"word/document.xml": main})


async def test_rejecting_a_copied_simple_field_leaves_no_empty_field(docx, tmp_path):
    path = _built(tmp_path, '<w:p oxm:id="para_0000f1"><w:r><w:t xml:space="preserve">Figure </w:t></w:r>'
                            '<w:fldSimple w:instr=" SEQ Figure "><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p>'
                            '<w:p><w:r><w:t>After.</w:t></w:r></w:p>')
    original = texts(read_body(path))
    await docx.open(path)
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    await docx.ok("docx_copy_paragraph", element_id="para_0000f1", position="end:document_body")
    await docx.ok("docx_reject_revisions")
    body = await saved(docx, tmp_path)
    assert texts(body) == original
    assert len(xp(body, "//w:fldSimple")) == 1 and not xp(body, "//w:fldSimple[not(w:r)]")


async def test_accepting_a_deleted_paragraph_before_a_table_removes_it_as_untracked(docx, tmp_path):
    """What is left of the paragraph is another author's deleted text: it goes with the paragraph."""
    from tests.builders import tbl, tc
    path = _built(tmp_path, '<w:p oxm:id="para_0000f2"><w:r><w:t xml:space="preserve">Table </w:t></w:r>'
                            f'<w:del w:id="8" {BOB}><w:r><w:delText>2</w:delText></w:r></w:del>'
                            f'<w:ins w:id="9" {BOB}><w:r><w:t>3</w:t></w:r></w:ins></w:p>'
                            + tbl([[tc('<w:p><w:r><w:t>cell</w:t></w:r></w:p>')]]) + '<w:p/>')
    results = {}
    for track in (False, True):
        await docx.open(path)
        if track:
            await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
        await docx.ok("docx_delete", element_id="para_0000f2")
        if track:
            await docx.ok("docx_accept_revisions", author="Alice")
        results[track] = texts(await saved(docx, tmp_path, f"{track}.docx"))
        await docx.ok("docx_close", session_id=docx.session_id)
    assert results[True] == results[False] == ["cell", ""]


async def test_rewriting_away_a_link_we_inserted_leaves_no_empty_link(docx, base, tmp_path):
    original = texts(read_body(base["path"]))
    await tracked(docx, base)
    new = (await docx.ok("docx_insert_paragraph", text="New words", position=f"after:{base['p']}")).element_id
    await docx.ok("docx_insert_hyperlink", text="site", url="https://example.com/", position=f"end:{new}")
    await docx.ok("docx_update_paragraph_text", element_id=new, new_text="New words")
    body = await saved(docx, tmp_path)
    assert not xp(body, "//w:hyperlink") and texts(body)[2] == "New words"
    await docx.ok("docx_reject_revisions")
    assert texts(await saved(docx, tmp_path, "rejected.docx")) == original
