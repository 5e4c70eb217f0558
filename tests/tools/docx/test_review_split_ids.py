"""Splitting or copying runs that carry revision marks: every mark keeps a w:id of its own.

A run whose formatting change was tracked (``w:rPrChange w:id="6"``), in a paragraph whose own
properties change and mark insertion were tracked, is cut by every tool that splits runs (a comment
or a note anchored on a word, a tracked text edit, a tracked replace) or takes a model's formatting
(a run inserted next to it, a field, a link, the format painter, table cells and rows). Each split
piece keeps the format change, under a new id; new content takes the formatting only. Duplicate
ids are what the Open XML SDK validator reports as ``Sem_UniqueAttributeValue``.
"""
from __future__ import annotations

from collections import Counter

import pytest

from tests.builders import build_docx, document_xml, tbl, tc
from tests.support.client import NS

pytestmark = pytest.mark.anyio
OXM = 'xmlns:oxm="urn:ooxml-mcp:ids:2026"'
REVISION_IDS = ("//w:ins/@w:id | //w:del/@w:id | //w:rPrChange/@w:id | //w:pPrChange/@w:id"
                " | //w:moveFrom/@w:id | //w:moveTo/@w:id | //w:tcPrChange/@w:id | //w:trPrChange/@w:id"
                " | //w:tblPrChange/@w:id | //w:sectPrChange/@w:id | //w:cellIns/@w:id | //w:cellDel/@w:id")
SENTENCE = "The quick brown fox jumps over the lazy dog."
BOB = 'w:author="Bob" w:date="2024-01-01T00:00:00Z"'


def _para(pid: str, rid: str, text: str, first_id: int) -> str:
    """A paragraph (mark inserted, alignment changed by Bob) with one bold run whose bold Bob tracked."""
    a, b, c = first_id, first_id + 1, first_id + 2
    return (f'<w:p {OXM} oxm:id="{pid}"><w:pPr><w:jc w:val="center"/><w:rPr><w:ins w:id="{a}" {BOB}/></w:rPr>'
            f'<w:pPrChange w:id="{b}" {BOB}><w:pPr/></w:pPrChange></w:pPr>'
            f'<w:r {OXM} oxm:id="{rid}"><w:rPr><w:b/><w:rPrChange w:id="{c}" {BOB}><w:rPr/></w:rPrChange></w:rPr>'
            f'<w:t xml:space="preserve">{text}</w:t></w:r></w:p>')


@pytest.fixture
def tracked_format(tmp_path):
    body = (_para("para_00000a", "run_00000a", SENTENCE, 6)
            + _para("para_00000b", "run_00000b", "Second line here.", 16)
            + f'<w:tbl {OXM} oxm:id="table_00000c"' + tbl([[tc(_para("para_00000d", "run_00000d", "cell one", 26)),
                                                           tc(_para("para_00000e", "run_00000e", "cell two", 36))]])[6:])
    # our IDs are read from files whose root declares their namespace (files we saved)
    main = document_xml(body).replace(b"<w:document ", f"<w:document {OXM} ".encode(), 1)
    return build_docx(tmp_path / "tracked-format.docx", "", extra_parts={"word/document.xml": main})


# (tool, arguments, tracking on?) for every way a tool splits a run or copies its formatting
SPLITS = {
    "comment on a word": ("docx_add_comment", dict(element_id="para_00000a", text="Which?", anchor_text="brown"), True),
    "comment on a word of a run": ("docx_add_comment", dict(element_id="run_00000a", text="Which?",
                                                            anchor_text="quick"), False),
    "footnote after a word": ("docx_insert_footnote", dict(element_id="para_00000a", text="A note.",
                                                           anchor_text="quick"), True),
    "tracked paragraph edit": ("docx_update_paragraph_text", dict(element_id="para_00000a",
                                                                  new_text="The quick red fox jumps over the dog."), True),
    "tracked run edit": ("docx_update_run_text", dict(element_id="run_00000a",
                                                      new_text="The slow brown fox jumps over the lazy dog."), True),
    "tracked replace": ("docx_replace_text", dict(old_text="brown", new_text="grey"), True),
    "run next to it": ("docx_insert_run", dict(text=" more", position="after:run_00000a"), False),
    "tracked run next to it": ("docx_insert_run", dict(text=" more", position="after:run_00000a"), True),
    "link next to it": ("docx_insert_hyperlink", dict(text="site", url="https://example.com",
                                                      position="after:run_00000a"), True),
    "field next to it": ("docx_insert_field", dict(field="PAGE", position="after:run_00000a"), False),
    "format painter": ("docx_format_copy", dict(source_id="para_00000a", target_id="para_00000b"), False),
    "paragraph into a cell": ("docx_insert_paragraph_to_cell", dict(text="more", table_id="table_00000c",
                                                                    row=0, col=0), False),
    "row like the last": ("docx_insert_row_at", dict(table_id="table_00000c", position="end"), False),
    "column like the last": ("docx_insert_col_at", dict(table_id="table_00000c", position="end"), False),
    "bookmark on a paragraph": ("docx_add_bookmark", dict(name="There", element_id="para_00000a"), True),
    "copied paragraph": ("docx_copy_paragraph", dict(element_id="para_00000a", position="end:document_body"), False),
}


def duplicates(body) -> list[str]:
    return [i for i, n in Counter(body.xpath(REVISION_IDS, namespaces=NS)).items() if n > 1]


@pytest.mark.parametrize("case", list(SPLITS))
async def test_split_or_copied_revision_marks_get_ids_of_their_own(docx, tracked_format, tmp_path, case):
    name, args, track = SPLITS[case]
    await docx.open(tracked_format)
    if track:
        await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    await docx.ok(name, **args)
    body = await docx.save(tmp_path / "out.docx")
    assert duplicates(body) == [], f"{case}: revision ids used twice"
    # every piece of Bob's run still carries his format change (new text takes the formatting only)
    pieces = [r for r in body.xpath("//w:p[@oxm:id='para_00000a']//w:r[w:t]", namespaces=NS)
              if "".join(r.xpath("w:t/text()", namespaces=NS)) in SENTENCE]
    assert pieces and all(r.xpath("w:rPr/w:rPrChange[@w:author='Bob']", namespaces=NS) for r in pieces), case


async def test_a_comment_on_a_word_of_a_tracked_format_change_validates(docx, tracked_format, tmp_path):
    """The reported case: three pieces of the run each had w:rPrChange w:id="6"."""
    from tests.support.sdk_validator import new_error_kinds, require, validate_files
    require()
    await docx.open(tracked_format)
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    a = await docx.ok("docx_add_comment", element_id="para_00000a", text="Which?", anchor_text="brown")
    assert "brown" in a.section("Context")
    out = tmp_path / "commented.docx"
    body = await docx.save(out)
    changes = body.xpath("//w:p[@oxm:id='para_00000a']/w:r/w:rPr/w:rPrChange/@w:id", namespaces=NS)
    assert len(changes) == 3 and len(set(changes)) == 3
    validate_files([tracked_format, out])
    assert new_error_kinds(tracked_format, out) == []


async def test_a_copy_after_a_new_bookmark_gets_a_bookmark_id_of_its_own(docx, tracked_format, tmp_path):
    """The copy's counters were gathered before the bookmark was added: its ids still come after it."""
    await docx.open(tracked_format)
    await docx.ok("docx_copy_paragraph", element_id="para_00000b", position="end:document_body")  # gathers
    await docx.ok("docx_add_bookmark", name="There", element_id="para_00000a")
    await docx.ok("docx_copy_paragraph", element_id="para_00000a", position="end:document_body")
    body = await docx.save(tmp_path / "out.docx")
    starts = body.xpath("//w:bookmarkStart/@w:id", namespaces=NS)
    assert len(starts) == 2 and len(set(starts)) == 2
