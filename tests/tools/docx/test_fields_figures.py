"""docx_insert_table_of_figures: a TOC \\c field over the label's captions, linked, with page numbers
from LibreOffice's layout; docx_update_fields rebuilds it after captions change; a label without
captions is named."""
from __future__ import annotations

import pytest

from tests.builders import NS

pytestmark = pytest.mark.anyio


def figure_table(body) -> list[str]:
    return [" ".join("".join(p.xpath(".//w:t/text()", namespaces=NS)).split())
            for p in body.xpath("w:p[w:pPr/w:pStyle/@w:val='TableofFigures']", namespaces=NS)]


async def _captioned(docx, names):
    await docx.create()
    top = (await docx.ok("docx_insert_paragraph", text="Figures", position="end:document_body")).element_id
    caps = {}
    for name in names:
        await docx.ok("docx_insert_page_break", position="end:document_body")
        fig = (await docx.ok("docx_insert_paragraph", text=f"picture {name}", position="end:document_body")).element_id
        caps[name] = (await docx.ok("docx_insert_caption", element_id=fig, text=name)).element_id
    return top, caps


async def test_a_table_of_figures_lists_the_captions_with_their_pages(docx, tmp_path):
    top, _ = await _captioned(docx, ["Alpha", "Beta"])
    t = await docx.ok("docx_insert_table_of_figures", position=f"after:{top}")
    assert t.head["Entries"] == "2"
    body = await docx.save(tmp_path / "o.docx")
    assert body.xpath("string((.//w:instrText[starts-with(normalize-space(.), 'TOC')])[1])",
                      namespaces=NS).strip() == 'TOC \\h \\z \\c "Figure"'
    if "LibreOffice" in t.head["Pages"]:
        assert figure_table(body) == ["Figure 1: Alpha2", "Figure 2: Beta3"]
    else:
        assert figure_table(body) == ["Figure 1: Alpha1", "Figure 2: Beta1"]
    anchors = body.xpath(".//w:hyperlink/@w:anchor", namespaces=NS)
    assert len(anchors) == 2 and all(a.startswith("_Toc") for a in anchors)


async def test_update_fields_rebuilds_it_after_a_caption_goes(docx, tmp_path):
    top, caps = await _captioned(docx, ["Alpha", "Beta", "Gamma"])
    await docx.ok("docx_insert_table_of_figures", position=f"after:{top}")
    await docx.ok("docx_delete", element_id=caps["Alpha"])
    u = await docx.ok("docx_update_fields")
    assert u.head["Tables Of Figures Rebuilt"] == "1"
    body = await docx.save(tmp_path / "o.docx")
    assert [t.rstrip("0123456789") for t in figure_table(body)] == ["Figure 1: Beta", "Figure 2: Gamma"]


async def test_a_label_without_captions_is_named_and_changes_nothing(docx, tmp_path):
    top, _ = await _captioned(docx, ["Alpha"])
    bad = await docx.call("docx_insert_table_of_figures", position=f"after:{top}", label="Table")
    assert bad.is_error and bad.error_type == "ElementNotFound" and "Table" in bad.text
    assert figure_table(await docx.save(tmp_path / "o.docx")) == []
