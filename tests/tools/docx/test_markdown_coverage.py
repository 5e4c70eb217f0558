"""The Markdown export leaves no body text out: content controls at every level, text boxes (once),
nested tables and equations included.

Measured against an independent reading of word/document.xml: each body paragraph's w:t text
(tabs and breaks as spaces), leaving out deleted text and mc:Fallback copies. Headers and
footers are not the body.
"""
from __future__ import annotations

import collections
import re
import shutil
import zipfile

import pytest
from lxml import etree

from tests.builders import build_docx, p

pytestmark = pytest.mark.anyio

WORD_NS = ("http://schemas.openxmlformats.org/wordprocessingml/2006/main",
           "http://purl.oclc.org/ooxml/wordprocessingml/main")
MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
SEPARATORS = ("tab", "br", "cr", "ptab", "noBreakHyphen")
GONE = ("del", "moveFrom")  # deleted text: shown struck out, not part of the text
COVERAGE = 0.99


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def _main_part(z: zipfile.ZipFile) -> str:
    rels = etree.fromstring(z.read("_rels/.rels"))
    return next(r.get("Target") for r in rels if r.get("Type", "").endswith("/officeDocument")).lstrip("/")


def body_words(path) -> collections.Counter:
    with zipfile.ZipFile(path) as z:
        root = etree.fromstring(z.read(_main_part(z)))
    out: collections.Counter = collections.Counter()
    for ns in WORD_NS:
        skip = {MC_FALLBACK, *(f"{{{ns}}}{n}" for n in GONE)}
        tags = [f"{{{ns}}}{n}" for n in ("t", *SEPARATORS)]
        for para in root.iter(f"{{{ns}}}p"):
            if any(a.tag in skip for a in para.iterancestors()):
                continue
            text = "".join((t.text or "") if t.tag == tags[0] else " " for t in para.iter(*tags)
                           if next(t.iterancestors(f"{{{ns}}}p")) is para
                           and not any(a.tag in skip for a in t.iterancestors() if a is not para))
            out.update(_words(text))
    return out


def markdown_words(markdown: str) -> collections.Counter:
    """Words of the export: deleted text {--…--} out, marks that split a word (**T**he) dropped."""
    text = re.sub(r"\{--.*?--\}", "", markdown, flags=re.S)
    text = re.sub(r"\{\+\+|\+\+\}", "", text)
    return collections.Counter(_words(re.sub(r"\\(.)|[*~`]", lambda m: m.group(1) or "", text, flags=re.S)))


def missing_share(path, markdown: str) -> tuple[float, list[str]]:
    want = body_words(path)
    gone = want - markdown_words(markdown)
    total = sum(want.values())
    return (sum(gone.values()) / total if total else 0.0), sorted(gone)[:8]


async def _export(docx, path, out) -> str:
    await docx.open(path)
    await docx.ok("docx_export_markdown", session_id=docx.session_id, file_path=str(out), ids=False)
    await docx.ok("docx_close", session_id=docx.session_id)
    return out.read_text(encoding="utf-8")


SDT = "<w:sdt><w:sdtPr/><w:sdtContent>{}</w:sdtContent></w:sdt>"


async def test_export_holds_the_text_of_content_controls_at_every_level(docx, tmp_path):
    inline = p("").replace("</w:p>", SDT.format("<w:r><w:t>inline control</w:t></w:r>") + "</w:p>")
    cell = f"<w:tc>{SDT.format(p('cell control'))}</w:tc>"
    row = SDT.format(f"<w:tr><w:tc>{p('row control')}</w:tc><w:tc>{p('x')}</w:tc></w:tr>")
    table = (f"<w:tbl><w:tblPr/><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>"
             f"<w:tr><w:tc>{p('head')}</w:tc>{cell}</w:tr>{row}</w:tbl>")
    src = build_docx(tmp_path / "in.docx", SDT.format(p("block control") + SDT.format(p("nested control")))
                     + inline + table)
    text = await _export(docx, src, tmp_path / "out.md")
    for words in ("block control", "nested control", "inline control", "cell control", "row control"):
        assert words in text


async def test_export_holds_a_text_box_once(docx, tmp_path):
    from tests.tools.docx.test_text_boxes import alternate_text_box
    src = build_docx(tmp_path / "in.docx", alternate_text_box("Datum plane") + p("after"))
    text = await _export(docx, src, tmp_path / "out.md")
    assert text.count("Datum plane") == 1 and "Text Box" not in text


def _files():
    from tests.support.corpus import editable_files
    return editable_files()


@pytest.mark.corpus
async def test_every_corpus_export_holds_the_words_of_its_body(tmp_path):
    from tests.support.client import open_client
    from tests.support.corpus import require_corpus
    require_corpus()
    short = {}
    async with open_client([tmp_path]) as docx:
        for src in _files():
            copy = shutil.copy(src, tmp_path / src.name)
            text = await _export(docx, copy, tmp_path / f"{src.stem}.md")
            share, sample = missing_share(src, text)
            if share > 1 - COVERAGE:
                short[src.name] = (f"{share:.1%}", sample)
    assert not short, f"exports missing over {1 - COVERAGE:.0%} of their body's words: {short}"
