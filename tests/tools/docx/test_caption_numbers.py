"""Caption numbers stay right as captions are deleted, copied and moved (issue 32): each edit renumbers
the SEQ fields and the REFs to the captions renumbered, in the same undo step, tracked as an update;
an edit that touches no caption writes nothing more."""
from __future__ import annotations


import pytest
from lxml import etree

from tests.builders import NS
from tests.support.parts import assert_same_package

pytestmark = pytest.mark.anyio


def captions(body) -> list[str]:
    """Each caption as it reads in the final view (tracked deletions left out)."""
    read = ["".join(p.xpath(".//w:t/text()", namespaces=NS))
            for p in body.xpath(".//w:p[w:pPr/w:pStyle/@w:val='Caption']", namespaces=NS)]
    return [text for text in read if text]


async def _three(docx) -> tuple[list[str], list[str]]:
    """Three pictures captioned A, B, C: (picture IDs, caption IDs)."""
    await docx.create()
    pics, caps = [], []
    for name in "ABC":
        pics.append((await docx.ok("docx_insert_paragraph", text=f"picture {name}",
                                   position="end:document_body")).element_id)
        caps.append((await docx.ok("docx_insert_caption", element_id=pics[-1], text=name)).element_id)
    return pics, caps


async def test_deleting_a_caption_renumbers_the_ones_after_it(docx, tmp_path):
    _, caps = await _three(docx)
    d = await docx.ok("docx_delete", element_id=caps[1])
    assert d.head["Renumbered"] == "1 field"
    assert captions(await docx.save(tmp_path / "o.docx")) == ["Figure 1: A", "Figure 2: C"]


async def test_a_caption_copied_to_the_end_takes_the_next_number(docx, tmp_path):
    _, caps = await _three(docx)
    await docx.ok("docx_delete", element_id=caps[1])
    await docx.ok("docx_copy_paragraph", element_id=caps[0], position="end:document_body")
    assert captions(await docx.save(tmp_path / "o.docx")) == ["Figure 1: A", "Figure 2: C", "Figure 3: A"]


async def test_a_caption_copied_to_the_start_renumbers_every_other(docx, tmp_path):
    pics, caps = await _three(docx)
    await docx.ok("docx_copy_elements_range", start_id=pics[2], end_id=caps[2], position="start:document_body")
    assert captions(await docx.save(tmp_path / "o.docx")) == \
        ["Figure 1: C", "Figure 2: A", "Figure 3: B", "Figure 4: C"]


async def test_a_moved_caption_is_renumbered(docx, tmp_path):
    pics, caps = await _three(docx)
    # a move: the figure and its caption copied before the first, then the originals deleted
    await docx.ok("docx_copy_elements_range", start_id=pics[2], end_id=caps[2], position=f"before:{pics[0]}")
    await docx.ok("docx_delete", element_id=caps[2])
    await docx.ok("docx_delete", element_id=pics[2])
    assert captions(await docx.save(tmp_path / "o.docx")) == ["Figure 1: C", "Figure 2: A", "Figure 3: B"]


async def test_a_reference_to_a_renumbered_caption_reads_its_new_number(docx, tmp_path):
    _, caps = await _three(docx)
    see = (await docx.ok("docx_insert_paragraph", text="See ", position="end:document_body")).element_id
    await docx.ok("docx_insert_cross_reference", target_id=caps[2], position=f"end:{see}",
                  kind="label_and_number")
    d = await docx.ok("docx_delete", element_id=caps[1])
    assert d.head["Renumbered"] == "2 fields"
    body = await docx.save(tmp_path / "o.docx")
    see_p = body.xpath("w:p[last()-0][not(w:pPr/w:pStyle)]", namespaces=NS)[-1]
    assert "".join(see_p.xpath(".//w:t/text()", namespaces=NS)) == "See Figure 2"


async def test_undo_puts_the_numbers_back_byte_for_byte(docx, tmp_path):
    _, caps = await _three(docx)
    await docx.save(tmp_path / "a.docx")
    await docx.ok("docx_delete", element_id=caps[0])
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "b.docx")
    assert_same_package(tmp_path / "a.docx", tmp_path / "b.docx")


async def test_a_tracked_deletion_renumbers_as_a_tracked_update(docx, tmp_path):
    # Word's final view leaves deleted text out: a caption deleted with tracking on no longer counts
    _, caps = await _three(docx)
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_delete", element_id=caps[1])
    body = await docx.save(tmp_path / "o.docx")
    assert captions(body) == ["Figure 1: A", "Figure 2: C"]
    last = body.xpath(".//w:p[w:pPr/w:pStyle/@w:val='Caption']", namespaces=NS)[-1]
    assert last.xpath(".//w:del//w:delText/text()", namespaces=NS) == ["3"]
    assert last.xpath(".//w:ins//w:t/text()", namespaces=NS) == ["2"]


async def test_rejecting_the_tracked_deletion_restores_the_numbers(docx, tmp_path):
    _, caps = await _three(docx)
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_delete", element_id=caps[1])
    await docx.ok("docx_reject_revisions")
    assert captions(await docx.save(tmp_path / "o.docx")) == ["Figure 1: A", "Figure 2: B", "Figure 3: C"]


async def test_an_edit_touching_no_caption_writes_no_field(docx, tmp_path):
    pics, _ = await _three(docx)
    before = _caption_bytes(await docx.save(tmp_path / "a.docx"))
    u = await docx.ok("docx_update_paragraph_text", element_id=pics[0], new_text="picture Z")
    assert "Renumbered" not in u.head
    assert _caption_bytes(await docx.save(tmp_path / "b.docx")) == before


def _caption_bytes(body) -> list[bytes]:
    return [etree.tostring(p) for p in body.xpath(".//w:p[w:pPr/w:pStyle/@w:val='Caption']", namespaces=NS)]


async def test_a_sequence_field_added_later_in_a_batch_renumbers(docx, tmp_path):
    # the first call records the picture's paragraph for undo; the second adds a SEQ to it
    pics, _ = await _three(docx)
    await docx.ok("docx_batch", calls=[
        {"tool": "docx_update_paragraph_text", "arguments": {"element_id": pics[0], "new_text": "picture "}},
        {"tool": "docx_insert_field", "arguments": {"field": "SEQ", "instruction": "Figure",
                                                    "position": f"end:{pics[0]}"}}])
    body = await docx.save(tmp_path / "o.docx")
    assert captions(body) == ["Figure 2: A", "Figure 3: B", "Figure 4: C"]
