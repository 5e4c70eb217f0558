"""Captions with chapter numbers (issue 32): ``Figure {STYLEREF 1 \\s}-{SEQ Figure \\* ARABIC \\s 1}`` as
Word writes it (the hyphen a w:noBreakHyphen, read U+2011): the chapter is the list number of the
Heading 1 above, the SEQ restarts after each Heading 1; edits, references and LibreOffice agree."""
from __future__ import annotations


import pytest

from tests.builders import NS
from tests.support.parts import assert_same_package

pytestmark = pytest.mark.anyio
HY = "\u2011"  # the non-breaking hyphen Word puts between chapter and number


def captions(body) -> list[str]:
    out = []
    for p in body.xpath(".//w:p[w:pPr/w:pStyle/@w:val='Caption']", namespaces=NS):
        out.append("".join(HY if el.tag.endswith("noBreakHyphen") else el.text or ""
                           for el in p.xpath(".//w:t|.//w:noBreakHyphen", namespaces=NS)))
    return out


async def _chapters(docx) -> dict[str, str]:
    """Two numbered Heading 1 chapters, a picture under each heading and a second in chapter 1:
    IDs of the headings (h1, h2) and pictures (a, b, c), a paragraph 'see'."""
    await docx.create()
    ids = {}
    for key, text, heading in (("see", "See ", False), ("h1", "Intro", True), ("a", "picture A", False),
                               ("b", "picture B", False), ("h2", "Results", True), ("c", "picture C", False)):
        if heading:
            ids[key] = (await docx.ok("docx_insert_heading", text=text, level=1,
                                      position="end:document_body")).element_id
            await docx.ok("docx_set_list", element_id=ids[key], list_type="number")
        else:
            ids[key] = (await docx.ok("docx_insert_paragraph", text=text,
                                      position="end:document_body")).element_id
    return ids


async def _captioned(docx) -> tuple[dict[str, str], dict[str, str]]:
    ids = await _chapters(docx)
    caps = {k: (await docx.ok("docx_insert_caption", element_id=ids[k], text=k.upper(), chapter=1)).element_id
            for k in "abc"}
    return ids, caps


async def test_chapter_captions_number_per_chapter(docx, tmp_path):
    ids, caps = await _captioned(docx)
    r = await docx.ok("docx_insert_caption", element_id=ids["b"], text="B2", chapter=1)
    assert r.head["Caption"] == f"Figure 1{HY}2: B2"
    body = await docx.save(tmp_path / "o.docx")
    assert captions(body) == [f"Figure 1{HY}1: A", f"Figure 1{HY}2: B2", f"Figure 1{HY}3: B", f"Figure 2{HY}1: C"]
    instr = body.xpath("(.//w:p[w:pPr/w:pStyle/@w:val='Caption'])[4]//w:instrText/text()", namespaces=NS)
    assert [i.strip() for i in instr] == ["STYLEREF 1 \\s", "SEQ Figure \\* ARABIC \\s 1"]


async def test_references_read_chapter_and_number(docx, tmp_path):
    ids, caps = await _captioned(docx)
    for kind in ("number", "label_and_number"):
        await docx.ok("docx_insert_cross_reference", target_id=caps["c"], position=f"end:{ids['see']}", kind=kind)
        await docx.ok("docx_insert_run", text="; ", position=f"end:{ids['see']}")
    await docx.ok("docx_update_fields", kinds=["SEQ", "STYLEREF", "REF"])
    body = await docx.save(tmp_path / "o.docx")
    see = body.xpath("w:p[1]", namespaces=NS)[0]
    assert "".join(see.xpath(".//w:t/text()", namespaces=NS)) == f"See 2{HY}1; Figure 2{HY}1; "


async def test_a_caption_moved_to_the_next_chapter_is_renumbered(docx, tmp_path):
    ids, caps = await _captioned(docx)
    see = ids["see"]
    await docx.ok("docx_insert_cross_reference", target_id=caps["b"], position=f"end:{see}",
                  kind="label_and_number")
    # a move: picture B and its caption copied after picture C, then the originals deleted
    await docx.ok("docx_copy_elements_range", start_id=ids["b"], end_id=caps["b"], position=f"after:{caps['c']}")
    await docx.ok("docx_delete", element_id=caps["b"])
    await docx.ok("docx_delete", element_id=ids["b"])
    body = await docx.save(tmp_path / "o.docx")
    assert captions(body) == [f"Figure 1{HY}1: A", f"Figure 2{HY}1: C", f"Figure 2{HY}2: B"]


async def test_undo_restores_the_bytes(docx, tmp_path):
    ids, _ = await _captioned(docx)
    await docx.save(tmp_path / "a.docx")
    await docx.ok("docx_insert_caption", element_id=ids["a"], text="A2", chapter=1)
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "b.docx")
    assert_same_package(tmp_path / "a.docx", tmp_path / "b.docx")


async def test_no_numbered_heading_before_is_refused_and_changes_nothing(docx, tmp_path):
    ids = await _chapters(docx)
    await docx.save(tmp_path / "a.docx")
    bad = await docx.call("docx_insert_caption", element_id=ids["see"], text="X", chapter=1)
    assert bad.is_error and bad.error_type == "ValidationError"
    assert "Heading 1" in bad.text and "docx_set_list" in bad.text
    bad2 = await docx.call("docx_insert_caption", element_id=ids["a"], text="X", chapter=2)  # no Heading 2
    assert bad2.is_error and bad2.error_type == "ValidationError" and "Heading 2" in bad2.text
    await docx.save(tmp_path / "b.docx")
    assert_same_package(tmp_path / "a.docx", tmp_path / "b.docx")


async def _pdf_text(docx, tmp_path) -> tuple[list[str], str]:
    """(our captions, LibreOffice's PDF text) of the saved file, with a reference to caption C."""
    from tests.support.libreoffice import convert_to_pdf, pdf_text, require_soffice
    require_soffice(need_pdftotext=True)
    ids, caps = await _captioned(docx)
    await docx.ok("docx_insert_cross_reference", target_id=caps["c"], position=f"end:{ids['see']}",
                  kind="label_and_number")
    out = tmp_path / "o.docx"
    ours = [c.replace(HY, "-") for c in captions(await docx.save(out))]
    [pdf] = convert_to_pdf([out], tmp_path / "pdf").values()
    return ours, " ".join(pdf_text(pdf).replace(HY, "-").split())


async def test_libreoffice_shows_the_same_chapter_numbers(docx, tmp_path):
    ours, text = await _pdf_text(docx, tmp_path)
    assert ours == ["Figure 1-1: A", "Figure 1-2: B", "Figure 2-1: C"]
    for caption in ours[:2]:
        assert caption in text  # chapter 1: LibreOffice's STYLEREF and SEQ read as ours
    # chapter 2's STYLEREF reads 2 there too; its number is left alone: LibreOffice 7.4 does not restart
    # a SEQ at \s 1 headings (it shows 2-3 where Word and we show 2-1), a known miss this test allows
    assert "Figure 2-" in text.split("Results", 1)[1]


async def test_the_saved_file_validates(docx, tmp_path):
    from tests.support import sdk_validator
    sdk_validator.require()
    ids, caps = await _captioned(docx)
    await docx.ok("docx_insert_cross_reference", target_id=caps["c"], position=f"end:{ids['see']}")
    out = tmp_path / "o.docx"
    await docx.save(out)
    assert sdk_validator.validate_files([out])[out.resolve()] == []
