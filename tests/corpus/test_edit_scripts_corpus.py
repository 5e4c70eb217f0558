"""A fixed script of edits over every corpus file: the saved files stay valid and faithful.

For each file the product opens, the script (through the MCP client, in-process) inserts
paragraphs before and after its first table, inserts a new table and fills, grows and merges
it, copies the first table and a range of the first blocks, replaces a word the file
contains, inserts a picture, sets the margins, and saves. Then, for every file:

- LibreOffice converts the saved file wherever it converted the original, and the inserted
  text is in the PDF (pdftotext); conversions run in batches (tests/support/libreoffice.py);
- the main part has no schema error the original did not have (tests/support/schema.py);
- ``ooxml.model.integrity.check_package`` finds no problem the original did not have;
- every part the script had no reason to touch is byte-identical.

DTD files are refused by the product and skipped here (with the reason); Strict files take the scripts.
"""
from __future__ import annotations

import posixpath
import re
import time
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import pytest
from lxml import etree

from ooxml.text.body import is_block
from ooxml.opc.strict import to_transitional
from tests.support import report
from tests.support.client import open_client
from tests.support.corpus import (corpus_dir, corpus_params, editable_files, expected_refusals, is_strict,
                                  refused_files)
from tests.support.edit_script import CELL_WORDS, WORD, integrity_problems, script_folder
from tests.support.fidelity import main_part_name, read_parts

pytestmark = pytest.mark.corpus

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
STORY_TYPES = {RT + t for t in ("header", "footer", "footnotes", "endnotes")}
# Marker words the script writes; each must show up in the PDF of the saved file.
BEFORE_TABLE, AFTER_TABLE = "QxBeforeTable", "QxAfterTable"
REPLACED_SUFFIX = "Qz"


@dataclass
class Edited:
    source: Path
    saved: Path | None = None
    markers: list[str] = field(default_factory=list)
    word: str | None = None
    replacements: int = 0
    touched: set[str] = field(default_factory=set)  # parts the script may change
    tracked: bool = False  # the file opened with Track Changes on: the script's edits are tracked
    failure: str | None = None


# ---- choosing what to edit, read independently of the product ----------------------------------------

def _parse(data: bytes) -> etree._Element:
    return etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True))


_TEXT_TAGS = [f"{{{W}}}{n}" for n in ("t", "tab", "br", "cr")]


def _paragraph_texts(root: etree._Element) -> list[str]:
    """Visible text per paragraph: w:t outside deleted and moved-away runs; tabs and breaks as spaces."""
    return ["".join((el.text or "") if el.tag == _TEXT_TAGS[0] else " "
                    for el in p.iter(*_TEXT_TAGS) if _own_visible(el, p))
            for p in root.iter(f"{{{W}}}p")]


def _own_visible(t: etree._Element, p: etree._Element) -> bool:
    for anc in t.iterancestors():
        if anc is p:
            return True
        if anc.tag in (f"{{{W}}}del", f"{{{W}}}moveFrom", f"{{{W}}}p"):
            return False
    return False


def pick_word(main_xml: bytes) -> str | None:
    """The first word of 5+ letters in the body's text (it may be split across runs)."""
    for text in _paragraph_texts(_parse(main_xml)):
        m = WORD.search(text)
        if m:
            return m.group(0)
    return None


def story_parts_with(parts: dict[str, bytes], main: str, word: str) -> set[str]:
    """Header, footer and note parts whose text holds ``word`` (replacing may touch them)."""
    rels_name = "/".join([*main.split("/")[:-1], "_rels", main.split("/")[-1] + ".rels"])
    if rels_name not in parts:
        return set()
    folder = "/".join(main.split("/")[:-1])
    out = set()
    for rel in _parse(parts[rels_name]):
        if rel.get("Type") in STORY_TYPES and rel.get("TargetMode") != "External":
            name = rel.get("Target", "").lstrip("/") if rel.get("Target", "").startswith("/") else \
                "/".join(filter(None, [folder, rel.get("Target", "")]))
            if name in parts and any(word in t for t in _paragraph_texts(_parse(parts[name]))):
                out.add(name)
    return out


# ---- the script ------------------------------------------------------------------------------------------

_ID = re.compile(r"\((para|table|sdt|el|chunk|cxml|math)_[0-9a-f]+\)")


async def run_script(docx, src: Path, out: Path, image: Path) -> Edited:
    result = Edited(src)
    opened = await docx.open(src)
    sid = docx.session_id
    result.tracked = opened.head.get("Tracking", "").startswith("on")  # saved with Track Changes on
    if result.tracked:  # the merge step turns tracking off and on again: settings.xml is written
        result.touched.add(settings_part(src))
    listed = await docx.ok("docx_list_tables", session_id=sid)
    first_table = next((m.group(1) for m in re.finditer(r"^- (table_[0-9a-f]+):", listed.text, re.M)), None)
    if first_table:
        await docx.ok("docx_insert_paragraph", session_id=sid, text=BEFORE_TABLE, position=f"before:{first_table}")
        await docx.ok("docx_insert_paragraph", session_id=sid, text=AFTER_TABLE, position=f"after:{first_table}")
        result.markers += [BEFORE_TABLE, AFTER_TABLE]
    await _new_table(docx, sid, result)
    if first_table:
        await docx.ok("docx_copy_table", session_id=sid, table_id=first_table, position="end:document_body")
        result.touched |= parts_of_copied_references(src)
    await _copy_first_blocks(docx, sid, src, result)
    await _replace_a_word(docx, sid, src, result)
    await docx.ok("docx_insert_image", session_id=sid, image_path=str(image), position="end:document_body",
                  width="2cm")
    await docx.ok("docx_set_margins", session_id=sid, top="2cm", bottom="2cm", left="2cm", right="2cm")
    await docx.ok("docx_save", session_id=sid, file_path=str(out))
    await docx.ok("docx_close", session_id=sid)
    result.saved = out
    return result


async def _new_table(docx, sid: str, result: Edited) -> None:
    table = (await docx.ok("docx_insert_table", session_id=sid, rows=2, cols=3, position="end:document_body",
                           data=[["x", "y", "z"]])).element_id
    await docx.ok("docx_fill_table", session_id=sid, table_id=table, data=CELL_WORDS)  # grows to 3 rows
    if result.tracked:  # Word has no revision for a merge: as the refusal's hint says, untracked for it
        await docx.ok("docx_set_track_changes", session_id=sid, enabled=False)
    await docx.ok("docx_merge_cells", session_id=sid, table_id=table, start_row=1, start_col=1, end_row=2, end_col=2)
    if result.tracked:
        await docx.ok("docx_set_track_changes", session_id=sid, enabled=True)
    result.markers += [w for row in CELL_WORDS for w in row]


async def _copy_first_blocks(docx, sid: str, src: Path, result: Edited) -> None:
    page = await docx.ok("docx_read_content", session_id=sid, max_elements=3)
    ids = [m.group(0)[1:-1] for m in _ID.finditer(page.section("Content"))]
    if ids:
        await docx.ok("docx_copy_elements_range", session_id=sid, start_id=ids[0], end_id=ids[-1],
                      position="end:document_body")
        result.touched |= parts_of_copied_references(src)


def parts_of_copied_references(src: Path) -> set[str]:
    """The parts a copy of the first blocks (and the first table) may change: the notes parts when
    they reference notes (a copied reference gets a copy of its note), numbering.xml when they are
    list items (a copied whole list keeps numbering of its own)."""
    parts = read_parts(src)
    main = main_part_name(src)
    strict = is_strict(src)  # read in Transitional names, as the product reads Strict files
    body = _parse(to_transitional(parts[main]) if strict else parts[main]).find(f"{{{W}}}body")
    blocks = [el for el in body if is_block(el)][:3] + list(body.iter(f"{{{W}}}tbl"))[:1]
    suffixes = []
    if any(next(el.iter(f"{{{W}}}footnoteReference", f"{{{W}}}endnoteReference"), None) is not None
           for el in blocks):
        suffixes += ["/footnotes", "/endnotes"]
    if any(next(el.iter(f"{{{W}}}numPr"), None) is not None for el in blocks):
        suffixes.append("/numbering")
    if not suffixes:
        return set()
    rels_name = "/".join([*main.split("/")[:-1], "_rels", main.split("/")[-1] + ".rels"])
    folder = "/".join(main.split("/")[:-1])
    return {"/".join(filter(None, [folder, rel.get("Target", "")])) for rel in _parse(parts[rels_name])
            if rel.get("Type", "").endswith(tuple(suffixes))}


async def _replace_a_word(docx, sid: str, src: Path, result: Edited) -> None:
    parts = read_parts(src)
    main = main_part_name(src)
    word = pick_word(parts[main])
    if word is None:
        return
    a = await docx.ok("docx_replace_text", session_id=sid, old_text=word, new_text=word + REPLACED_SUFFIX)
    result.word = word
    result.replacements = int(a.head["Replacements"])
    result.touched |= story_parts_with(parts, main, word)


def settings_part(src: Path) -> str:
    """The settings part's name, from the main part's relationships (read independently of the product)."""
    main = main_part_name(src)
    folder, base = main.rsplit("/", 1) if "/" in main else ("", main)
    rels = _parse(read_parts(src)[f"{folder}/_rels/{base}.rels" if folder else f"_rels/{base}.rels"])
    for rel in rels:
        if rel.get("Type", "").endswith("/settings"):
            target = rel.get("Target", "")
            return target[1:] if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
    return f"{folder}/settings.xml"


def touched_parts(src: Path) -> set[str]:
    """Parts the script changes in any file: the main part, its rels, the content types."""
    main = main_part_name(src)
    folder, base = main.rsplit("/", 1) if "/" in main else ("", main)
    rels = f"{folder}/_rels/{base}.rels" if folder else f"_rels/{base}.rels"
    return {main, rels, "[Content_Types].xml"}


# ---- running it over the corpus ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def edited(tmp_path_factory) -> dict[str, Edited]:
    """Run the script on every editable file (one server), then nothing else: checks are per file."""
    base, image = script_folder(tmp_path_factory, "edit-scripts")
    out_dir = base / "saved"
    out_dir.mkdir()
    results: dict[str, Edited] = {}
    t0 = time.monotonic()

    async def main():
        async with open_client([corpus_dir(), base]) as docx:
            for src in editable_files():
                try:
                    results[src.name] = await run_script(docx, src, out_dir / src.name, image)
                except Exception as e:  # recorded per file, reported by that file's tests
                    results[src.name] = Edited(src, failure=f"{type(e).__name__}: {e}"[:4000])
                    await docx.call("docx_close", session_id=docx.session_id)
                results[src.name].touched |= touched_parts(src)

    anyio.run(main)
    report(f"test_edit_scripts_corpus: edit scripts on {len(results)} files in {time.monotonic() - t0:.1f}s")
    return results


@pytest.fixture(scope="module")
def pdfs(edited) -> dict[str, tuple[Path | None, Path | None]]:
    """(original PDF, saved PDF) per file name, converted in batches."""
    from tests.support import libreoffice as lo

    lo.require_soffice(need_pdftotext=True)
    t0 = time.monotonic()
    originals = lo.convert_cached([r.source for r in edited.values()], label="edit-script originals")
    saved_files = [r.saved for r in edited.values() if r.saved is not None]
    out = saved_files[0].parent.parent / "pdf" if saved_files else Path("/nonexistent")
    converted = lo.convert_to_pdf(saved_files, out) if saved_files else {}
    report(f"test_edit_scripts_corpus: LibreOffice for {len(edited)} originals and {len(saved_files)} saved "
           f"files in {time.monotonic() - t0:.1f}s")
    return {name: (originals.get(r.source.resolve()), converted.get(r.saved.resolve()) if r.saved else None)
            for name, r in edited.items()}


def _edited(edited: dict[str, Edited], path: Path) -> Edited:
    result = edited[path.name]
    assert result.failure is None, f"the edit script failed on {path.name}:\n{result.failure}"
    return result


# ---- the checks ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_a_file_saved_tracking_gets_the_edits_as_revisions(edited, path):
    result = _edited(edited, path)
    main = _parse(read_parts(result.saved)[main_part_name(result.saved)])
    # by local name: Strict files keep their own namespace
    ours = main.xpath(".//*[local-name()='ins'][@*[local-name()='author']='ooxml-mcp']")
    if result.tracked:
        assert ours, f"{path.name} opened with Track Changes on, but the script's insertions are not revisions"
    else:
        assert not ours, f"{path.name} was not tracked, yet the saved file has insertions by ooxml-mcp"


@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_script_edits_and_replaces(edited, path):
    result = _edited(edited, path)
    if result.word:
        assert result.replacements >= 1, f"'{result.word}' occurs in {path.name} but was not replaced"
        main = main_part_name(result.saved)
        text = "".join(_paragraph_texts(_parse(read_parts(result.saved)[main])))
        assert result.word + REPLACED_SUFFIX in text


@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_untouched_parts_are_byte_identical(edited, path):
    result = _edited(edited, path)
    # Zip directory entries ('word/') are not parts: the product does not write them.
    original = {n: d for n, d in read_parts(path).items() if not n.endswith("/")}
    saved = read_parts(result.saved)
    changed = [n for n, data in original.items() if n not in result.touched and saved.get(n) != data]
    assert not changed, f"parts changed that the script had no reason to touch: {changed}"
    extra = [n for n in saved if n not in original]
    media = main_part_name(path).rsplit("/", 1)[0] + "/media/"
    unexpected = [n for n in extra if not n.startswith(media) and n not in result.touched]
    assert not unexpected, f"parts added that the script had no reason to add: {unexpected}"
    with zipfile.ZipFile(result.saved) as z:
        assert z.testzip() is None


@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_no_new_integrityintegrity_problems(edited, path):
    result = _edited(edited, path)
    before, after = integrity_problems(path), integrity_problems(result.saved)
    new = sorted((Counter(after) - Counter(before)).elements())
    assert not new, "new integrity problems:\n" + "\n".join(new)


@pytest.mark.schema
@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_no_new_schema_errors(edited, path):
    from tests.support import schema

    schema.require_schemas()
    result = _edited(edited, path)
    main = main_part_name(path)
    # Kinds of error, not counts: a copy of the file's own invalid markup repeats its errors.
    before = set(schema.validate_main_part(read_parts(path)[main]))
    new = sorted(set(schema.validate_main_part(read_parts(result.saved)[main])) - before)
    assert not new, "new kinds of schema error:\n" + "\n".join(new[:20])


@pytest.mark.libreoffice
@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_libreoffice_converts_and_shows_inserted_text(edited, pdfs, path):
    from tests.support import libreoffice as lo

    result = _edited(edited, path)
    original_pdf, saved_pdf = pdfs[path.name]
    if original_pdf is None:
        pytest.skip(f"LibreOffice does not convert the original {path.name} either")
    assert saved_pdf is not None, f"LibreOffice converted the original {path.name} but not the edited file"
    text = lo.pdf_text(saved_pdf)
    missing = [m for m in result.markers if m not in text]
    assert not missing, f"inserted text missing from the PDF: {missing}"


@pytest.mark.parametrize("path", corpus_params(refused_files()))
def test_refused_files_are_skipped(path):
    """The product refuses DTD documents (tests/corpus/test_roundtrip_corpus.py checks how)."""
    reason = expected_refusals()[path.name]
    print(f"skipped {path.name}: the product refuses {reason} documents")
    pytest.skip(f"{path.name}: the product refuses {reason} documents, so no edit script runs on it")
