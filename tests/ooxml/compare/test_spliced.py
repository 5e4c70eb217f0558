"""ooxml/compare/spliced.py: docx_compare's fast path (issue 29, defect 18: a 50,000-paragraph pair
took 2.8 s of CPU, most of it parsing and serializing paragraphs that did not change). Blocks equal
byte for byte are never parsed and the redline's main part is spliced; the redline must be the one
the comparison of whole trees gives, byte for byte, and where the bytes leave any doubt the fast
path declines (None) and the whole path runs."""
from __future__ import annotations

import io
import zipfile
from datetime import datetime, timezone

import pytest

from ooxml.compare import redline, run, spliced, views
from ooxml.compare.paragraphs import Options
from ooxml.model.document import Document
from ooxml.opc.package import Package
from ooxml.xml import clock
from ooxml.xml.errors import InvalidDocument
from ooxml.xml.namespaces import w
from tests.builders import build_docx, p, tbl, tc

WHEN = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
SECTION = ('<w:p><w:pPr><w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr></w:pPr>'
           '<w:r><w:t>End of part one.</w:t></w:r></w:p>')


def body(k_edit: set[int], gone: set[int] = frozenset(), extra: str = "") -> str:
    out = []
    for k in range(400):
        if k in gone:
            continue
        text = f"Paragraph {k} tells of item {k}" + (" and more" if k in k_edit else "") + "."
        out.append(p(text, ' w:rsidR="00A1B2C3"'))
        if k == 7:
            out.append('<w:bookmarkStart w:id="3" w:name="here"/><w:p/><w:bookmarkEnd w:id="3"/>')
        if k % 50 == 0:
            out.append(tbl([[tc(p(f"Cell {k}")), tc()]]))
        if k == 200:
            out.append(SECTION + extra)
    return "".join(out)


def pair(tmp_path, a: str, b: str) -> tuple[bytes, bytes]:
    return (build_docx(tmp_path / "a.docx", a).read_bytes(), build_docx(tmp_path / "b.docx", b).read_bytes())


def whole(a: bytes, b: bytes, opts: Options) -> tuple[dict, dict]:
    """The redline as the whole trees give it: its parts' bytes, and its counts."""
    x, y = Document.from_bytes(a), Document.from_bytes(b)
    with clock.pinned(WHEN):
        views.accept_all(x)
        views.accept_all(y)
        result = redline.build(x, y, "Tester", opts)
        made = views.as_new_document(y)
    x.close()
    return _parts(made), dict(result.counts)


def fast(a: bytes, b: bytes, opts: Options):
    with clock.pinned(WHEN):
        got = spliced.redline_of(Package.from_bytes(a), Package.from_bytes(b), "Tester", opts, views.accept_all)
    return None if got is None else (_parts(got[1]), dict(got[0].counts))


def _parts(doc) -> dict:
    out = {name: part._data for name, part in doc.package.parts.items()}  # noqa: SLF001 (the bytes given)
    doc.close()
    return out


@pytest.mark.parametrize("opts", [Options(), Options("character"), Options("word", formatting=False)],
                         ids=["word", "character", "no-formatting"])
def test_a_long_document_edited_in_places_gets_the_redline_of_the_whole_trees(tmp_path, opts):
    a, b = pair(tmp_path, body(set()), body({3, 120, 121, 260, 399}, gone={50, 300}))
    got = fast(a, b, opts)
    assert got is not None  # the fast path ran
    assert got == whole(a, b, opts)
    assert got[1]["insertions"] and got[1]["deletions"]


def test_section_breaks_in_unchanged_paragraphs_still_count_for_headers_and_page_setup(tmp_path):
    """A paragraph holding a section break is parsed though equal (the header pass reads it)."""
    a, b = pair(tmp_path, body({5}), body({5, 201}).replace("End of part one.", "End of part 1."))
    got = fast(a, b, Options())
    assert got is not None and got == whole(a, b, Options())
    assert got[1]["insertions"] == 2


def test_bytes_lxml_would_write_otherwise_take_the_whole_path(tmp_path):
    """Another program's spelling (``<w:b />``): equal bytes might not be what equal XML is."""
    odd = p("Spelled otherwise").replace("<w:r>", "<w:r><w:rPr><w:b /></w:rPr>")
    a, b = pair(tmp_path, body(set()) + odd, body({9}) + odd)
    assert fast(a, b, Options()) is None
    with clock.pinned(WHEN):
        result, made = run.compare(Package.from_bytes(a), Package.from_bytes(b), "Tester", Options())
    assert (_parts(made), dict(result.counts)) == whole(a, b, Options())


def test_tracked_changes_in_a_main_part_take_the_whole_path(tmp_path):
    tracked = ('<w:p><w:ins w:id="90" w:author="X" w:date="2026-01-01T00:00:00Z"><w:r><w:t>New</w:t></w:r>'
               '</w:ins></w:p>')
    a, b = pair(tmp_path, body(set()), body({9}) + tracked)
    assert fast(a, b, Options()) is None


def test_move_detection_takes_the_whole_path(tmp_path):
    a, b = pair(tmp_path, body(set()), body({9}))
    assert fast(a, b, Options("word", True, True)) is None


def test_a_paragraph_that_reads_like_a_placeholder_is_compared_as_text(tmp_path):
    """The splice's stand-ins are private-use text: a document holding the same text is still right."""
    like = p("\ue0010")
    a, b = pair(tmp_path, body(set()), body({9}, extra=like))
    got = fast(a, b, Options())
    assert got is None or got == whole(a, b, Options())
    with clock.pinned(WHEN):
        result, made = run.compare(Package.from_bytes(a), Package.from_bytes(b), "Tester", Options())
    assert (_parts(made), dict(result.counts)) == whole(a, b, Options())


def test_ids_of_copies_count_the_revisions_written_before_them(tmp_path):
    """Deleted words copied from the original (their w14 properties ask for fresh IDs) take Word's
    IDs after those of the whole part and of the revisions already written, as the whole trees
    give them (the fast path once counted only the original's, repeating w:id 1)."""
    marked = ('<w:p><w:r><w:t xml:space="preserve">Keep this </w:t></w:r><w:r><w:rPr><w14:ligatures w14:val="all"/>'
              '</w:rPr><w:t>and drop these words</w:t></w:r><w:r><w:t xml:space="preserve"> to the end.</w:t></w:r></w:p>')
    kept = '<w:p><w:r><w:t>Keep this to the end.</w:t></w:r></w:p>'
    a, b = pair(tmp_path, body(set(), extra=marked), body({3, 150}, extra=kept))
    got = fast(a, b, Options())
    assert got is not None and got == whole(a, b, Options())


def test_a_body_with_no_block_but_its_section_properties(tmp_path):
    """The last w:sectPr lies between blocks (none here): no block holds it (once an IndexError)."""
    a, b = pair(tmp_path, "", p("Written by the agent."))
    assert fast(a, b, Options()) is None  # nothing to skip: the whole path
    with clock.pinned(WHEN):
        result, made = run.compare(Package.from_bytes(a), Package.from_bytes(b), "Tester", Options())
    assert (_parts(made), dict(result.counts)) == whole(a, b, Options())


def test_a_main_part_declaring_a_dtd_is_refused_as_on_every_open(tmp_path):
    """The fast path reads the root's start tag with the safe parser: a DTD is the whole path's to refuse."""
    a, b = pair(tmp_path, body(set()), body({9}))
    with zipfile.ZipFile(io.BytesIO(b)) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts["word/document.xml"] = parts["word/document.xml"].replace(
        b"?>", b'?><!DOCTYPE w:document [<!ENTITY x SYSTEM "file:///etc/passwd">]>', 1)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for n, data in parts.items():
            z.writestr(n, data)
    assert fast(a, out.getvalue(), Options()) is None
    with pytest.raises(InvalidDocument, match="DTD"):
        run.compare(Package.from_bytes(a), Package.from_bytes(out.getvalue()), "Tester", Options())


def saved_by_us(data: bytes, edit=None, shown: int | None = None) -> bytes:
    """``data`` opened, edited (``edit(doc)``), its blocks shown (the first ``shown``, else all)
    and saved by this server: each block shown carries our ID, as in a file read through us."""
    doc = Document.from_bytes(data)
    if edit is not None:
        edit(doc)
    for el in list(doc.body.iter(w("p"), w("tbl")))[:shown]:
        doc.id_of(el)
    out = doc.to_bytes()
    doc.close()
    return out


def _edited(doc) -> None:
    paras = [el for el in doc.body if el.tag == w("p")]
    for k in (3, 120, 260):
        paras[k].find(f"{w('r')}/{w('t')}").text += " and more"
    doc.remove_block(paras[50])
    doc.main.touch()


def test_two_versions_saved_by_this_server_take_the_fast_path(tmp_path):
    """Our IDs on every block (a file read and saved through us): the fast path once declined on
    them, so the commonest pair of our users took the whole path."""
    a = saved_by_us(build_docx(tmp_path / "a.docx", body(set())).read_bytes())
    b = saved_by_us(a, _edited)
    assert all(b"oxm:id=" in Package.from_bytes(x).part("word/document.xml").data for x in (a, b))
    assert fast(a, b, Options()) is not None


@pytest.mark.parametrize("opts", [Options(), Options("character"), Options("word", formatting=False)],
                         ids=["word", "character", "no-formatting"])
def test_two_versions_saved_by_this_server_get_the_redline_of_the_whole_trees(tmp_path, opts):
    a = saved_by_us(build_docx(tmp_path / "a.docx", body(set())).read_bytes())
    b = saved_by_us(a, _edited)
    got = fast(a, b, opts)
    assert got is not None and got == whole(a, b, opts)
    assert b"oxm" not in got[0]["word/document.xml"]  # the redline is a new document: no ID of ours
    assert got[1]["insertions"] and got[1]["deletions"]


def test_a_file_against_its_version_saved_by_this_server_gets_the_redline_of_the_whole_trees(tmp_path):
    """Only the revised version carries our IDs, on the blocks shown (a Word file read in part,
    edited and saved through us)."""
    a = build_docx(tmp_path / "a.docx", body(set())).read_bytes()
    b = saved_by_us(a, _edited, shown=40)
    got = fast(a, b, Options())
    assert got is not None and got == whole(a, b, Options())
