"""docx_export: the current state as PDF (profiles, page ranges, reproducible), ODT, RTF, HTML and
text, through the server's LibreOffice, written by the one writer of files (issue 32)."""
from __future__ import annotations

import random
import re
import subprocess
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from tests.support.client import open_client
from tests.support.libreoffice import convert_cached, pdf_pages, pdf_text, require_soffice
from tests.support.linked import linked_docx, loopback_listener

pytestmark = [pytest.mark.anyio, pytest.mark.libreoffice]
WORDS = ("amber basalt cobalt delta ember fjord granite harbour island juniper kestrel lagoon meadow "
         "nectar orchard pebble quarry raven saffron thistle umber valley willow yarrow zephyr").split()


@pytest.fixture(autouse=True)
def _soffice():
    require_soffice(need_pdftotext=True)


def _long_markdown(paragraphs: int = 60, seed: int = 32) -> str:
    """Headings and paragraphs of plain words: several pages."""
    rng = random.Random(seed)
    out = []
    for i in range(paragraphs):
        if i % 10 == 0:
            out.append(f"# Chapter {i // 10 + 1}")
        out.append(" ".join(rng.choice(WORDS) for _ in range(60)) + ".")
    return "\n\n".join(out)


async def _long_doc(docx, tmp_path: Path) -> Path:
    """A session on a several-page document, also saved as long.docx."""
    await docx.create()
    await docx.ok("docx_insert_markdown", markdown=_long_markdown(), position="end:document_body")
    saved = tmp_path / "long.docx"
    await docx.ok("docx_save", file_path=str(saved))
    return saved


async def _three_pages(docx) -> None:
    await docx.create()
    for page in range(3):
        if page:
            await docx.ok("docx_insert_page_break", position="end:document_body")
        await docx.ok("docx_insert_paragraph", text=f"Marker{page + 1} starts here", position="end:document_body")


def _words(text: str) -> Counter:
    return Counter(re.findall(r"[A-Za-z]+", text.lower()))


async def test_pdf_page_count_equals_libreoffices_own_conversion(docx, tmp_path):
    saved = await _long_doc(docx, tmp_path)
    answer = await docx.ok("docx_export", file_path=str(tmp_path / "long.pdf"))
    own = convert_cached([saved], label="export reference")[saved.resolve()]
    assert pdf_pages(own) > 2
    assert int(answer.head["Pages"]) == pdf_pages(tmp_path / "long.pdf") == pdf_pages(own)


async def test_pdf_text_holds_the_documents_words(docx, tmp_path):
    await _long_doc(docx, tmp_path)
    await docx.ok("docx_export", file_path=str(tmp_path / "long.pdf"))
    expected = _words(_long_markdown())
    found = _words(pdf_text(tmp_path / "long.pdf"))
    kept = sum(min(n, found[w]) for w, n in expected.items())
    assert kept >= 0.98 * sum(expected.values())


async def test_pdfa_2b_is_declared_in_the_xmp_metadata(docx, tmp_path):
    await _three_pages(docx)
    await docx.ok("docx_export", file_path=str(tmp_path / "a.pdf"), profile="pdfa-2b")
    data = (tmp_path / "a.pdf").read_bytes()
    xmp = data[data.index(b"<x:xmpmeta"):data.index(b"</x:xmpmeta>")]
    assert re.search(rb"pdfaid:part(>|=\")2", xmp) and re.search(rb"pdfaid:conformance(>|=\")B", xmp)


async def test_pdfua_is_tagged_with_a_title_and_language(docx, tmp_path):
    await _three_pages(docx)
    answer = await docx.ok("docx_export", file_path=str(tmp_path / "accessible.pdf"), profile="pdfua")
    assert answer.head["Format"] == "PDF (pdfua)"
    data = (tmp_path / "accessible.pdf").read_bytes()
    assert b"/MarkInfo" in data and b"/StructTreeRoot" in data and b"/Lang" in data
    info = subprocess.run(["pdfinfo", str(tmp_path / "accessible.pdf")], capture_output=True, text=True).stdout
    assert re.search(r"^Title:\s+accessible$", info, re.M)  # no title of its own: the file's name


async def test_pages_are_exported_alone(docx, tmp_path):
    await _three_pages(docx)
    answer = await docx.ok("docx_export", file_path=str(tmp_path / "some.pdf"), pages="2-3")
    text = pdf_text(tmp_path / "some.pdf")
    assert answer.head["Pages"] == "2" and pdf_pages(tmp_path / "some.pdf") == 2
    assert "Marker2" in text and "Marker3" in text and "Marker1" not in text


async def test_a_page_past_the_end_is_named_and_nothing_is_written(docx, tmp_path):
    await _three_pages(docx)
    answer = await docx.call("docx_export", file_path=str(tmp_path / "none.pdf"), pages="2,5")
    assert answer.is_error and answer.error_type == "ValidationError"
    assert "Page 5 does not exist: the document has 3 page(s)" in answer.text
    assert not (tmp_path / "none.pdf").exists()


async def test_a_malformed_page_range_is_named(docx, tmp_path):
    await _three_pages(docx)
    answer = await docx.call("docx_export", file_path=str(tmp_path / "none.pdf"), pages="3-1")
    assert answer.is_error and "'3-1'" in answer.text and not (tmp_path / "none.pdf").exists()


async def test_external_links_in_the_document_reach_nothing(tmp_path):
    with loopback_listener(b"", seconds=240) as (base, seen):
        doc = linked_docx(tmp_path / "linked.docx", f"{base}/x.png")
        async with open_client([tmp_path]) as docx:
            await docx.open(doc)
            for fmt in ("pdf", "odt", "html"):
                await docx.ok("docx_export", file_path=str(tmp_path / f"linked.{fmt}"), format=fmt)
        assert list(seen) == []


async def test_a_file_written_by_someone_else_is_not_replaced_without_overwrite(docx, tmp_path):
    await _three_pages(docx)
    target = tmp_path / "theirs.pdf"
    target.write_bytes(b"someone else's file")
    answer = await docx.call("docx_export", file_path=str(target))
    assert answer.is_error and answer.error_type == "FileChanged"
    assert target.read_bytes() == b"someone else's file"
    await docx.ok("docx_export", file_path=str(target), overwrite=True)
    assert target.read_bytes().startswith(b"%PDF")
    await docx.ok("docx_export", file_path=str(target))  # its own file again: no overwrite needed


async def test_the_extension_must_be_the_formats(docx, tmp_path):
    await _three_pages(docx)
    answer = await docx.call("docx_export", file_path=str(tmp_path / "out.docx"), format="pdf")
    assert answer.is_error and answer.error_type == "UnsupportedFileType" and "out.pdf" in answer.text


async def test_reproducible_pdfs_are_byte_identical_with_a_fixed_date(docx, tmp_path):
    await _three_pages(docx)
    await docx.ok("docx_export", file_path=str(tmp_path / "r1.pdf"), reproducible=True, profile="pdfa-2b")
    await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")
    await docx.ok("docx_undo")
    await docx.ok("docx_export", file_path=str(tmp_path / "r2.pdf"), reproducible=True, profile="pdfa-2b")
    info = subprocess.run(["pdfinfo", str(tmp_path / "r1.pdf")], capture_output=True, text=True).stdout
    assert re.search(r"^CreationDate:.*2000", info, re.M)
    assert (tmp_path / "r1.pdf").read_bytes() == (tmp_path / "r2.pdf").read_bytes()


@pytest.mark.parametrize("fmt,check", [
    ("odt", lambda p: zipfile.ZipFile(p).read("mimetype") == b"application/vnd.oasis.opendocument.text"),
    ("rtf", lambda p: p.read_bytes().startswith(b"{\\rtf") and b"Marker2" in p.read_bytes()),
    ("html", lambda p: b"<html" in p.read_bytes().lower() and b"Marker3" in p.read_bytes()),
    ("txt", lambda p: "Marker1 starts here" in p.read_text(encoding="utf-8-sig")),
])
async def test_other_formats_are_what_their_names_say(docx, tmp_path, fmt, check):
    await _three_pages(docx)
    answer = await docx.ok("docx_export", file_path=str(tmp_path / f"out.{fmt}"), format=fmt)
    assert answer.head["Format"] == fmt.upper() and check(tmp_path / f"out.{fmt}")


async def test_a_font_the_machine_lacks_is_named_as_substituted(docx, tmp_path):
    await docx.create()
    para = await docx.ok("docx_insert_paragraph", text="Odd font", position="end:document_body")
    await docx.ok("docx_set_font", element_id=para.element_id, font_name="Nosuchfont Grotesk")
    answer = await docx.ok("docx_export", file_path=str(tmp_path / "f.pdf"))
    assert "Nosuchfont Grotesk → " in answer.head["Fonts Substituted"]


async def test_the_answer_links_the_file_written(docx, tmp_path):
    await _three_pages(docx)
    result = await docx.client.call_tool("docx_export", {"file_path": str(tmp_path / "l.pdf")})
    links = [c for c in result.content if c.type == "resource_link"]
    assert [(link.uri, link.mime_type) for link in links] == [((tmp_path / "l.pdf").as_uri(), "application/pdf")]


async def test_a_long_export_reports_progress_while_libreoffice_converts(docx, tmp_path):
    await _long_doc(docx, tmp_path)
    seen = []

    async def on_progress(done, total, message):
        seen.append((done, total, message))

    result = await docx.client.call_tool("docx_export", {"file_path": str(tmp_path / "p.pdf")},
                                         progress_callback=on_progress)
    assert not result.is_error, result.content[0].text
    converting = [s for s in seen if s[2].startswith("LibreOffice is converting")]
    assert len(converting) >= 2  # a heartbeat during the conversion, not only before it
    assert [s[0] for s in seen] == sorted(s[0] for s in seen) and len({s[0] for s in seen}) == len(seen)
    assert seen[-1][0] == seen[-1][1]


async def test_pdf_only_arguments_with_another_format_are_named(docx, tmp_path):
    await _three_pages(docx)
    answer = await docx.call("docx_export", file_path=str(tmp_path / "o.odt"), format="odt", pages="1")
    assert answer.is_error and answer.error_type == "ValidationError" and "PDF only" in answer.text
    assert not (tmp_path / "o.odt").exists()


async def test_an_export_that_leaves_comments_out_says_so(docx, tmp_path):
    await docx.create()
    para = await docx.ok("docx_insert_paragraph", text="Commented text", position="end:document_body")
    await docx.ok("docx_add_comment", element_id=para.element_id, text="A remark", anchor_text="Commented")
    answer = await docx.ok("docx_export", file_path=str(tmp_path / "c.odt"), format="odt")
    assert answer.head["Comments"].startswith("not exported")
    assert b"Commented text" in zipfile.ZipFile(tmp_path / "c.odt").read("content.xml")
