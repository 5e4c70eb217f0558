"""A hyperlink's relationship goes with the last link that uses it (docx_delete of the link, of its
paragraph, a text update ...), and undo puts the rels part back byte for byte."""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from tests.builders import NS
from tests.support.client import read_part
from tests.support.corpus import corpus_params, editable_files, features

pytestmark = pytest.mark.anyio
PR = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
RT_LINK = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink"
R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def link_targets(path: Path, rels: str = "word/_rels/document.xml.rels") -> dict[str, str]:
    root = etree.fromstring(read_part(path, rels))
    return {r.get("Id"): r.get("Target") for r in root.iter(PR) if r.get("Type") == RT_LINK}


async def doc_with_link(docx, url: str = "https://example.com/a") -> tuple[str, str]:
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="See ", position="end:document_body")).element_id
    link = (await docx.ok("docx_insert_hyperlink", text="the site", url=url, position=f"end:{para}")).element_id
    return para, link


async def test_deleting_a_link_removes_its_relationship(docx, tmp_path):
    _, link = await doc_with_link(docx)
    await docx.save(tmp_path / "a.docx")
    assert list(link_targets(tmp_path / "a.docx").values()) == ["https://example.com/a"]
    a = await docx.ok("docx_delete", element_id=link)
    assert "the site" in a.section("Context")
    body = await docx.save(tmp_path / "b.docx")
    assert link_targets(tmp_path / "b.docx") == {}
    assert body.find(".//w:hyperlink", NS) is None and "See the site" in "".join(body.itertext())


async def test_deleting_the_paragraph_of_a_link_removes_its_relationship(docx, tmp_path):
    para, _ = await doc_with_link(docx)
    await docx.ok("docx_insert_paragraph", text="kept", position="end:document_body")
    await docx.ok("docx_delete", element_id=para)
    await docx.save(tmp_path / "o.docx")
    assert link_targets(tmp_path / "o.docx") == {}


async def test_a_relationship_still_used_by_another_link_stays(docx, tmp_path):
    para, first = await doc_with_link(docx)
    second = (await docx.ok("docx_insert_hyperlink", text=" again", url="https://example.com/a",
                            position=f"end:{para}")).element_id
    await docx.save(tmp_path / "a.docx")
    shared = link_targets(tmp_path / "a.docx")
    assert len(shared) == 1  # both links use one relationship
    await docx.ok("docx_delete", element_id=first)
    body = await docx.save(tmp_path / "b.docx")
    assert link_targets(tmp_path / "b.docx") == shared
    assert [x.get(R_ID) for x in body.iter(f"{{{NS['w']}}}hyperlink")] == list(shared)
    await docx.ok("docx_delete", element_id=second)
    await docx.save(tmp_path / "c.docx")
    assert link_targets(tmp_path / "c.docx") == {}


async def test_a_copied_link_keeps_the_relationship_when_the_original_goes(docx, tmp_path):
    para, _ = await doc_with_link(docx)
    await docx.ok("docx_copy_paragraph", element_id=para, position="end:document_body")
    await docx.ok("docx_delete", element_id=para)
    body = await docx.save(tmp_path / "o.docx")
    rids = [x.get(R_ID) for x in body.iter(f"{{{NS['w']}}}hyperlink")]
    targets = link_targets(tmp_path / "o.docx")
    assert len(rids) == 1 and rids[0] in targets and targets[rids[0]] == "https://example.com/a"


async def test_undo_puts_the_relationship_back_byte_for_byte(docx, tmp_path):
    para, _ = await doc_with_link(docx)
    await docx.save(tmp_path / "a.docx")
    await docx.ok("docx_delete", element_id=para)
    await docx.save(tmp_path / "b.docx")
    assert link_targets(tmp_path / "b.docx") == {}
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "c.docx")
    rels = "word/_rels/document.xml.rels"
    assert read_part(tmp_path / "c.docx", rels) == read_part(tmp_path / "a.docx", rels)
    await docx.ok("docx_redo")
    await docx.save(tmp_path / "d.docx")
    assert read_part(tmp_path / "d.docx", rels) == read_part(tmp_path / "b.docx", rels)


async def test_a_link_in_a_header_leaves_the_headers_rels(docx, tmp_path):
    await docx.create()
    hdr = await docx.ok("docx_create_header_footer", text="Head ")
    link = (await docx.ok("docx_insert_hyperlink", text="home", url="https://example.com/h",
                          position=f"end:{hdr.head['Paragraph']}")).element_id
    await docx.save(tmp_path / "a.docx")
    with zipfile.ZipFile(tmp_path / "a.docx") as z:
        rels = next(n for n in z.namelist() if n.startswith("word/_rels/header"))
    assert list(link_targets(tmp_path / "a.docx", rels).values()) == ["https://example.com/h"]
    await docx.ok("docx_delete", element_id=link)
    await docx.save(tmp_path / "b.docx")
    assert link_targets(tmp_path / "b.docx", rels) == {}


async def test_text_update_that_drops_a_link_drops_its_relationship(docx, tmp_path):
    para, _ = await doc_with_link(docx)
    await docx.ok("docx_update_paragraph_text", element_id=para, new_text="No link now")
    body = await docx.save(tmp_path / "o.docx")
    assert body.find(".//w:hyperlink", NS) is None
    assert link_targets(tmp_path / "o.docx") == {}


def linked_files() -> list[Path]:
    out = []
    for f in editable_files():
        if "hyperlinks" not in features(f) or "large" in features(f) or "strict" in features(f):
            continue
        with zipfile.ZipFile(f) as z:
            if "word/document.xml" not in z.namelist():
                continue  # main part under another name: not this test's concern
            body = etree.fromstring(z.read("word/document.xml"))
        if body.xpath("/w:document/w:body/w:p[w:hyperlink/@r:id]", namespaces={**NS, "r": R_ID[1:].split("}")[0]}):
            out.append(f)
    return out[:: max(1, len(out) // 6)][:6]


@pytest.mark.parametrize("src", corpus_params(linked_files()))
async def test_corpus_paragraph_with_links_deleted_takes_only_their_relationships(docx, src, tmp_path):
    local = tmp_path / src.name
    shutil.copy(src, local)
    await docx.open(local)
    before = link_targets(local)
    listing = (await docx.ok("docx_list_hyperlinks")).section("Content")
    body_before = await docx.save(tmp_path / "a.docx")
    in_body = [line.rsplit(" in ", 1)[1].strip() for line in listing.splitlines() if line.startswith("- link_")]
    para = next(p for p in in_body if p.startswith("para_") and
                body_before.xpath(f"//w:body/w:p[@*[local-name()='id'] = '{p}']", namespaces=NS))
    await docx.ok("docx_delete", element_id=para)
    body = await docx.save(tmp_path / "b.docx")
    used = {x.get(R_ID) for x in body.iter() if x.get(R_ID)}
    used |= {v for x in body.iter() for k, v in x.attrib.items() if k.startswith(R_ID[:-3])}
    after = link_targets(tmp_path / "b.docx")
    dropped = set(before) - set(after)
    assert set(after) <= set(before) and not dropped & used
    # exactly the relationships the deleted paragraph alone used went
    para_rids = {x.get(R_ID) for x in body_before.xpath(f"//w:p[@*[local-name()='id'] = '{para}']//w:hyperlink",
                                                          namespaces=NS) if x.get(R_ID)}
    assert dropped == {r for r in para_rids if r in before} - used
