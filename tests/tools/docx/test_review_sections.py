"""A section break is a paragraph mark: deleting one as a tracked change, then accepting or rejecting
it, does what Word does with section breaks.

Word's rule (a section break stores the properties of the section before it): when a break goes,
the text before it joins the following section and takes that section's properties; the removed
break's own properties go with it. What the following section showed by inheritance ("link to
previous" headers and footers) it keeps, so no header part is left behind unreferenced.
"""
from __future__ import annotations

import zipfile

import pytest

from ooxml.text.body import paragraph_text
from tests.builders import NS
from tests.support.client import by_id

pytestmark = pytest.mark.anyio
W = NS["w"]


def xp(el, path: str):
    return el.xpath(path, namespaces=NS)


def texts(body) -> list[str]:
    return [paragraph_text(p) for p in body.iter(f"{{{W}}}p")]


def package(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def referenced_parts(path) -> tuple[set[str], set[str]]:
    """(header/footer parts the main part relates, those a sectPr references)."""
    from lxml import etree
    parts = package(path)
    rels = etree.fromstring(parts["word/_rels/document.xml.rels"])
    related = {r.get("Id"): r.get("Target") for r in rels
               if r.get("Type").endswith(("/header", "/footer"))}
    body = etree.fromstring(parts["word/document.xml"])
    used = set(xp(body, "//w:sectPr/w:headerReference/@r:id | //w:sectPr/w:footerReference/@r:id"))
    return set(related), used


@pytest.fixture
async def two_sections(docx, tmp_path):
    """Section 1 (A4 landscape, its own header, ends with 'One.') then section 2 (Letter, footer)."""
    await docx.create()
    one = (await docx.ok("docx_insert_paragraph", text="One.", position="end:document_body")).element_id
    two = (await docx.ok("docx_insert_paragraph", text="Two.", position="end:document_body")).element_id
    sect = (await docx.ok("docx_insert_section_break", position=f"after:{one}")).element_id
    await docx.ok("docx_set_page_setup", section_id=sect, page_size="A4", orientation="landscape")
    await docx.ok("docx_create_header_footer", section_id=sect, text="Header of section one")
    listing = (await docx.ok("docx_list_sections")).section("Content")
    last = [w for w in listing.split() if w.startswith("sect_")][-1]
    await docx.ok("docx_create_header_footer", section_id=last, kind="footer", text="Footer of section two")
    path = tmp_path / "two.docx"
    await docx.save(path)
    await docx.ok("docx_close", session_id=docx.session_id)
    return {"one": one, "two": two, "sect": sect, "path": path}


async def delete_break(docx, s):
    await docx.open(s["path"])
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    await docx.ok("docx_delete", element_id=s["one"])


async def test_a_deleted_break_paragraph_keeps_its_section_until_decided(docx, two_sections, tmp_path):
    await delete_break(docx, two_sections)
    body = await docx.save(tmp_path / "tracked.docx")
    p = by_id(body, two_sections["one"])
    assert xp(p, "w:pPr/w:rPr/w:del") and xp(p, "w:pPr/w:sectPr")
    assert len(xp(body, "//w:sectPr")) == 2


async def test_accepting_the_deleted_break_merges_the_sections_as_word_does(docx, two_sections, tmp_path):
    await delete_break(docx, two_sections)
    await docx.ok("docx_accept_revisions")
    out = tmp_path / "accepted.docx"
    body = await docx.save(out)
    sects = xp(body, "//w:sectPr")
    assert len(sects) == 1 and sects[0].getparent().tag == f"{{{W}}}body", "one section: the one after the break"
    # the merged section has the following section's page setup (Letter portrait), not the removed break's
    assert xp(sects[0], "w:pgSz/@w:w") == ["12240"] and not xp(sects[0], "w:pgSz/@w:orient")
    # it keeps the header it showed by inheritance and its own footer; nothing is left unreferenced
    assert len(xp(sects[0], "w:headerReference[@w:type='default']")) == 1
    assert len(xp(sects[0], "w:footerReference[@w:type='default']")) == 1
    related, used = referenced_parts(out)
    assert related == used
    assert texts(body) == ["Two."]
    listing = await docx.ok("docx_list_sections")
    assert listing.head["Sections"] == "1"
    hdr = await docx.ok("docx_get_header_footer")
    assert "Header of section one" in hdr.section("Context")


async def test_rejecting_the_deleted_break_keeps_the_section(docx, two_sections, tmp_path):
    original = package(two_sections["path"])
    await delete_break(docx, two_sections)
    await docx.ok("docx_reject_revisions")
    out = tmp_path / "rejected.docx"
    await docx.save(out)
    assert package(out)["word/document.xml"] == original["word/document.xml"]


async def test_accepting_a_break_whose_headers_the_next_section_has_drops_the_unused_parts(docx, two_sections,
                                                                                            tmp_path):
    await docx.open(two_sections["path"])
    listing = (await docx.ok("docx_list_sections")).section("Content")
    last = [w for w in listing.split() if w.startswith("sect_")][-1]
    await docx.ok("docx_create_header_footer", section_id=last, text="Header of section two")
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    await docx.ok("docx_delete", element_id=two_sections["one"])
    await docx.ok("docx_accept_revisions")
    out = tmp_path / "accepted.docx"
    await docx.save(out)
    related, used = referenced_parts(out)
    assert related == used and len(used) == 2
    parts = package(out)
    headers = [n for n in parts if n.startswith("word/header")]
    assert len(headers) == 1 and b"Header of section two" in parts[headers[0]]
    assert not any(b"Header of section one" in data for n, data in parts.items() if n.startswith("word/"))
    ct = parts["[Content_Types].xml"].decode()
    assert all(f"/{n}" in ct for n in headers) and ct.count("header+xml") == 1


async def test_accepting_a_deleted_break_between_text_joins_the_text_into_the_next_section(docx, two_sections,
                                                                                          tmp_path):
    await docx.open(two_sections["path"])
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    # a break paragraph with text left: only its mark goes (Word: delete the break character)
    await docx.ok("docx_update_paragraph_text", element_id=two_sections["one"], new_text="One.")
    from ooxml.review import revisions  # noqa: F401  (the mark deletion below is what Word writes)
    await docx.ok("docx_delete", element_id=two_sections["one"])
    await docx.ok("docx_reject_revisions", revision_ids=[await _text_deletion(docx, two_sections["one"])])
    await docx.ok("docx_accept_revisions")
    body = await docx.save(tmp_path / "joined.docx")
    assert texts(body) == ["One.Two."]
    assert len(xp(body, "//w:sectPr")) == 1


async def _text_deletion(docx, pid: str) -> str:
    listing = await docx.ok("docx_list_revisions", scope_id=pid)
    rows = [line for line in listing.section("Content").splitlines() if "| deletion |" in line]
    return rows[0].split()[1]


async def test_undo_of_the_merge_gives_back_every_part(docx, two_sections, tmp_path):
    await delete_break(docx, two_sections)
    before = tmp_path / "before.docx"
    await docx.save(before)
    await docx.ok("docx_accept_revisions")
    await docx.ok("docx_undo")
    after = tmp_path / "after.docx"
    await docx.save(after)
    assert package(after) == package(before)


async def test_merged_sections_add_no_sdk_validation_error(docx, two_sections, tmp_path):
    from tests.support import sdk_validator
    sdk_validator.require()
    await delete_break(docx, two_sections)
    await docx.ok("docx_accept_revisions")
    out = tmp_path / "accepted.docx"
    await docx.save(out)
    assert sdk_validator.new_error_kinds(two_sections["path"], out) == []


async def test_merged_sections_convert_in_libreoffice(docx, two_sections, tmp_path):
    from tests.support.libreoffice import convert_cached, require_soffice
    require_soffice()
    await delete_break(docx, two_sections)
    files = [tmp_path / "tracked.docx", tmp_path / "accepted.docx"]
    await docx.save(files[0])
    await docx.ok("docx_accept_revisions")
    await docx.save(files[1])
    results = convert_cached(files, label="merged sections")
    assert [p.name for p, pdf in results.items() if pdf is None] == []
