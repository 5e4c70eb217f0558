"""Accepting our own tracked edits gives the untracked result (issue 29 #22), on what a user sees.

Every editing tool's step of tests/corpus/test_validity_corpus.py's SCRIPT runs untracked, and tracked
followed by accept-all (our revisions). The two documents must read the same: every story (body, headers, footers,
footnotes, endnotes, comments) paragraph by paragraph (text as it reads, paragraph properties, run
formatting per stretch of text), every table's shape (rows as they read), and the whole document
exported as Markdown with every revision accepted.
On the corpus's Word feature-test files with fields, footnotes and a table of contents (MANIFEST.tsv),
skipped without the corpus, and on a fixture with those features built here (tests/support/feature_doc.py).
"""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from ooxml.text.body import iter_runs, paragraph_text, run_text, shown_paragraphs
from tests.support.client import NS, open_direct
from tests.support.corpus import corpus_params, editable_files, features, is_strict
from tests.support.feature_doc import feature_doc
from tests.corpus.test_validity_corpus import _props, edit_file, q

pytestmark = pytest.mark.anyio
FEATURES = {"fields", "footnotes", "toc"}
STORIES = ("word/document.xml", "word/footnotes.xml", "word/endnotes.xml", "word/comments.xml")


def _stories(path: Path) -> dict[str, etree._Element]:
    parser = etree.XMLParser(huge_tree=True, resolve_entities=False, no_network=True)
    with zipfile.ZipFile(path) as z:
        return {n: etree.fromstring(z.read(n), parser) for n in z.namelist()
                if n in STORIES or (n.startswith(("word/header", "word/footer")) and n.endswith(".xml"))}


def _paragraph(p: etree._Element) -> tuple:
    stretches: list[list[str]] = []
    for r in iter_runs(p):
        words, props = run_text(r), _props(r.find(q("rPr")))
        if not words:
            continue
        if stretches and stretches[-1][1] == props:
            stretches[-1][0] += words
        else:
            stretches.append([words, props])
    return paragraph_text(p), _props(p.find(q("pPr"))), tuple(map(tuple, stretches))


def seen(root: etree._Element) -> list[tuple]:
    """A story as it reads with every deletion accepted (as ``paragraph_text`` reads text): its paragraphs
    (one deleted whole is not read) and its tables' shapes (cells per row)."""
    out: list[tuple] = []
    for p in shown_paragraphs(root):
        if not paragraph_text(p) and p.xpath("w:pPr/w:rPr/w:del", namespaces=NS):
            continue
        out.append(_paragraph(p))
    for tbl in root.iter(q("tbl")):  # rows as they read: one deleted (by anyone) reads as gone, as deleted text does
        rows = [tr for tr in tbl.findall(q("tr")) if tr.find(f"{q('trPr')}/{q('del')}") is None]
        out.append(("table", tuple(len(tr.findall(q("tc"))) for tr in rows)))
    return out


def differences(accepted: Path, untracked: Path) -> list[str]:
    a, b = _stories(accepted), _stories(untracked)
    out = [f"{n}: only in the {'accepted' if n in a else 'untracked'} document" for n in sorted(set(a) ^ set(b))]
    for name in sorted(set(a) & set(b)):
        x, y = seen(a[name]), seen(b[name])
        if x == y:
            continue
        first = next((i for i, (u, v) in enumerate(zip(x, y)) if u != v), None)
        out.append(f"{name}: {len(x)} items accepted, {len(y)} untracked" if first is None else
                   f"{name} item {first}:\n  accepted  {x[first]}\n  untracked {y[first]}")
    return out


async def markdown(docx, path: Path) -> str:
    """The document as Markdown once every revision is accepted: the file's own revisions by other authors
    (kept as they are by an untracked copy, resolved inside our tracked copy's insertion) read the same."""
    await docx.open(path)
    await docx.call("docx_accept_revisions", session_id=docx.session_id)  # an error when there are none
    out = path.with_suffix(".md")
    await docx.ok("docx_export_markdown", session_id=docx.session_id, file_path=str(out), ids=False)
    await docx.ok("docx_close", session_id=docx.session_id)
    # TOC bookmarks get fresh random names in each session (ooxml/xml/minting.py): no reader sees them
    return re.sub(r"_Toc\d+", "_Toc", out.read_text(encoding="utf-8"))


async def check(src: Path, out: Path) -> None:
    from PIL import Image
    out.mkdir(exist_ok=True)
    image = out / "picture.png"
    Image.new("RGB", (120, 60), (30, 120, 200)).save(image, dpi=(96, 96))
    async with open_direct([src.parent, out]) as docx:
        r = await edit_file(docx, src, out, image)
        found = differences(r.accepted, r.untracked)
        assert not found, "accept-all of the tracked edits differs from the untracked edits:\n" + "\n".join(found)
        assert await markdown(docx, r.accepted) == await markdown(docx, r.untracked)


def feature_files() -> list[Path]:
    return [p for p in editable_files() if FEATURES <= features(p) and not is_strict(p)]


async def test_fixture_with_fields_notes_and_toc(tmp_path):
    await check(feature_doc(tmp_path / "features.docx"), tmp_path / "out")


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(feature_files()))
async def test_corpus_file_with_fields_notes_and_toc(path, tmp_path):
    await check(path, tmp_path / "out")
