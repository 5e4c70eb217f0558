"""docx_insert_cross_reference: REF/NOTEREF/PAGEREF fields to hidden _Ref bookmarks, as Word makes
them, their results computed; missing targets, wrong targets and kinds named, nothing changed."""
from __future__ import annotations

import pytest

from tests.builders import NS

pytestmark = pytest.mark.anyio


async def _doc(docx):
    """A heading, a figure with its caption and a footnote, and a paragraph to put references in."""
    await docx.create()
    h = await docx.ok("docx_insert_heading", text="Results", level=1, position="end:document_body")
    fig = await docx.ok("docx_insert_paragraph", text="picture", position="end:document_body")
    cap = await docx.ok("docx_insert_caption", element_id=fig.element_id, text="Growth by year")
    note = await docx.ok("docx_insert_footnote", element_id=fig.element_id, text="Source: survey")
    see = await docx.ok("docx_insert_paragraph", text="See ", position="end:document_body")
    return h.element_id, cap.element_id, note.element_id, see.element_id


@pytest.mark.parametrize("kind,result", [("number", "1"), ("label_and_number", "Figure 1"),
                                         ("text", "Growth by year"), ("above_below", "above")])
async def test_references_to_a_caption_read_right(docx, tmp_path, kind, result):
    _, cap, _, see = await _doc(docx)
    x = await docx.ok("docx_insert_cross_reference", target_id=cap, position=f"end:{see}", kind=kind)
    assert x.head["Result"] == result and f"See {result}" in x.text
    body = await docx.save(tmp_path / "o.docx")
    name = x.head["Field"].split()[1]
    assert name.startswith("_Ref") and x.head["Field"].startswith("REF ") and x.head["Field"].endswith("\\h")
    assert body.xpath(f"count(.//w:p[w:pPr/w:pStyle/@w:val='Caption']/w:bookmarkStart[@w:name='{name}'])",
                      namespaces=NS) == 1


async def test_references_to_a_heading_and_a_note_read_right(docx, tmp_path):
    h, _, note, see = await _doc(docx)
    x = await docx.ok("docx_insert_cross_reference", target_id=h, position=f"end:{see}", kind="text")
    n = await docx.ok("docx_insert_cross_reference", target_id=note, position=f"end:{see}")
    assert x.head["Result"] == "Results" and n.head["Result"] == "1"
    assert n.head["Field"].startswith("NOTEREF _Ref")
    body = await docx.save(tmp_path / "o.docx")
    name = n.head["Field"].split()[1]
    # the note's bookmark wraps its reference mark, as Word's does
    assert body.xpath(f"count(.//w:bookmarkStart[@w:name='{name}']/following-sibling::w:r[1]/w:footnoteReference)",
                      namespaces=NS) == 1


async def test_a_tracked_reference_is_an_insertion(docx, tmp_path):
    _, cap, _, see = await _doc(docx)
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_insert_cross_reference", target_id=cap, position=f"end:{see}", kind="label_and_number")
    body = await docx.save(tmp_path / "o.docx")
    assert body.xpath("count(.//w:ins/w:r/w:instrText)", namespaces=NS) == 1


@pytest.mark.parametrize("target,kind,error", [("para_ffffff", "number", "ElementNotFound"),
                                               ("see", "number", "InvalidElementType"),
                                               ("note", "text", "ValidationError"),
                                               ("cap", "chapter", "ValidationError")])
async def test_bad_targets_and_kinds_are_named_and_change_nothing(docx, tmp_path, target, kind, error):
    _, cap, note, see = await _doc(docx)
    ids = {"cap": cap, "note": note, "see": see}
    before = (await docx.save(tmp_path / "a.docx")).xpath("string(.)", namespaces=NS)
    bad = await docx.call("docx_insert_cross_reference", target_id=ids.get(target, target),
                          position=f"end:{see}", kind=kind)
    assert bad.is_error and bad.error_type == error, bad.text
    body = await docx.save(tmp_path / "b.docx")
    assert body.xpath("string(.)", namespaces=NS) == before and not body.xpath(".//w:instrText[contains(., 'REF')]",
                                                                                namespaces=NS)
