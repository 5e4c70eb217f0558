"""docx_update_toc on TOC fields outside Word's content control: a bare complex field spanning
paragraphs (LibreOffice, Google Docs, pandoc, older Word) or a w:fldSimple; switches honoured."""
from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from tests.builders import NS, build_docx
from tests.support.client import by_id
from tests.support.corpus import corpus_params, editable_files, features

pytestmark = pytest.mark.anyio
W = f"{{{NS['w']}}}"
GALLERY = "w:sdtPr/w:docPartObj/w:docPartGallery[@w:val='Table of Contents']"


def _heading(text: str, style: str = "Heading1") -> str:
    return f'<w:p><w:pPr><w:pStyle w:val="{style}"/></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>'


def _run(inner: str) -> str:
    return f"<w:r>{inner}</w:r>"


def bare_toc(instruction: str, result: list[str], end_alone: bool = True) -> str:
    """A TOC as LibreOffice writes it: begin/instr/separate in the first entry, end in a paragraph of its own."""
    head = (_run('<w:fldChar w:fldCharType="begin"/>') + _run(f'<w:instrText xml:space="preserve"> {instruction} '
            '</w:instrText>') + _run('<w:fldChar w:fldCharType="separate"/>'))
    end = _run('<w:fldChar w:fldCharType="end"/>')
    paras = [f'<w:p><w:pPr><w:pStyle w:val="Normal"/></w:pPr>{head if i == 0 else ""}{_run(f"<w:t>{t}</w:t>")}'
             f'{end if i == len(result) - 1 and not end_alone else ""}</w:p>' for i, t in enumerate(result)]
    return "".join(paras) + (f"<w:p>{end}</w:p>" if end_alone else "")


def body_with(toc: str) -> str:
    return ('<w:p><w:r><w:t>Before the contents</w:t></w:r></w:p>' + toc + _heading("Intro") +
            '<w:p><w:r><w:t>text</w:t></w:r></w:p>' + _heading("Scope", "Heading2") + _heading("Deep", "Heading3") +
            _heading("Method") + '<w:p><w:r><w:t>After</w:t></w:r></w:p>')


def field_paragraphs(body: etree._Element) -> list[etree._Element]:
    """The paragraphs from the one holding the TOC's begin to the one holding its end (read independently)."""
    paras = body.findall("w:p", NS)
    first = next(i for i, p in enumerate(paras) if p.xpath(".//w:instrText[contains(., 'TOC')]", namespaces=NS))
    depth = 0
    for i in range(first, len(paras)):
        for fc in paras[i].iter(f"{W}fldChar"):
            depth += {"begin": 1, "end": -1}.get(fc.get(f"{W}fldCharType"), 0)
            if depth == 0:
                return paras[first:i + 1]
    raise AssertionError("TOC field without end")


def text(p: etree._Element) -> str:
    return "".join(p.xpath(".//w:t/text()", namespaces=NS))


async def open_built(docx, tmp_path: Path, toc: str) -> None:
    await docx.open(build_docx(tmp_path / "in.docx", body_with(toc)))


async def test_bare_toc_field_is_rebuilt_from_the_headings(docx, tmp_path):
    await open_built(docx, tmp_path, bare_toc('TOC \\o "1-2" \\h \\z \\u', ["Old entry", "Gone entry"]))
    a = await docx.ok("docx_update_toc", page_numbers=False)
    assert a.element_id.startswith("fld_") and a.head["Entries"] == "3" and a.head["Levels"] == "1-2"
    assert "Scope" in a.section("Context") and "Old entry" not in a.section("Context")
    body = await docx.save(tmp_path / "o.docx")
    span = field_paragraphs(body)
    # the end keeps its paragraph of its own; the entries sit between
    assert [text(p) for p in span] == ["Intro", "Scope", "Method", ""]
    assert [p.find("w:pPr/w:pStyle", NS).get(f"{W}val") for p in span[:3]] == ["TOC1", "TOC2", "TOC1"]
    assert span[0].xpath(".//w:instrText/text()", namespaces=NS)[0] == ' TOC \\o "1-2" \\h \\z \\u '
    kinds = [f.get(f"{W}fldCharType") for p in span for f in p.iter(f"{W}fldChar")]
    assert kinds == ["begin", "separate", "end"]
    anchors = [p.find("w:hyperlink", NS).get(f"{W}anchor") for p in span[:3]]
    names = {s.get(f"{W}name"): s for s in body.iter(f"{W}bookmarkStart")}
    assert all(re.fullmatch(r"_Toc\d{9}", x) and x in names for x in anchors)
    assert by_id(body, a.element_id).get(f"{W}fldCharType") == "begin"
    assert not body.xpath(f".//w:sdt[{GALLERY}]", namespaces=NS)  # no content control added


async def test_bare_toc_update_twice_keeps_its_id_and_one_field(docx, tmp_path):
    await open_built(docx, tmp_path, bare_toc('TOC \\o "1-3" \\h', ["x"], end_alone=False))
    first = (await docx.ok("docx_update_toc", page_numbers=False)).element_id
    await docx.ok("docx_insert_heading", text="Results", level=1, position="end:document_body")
    a = await docx.ok("docx_update_toc", page_numbers=False)
    assert a.element_id == first and a.head["Entries"] == "5"
    body = await docx.save(tmp_path / "o.docx")
    span = field_paragraphs(body)
    assert [text(p) for p in span] == ["Intro", "Scope", "Deep", "Method", "Results"]
    assert len(body.xpath(".//w:instrText[contains(., 'TOC ')]", namespaces=NS)) == 1
    # the end stayed in the last entry, as the file had it
    assert span[-1].xpath("w:r/w:fldChar/@w:fldCharType", namespaces=NS)[-1] == "end"


async def test_switches_without_h_and_with_n_give_plain_entries_without_page_fields(docx, tmp_path):
    await open_built(docx, tmp_path, bare_toc('TOC \\o "1-3" \\n', ["x", "y"]))
    a = await docx.ok("docx_update_toc", page_numbers=True)
    body = await docx.save(tmp_path / "o.docx")
    span = field_paragraphs(body)
    assert a.head["Entries"] == "4"
    assert not any(p.find(".//w:hyperlink", NS) is not None for p in span)
    assert not body.xpath(".//w:instrText[contains(., 'PAGEREF')]", namespaces=NS)
    assert [text(p) for p in span] == ["Intro", "Scope", "Deep", "Method", ""]


async def test_t_switch_takes_named_styles_at_their_levels(docx, tmp_path):
    body_xml = body_with(bare_toc('TOC \\h \\z \\t "Heading 2,1,Title,2"', ["x"])) + \
        '<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:t>A title</w:t></w:r></w:p>'
    await docx.open(build_docx(tmp_path / "in.docx", body_xml))
    a = await docx.ok("docx_update_toc", page_numbers=False)
    body = await docx.save(tmp_path / "o.docx")
    span = field_paragraphs(body)
    assert a.head["Entries"] == "2"
    assert [text(p) for p in span[:2]] == ["Scope", "A title"]
    assert [p.find("w:pPr/w:pStyle", NS).get(f"{W}val") for p in span[:2]] == ["TOC1", "TOC2"]


async def test_fld_simple_toc_becomes_a_complex_field_spanning_the_entries(docx, tmp_path):
    simple = ('<w:p><w:fldSimple w:instr=" TOC \\o &quot;1-1&quot; \\h "><w:r><w:t>Update me</w:t></w:r>'
              '</w:fldSimple></w:p>')
    await open_built(docx, tmp_path, simple)
    a = await docx.ok("docx_update_toc", page_numbers=False)
    body = await docx.save(tmp_path / "o.docx")
    assert body.find(".//w:fldSimple", NS) is None
    span = field_paragraphs(body)
    assert a.head["Entries"] == "2" and [text(p) for p in span] == ["Intro", "Method"]
    assert span[0].xpath(".//w:instrText/text()", namespaces=NS) == [' TOC \\o "1-1" \\h ']
    assert by_id(body, a.element_id) is span[0].find("w:r/w:fldChar", NS)


async def test_table_of_figures_is_not_a_toc(docx, tmp_path):
    await open_built(docx, tmp_path, bare_toc('TOC \\h \\z \\c "Figure"', ["Figure 1"]))
    a = await docx.call("docx_update_toc")
    assert a.is_error and a.error_type == "ElementNotFound"


async def test_undo_puts_the_old_toc_back(docx, tmp_path):
    await open_built(docx, tmp_path, bare_toc('TOC \\o "1-3" \\h \\z \\u', ["Old entry", "Gone entry"]))
    before = etree.tostring(await docx.save(tmp_path / "a.docx"))
    await docx.ok("docx_update_toc", page_numbers=False)
    await docx.ok("docx_undo")
    assert etree.tostring(await docx.save(tmp_path / "b.docx")) == before


def bare_toc_files() -> list[Path]:
    out = []
    for f in editable_files():
        if "toc" not in features(f) or "large" in features(f):
            continue
        with zipfile.ZipFile(f) as z:
            if "word/document.xml" not in z.namelist():
                continue  # main part under another name: not this test's concern
            body = etree.fromstring(z.read("word/document.xml"))
        if not body.xpath(f"//w:sdt[{GALLERY}]", namespaces=NS) and \
                body.xpath("//w:instrText[contains(., 'TOC') and (contains(., '\\o') or contains(., '\\t'))]",
                           namespaces=NS):
            out.append(f)
    return out


@pytest.mark.parametrize("src", corpus_params(bare_toc_files()))
async def test_corpus_bare_toc_is_rebuilt_as_one_field_linked_to_bookmarks(docx, src, tmp_path):
    local = tmp_path / src.name
    shutil.copy(src, local)
    await docx.open(local)
    a = await docx.ok("docx_update_toc", page_numbers=False)
    assert a.element_id.startswith("fld_")
    body = await docx.save(tmp_path / "o.docx")
    begin = by_id(body, a.element_id)
    para = begin.getparent().getparent()
    instr = "".join(para.xpath(".//w:instrText/text()", namespaces=NS)).strip()
    assert instr.startswith("TOC")
    span = field_paragraphs_from(para)
    anchors = [x for p in span for x in p.xpath(".//w:hyperlink/@w:anchor", namespaces=NS)]
    names = set(body.xpath("//w:bookmarkStart/@w:name", namespaces=NS))
    assert set(anchors) <= names
    if "\\h" in instr:
        assert len(anchors) == int(a.head["Entries"])


def field_paragraphs_from(first: etree._Element) -> list[etree._Element]:
    out, depth = [], 0
    for p in [first, *first.itersiblings(f"{W}p")]:
        out.append(p)
        for fc in p.iter(f"{W}fldChar"):
            depth += {"begin": 1, "end": -1}.get(fc.get(f"{W}fldCharType"), 0)
        if depth <= 0:
            return out
    raise AssertionError("TOC field without end")


@pytest.fixture(scope="module")
def updated(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """Each bare-TOC corpus file and two generated ones, before and after docx_update_toc."""
    import asyncio

    from tests.support.client import open_client
    folder = tmp_path_factory.mktemp("bare-toc-valid")
    sources = {f.name: shutil.copy(f, folder / f.name) for f in bare_toc_files()}
    sources["complex.docx"] = build_docx(folder / "complex.docx", body_with(bare_toc('TOC \\o "1-3" \\h \\z', ["x"])))
    sources["simple.docx"] = build_docx(folder / "simple.docx", body_with(
        '<w:p><w:fldSimple w:instr=" TOC \\o &quot;1-2&quot; \\h "><w:r><w:t>x</w:t></w:r></w:fldSimple></w:p>'))

    async def run():
        out = {}
        for name, src in sources.items():
            async with open_client([folder]) as c:
                await c.open(src)
                await c.ok("docx_update_toc", page_numbers=False)
                await c.save(folder / f"out-{name}")
                out[name] = (Path(src), folder / f"out-{name}")
        return out
    return asyncio.run(run())


def test_updated_bare_tocs_add_no_sdk_error_kind_and_no_package_problem(updated):
    from ooxml.model.document import Document
    from ooxml.model.integrity import check_package
    from tests.support import sdk_validator
    sdk_validator.require()
    sdk_validator.validate_files([p for pair in updated.values() for p in pair])

    def problems(path):
        doc = Document.open(path)
        try:
            return set(check_package(doc, all_parts=True))
        finally:
            doc.close()
    for name, (original, result) in updated.items():
        assert sdk_validator.new_error_kinds(original, result) == [], name
        assert problems(result) - problems(original) == set(), name


async def test_bare_toc_refresh_while_tracking_says_it_is_not_tracked(docx, tmp_path):
    await open_built(docx, tmp_path, bare_toc('TOC \\o "1-2" \\h \\z \\u', ["Old entry"]))
    await docx.ok("docx_set_track_changes", enabled=True)
    a = await docx.ok("docx_update_toc", page_numbers=False)
    assert a.head["Tracked"].startswith("no:")
