"""Text edits change only the words they change: every unchanged run keeps its formatting (bold,
italic, size), untracked as tracked. Checked in the saved XML run by run and in the view."""
from __future__ import annotations

import re

import pytest

from tests.builders import build_docx
from tests.support.client import NS

pytestmark = pytest.mark.anyio
W = NS["w"]


def run(text: str, rpr: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


MIXED = "<w:p>" + run("plain ") + run("bold", "<w:b/>") + run(" plain ") + run("italic", "<w:i/>") + run(" end") + "</w:p>"
CLAUSE = ("<w:p>" + run("1.1 Payment.", "<w:b/>") + run(" The buyer pays each invoice within thirty days.")
          + "</w:p>")
BOOK = ("<w:p>" + run("Chapter One. ", '<w:b/><w:sz w:val="24"/>')
        + run("The night was dark and the sea was loud.", '<w:sz w:val="28"/>') + "</w:p>")


def _on(rpr, name: str) -> bool:
    el = rpr.find(f"{{{W}}}{name}") if rpr is not None else None
    return el is not None and el.get(f"{{{W}}}val", "true") not in ("0", "false", "off")


def _size(rpr) -> str | None:
    el = rpr.find(f"{{{W}}}sz") if rpr is not None else None
    return el.get(f"{{{W}}}val") if el is not None else None


def formatted(p) -> list[tuple[str, bool, bool, str | None]]:
    """(text, bold, italic, size) per stretch of equal formatting, as the paragraph reads (w:del skipped)."""
    out: list[list] = []
    for r in p.xpath(".//w:r[not(ancestor::w:del)]", namespaces=NS):
        text = "".join(r.xpath("w:t/text()", namespaces=NS))
        if not text:
            continue
        rpr = r.find(f"{{{W}}}rPr")
        key = (_on(rpr, "b"), _on(rpr, "i"), _size(rpr))
        if out and tuple(out[-1][1:]) == key:
            out[-1][0] += text
        else:
            out.append([text, *key])
    return [tuple(x) for x in out]


async def _edit(docx, tmp_path, body: str, new_text: str, tracked: bool):
    src = build_docx(tmp_path / "in.docx", body)
    opened = await docx.open(src)
    pid = re.search(r"Paragraph \((para_\w+)\)", opened.text).group(1)
    if tracked:
        await docx.ok("docx_set_track_changes", session_id=docx.session_id, enabled=True, author="Ann")
    answer = await docx.ok("docx_update_paragraph_text", session_id=docx.session_id, element_id=pid,
                           new_text=new_text)
    saved = await docx.save(tmp_path / "out.docx")
    return answer, saved.find(f"{{{W}}}p")


@pytest.mark.parametrize("tracked", [False, True], ids=["untracked", "tracked"])
async def test_one_plain_word_keeps_bold_and_italic(docx, tmp_path, tracked):
    answer, p = await _edit(docx, tmp_path, MIXED, "plain bold simple italic end", tracked)
    assert formatted(p) == [("plain ", False, False, None), ("bold", True, False, None),
                            (" simple ", False, False, None), ("italic", False, True, None),
                            (" end", False, False, None)]
    if not tracked:
        assert "plain **bold** simple *italic* end" in answer.text


@pytest.mark.parametrize("tracked", [False, True], ids=["untracked", "tracked"])
async def test_clause_with_bold_title_stays_plain(docx, tmp_path, tracked):
    answer, p = await _edit(docx, tmp_path, CLAUSE, "1.1 Payment. The buyer pays each invoice within sixty days.",
                            tracked)
    assert formatted(p) == [("1.1 Payment.", True, False, None),
                            (" The buyer pays each invoice within sixty days.", False, False, None)]
    if not tracked:
        assert "**1.1 Payment.** The buyer pays each invoice within sixty days." in answer.text


@pytest.mark.parametrize("tracked", [False, True], ids=["untracked", "tracked"])
async def test_book_sentence_keeps_its_size(docx, tmp_path, tracked):
    answer, p = await _edit(docx, tmp_path, BOOK, "Chapter One. The night was cold and the sea was loud.", tracked)
    assert formatted(p) == [("Chapter One. ", True, False, "24"),
                            ("The night was cold and the sea was loud.", False, False, "28")]
    if not tracked:
        assert "**Chapter One.** The night was cold" in answer.text


ARIAL = '<w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:b/>'
TABLE = ('<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/>'
         '<w:gridCol w:w="3000"/></w:tblGrid>'
         + "".join(f"<w:tr><w:tc><w:p>{run(a, ARIAL)}</w:p></w:tc><w:tc><w:p>{run(b, ARIAL)}</w:p></w:tc></w:tr>"
                   for a, b in (("Item", "Price"), ("Apples", "3.00")))
         + "</w:tbl><w:p/>")


@pytest.mark.parametrize("tracked", [False, True], ids=["untracked", "tracked"])
async def test_new_row_keeps_neighbour_run_formatting(docx, tmp_path, tracked):
    opened = await docx.open(build_docx(tmp_path / "in.docx", TABLE))
    tid = re.search(r"Table \((table_\w+)\)", opened.text).group(1)
    if tracked:
        await docx.ok("docx_set_track_changes", session_id=docx.session_id, enabled=True, author="Ann")
    await docx.ok("docx_insert_row_at", session_id=docx.session_id, table_id=tid, position="end")
    answer = await docx.ok("docx_fill_table", session_id=docx.session_id, table_id=tid,
                           data=[["Pears", "4.50"]], start_row=2)
    body = await docx.save(tmp_path / "out.docx")
    row = body.xpath("w:tbl/w:tr", namespaces=NS)[2]
    runs = row.xpath(".//w:r[w:t]", namespaces=NS)
    assert ["".join(r.xpath("w:t/text()", namespaces=NS)) for r in runs] == ["Pears", "4.50"]
    for r in runs:
        rpr = r.find(f"{{{W}}}rPr")
        assert _on(rpr, "b"), "the new row's text is bold like its neighbour's"
        assert rpr.find(f"{{{W}}}rFonts").get(f"{{{W}}}ascii") == "Arial"
    assert "Pears" in answer.text and "4.50" in answer.text


async def test_text_removed_from_a_link_takes_the_emptied_link_with_it(docx, tmp_path):
    link = ('<w:p>' + run("Visit ") + '<w:hyperlink w:anchor="top">' + run("our site", "<w:u w:val=\"single\"/>")
            + "</w:hyperlink>" + run(" today, ") + run("please", "<w:b/>") + "</w:p>")
    answer, p = await _edit(docx, tmp_path, link, "Visit today, please", tracked=False)
    assert not p.xpath(".//w:hyperlink", namespaces=NS), "an emptied link goes, as accepting its deletion does"
    assert formatted(p) == [("Visit today, ", False, False, None), ("please", True, False, None)]
    assert "Visit today, **please**" in answer.text
