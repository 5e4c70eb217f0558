"""Layout tools on real documents that already have sections, headers, notes, links, bookmarks and TOCs:
the answers agree with the files' XML (read independently of the product)."""
from __future__ import annotations

import posixpath
import shutil
import re
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from ooxml.opc.strict import to_transitional
from tests.support.corpus import corpus_params, editable_files, features, is_strict

pytestmark = pytest.mark.anyio
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
NS = {"w": W}
PER_FEATURE = 6
STORIES = ("header", "footer", "footnotes", "endnotes")


def with_feature(*names: str) -> list[Path]:
    files = [f for f in editable_files() if features(f) & set(names) and "large" not in features(f)]
    step = max(1, len(files) // PER_FEATURE)
    return files[::step][:PER_FEATURE]


def parts(path: Path) -> dict[str, etree._Element]:
    """The main part and its header, footer and notes parts, parsed."""
    with zipfile.ZipFile(path) as z:
        # Strict files are read in Transitional names, as the product reads them (ooxml/opc/strict.py).
        read = (lambda name: to_transitional(z.read(name))) if is_strict(path) else z.read
        rels = etree.fromstring(read("word/_rels/document.xml.rels"))
        out = {"word/document.xml": etree.fromstring(read("word/document.xml"))}
        for rel in rels:
            kind = rel.get("Type", "").rsplit("/", 1)[-1]
            name = posixpath.normpath(posixpath.join("word", rel.get("Target", "")))
            if kind in STORIES and rel.get("TargetMode") != "External" and name in z.namelist():
                out[name] = etree.fromstring(read(name))
    return out


async def open_copy(docx, src: Path, folder: Path) -> None:
    """Open a copy of a corpus file (the server may only read its roots)."""
    local = folder / src.name
    shutil.copy(src, local)
    await docx.open(local)


def count(roots, xpath: str) -> int:
    return sum(len(r.xpath(xpath, namespaces=NS)) for r in roots)


@pytest.mark.parametrize("src", corpus_params(with_feature("sections")))
async def test_list_sections_counts_the_files_sections(docx, src, tmp_path):
    body = parts(src)["word/document.xml"].find("w:body", NS)
    expected = len(body.xpath("./w:p/w:pPr/w:sectPr | ./w:sdt/w:sdtContent/w:p/w:pPr/w:sectPr | ./w:sectPr",
                              namespaces=NS))
    await open_copy(docx, src, tmp_path)
    a = await docx.ok("docx_list_sections")
    assert a.head["Sections"] == str(max(1, expected))
    assert len(re.findall(r"^- sect_\w+ \(section \d+\)", a.section("Content"), re.M)) == max(1, expected)


@pytest.mark.parametrize("src", corpus_params(with_feature("header")))
async def test_first_sections_default_header_shows_the_parts_text(docx, src, tmp_path):
    found = parts(src)
    body = found["word/document.xml"].find("w:body", NS)
    first = body.xpath("(./w:p/w:pPr/w:sectPr | ./w:sdt/w:sdtContent/w:p/w:pPr/w:sectPr | ./w:sectPr)[1]",
                       namespaces=NS)
    ref = first[0].find("w:headerReference[@w:type='default']", NS) if first else None
    await open_copy(docx, src, tmp_path)
    a = await docx.call("docx_get_header_footer")
    if ref is None:
        assert a.is_error and a.error_type == "ElementNotFound" and "docx_create_header_footer" in a.head["Hint"]
        return
    assert not a.is_error, a.text
    assert a.element_id.startswith("hdr_")
    with zipfile.ZipFile(src) as z:
        rels = etree.fromstring(z.read("word/_rels/document.xml.rels"))
    target = [r.get("Target") for r in rels if r.get("Id") == ref.get(f"{{{R}}}id")][0]
    root = found[posixpath.normpath(posixpath.join("word", target))]
    words = [t for t in " ".join("".join(p.xpath(".//w:t/text()", namespaces=NS)) for p in root.iter(f"{{{W}}}p")).split()
             if len(t) > 2 and t.isalpha()][:3]
    context = a.section("Context")
    for word in words:
        assert word in context


@pytest.mark.parametrize("src", corpus_params(with_feature("footnotes", "endnotes")))
async def test_list_notes_counts_the_referenced_notes(docx, src, tmp_path):
    found = parts(src)
    main = found["word/document.xml"]
    refs = {("footnote", r.get(f"{{{W}}}id")) for r in main.iter(f"{{{W}}}footnoteReference")} | \
           {("endnote", r.get(f"{{{W}}}id")) for r in main.iter(f"{{{W}}}endnoteReference")}
    notes = {(etree.QName(n).localname, n.get(f"{{{W}}}id")) for name, root in found.items() if "notes" in name
             for n in root if n.get(f"{{{W}}}type") in (None, "normal")}
    await open_copy(docx, src, tmp_path)
    a = await docx.ok("docx_list_notes")
    assert a.head["Notes"] == str(len(notes))
    assert a.section("Content").count("[^") == len(refs & notes)


@pytest.mark.parametrize("src", corpus_params(with_feature("hyperlinks")))
async def test_list_hyperlinks_counts_every_link(docx, src, tmp_path):
    roots = list(parts(src).values())
    await open_copy(docx, src, tmp_path)
    a = await docx.ok("docx_list_hyperlinks")
    assert a.head["Hyperlinks"] == str(count(roots, "//w:hyperlink"))


@pytest.mark.parametrize("src", corpus_params(with_feature("bookmarks")))
async def test_list_bookmarks_counts_named_and_hidden(docx, src, tmp_path):
    roots = list(parts(src).values())
    await open_copy(docx, src, tmp_path)
    a = await docx.ok("docx_list_bookmarks")
    assert a.head["Bookmarks"] == str(count(roots, "//w:bookmarkStart"))
    assert a.head["Hidden"] == str(count(roots, "//w:bookmarkStart[starts-with(@w:name, '_')]"))


def toc_files() -> list[Path]:
    out = []
    for f in with_feature("toc"):
        body = parts(f)["word/document.xml"]
        if body.xpath("//w:sdt[w:sdtPr/w:docPartObj/w:docPartGallery/@w:val='Table of Contents']", namespaces=NS):
            out.append(f)
    return out


@pytest.mark.parametrize("src", corpus_params(toc_files()))
async def test_update_toc_of_a_word_toc_links_every_entry_to_a_bookmark(docx, src, tmp_path):
    await open_copy(docx, src, tmp_path)
    a = await docx.ok("docx_update_toc", page_numbers=False)
    assert a.element_id.startswith("toc_")
    body = (await docx.save(tmp_path / "o.docx"))
    sdt = body.xpath("//w:sdt[w:sdtPr/w:docPartObj/w:docPartGallery/@w:val='Table of Contents']", namespaces=NS)[0]
    anchors = sdt.xpath(".//w:hyperlink/@w:anchor", namespaces=NS)
    names = set(body.xpath("//w:bookmarkStart/@w:name", namespaces=NS))
    assert len(anchors) == int(a.head["Entries"]) and set(anchors) <= names
    assert sdt.xpath(".//w:instrText[starts-with(normalize-space(.), 'TOC')]", namespaces=NS)
