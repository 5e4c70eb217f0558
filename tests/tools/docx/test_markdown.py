"""Markdown in and out: docx_insert_markdown builds the document's own structures, and
docx_export_markdown gives the same Markdown back (after normalisation)."""
from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin
from PIL import Image

from tests.support.client import NS, by_id, read_body, read_part, texts

pytestmark = pytest.mark.anyio
CASES = Path(__file__).with_name("markdown")
CASE_FILES = sorted(CASES.glob("*.md"))
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def normalised(markdown: str) -> str:
    """The HTML CommonMark+GFM makes of it, without comments and with whitespace collapsed."""
    html = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).use(footnote_plugin) \
        .render(markdown)
    html = re.sub(r"<!--.*?-->", "", html, flags=re.S)
    return " ".join(html.replace(">", "> ").replace("<", " <").split())


@pytest.fixture
def picture(tmp_path) -> Path:
    path = tmp_path / "pic.png"
    Image.new("RGB", (40, 30), "red").save(path)
    return path


async def insert(docx, markdown: str, position: str = "end:document_body"):
    return await docx.ok("docx_insert_markdown", markdown=markdown, position=position)


async def export(docx, **kw) -> str:
    answer = await docx.ok("docx_export_markdown", **kw)
    body = answer.section("Content")
    fence = re.search(r"^(`{3,})markdown\n(.*)\n\1\s*$", body, re.S | re.M)
    assert fence, body
    return fence.group(2)


@pytest.mark.parametrize("case", CASE_FILES, ids=[p.stem for p in CASE_FILES])
async def test_inserted_markdown_exports_back_equal(docx, case, picture):
    source = case.read_text(encoding="utf-8")
    await docx.create()
    await insert(docx, source)
    exported = await export(docx, ids=False)
    assert normalised(exported) == normalised(source), exported


async def test_headings_use_the_documents_heading_styles(docx, tmp_path):
    await docx.create()
    answer = await insert(docx, "# One\n\n### Three\n")
    body = await docx.save(tmp_path / "h.docx")
    styles = body.xpath("//w:p/w:pPr/w:pStyle/@w:val", namespaces=NS)
    assert styles == ["Heading1", "Heading3"]
    assert answer.head["Blocks Inserted"] == "2"


async def test_lists_become_real_numbering_with_levels(docx, tmp_path):
    await docx.create()
    await insert(docx, "1. a\n   - b\n     - c\n       - d\n2. e\n")
    path = tmp_path / "l.docx"
    body = await docx.save(path)
    levels = body.xpath("//w:p/w:pPr/w:numPr/w:ilvl/@w:val", namespaces=NS)
    assert levels == ["0", "1", "2", "3", "0"]
    num_ids = set(body.xpath("//w:numPr/w:numId/@w:val", namespaces=NS))
    assert len(num_ids) == 1
    numbering = etree.fromstring(read_part(path, "word/numbering.xml"))
    formats = numbering.xpath("//w:abstractNum/w:lvl/w:numFmt/@w:val", namespaces=NS)[:4]
    assert formats == ["decimal", "bullet", "bullet", "bullet"]
    rels = read_part(path, "word/_rels/document.xml.rels").decode()
    assert "relationships/numbering" in rels
    assert "numbering+xml" in read_part(path, "[Content_Types].xml").decode()


async def test_two_numbered_lists_each_start_at_one(docx):
    await docx.create()
    await insert(docx, "1. a\n2. b\n\nbetween\n\n1. c\n")
    exported = await export(docx, ids=False)
    assert "1. a\n2. b" in exported and "\n1. c" in exported


async def test_tables_links_quotes_and_code_map_to_word_structures(docx, tmp_path):
    await docx.create()
    await insert(docx, "| A | B |\n| --- | --- |\n| **x** | [y](https://example.com) |\n\n"
                       "> quoted\n\n```\ncode line 1\ncode line 2\n```\n")
    path = tmp_path / "t.docx"
    body = await docx.save(path)
    tbl = body.find("w:tbl", NS)
    assert tbl is not None and tbl.find("w:tr/w:trPr/w:tblHeader", NS) is not None
    assert tbl.xpath("count(w:tr)", namespaces=NS) == 2
    assert tbl.xpath(".//w:r[w:rPr/w:b]/w:t/text()", namespaces=NS) == ["x"]
    link = tbl.find(".//w:hyperlink", NS)
    rid = link.get(f"{{{R_NS}}}id")
    rels = etree.fromstring(read_part(path, "word/_rels/document.xml.rels"))
    rel = [r for r in rels if r.get("Id") == rid][0]
    assert rel.get("Target") == "https://example.com" and rel.get("TargetMode") == "External"
    styles = body.xpath("w:p/w:pPr/w:pStyle/@w:val", namespaces=NS)
    assert styles == ["Quote", "SourceCode"]
    code = body.xpath("w:p[w:pPr/w:pStyle/@w:val='SourceCode']", namespaces=NS)[0]
    assert texts(code) == "code line 1code line 2" and len(code.findall(".//w:br", NS)) == 1
    style_xml = read_part(path, "word/styles.xml").decode()
    assert 'w:styleId="Quote"' in style_xml and 'w:styleId="SourceCode"' in style_xml


async def test_the_answer_lists_every_new_blocks_id(docx, tmp_path):
    await docx.create()
    answer = await insert(docx, "# T\n\npara\n\n- i\n\n| a |\n| --- |\n| b |\n")
    listed = re.findall(r"^- ((?:para|table)_\w+)", answer.section("Content"), re.M)
    body = await docx.save(tmp_path / "ids.docx")
    saved = [el.get("{urn:ooxml-mcp:ids:2026}id") for el in body if el.tag != f"{{{NS['w']}}}sectPr"]
    assert listed == saved
    assert answer.element_id == saved[-1] == answer.head["Element ID"]
    assert (await docx.ok("docx_get_context", element_id="last_insert")).element_id == saved[-1]


async def test_insert_into_a_cell_keeps_a_paragraph_last(docx, tmp_path):
    await docx.create()
    table = await docx.ok("docx_insert_table", rows=1, cols=1, position="end:document_body")
    cell = re.search(r"cell_\w+", (await docx.ok("docx_get_cell", table_id=table.element_id, row=0, col=0)).text)
    await insert(docx, "**in** the cell\n\n- item\n", position=f"end:{cell.group(0)}")
    body = await docx.save(tmp_path / "c.docx")
    tc = body.find(".//w:tc", NS)
    assert tc[-1].tag == f"{{{NS['w']}}}p" and "item" in texts(tc)


async def test_a_missing_image_fails_and_leaves_the_document_unchanged(docx, tmp_path):
    await docx.create()
    await insert(docx, "before\n")
    first = (await docx.save(tmp_path / "a.docx")) is not None and (tmp_path / "a.docx").read_bytes()
    answer = await docx.call("docx_insert_markdown", markdown="# New\n\n![x](missing.png)\n",
                             position="end:document_body")
    assert answer.is_error and answer.error_type == "FileNotFound"
    await docx.save(tmp_path / "b.docx")
    assert read_part(tmp_path / "a.docx") == read_part(tmp_path / "b.docx")
    assert sorted(zipfile.ZipFile(tmp_path / "a.docx").namelist()) == \
        sorted(zipfile.ZipFile(tmp_path / "b.docx").namelist())
    assert first


async def test_an_image_outside_the_roots_is_refused(docx, tmp_path):
    await docx.create()
    answer = await docx.call("docx_insert_markdown", markdown="![x](/etc/hostname)", position="end:document_body")
    assert answer.is_error and answer.error_type == "PermissionDenied"


async def test_an_image_becomes_an_inline_picture_with_its_alt_text(docx, tmp_path, picture):
    await docx.create()
    await insert(docx, "![A red square](pic.png)\n")
    path = tmp_path / "i.docx"
    body = await docx.save(path)
    doc_pr = body.find(".//{*}docPr")
    assert doc_pr.get("descr") == "A red square" and doc_pr.get("name") == "pic.png"
    assert any(n.startswith("word/media/") for n in zipfile.ZipFile(path).namelist())


async def test_a_bad_position_is_an_error_and_changes_nothing(docx, tmp_path):
    await docx.create()
    answer = await docx.call("docx_insert_markdown", markdown="# x", position="after:document_body")
    assert answer.is_error and answer.error_type == "InvalidPosition"
    assert "numbering" not in " ".join(zipfile.ZipFile(await _saved(docx, tmp_path)).namelist())


async def _saved(docx, tmp_path) -> Path:
    path = tmp_path / "saved.docx"
    await docx.save(path)
    return path


async def test_footnotes_become_real_word_footnotes(docx, tmp_path):
    await docx.create()
    await insert(docx, "Text[^a] more[^b].\n\n[^a]: First *note*.\n[^b]: Second [link](https://example.com).\n")
    path = tmp_path / "fn.docx"
    body = await docx.save(path)
    refs = body.xpath("//w:footnoteReference/@w:id", namespaces=NS)
    notes = etree.fromstring(read_part(path, "word/footnotes.xml"))
    assert [texts(notes.xpath(f"//w:footnote[@w:id='{i}']", namespaces=NS)[0]).strip() for i in refs] == \
        ["First note.", "Second link."]
    link = notes.find(".//w:hyperlink", NS)
    note_rels = etree.fromstring(read_part(path, "word/_rels/footnotes.xml.rels"))
    assert [r.get("Target") for r in note_rels if r.get("Id") == link.get(f"{{{R_NS}}}id")] == ["https://example.com"]
    assert "footnotes+xml" in read_part(path, "[Content_Types].xml").decode()


# ---- export ---------------------------------------------------------------------------------------

async def test_each_block_carries_its_id_in_a_comment(docx):
    await docx.create()
    answer = await insert(docx, "# Head\n\ntext\n\n- item\n\n| a |\n| --- |\n| b |\n")
    ids = re.findall(r"^- ((?:para|table)_\w+)", answer.section("Content"), re.M)
    exported = await export(docx)
    assert re.findall(r"<!-- ((?:para|table)_\w+) -->", exported) == ids
    assert f"# Head <!-- {ids[0]} -->" in exported


async def test_export_pages_like_read_content(docx):
    await docx.create()
    await insert(docx, "\n\n".join(f"paragraph {i}" for i in range(12)))
    first = await docx.ok("docx_export_markdown", max_elements=5, ids=False)
    assert first.head["Range"] == "1-5 of 12"
    nxt = first.head["Next Page"].split("=", 1)[1]
    second = await docx.ok("docx_export_markdown", start_element_id=nxt, max_elements=5, ids=False)
    assert second.head["Range"] == "6-10 of 12"
    assert "paragraph 5" in second.text and "paragraph 4" not in second.text


async def test_merged_cells_are_repeated_and_the_answer_says_so(docx):
    await docx.create()
    table = await docx.ok("docx_insert_table", rows=2, cols=3, position="end:document_body",
                          data=[["h1", "h2", "h3"], ["wide", "", "c"]])
    await docx.ok("docx_merge_cells", table_id=table.element_id, start_row=1, start_col=0, end_row=1, end_col=1)
    answer = await docx.ok("docx_export_markdown", ids=False)
    assert "| wide | wide | c |" in answer.text
    assert "repeated" in answer.head["Merged Cells"]


async def test_export_to_a_file_writes_the_whole_document(docx, tmp_path):
    await docx.create()
    await insert(docx, "\n\n".join(f"line {i}" for i in range(300)))
    answer = await docx.ok("docx_export_markdown", file_path="out.md", ids=False)
    text = (tmp_path / "out.md").read_text(encoding="utf-8")
    assert answer.head["Blocks"] == "300"
    assert text.count("line ") == 300 and text.startswith("line 0\n")


async def test_export_to_a_file_outside_the_roots_is_refused(docx):
    await docx.create()
    answer = await docx.call("docx_export_markdown", file_path="/tmp/../etc/out.md")
    assert answer.is_error and answer.error_type == "PermissionDenied"


async def test_whole_document_export_reports_progress(docx, tmp_path):
    await docx.create()
    await insert(docx, "text")
    seen = []

    async def on_progress(done, total, message):
        seen.append((done, total))

    result = await docx.client.call_tool("docx_export_markdown", {"file_path": "p.md"}, progress_callback=on_progress)
    assert not result.is_error and seen and seen[-1] == (1, 1)


@pytest.mark.corpus
async def test_tracked_changes_export_as_critic_markup(docx, tmp_path):
    from tests.support.corpus import require_corpus
    src = require_corpus() / "Open-Xml-PowerTools__RA001-Tracked-Revisions-01.docx"
    if not src.exists():
        pytest.skip(f"{src.name} not in the corpus")
    await docx.open(shutil.copy(src, tmp_path / src.name))
    exported = await export(docx, max_elements=200, ids=False)
    assert "{++" in exported and "{--" in exported


@pytest.mark.corpus
async def test_footnotes_export_as_references_and_definitions(docx, tmp_path):
    from tests.support.corpus import require_corpus
    src = require_corpus() / "docx2python__example.docx"
    if not src.exists():
        pytest.skip(f"{src.name} not in the corpus")
    await docx.open(shutil.copy(src, tmp_path / src.name))
    answer = await docx.ok("docx_export_markdown", file_path="notes.md", ids=False)
    text = (tmp_path / "notes.md").read_text(encoding="utf-8")
    refs = set(re.findall(r"\[\^(\w+)\](?!:)", text))
    defs = set(re.findall(r"^\[\^(\w+)\]:", text, re.M))
    assert refs and refs == defs, answer.text


# ---- every result opens in LibreOffice and passes the Open XML SDK validator ---------------------

@pytest.mark.libreoffice
async def test_results_convert_in_libreoffice_and_validate(docx, tmp_path, picture):
    from tests.support import sdk_validator
    from tests.support.libreoffice import convert_to_pdf, require_soffice
    require_soffice()
    sdk_validator.require()
    await docx.create()
    empty = tmp_path / "empty.docx"
    await docx.save(empty)
    results = []
    for case in CASE_FILES:
        await insert(docx, case.read_text(encoding="utf-8"))
        path = tmp_path / f"{case.stem}.docx"
        await docx.save(path)
        results.append(path)
    pdfs = convert_to_pdf(results, tmp_path / "pdf")
    assert all(pdfs[p.resolve()] is not None for p in results), pdfs
    for path in results:
        assert sdk_validator.new_error_kinds(empty, path) == [], path.name
    assert by_id(read_body(results[-1]), (await docx.ok("docx_get_context", element_id="last_insert")).element_id) \
        is not None


async def test_opening_a_large_file_reports_progress_while_it_runs(docx, tmp_path, monkeypatch):
    """docx_open runs in a worker thread; the event loop sends heartbeats until it ends."""
    from tools.runtime.call import progress as P
    monkeypatch.setattr(P, "HEARTBEAT_S", 0.01)
    monkeypatch.setattr(P, "LARGE_FILE_BYTES", 10_000)
    await docx.create()
    await insert(docx, "\n\n".join(f"paragraph {i} with some text to parse" for i in range(3000)))
    await docx.save(tmp_path / "big.docx")
    assert (tmp_path / "big.docx").stat().st_size >= P.LARGE_FILE_BYTES
    import time
    from ooxml.model.document import Document
    parse = Document.open.__func__
    # The open must outlast a few heartbeats whatever the machine's speed: it is made slow on purpose.
    monkeypatch.setattr(Document, "open", classmethod(lambda cls, *a, **k: (time.sleep(0.2), parse(cls, *a, **k))[1]))
    seen = []

    async def on_progress(done, total, message):
        seen.append((done, message))

    result = await docx.client.call_tool("docx_open", {"file_path": "big.docx"}, progress_callback=on_progress)
    assert not result.is_error, result.content[0].text
    assert seen[0] == (0, "Open") and len(seen) >= 2
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


async def test_a_failed_open_in_the_worker_thread_is_still_a_named_error(docx, tmp_path, monkeypatch):
    from tools.runtime.call import progress as P
    monkeypatch.setattr(P, "LARGE_FILE_BYTES", 1)
    (tmp_path / "bad.docx").write_bytes(b"not a zip")
    answer = await docx.call("docx_open", file_path="bad.docx")
    assert answer.is_error and answer.error_type == "InvalidDocument"


async def test_lists_inside_table_cells_keep_their_labels(docx):
    await docx.create()
    table = await docx.ok("docx_insert_table", rows=2, cols=1, position="end:document_body", data=[["head"], [""]])
    cell = re.search(r"cell_\w+", (await docx.ok("docx_get_cell", table_id=table.element_id, row=1, col=0)).text)
    await insert(docx, "1. one\n2. two\n\n- dot\n", position=f"start:{cell.group(0)}")
    exported = await export(docx, ids=False)
    assert "| 1. one<br>2. two<br>• dot |" in exported


@pytest.mark.corpus
async def test_equations_export_as_inline_math(docx, tmp_path):
    from tests.support.corpus import require_corpus
    src = require_corpus() / "docling__omml_multi_equation_paragraph.docx"
    if not src.exists():
        pytest.skip(f"{src.name} not in the corpus")
    await docx.open(shutil.copy(src, tmp_path / src.name))
    assert "$a=b$ $c=d$ $e=f$" in await export(docx, ids=False)


def _editable():
    from tests.support.corpus import editable_files
    return editable_files()


@pytest.mark.corpus
@pytest.mark.parametrize("path", __import__("tests.support.corpus", fromlist=["corpus_params"]).corpus_params(_editable()))
async def test_every_corpus_file_exports_whole_with_unique_ids(docx, path, tmp_path):
    await docx.open(shutil.copy(path, tmp_path / path.name))
    answer = await docx.ok("docx_export_markdown", file_path="whole.md")
    text = (tmp_path / "whole.md").read_text(encoding="utf-8")
    ids = re.findall(r"<!-- ((?:para|table)_\w+) -->", text)
    assert len(ids) == len(set(ids))
    for element_id in ids[:2] + ids[-1:]:  # the comments name live elements an edit can use
        assert (await docx.ok("docx_get_context", element_id=element_id)).element_id == element_id
    assert answer.head["File"].endswith("whole.md")
    MarkdownIt("commonmark").enable("table").render(text)  # parses


def _insert_sample():
    """Corpus files with their own numbering and styles, of different sizes (a few: LibreOffice and
    the validator take about a second a file)."""
    from tests.support.corpus import features
    files = sorted((f for f in _editable() if "numbering" in features(f)), key=lambda p: p.stat().st_size)
    return files[:: max(1, len(files) // 6)][:6] if files else None


@pytest.mark.corpus
@pytest.mark.libreoffice
async def test_markdown_inserted_into_corpus_files_converts_and_validates(tmp_path, picture):
    """Into documents with numbering, styles and relationships of their own: LibreOffice converts the
    results and the Open XML SDK validator finds no kind of error the original lacked."""
    from tests.support import sdk_validator
    from tests.support.client import open_client
    from tests.support.libreoffice import convert_to_pdf, require_soffice
    require_soffice()
    sdk_validator.require()
    sample = _insert_sample()
    if not sample:
        pytest.skip("no corpus files with numbering")
    markdown = "\n\n".join(p.read_text(encoding="utf-8") for p in CASE_FILES)
    pairs = []
    async with open_client([tmp_path]) as docx:
        for src in sample:
            original = Path(shutil.copy(src, tmp_path / src.name))
            await docx.open(original)
            await insert(docx, markdown, position="start:document_body")
            result = tmp_path / f"md-{src.name}"
            await docx.save(result)
            await docx.ok("docx_close", session_id=docx.session_id)
            pairs.append((original, result))
    pdfs = convert_to_pdf([r for _, r in pairs], tmp_path / "pdf")
    assert [r.name for _, r in pairs if pdfs[r.resolve()] is None] == []
    problems = {r.name: sdk_validator.new_error_kinds(o, r) for o, r in pairs}
    assert {name: kinds for name, kinds in problems.items() if kinds} == {}


async def test_markdown_and_list_tools_share_one_numbering_part_and_undo_takes_it_back(docx, tmp_path):
    await docx.create()
    await docx.save(tmp_path / "before.docx")
    await insert(docx, "- a\n")
    await docx.ok("docx_insert_list", items=["x"], position="end:document_body", list_type="number")
    both = tmp_path / "both.docx"
    await docx.save(both)
    assert read_part(both, "[Content_Types].xml").decode().count("numbering+xml") == 1
    assert read_part(both, "word/_rels/document.xml.rels").decode().count("relationships/numbering") == 1
    await docx.ok("docx_undo", steps=2)
    await docx.save(tmp_path / "after.docx")
    for name in ("[Content_Types].xml", "word/_rels/document.xml.rels"):
        assert read_part(tmp_path / "after.docx", name) == read_part(tmp_path / "before.docx", name)
