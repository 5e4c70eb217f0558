"""Layout tools while tracking: each records what Word records (an inserted field, hyperlink or note
reference in w:ins, a new section break as an inserted paragraph mark, page setup as w:sectPrChange),
or says in its answer what Word does not track (bookmarks, header parts, style definitions).

As for the editing tools (tests/tools/docx/test_review_tracking.py): accepting our revisions gives the untracked
result and rejecting them gives back the original.
"""
from __future__ import annotations

import zipfile

import pytest

from tests.builders import NS
from tests.support.client import by_id, read_body
from tests.tools.docx.test_review_tracking import base, saved, texts, tracked  # noqa: F401  (base is a fixture)
from tests.tools.docx.test_review_tracking import run_script as tracking_script

pytestmark = pytest.mark.anyio
W = NS["w"]


def xp(el, path: str):
    return el.xpath(path, namespaces=NS)


def part(path, name: str) -> bytes | None:
    with zipfile.ZipFile(path) as z:
        return z.read(name) if name in z.namelist() else None


def user_notes(path) -> list[str]:
    from lxml import etree
    data = part(path, "word/footnotes.xml")
    if data is None:
        return []
    root = etree.fromstring(data)
    return ["".join(n.xpath(".//w:t/text()", namespaces=NS)).strip() for n in xp(root, "w:footnote[not(@w:type)]")]


# ---- what each tool records -----------------------------------------------------------------------

async def test_a_field_is_an_inserted_run_group(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_insert_field", field="PAGE", position=f"end:{base['p2']}")
    assert a.head["Tracked"] == "yes"
    p = by_id(await saved(docx, tmp_path), base["p2"])
    ins = xp(p, "w:ins[.//w:fldChar]")
    assert len(ins) == 1 and ins[0].get(f"{{{W}}}author") == "Alice"
    assert len(xp(ins[0], "w:r/w:fldChar")) == 3 and xp(ins[0], "w:r/w:instrText")
    assert not xp(p, "w:r[w:fldChar]"), "every run of the field is inside the insertion"


async def test_a_hyperlink_holds_its_inserted_runs(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_insert_hyperlink", text="site", url="https://example.com/", position=f"end:{base['p2']}")
    assert a.head["Tracked"] == "yes"
    link = by_id(await saved(docx, tmp_path), a.element_id)
    assert link.getparent().tag == f"{{{W}}}p", "a w:ins holds runs, never a hyperlink"
    assert [t.text for t in xp(link, "w:ins/w:r/w:t")] == ["site"] and not xp(link, "w:r")


@pytest.mark.parametrize("kind", ["footnote", "endnote"])
async def test_a_note_reference_and_its_text_are_inserted(docx, base, tmp_path, kind):
    await tracked(docx, base)
    a = await docx.ok("docx_insert_footnote", element_id=base["p2"], text="A note.", kind=kind)
    assert a.head["Tracked"] == "yes"
    out = tmp_path / "n.docx"
    p = by_id(await saved(docx, tmp_path, "n.docx"), base["p2"])
    assert xp(p, f"w:ins/w:r/w:{kind}Reference")
    from lxml import etree
    notes = etree.fromstring(part(out, f"word/{kind}s.xml"))
    note = xp(notes, f"w:{kind}[not(@w:type)]")[0]
    assert xp(note, "w:p/w:pPr/w:rPr/w:ins") and not xp(note, "w:p/w:r")
    await docx.ok("docx_reject_revisions")
    out = tmp_path / "r.docx"
    body = await docx.save(out)
    notes = etree.fromstring(part(out, f"word/{kind}s.xml"))
    assert not xp(notes, f"w:{kind}[not(@w:type)]") and not xp(body, f"//w:{kind}Reference")


async def test_a_section_break_is_an_inserted_paragraph_mark(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_insert_section_break", position=f"after:{base['p']}")
    assert a.head["Tracked"] == "yes"
    body = await saved(docx, tmp_path)
    holder = by_id(body, a.head["Break Paragraph"])
    assert holder is not by_id(body, base["p"]), "tracked, the break is a paragraph mark of its own"
    assert xp(holder, "w:pPr/w:rPr/w:ins") and xp(holder, "w:pPr/w:sectPr")
    change = xp(body, "w:sectPr/w:sectPrChange")
    assert len(change) == 1, "how the next section starts is a section change"
    await docx.ok("docx_reject_revisions")
    body = await saved(docx, tmp_path, "r.docx")
    assert len(xp(body, "//w:sectPr")) == 1 and texts(body) == texts(read_body(base["path"]))


async def test_page_setup_is_a_section_change(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_set_page_setup", orientation="landscape")
    assert a.head["Tracked"] == "yes"
    sect = xp(await saved(docx, tmp_path), "w:sectPr")[0]
    change = xp(sect, "w:sectPrChange")
    assert len(change) == 1 and sect[-1] is change[0]
    assert xp(change[0], "w:sectPr/w:pgSz/@w:orient") == [] and xp(sect, "w:pgSz/@w:orient") == ["landscape"]
    await docx.ok("docx_reject_revisions")
    sect = xp(await saved(docx, tmp_path, "r.docx"), "w:sectPr")[0]
    assert not xp(sect, "w:pgSz/@w:orient") and not xp(sect, "w:sectPrChange")


async def test_deleting_a_section_break_marks_its_paragraph_mark_deleted(docx, base, tmp_path):
    await docx.open(base["path"])
    sect = (await docx.ok("docx_insert_section_break", position=f"after:{base['p']}")).element_id
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    a = await docx.ok("docx_delete", element_id=sect)
    assert "tracked" in a.head["Deleted"]
    body = await saved(docx, tmp_path)
    p = by_id(body, base["p"])
    assert xp(p, "w:pPr/w:rPr/w:del") and xp(p, "w:pPr/w:sectPr"), "the break stays until accepted"
    await docx.ok("docx_accept_revisions")
    body = await saved(docx, tmp_path, "a.docx")
    assert len(xp(body, "//w:sectPr")) == 1


async def test_deleting_a_field_and_a_note_are_tracked_deletions(docx, base, tmp_path):
    await docx.open(base["path"])
    fld = (await docx.ok("docx_insert_field", field="PAGE", position=f"end:{base['p2']}")).element_id
    note = (await docx.ok("docx_insert_footnote", element_id=base["last"], text="Gone soon.")).element_id
    await docx.save(tmp_path / "with.docx")
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    await docx.ok("docx_delete", element_id=fld)
    await docx.ok("docx_delete", element_id=note)
    out = tmp_path / "tracked.docx"
    body = await docx.save(out)
    assert xp(by_id(body, base["p2"]), "w:del/w:r/w:delInstrText") and not xp(body, "//w:instrText")
    assert xp(by_id(body, base["last"]), "w:del/w:r/w:footnoteReference")
    assert user_notes(out) == ["Gone soon."], "the note stays until the deletion is accepted"
    await docx.ok("docx_accept_revisions")
    out = tmp_path / "accepted.docx"
    body = await docx.save(out)
    assert user_notes(out) == [] and not xp(body, "//w:fldChar | //w:footnoteReference")


@pytest.mark.parametrize("tool,args,what", [
    ("docx_add_bookmark", lambda b: dict(name="Here", element_id=b["p2"]), "bookmark"),
    ("docx_create_header_footer", lambda b: dict(text="Head"), "header"),
    ("docx_create_style", lambda b: dict(name="Quote Box", properties={"bold": True}), "style"),
    ("docx_modify_style", lambda b: dict(name="Normal", properties={"italic": True}), "style"),
])
async def test_what_word_does_not_track_is_said(docx, base, tmp_path, tool, args, what):
    await tracked(docx, base)
    a = await docx.ok(tool, **args(base))
    said = a.head["Tracked"]
    assert said != "yes" and "Word" in said and what in said, said


async def test_an_opened_tracked_style_edit_adds_no_revision(docx, base, tmp_path):
    await tracked(docx, base)
    await docx.ok("docx_modify_style", name="Normal", properties={"italic": True})
    out = tmp_path / "s.docx"
    await docx.save(out)
    assert b"rPrChange" not in part(out, "word/styles.xml") and b"pPrChange" not in part(out, "word/styles.xml")


# ---- accept equals untracked, reject equals original ---------------------------------------------

SCRIPT = [
    ("docx_insert_section_break", lambda b: dict(position=f"after:{b['t']}", kind="continuous")),
    ("docx_set_page_setup", lambda b: dict(orientation="landscape")),
    ("docx_insert_field", lambda b: dict(field="PAGE", position=f"end:{b['p2']}")),
    ("docx_insert_hyperlink", lambda b: dict(text="site", url="https://example.com/", position=f"end:{b['last']}")),
    ("docx_insert_footnote", lambda b: dict(element_id=b["p"], text="A note.")),
    ("docx_insert_toc", lambda b: dict(position="start:document_body", page_numbers=False)),
    ("docx_add_bookmark", lambda b: dict(name="Here", element_id=b["p2"])),
]


async def run_script(docx, base, track: bool):
    await tracking_script(docx, base, track, SCRIPT)


def sections(body) -> list[str]:
    """Each section's orientation and start, in order."""
    return [f"{(xp(s, 'w:pgSz/@w:orient') or ['portrait'])[0]} {(xp(s, 'w:type/@w:val') or ['nextPage'])[0]}"
            for s in xp(body, "//w:sectPr[not(ancestor::w:sectPrChange)]")]


async def test_accepting_tracked_layout_edits_equals_the_untracked_edits(docx, base, tmp_path):
    await run_script(docx, base, track=False)
    plain_path = tmp_path / "plain.docx"
    plain = await docx.save(plain_path)
    await docx.ok("docx_close", session_id=docx.session_id)
    await run_script(docx, base, track=True)
    await docx.ok("docx_accept_revisions", author="Alice")
    out = tmp_path / "accepted.docx"
    body = await docx.save(out)
    assert texts(body) == texts(plain)
    assert sections(body) == sections(plain)
    assert user_notes(out) == user_notes(plain_path) == ["A note."]
    assert not xp(body, "//w:ins | //w:del | //w:sectPrChange | //w:rPrChange | //w:pPrChange")


async def test_rejecting_tracked_layout_edits_gives_back_the_original(docx, base, tmp_path):
    original = read_body(base["path"])
    await run_script(docx, base, track=True)
    await docx.ok("docx_reject_revisions")
    out = tmp_path / "rejected.docx"
    body = await docx.save(out)
    assert texts(body) == texts(original)
    assert sections(body) == sections(original)
    assert user_notes(out) == []
    assert not xp(body, "//w:hyperlink | //w:fldChar | //w:sdt | //w:footnoteReference")


async def test_tracked_layout_edits_add_no_sdk_validation_error(docx, base, tmp_path):
    from tests.support import sdk_validator
    sdk_validator.require()
    await run_script(docx, base, track=True)
    out = tmp_path / "tracked.docx"
    saved_answer = await docx.ok("docx_save", file_path=str(out))
    assert saved_answer.head["Integrity"] == "ok", "unique w:ids, delText only in w:del, paired markers"
    await docx.ok("docx_reject_revisions")
    rejected = tmp_path / "rejected.docx"
    await docx.save(rejected)
    assert sdk_validator.new_error_kinds(base["path"], out) == []
    assert sdk_validator.new_error_kinds(base["path"], rejected) == []


async def test_rejecting_a_new_headers_text_leaves_it_one_empty_paragraph(docx, base, tmp_path):
    await tracked(docx, base)
    a = await docx.ok("docx_create_header_footer", text="Head")
    await docx.ok("docx_reject_revisions")
    out = tmp_path / "r.docx"
    await docx.save(out)
    from lxml import etree
    hdr = etree.fromstring(part(out, a.head["Part"]))
    assert len(xp(hdr, "w:p")) == 1 and not xp(hdr, "//w:t") and not xp(hdr, "//w:ins")


async def test_tracked_layout_edits_convert_in_libreoffice(docx, base, tmp_path):
    from tests.support.libreoffice import convert_cached, require_soffice
    require_soffice()
    await run_script(docx, base, track=True)
    files = [tmp_path / "tracked.docx", tmp_path / "accepted.docx", tmp_path / "rejected.docx"]
    await docx.save(files[0])
    await docx.ok("docx_accept_revisions")
    await docx.save(files[1])
    await docx.ok("docx_undo")
    await docx.ok("docx_reject_revisions")
    await docx.save(files[2])
    results = convert_cached(files, label="tracked layout")
    assert [p.name for p, pdf in results.items() if pdf is None] == []


async def test_a_first_page_header_records_the_title_page_switch(docx, base, tmp_path):
    await tracked(docx, base)
    await docx.ok("docx_create_header_footer", which="first", text="Cover")
    sect = xp(await saved(docx, tmp_path), "w:sectPr")[0]
    assert xp(sect, "w:titlePg") and xp(sect, "w:sectPrChange/w:sectPr") and not xp(sect, "w:sectPrChange//w:titlePg")
    await docx.ok("docx_reject_revisions")
    sect = xp(await saved(docx, tmp_path, "r.docx"), "w:sectPr")[0]
    assert not xp(sect, "w:titlePg") and not xp(sect, "w:sectPrChange")


async def test_refreshing_a_toc_we_inserted_keeps_it_our_insertion(docx, base, tmp_path):
    await tracked(docx, base)
    toc = (await docx.ok("docx_insert_toc", position="start:document_body", page_numbers=False)).element_id
    a = await docx.ok("docx_update_toc", toc_id=toc, page_numbers=False)
    assert a.head["Tracked"] == "yes"
    sdt = by_id(await saved(docx, tmp_path), toc)
    assert xp(sdt, ".//w:p/w:pPr/w:rPr/w:ins") and not xp(sdt, ".//w:p/w:r")
    await docx.ok("docx_reject_revisions")
    assert not xp(await saved(docx, tmp_path, "r.docx"), "//w:sdt")


async def test_refreshing_an_existing_toc_says_it_is_not_tracked(docx, base, tmp_path):
    await docx.open(base["path"])
    toc = (await docx.ok("docx_insert_toc", position="start:document_body", page_numbers=False)).element_id
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    a = await docx.ok("docx_update_toc", toc_id=toc, page_numbers=False)
    assert a.head["Tracked"].startswith("no")


async def test_a_field_inside_another_authors_insertion_splits_it(docx, base, tmp_path):
    await tracked(docx, base, author="Bob")
    r = await docx.ok("docx_insert_run", text=" Bob's words", position=f"end:{base['p2']}")
    await docx.ok("docx_insert_run", text=" more", position=f"after:{r.element_id}")
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    await docx.ok("docx_insert_field", field="PAGE", position=f"after:{r.element_id}")
    await docx.ok("docx_insert_hyperlink", text="site", url="https://example.com/", position=f"after:{r.element_id}")
    p = by_id(await saved(docx, tmp_path), base["p2"])
    assert not xp(p, ".//w:ins//w:ins") and not xp(p, ".//w:ins//w:hyperlink")
    assert [i.get(f"{{{W}}}author") for i in xp(p, "w:ins")] == ["Bob", "Alice", "Bob"]
    assert xp(p, "w:ins[@w:author='Alice']/w:r/w:fldChar") and xp(p, "w:hyperlink/w:ins[@w:author='Alice']")
    await docx.ok("docx_reject_revisions", author="Alice")
    p = by_id(await saved(docx, tmp_path, "r.docx"), base["p2"])
    assert not xp(p, ".//w:fldChar | .//w:hyperlink") and "".join(xp(p, ".//w:t/text()")).endswith("Bob's words more")
