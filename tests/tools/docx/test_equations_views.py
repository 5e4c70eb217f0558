"""Equations as readers see them: LaTeX in views, find and Markdown export; old equation objects
as ``[equation]``; corpus files with Office Math shown as LaTeX."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from ooxml.math.to_latex import to_latex
from ooxml.xml import safexml
from tests.builders import build_docx

pytestmark = pytest.mark.anyio
M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
FRAC = (f'<m:oMath xmlns:m="{M}"><m:f><m:num><m:r><m:t>a</m:t></m:r></m:num>'
        '<m:den><m:sSup><m:e><m:r><m:t>β</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup>'
        '</m:den></m:f></m:oMath>')
DISPLAY = (f'<m:oMathPara xmlns:m="{M}"><m:oMath><m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr>'
           '<m:sub><m:r><m:t>i=1</m:t></m:r></m:sub><m:sup><m:r><m:t>n</m:t></m:r></m:sup>'
           '<m:e><m:sSub><m:e><m:r><m:t>x</m:t></m:r></m:e><m:sub><m:r><m:t>i</m:t></m:r></m:sub></m:sSub>'
           '</m:e></m:nary></m:oMath></m:oMathPara>')
OLE = ('<w:r><w:object xmlns:o="urn:schemas-microsoft-com:office:office">'
       '<o:OLEObject Type="Embed" ProgID="Equation.3" ShapeID="_x0000_i1025" DrawAspect="Content"'
       ' ObjectID="_1"/></w:object></w:r>')
BODY = (f"<w:p><w:r><w:t xml:space=\"preserve\">Ratio </w:t></w:r>{FRAC}</w:p><w:p>{DISPLAY}</w:p>"
        f"<w:p><w:r><w:t xml:space=\"preserve\">Old: </w:t></w:r>{OLE}</w:p>")


async def _open(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "eq.docx", BODY))


async def test_read_content_shows_inline_equation_as_latex(docx, tmp_path):
    await _open(docx, tmp_path)
    assert r"Ratio $\frac{a}{\beta^{2}}$" in (await docx.ok("docx_read_content")).text


async def test_read_content_shows_display_equation_between_double_dollars(docx, tmp_path):
    await _open(docx, tmp_path)
    assert r"$$\sum_{i=1}^{n} x_{i}$$" in (await docx.ok("docx_read_content")).text


async def test_legacy_equation_object_shows_as_placeholder(docx, tmp_path):
    await _open(docx, tmp_path)
    assert "Old: [equation]" in (await docx.ok("docx_read_content")).text


async def test_markdown_export_shows_legacy_equation_as_placeholder(docx, tmp_path):
    await _open(docx, tmp_path)
    out = tmp_path / "eq.md"
    await docx.ok("docx_export_markdown", file_path=str(out), ids=False)
    assert "Old: \\[equation\\]" in out.read_text(encoding="utf-8")  # escaped: Markdown shows [equation]


async def test_find_paragraphs_sees_equation_latex(docx, tmp_path):
    await _open(docx, tmp_path)
    found = await docx.ok("docx_find_paragraphs", query=r"\beta^{2}")
    assert "**Matches**: 1" in found.text


async def test_markdown_export_writes_equations_as_latex(docx, tmp_path):
    await _open(docx, tmp_path)
    out = tmp_path / "eq.md"
    await docx.ok("docx_export_markdown", file_path=str(out))
    text = out.read_text(encoding="utf-8")
    assert r"$\frac{a}{\beta^{2}}$" in text and r"$$\sum_{i=1}^{n} x_{i}$$" in text


CORPUS = Path("/work/shared/corpus/docx")


def _corpus_with_math() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    found = []
    for path in sorted(CORPUS.glob("*.docx")):
        import zipfile
        with zipfile.ZipFile(path) as z:
            data = z.read("word/document.xml") if "word/document.xml" in z.namelist() else b""
            if b"<m:oMath" in data and M.encode() in data:  # Transitional Office Math
                found.append(path)
    return found[:6]


@pytest.mark.parametrize("path", _corpus_with_math() or [None], ids=lambda p: p.name if p else "none")
def test_corpus_equations_read_as_latex(path):
    if path is None:
        pytest.skip("no corpus file with Office Math here")
    import zipfile
    with zipfile.ZipFile(path) as z:
        root = safexml.parse_part(z.read("word/document.xml"), "document.xml").getroot()
    maths = root.findall(f".//{{{M}}}oMath")
    shown = [to_latex(m) for m in maths]
    has_text = [m for m, s in zip(maths, shown) if "".join(m.itertext()).strip()]
    assert has_text and all(s for m, s in zip(maths, shown) if m in has_text)
    assert any("\\" in s or "^" in s or "_" in s for s in shown)


async def test_insert_markdown_reads_dollar_math_as_equations(docx, tmp_path):
    await _open(docx, tmp_path)
    await docx.ok("docx_insert_markdown", markdown="Area $\\pi r^2$ here.\n\n$$\\int_0^1 x dx$$\n\nCosts $5 and $10.",
                  position="end:document_body")
    text = (await docx.ok("docx_read_content")).text
    assert "Area $\\pi r^{2}$ here." in text and "$$\\int_{0}^{1} xdx$$" in text and "Costs $5 and $10." in text


async def test_markdown_export_reads_back_the_same_equations(docx, tmp_path):
    await _open(docx, tmp_path)
    out = tmp_path / "eq.md"
    await docx.ok("docx_export_markdown", file_path=str(out), ids=False)
    await docx.ok("docx_insert_markdown", markdown=out.read_text(encoding="utf-8"), position="end:document_body")
    text = (await docx.ok("docx_read_content")).text
    assert text.count(r"$\frac{a}{\beta^{2}}$") == 2 and text.count(r"$$\sum_{i=1}^{n} x_{i}$$") == 2
