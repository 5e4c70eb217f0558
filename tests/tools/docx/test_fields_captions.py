"""docx_insert_caption: Word's caption (Caption style, label, SEQ number, _Ref bookmark), numbers in
document order as captions are inserted; bad labels named, nothing changed."""
from __future__ import annotations

import pytest

from tests.builders import NS

pytestmark = pytest.mark.anyio


def captions(body) -> list[str]:
    return ["".join(p.xpath(".//w:t/text()", namespaces=NS))
            for p in body.xpath("w:p[w:pPr/w:pStyle/@w:val='Caption']", namespaces=NS)]


async def _paragraphs(docx, *texts) -> list[str]:
    return [(await docx.ok("docx_insert_paragraph", text=t, position="end:document_body")).element_id for t in texts]


async def test_a_caption_is_words_markup(docx, tmp_path):
    await docx.create()
    [fig] = await _paragraphs(docx, "picture")
    a = await docx.ok("docx_insert_caption", element_id=fig, text="A chart")
    assert a.head["Caption"] == "Figure 1: A chart" and a.head["Field"] == "SEQ Figure \\* ARABIC"
    body = await docx.save(tmp_path / "o.docx")
    cap = body.xpath("w:p[w:pPr/w:pStyle/@w:val='Caption']", namespaces=NS)[0]
    assert cap.xpath("string(.//w:instrText)", namespaces=NS).strip() == "SEQ Figure \\* ARABIC"
    mark = cap.find("w:bookmarkStart", NS)
    assert mark.get(f"{{{NS['w']}}}name").startswith("_Ref")


async def test_a_caption_inserted_before_others_renumbers_them(docx, tmp_path):
    await docx.create()
    one, two, three = await _paragraphs(docx, "p1", "p2", "p3")
    await docx.ok("docx_insert_caption", element_id=three, text="C")
    await docx.ok("docx_insert_caption", element_id=one, text="A")
    b = await docx.ok("docx_insert_caption", element_id=two, text="B")
    assert b.head["Caption"] == "Figure 2: B" and "'2'->'3'" in b.head["Updated"]
    t = await docx.ok("docx_insert_caption", element_id=two, text="T", label="Table", position="before")
    assert t.head["Caption"] == "Table 1: T"
    body = await docx.save(tmp_path / "o.docx")
    assert captions(body) == ["Figure 1: A", "Table 1: T", "Figure 2: B", "Figure 3: C"]


async def test_a_tracked_caption_is_an_insertion(docx, tmp_path):
    await docx.create()
    [fig] = await _paragraphs(docx, "picture")
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_insert_caption", element_id=fig, text="A")
    body = await docx.save(tmp_path / "o.docx")
    cap = body.xpath("w:p[w:pPr/w:pStyle/@w:val='Caption']", namespaces=NS)[0]
    assert cap.xpath("w:pPr/w:rPr/w:ins", namespaces=NS) and cap.xpath("w:ins/w:r", namespaces=NS)


@pytest.mark.parametrize("label", ["Two words", "", "1st"])
async def test_a_bad_label_is_named_and_changes_nothing(docx, tmp_path, label):
    await docx.create()
    [fig] = await _paragraphs(docx, "picture")
    before = await docx.save(tmp_path / "a.docx")
    bad = await docx.call("docx_insert_caption", element_id=fig, text="x", label=label)
    assert bad.is_error and bad.error_type == "ValidationError" and "label" in bad.text
    after = await docx.save(tmp_path / "b.docx")
    assert captions(after) == captions(before) == []
