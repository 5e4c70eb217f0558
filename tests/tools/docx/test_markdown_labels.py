"""Markdown export writes each paragraph with the one label Word shows (issue 29, defect 6):
numbered headings keep their numbers ('# 1. Definitions'), and a list item whose label Markdown
cannot write as a marker ('2.2.2', '(a)') is that label and its text, not a counted '1.' before it.

Checked through docx_export_markdown on a contract built by tests/support/list_docs.py, and line by
line against LibreOffice's text export (which writes each paragraph's label) on that contract and
on corpus files with numbered headings or multi-level labels.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from ooxml.lists.numbering import label_of
from ooxml.model.document import Document
from ooxml.text import body as B
from render.blocks import heading_level
from render.markdown import Exporter
from tests.support import list_docs as LD
from tests.support.corpus import corpus_files, features, require_corpus
from tests.support.libreoffice import convert_cached, require_soffice
from tests.support.list_labels import lo_labels

pytestmark = pytest.mark.anyio


def _contract(folder: Path) -> Path:
    body, numbering, styles = LD.numbered_headings()
    return LD.build(folder / "contract.docx", body, numbering, styles)


async def _exported(docx, tmp_path) -> list[str]:
    await docx.open(_contract(tmp_path))
    answer = await docx.ok("docx_export_markdown", session_id=docx.session_id, ids=False)
    fence = re.search(r"^(`{3,})markdown\n(.*)\n\1\s*$", answer.section("Content"), re.S | re.M)
    assert fence, answer.text
    return fence.group(2).split("\n")


async def test_numbered_headings_export_with_their_numbers(docx, tmp_path):
    lines = await _exported(docx, tmp_path)
    headings = [line for line in lines if line.startswith("#")]
    assert headings == ["# 1. Definitions and Interpretation", "## 1.1 Definitions", "# 2. Term",
                        "## 2.1 Commencement", "## 2.2 Renewal"]


async def test_list_items_export_with_one_label_each(docx, tmp_path):
    lines = await _exported(docx, tmp_path)
    assert "2.2.2 Notice of renewal is given in writing." in lines
    assert "(b) and weekends." in lines
    assert ["1. First step", "2. Second step", "", "   2.1. A sub-step", "", "3. Third step"] == \
        lines[lines.index("1. First step"):lines.index("3. Third step") + 1]
    assert "2.2.5 After the table" in lines
    assert any("2.2.3 cell one<br>" in line for line in lines)
    doubled = [line for line in lines if re.match(r"\s*(\d+[.)]|-) +(\(?[a-z]\)|\d+\.\d)", line)]
    assert doubled == []


def _norm(text: str) -> str:
    """Text as a reader sees it: Markdown's escapes and emphasis marks gone, white space collapsed."""
    return " ".join(re.sub(r"[\\*_~`\[\]]", "", text).split())


def _first_lines(doc) -> dict:
    """Body paragraph -> the first Markdown line exported for it, without a heading's '#'s."""
    exporter, out = Exporter(doc), {}
    for el in B.iter_blocks(doc.body):
        chunks: list = []
        exporter.block(el, chunks)
        if el.tag == B.W_P and chunks and chunks[0][1]:
            out[el] = re.sub(r"^#{1,6} ", "", chunks[0][1][0].strip())
    return out


def _disagreements(path: Path, txt: Path) -> tuple[int, list]:
    """Labelled body paragraphs whose Markdown line does not start as LibreOffice's line does."""
    doc = Document.open(path)
    try:
        firsts, checked, wrong = _first_lines(doc), 0, []
        for p, _seg, line, lo, ours in lo_labels(doc, txt):
            if line is None or (lo is None and ours is None) or p not in firsts:
                continue
            if ours != lo and not (ours and lo and len(ours) == len(lo) == 1):
                continue  # label_of differs from LibreOffice: tests/tools/docx/test_lists_labels_lo.py explains each
            md, want = firsts[p], line
            if md.startswith("- ") and lo and len(lo) == 1:  # a bullet: Markdown's marker for its glyph
                md, want = md[2:], want[1:]
            md, want = _norm(md.split("[^")[0]), _norm(want)  # note marks: ids here, numbers there
            n = min(30, len(want), len(md))
            checked += 1
            if md[:n] != want[:n]:
                wrong.append((md[:n], want[:n]))
        return checked, wrong
    finally:
        doc.close()


def test_fixture_labels_equal_libreoffice(tmp_path):
    require_soffice()
    path = _contract(tmp_path)
    txt = convert_cached([path], label="numbered headings", target="txt:Text")[path.resolve()]
    checked, wrong = _disagreements(path, txt)
    assert checked == 18 and wrong == []  # every labelled body paragraph


def _numbered_outline(path: Path) -> bool:
    """A numbered heading, or a multi-level label such as '1.1'."""
    doc = Document.open(path)
    try:
        for p in B.iter_blocks(doc.body):
            label = label_of(doc, p) if p.tag == B.W_P else None
            if label and (heading_level(doc, p) or re.search(r"\d[.)]\d", label)):
                return True
        return False
    finally:
        doc.close()


def test_corpus_labels_equal_libreoffice():
    require_corpus()
    require_soffice()
    files = [f for f in corpus_files() if "numbering" in features(f) and "strict" not in features(f)
             and _numbered_outline(f)]
    assert len(files) >= 5
    txt = convert_cached(files, label="corpus numbered outlines", target="txt:Text")
    total, wrong = 0, {}
    for f in files:
        assert txt[f.resolve()] is not None, f"LibreOffice did not convert {f.name}"
        checked, bad = _disagreements(f, txt[f.resolve()])
        total += checked
        if bad:
            wrong[f.name] = bad[:3]
    print(f"\n{len(files)} corpus files with numbered outlines: {total} labelled paragraphs checked")
    assert total > 200 and not wrong, wrong
