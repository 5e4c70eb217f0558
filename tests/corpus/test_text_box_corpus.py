"""Edits inside the text boxes of corpus files (MANIFEST feature ``textbox``): a paragraph added at
end:tbx_… and one at start:tbx_… while tracking land in that box; the files stay valid (check_package,
the Open XML SDK validator against the original's errors) and LibreOffice shows each new text once."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from ooxml.model.document import Document
from ooxml.model.integrity import check_package
from tests.builders import NS
from tests.support import sdk_validator
from tests.support.corpus import corpus_params, editable_files, features
from tests.support.libreoffice import convert_cached, pdf_texts, require_soffice

pytestmark = [pytest.mark.anyio, pytest.mark.corpus]
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
BOXED = [f for f in editable_files() if "textbox" in features(f)]
_FRAME = re.compile(r"┌ Text Box \((tbx_\w+)\)")


def _copy(src: Path, folder: Path) -> Path:
    """The corpus file in the test's folder (the server's root), under a name of its own."""
    (folder / "in").mkdir(exist_ok=True)
    return Path(shutil.copy(src, folder / "in" / src.name))


async def _first_box(docx) -> str | None:
    """The first text box read_content shows in the body (pages of 200 blocks, ten at most)."""
    start = {}
    for _ in range(10):
        page = await docx.ok("docx_read_content", max_elements=200, **start)
        found = _FRAME.search(page.text)
        if found or "Next Page" not in page.head:
            return found.group(1) if found else None
        start = {"start_element_id": page.head["Next Page"].split("=", 1)[1]}
    return None


async def _edit(docx, src: Path, out: Path) -> tuple[str, str] | None:
    """Two paragraphs added to the first body text box of ``src``, saved as ``out``: (box ID, tag);
    None without a text box in the body (one in a cell, a header or a shape group only)."""
    await docx.open(_copy(src, out.parent))
    tbx = await _first_box(docx)
    if tbx is None:
        await docx.ok("docx_close")
        return None
    tag = "Qx" + re.sub(r"[^A-Za-z]", "", src.stem)[-12:]
    await docx.ok("docx_insert_paragraph", position=f"end:{tbx}", text=f"{tag} appended line")
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_insert_paragraph", position=f"start:{tbx}", text=f"{tag} tracked line")
    await docx.save(out)
    await docx.ok("docx_close")
    return tbx, tag


@pytest.mark.parametrize("path", corpus_params(BOXED))
async def test_paragraphs_added_to_a_corpus_text_box_land_in_that_box(docx, tmp_path, path):
    out = tmp_path / path.name
    edited = await _edit(docx, path, out)
    if edited is None:
        pytest.skip(f"{path.name}: no text box in the body")
    tbx, tag = edited
    doc = Document.open(out)
    box = doc.main.tree.getroot().xpath(f"//w:txbxContent[@oxm:id='{tbx}']", namespaces=NS)[0]
    texts = ["".join(p.xpath(".//w:t/text()", namespaces=NS)) for p in box.xpath("w:p", namespaces=NS)]
    assert texts[0] == f"{tag} tracked line" and texts[-1] == f"{tag} appended line"
    assert box.xpath("w:p[1]//w:ins/w:r/w:t", namespaces=NS)  # tracked as Word tracks it in a box
    assert set(check_package(doc)) <= set(check_package(Document.open(path)))


async def test_corpus_files_with_paragraphs_added_to_text_boxes_stay_valid(docx, tmp_path):
    if not BOXED:
        pytest.skip("no corpus file with text boxes")
    sdk_validator.require()
    edited = {}
    for src in BOXED:
        if await _edit(docx, src, tmp_path / src.name) is not None:
            edited[tmp_path / src.name] = src
    found = sdk_validator.validate_files([f for out, src in edited.items() for f in (src, out)])
    new = {out.name: sorted(sdk_validator.kinds(found[out.resolve()]) - sdk_validator.kinds(found[src.resolve()]))
           for out, src in edited.items()}
    assert {name: kinds for name, kinds in new.items() if kinds} == {}


_LINE = re.compile(r"│ (para_\w+): ([A-Za-z0-9 ,.'-]{3,})$", re.M)  # a plain line of a box's frame


async def _replace_in_box(docx, src: Path, out: Path, tag: str) -> str | None:
    """The first plain paragraph of the first body text box of ``src`` set to ``tag`` (same box size:
    nothing clipped), saved as ``out``; the text it had, or None without such a paragraph."""
    await docx.open(_copy(src, out.parent))
    tbx = await _first_box(docx)
    page = (await docx.ok("docx_read_content", max_elements=200)).text if tbx else ""
    frame = page[page.index(f"┌ Text Box ({tbx})"):] if tbx and f"┌ Text Box ({tbx})" in page else ""
    line = _LINE.search(frame.split("\n[", 1)[0])
    if line is not None:
        await docx.ok("docx_update_paragraph_text", element_id=line.group(1), new_text=tag)
        await docx.save(out)
    await docx.ok("docx_close")
    return line.group(2) if line else None


def _squeezed(text: str | None) -> str:
    return "".join((text or "").split())  # a narrow box wraps lines anywhere between words


async def test_libreoffice_shows_text_set_in_a_corpus_text_box_once(docx, tmp_path):
    """On the files whose box text LibreOffice draws (it shows the old text in the original's PDF)."""
    if not BOXED:
        pytest.skip("no corpus file with text boxes")
    require_soffice()
    edited = {}
    for n, src in enumerate(BOXED):
        tag = "Qz" + chr(65 + n // 26) + chr(65 + n % 26) + "q"
        old = await _replace_in_box(docx, src, tmp_path / src.name, tag)
        if old is not None:
            edited[tmp_path / src.name] = (src, tag, old)
    pdfs = convert_cached([f for out, (src, *_) in edited.items() for f in (src, out)], label="corpus text boxes")
    texts = {k: _squeezed(v) for k, v in pdf_texts(pdfs.values()).items()}
    drawn = {out: (tag, old) for out, (src, tag, old) in edited.items()
             if _squeezed(old) in texts.get(pdfs[src.resolve()], "")}
    assert len(drawn) >= 5, f"LibreOffice drew the box text of only {sorted(o.name for o in drawn)}"
    print(f"text boxes LibreOffice draws: {len(drawn)} of {len(edited)} edited files")
    shown = {out.name: texts.get(pdfs[out.resolve()], "").count(tag) for out, (tag, _) in drawn.items()}
    assert {name: n for name, n in shown.items() if n != 1} == {}
