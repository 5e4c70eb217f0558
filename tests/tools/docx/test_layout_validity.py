"""Layout edits leave valid files: no new kind of Open XML SDK validation error and no new
check_package problem, on a document made with every layout tool and on corpus files that already
have sections, headers, footers, notes, fields, links and TOCs."""
from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

import pytest

from ooxml.model.document import Document
from ooxml.model.integrity import check_package
from tests.builders import png
from tests.support import sdk_validator
from tests.support.client import open_client
from tests.support.corpus import corpus_params, editable_files, features

LAYOUT = {"header", "footer", "footnotes", "endnotes", "fields", "toc", "sections", "hyperlinks", "bookmarks"}
MAX_FILES = 14


def layout_files() -> list[Path]:
    files = [f for f in editable_files() if features(f) & LAYOUT and "large" not in features(f)]
    step = max(1, len(files) // MAX_FILES)
    return files[::step][:MAX_FILES]


def problems(path: Path) -> set[str]:
    doc = Document.open(path)
    try:
        return set(check_package(doc, all_parts=True))
    finally:
        doc.close()


async def every_tool(c, folder: Path) -> Path:
    await c.create()
    intro = (await c.ok("docx_insert_heading", text="Introduction", level=1, position="end:document_body")).element_id
    para = (await c.ok("docx_insert_paragraph", text="See the site and the note.", position="end:document_body")).element_id
    await c.ok("docx_insert_heading", text="Wide table", level=1, position="end:document_body")
    last = (await c.ok("docx_insert_paragraph", text="Landscape text", position="end:document_body")).element_id
    sect = (await c.ok("docx_insert_section_break", position=f"after:{para}")).element_id
    await c.ok("docx_set_page_setup", section_id=sect, page_size="A4", columns=2)
    listing = (await c.ok("docx_list_sections")).section("Content")
    await c.ok("docx_set_page_setup", section_id=re.findall(r"sect_\w+", listing)[-1], orientation="landscape")
    hdr = await c.ok("docx_create_header_footer", text="Letterhead ")
    await c.ok("docx_insert_image", image_path=str(png(folder / "logo.png")), position=f"end:{hdr.head['Paragraph']}")
    ftr = await c.ok("docx_create_header_footer", kind="footer", text="Page ")
    await c.ok("docx_insert_field", field="PAGE", position=f"end:{ftr.head['Paragraph']}")
    await c.ok("docx_insert_field", field="NUMPAGES", position=f"end:{ftr.head['Paragraph']}")
    await c.ok("docx_create_header_footer", which="first", text="First page")
    await c.ok("docx_create_header_footer", which="even", kind="footer", text="Even")
    await c.ok("docx_insert_footnote", element_id=para, text="A footnote.", anchor_text="note")
    await c.ok("docx_insert_footnote", element_id=last, text="An endnote.", kind="endnote")
    await c.ok("docx_insert_hyperlink", text="site", url="https://example.com/", position=f"end:{para}")
    await c.client.call_tool("docx_add_bookmark", {"name": "Intro", "element_id": intro})
    await c.ok("docx_insert_hyperlink", text="back", bookmark="Intro", position=f"end:{last}")
    await c.ok("docx_insert_field", field="REF", instruction="Intro", position=f"end:{last}")
    await c.ok("docx_insert_field", field="SEQ", instruction="Figure", position=f"end:{last}")
    await c.ok("docx_insert_field", field="DATE", position=f"end:{last}")
    await c.ok("docx_insert_toc", position="start:document_body", title="Contents", page_numbers=False)
    await c.ok("docx_copy_elements_range", start_id=para, end_id=para, position="end:document_body")
    await c.ok("docx_update_toc", page_numbers=False)
    out = folder / "every_tool.docx"
    await c.save(out)
    return out


async def edit_corpus_file(c, src: Path, out: Path) -> None:
    await c.open(src)
    listing = await c.ok("docx_list_sections")
    hdr = re.search(r"header default: (hdr_\w+)", listing.section("Content"))
    if hdr:
        await c.ok("docx_insert_paragraph", text="Added to the header", position=f"end:{hdr.group(1)}")
    read = (await c.ok("docx_read_content", max_elements=50)).text
    para = next(iter(re.findall(r"^\[(?:Paragraph|Heading \d) \((para_\w+)\)[^\]\n]*\] \S", read, re.M)), None)
    if para is not None:
        await c.ok("docx_insert_footnote", element_id=para, text="Added note")
        await c.ok("docx_insert_hyperlink", text=" link", url="https://example.org/x", position=f"end:{para}")
        await c.client.call_tool("docx_add_bookmark", {"name": "OxmAdded", "element_id": para})
        await c.ok("docx_insert_field", field="PAGE", position=f"end:{para}")
    for tool in ("docx_list_notes", "docx_list_hyperlinks", "docx_list_bookmarks"):
        await c.ok(tool)
    toc = await c.call("docx_update_toc", page_numbers=False)
    if toc.is_error:
        await c.ok("docx_insert_toc", position="start:document_body", page_numbers=False)
    await c.save(out)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, tuple[Path | None, Path]]:
    folder = tmp_path_factory.mktemp("layout-valid")

    async def run():
        out = {}
        async with open_client([folder]) as c:
            out["every_tool"] = (None, await every_tool(c, folder))
        for src in layout_files():
            local = folder / src.name
            shutil.copy(src, local)
            async with open_client([folder]) as c:
                result = folder / f"out-{src.name}"
                await edit_corpus_file(c, local, result)
                out[src.name] = (local, result)
        return out

    return asyncio.run(run())


def test_every_layout_tool_leaves_no_sdk_error_and_no_package_problem(results):
    sdk_validator.require()
    _, path = results["every_tool"]
    assert sdk_validator.validate_files([path])[path.resolve()] == []
    assert problems(path) == set()


@pytest.mark.parametrize("src", corpus_params(layout_files()))
def test_layout_edits_on_corpus_files_add_no_error_kind(results, src):
    sdk_validator.require()
    original, result = results[src.name]
    sdk_validator.validate_files([r for o, r in results.values()] + [o for o, r in results.values() if o])
    assert sdk_validator.new_error_kinds(original, result) == []
    assert problems(result) - problems(original) == set()
