"""Strict OOXML (ISO/IEC 29500 Strict) documents open, read, edit, undo and save as Strict.

The corpus Strict files take a set of edits through the MCP client; the saved file keeps the
Strict namespaces and relationship types (nothing Transitional leaks in), parts no edit touched
stay byte for byte, values that only Transitional allows are written in their Strict form, the
result converts in LibreOffice and the Open XML SDK validator finds no new kind of error.
"""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from tests.builders import png
from tests.support.corpus import corpus_params, strict_files

pytestmark = pytest.mark.anyio
STRICT_W = "http://purl.oclc.org/ooxml/wordprocessingml/main"
TRANSITIONAL = re.compile(rb"http://schemas\.openxmlformats\.org/(wordprocessingml|drawingml|officeDocument)/2006/")
EDITED: dict[Path, Path] = {}  # original -> saved, for the LibreOffice and validator checks


def parts(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


async def edit(docx, path: Path, tmp_path: Path) -> Path:
    (tmp_path / path.name).write_bytes(path.read_bytes())
    await docx.open(tmp_path / path.name)
    read = await docx.ok("docx_read_content", max_elements=10)
    assert "Paragraph (" in read.text or "Heading" in read.text or "Table (" in read.text
    added = await docx.ok("docx_insert_paragraph", text="Added to a Strict file", position="end:document_body")
    await docx.ok("docx_set_properties", element_id=added.element_id,
                  properties={"alignment": "left", "left_indent": "1cm", "bold": True})
    await docx.ok("docx_insert_table", rows=2, cols=2, position="end:document_body", data=[["a", "b"], ["c", "d"]])
    await docx.ok("docx_insert_image", image_path=str(png(tmp_path / "dot.png")), position="end:document_body")
    await docx.ok("docx_replace_text", old_text="Added to", new_text="Written into")
    out = tmp_path / f"edited-{path.name}"
    await docx.save(out)
    return out


@pytest.mark.parametrize("path", corpus_params(strict_files()))
async def test_strict_file_takes_edits_and_saves_as_strict(docx, path, tmp_path):
    out = await edit(docx, path, tmp_path)
    before, after = parts(path), parts(out)
    main = etree.fromstring(after["word/document.xml"])
    assert main.tag == f"{{{STRICT_W}}}document"
    text = "".join(main.itertext())
    assert "Written into a Strict file" in text
    for name, data in after.items():
        if name.endswith((".xml", ".rels")):  # none but those the original had (an extension's minVer ...)
            assert len(TRANSITIONAL.findall(data)) <= len(TRANSITIONAL.findall(before.get(name, b""))), (
                f"{name}: a Transitional URI in a Strict package")
    rels = after["word/_rels/document.xml.rels"]
    assert b"http://purl.oclc.org/ooxml/officeDocument/relationships/image" in rels
    jc = main.findall(f".//{{{STRICT_W}}}jc")
    assert jc and all(j.get(f"{{{STRICT_W}}}val") not in ("left", "right") for j in jc)
    ind = main.findall(f".//{{{STRICT_W}}}ind")
    assert any(i.get(f"{{{STRICT_W}}}start") == "567" for i in ind)
    untouched = [n for n in before if n not in ("word/document.xml", "word/_rels/document.xml.rels",
                                                 "[Content_Types].xml")]
    changed = [n for n in untouched if before[n] != after.get(n)]
    assert not changed, f"parts no edit touched changed: {changed}"
    EDITED[path] = out


@pytest.mark.parametrize("path", corpus_params(strict_files()))
async def test_undo_on_a_strict_file_gives_back_the_original_parts(docx, path, tmp_path):
    (tmp_path / path.name).write_bytes(path.read_bytes())
    await docx.open(tmp_path / path.name)
    await docx.save(tmp_path / "opened.docx")
    await docx.ok("docx_insert_paragraph", text="Gone again", position="end:document_body")
    await docx.ok("docx_insert_image", image_path=str(png(tmp_path / "dot.png")), position="end:document_body")
    await docx.ok("docx_undo", steps=2)
    await docx.save(tmp_path / "undone.docx")
    assert parts(tmp_path / "undone.docx") == parts(tmp_path / "opened.docx")


def test_a_strict_file_opens_read_only_parts_raw(tmp_path):
    """Opening and saving without an edit keeps every part but the main one (which gets IDs) raw."""
    from ooxml.model.document import Document
    files = strict_files()
    if not files:
        pytest.skip("no Strict files in the corpus (set OOXML_MCP_CORPUS)")
    for path in files:
        doc = Document.open(path)
        assert doc.package.strict
        doc.save(tmp_path / path.name)
        doc.close()
        before, after = parts(path), parts(tmp_path / path.name)
        assert before == after, f"{path.name}: a save without edits changed {[n for n in before if before[n] != after[n]]}"


@pytest.mark.libreoffice
def test_edited_strict_files_convert_in_libreoffice():
    from tests.support.libreoffice import convert_to_pdf, require_soffice
    require_soffice()
    if not EDITED:
        pytest.skip("no edited Strict files (run with test_strict_file_takes_edits_and_saves_as_strict)")
    outs = list(EDITED.values())
    results = convert_to_pdf(outs, outs[0].parent / "pdf")
    assert not [p.name for p, pdf in results.items() if pdf is None], results


def test_edited_strict_files_have_no_new_kind_of_sdk_validation_error():
    from tests.support import sdk_validator
    sdk_validator.require()
    if not EDITED:
        pytest.skip("no edited Strict files (run with test_strict_file_takes_edits_and_saves_as_strict)")
    sdk_validator.validate_files([*EDITED, *EDITED.values()])
    new = {p.name: sdk_validator.new_error_kinds(p, out) for p, out in EDITED.items()}
    assert not {k: v for k, v in new.items() if v}, new
