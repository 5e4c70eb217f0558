"""docx_insert_equation and docx_set_equation as an agent uses them: what the answer and the views
show, tracking, bad LaTeX, and the saved file in the Open XML SDK validator and LibreOffice."""
from __future__ import annotations

import pytest

from tests.builders import build_docx
from tests.equation_cases import EXPRESSIONS
from tests.support.client import NS, by_id

pytestmark = pytest.mark.anyio
M = "http://schemas.openxmlformats.org/officeDocument/2006/math"


def xp(el, path: str):
    return el.xpath(path, namespaces={**NS, "m": M})


async def _opened(docx, tmp_path) -> str:
    await docx.open(build_docx(tmp_path / "in.docx", "<w:p><w:r><w:t>Hello</w:t></w:r></w:p>"))
    content = (await docx.ok("docx_read_content")).text
    return next(line for line in content.splitlines() if "Hello" in line).split("(")[1].split(")")[0]


async def test_display_equation_is_its_own_paragraph_shown_as_latex(docx, tmp_path):
    await _opened(docx, tmp_path)
    answer = await docx.ok("docx_insert_equation", latex=r"\frac{a}{b}", position="end:document_body")
    assert answer.element_id.startswith("eq_") and r"$$\frac{a}{b}$$" in answer.text


async def test_text_holding_a_less_than_sign_is_written_as_it_reads(docx, tmp_path):
    await _opened(docx, tmp_path)
    eq = (await docx.ok("docx_insert_equation", latex=r"\text{a<b}", position="end:document_body")).element_id
    math = by_id(await docx.save(tmp_path / "out.docx"), eq)
    assert xp(math, "string(.//m:t)") == "a<b"


async def test_display_equation_is_saved_as_office_math_paragraph(docx, tmp_path):
    await _opened(docx, tmp_path)
    eq = (await docx.ok("docx_insert_equation", latex=r"\sqrt{x}", position="end:document_body")).element_id
    math = by_id(await docx.save(tmp_path / "out.docx"), eq)
    assert math.tag == f"{{{M}}}oMathPara" and xp(math, "m:oMath/m:rad")


async def test_inline_equation_sits_among_the_runs(docx, tmp_path):
    pid = await _opened(docx, tmp_path)
    await docx.ok("docx_insert_equation", latex="x^2", position=f"end:{pid}", display=False)
    assert "Hello$x^{2}$" in (await docx.ok("docx_read_content")).text


async def test_tracked_insert_is_inside_an_insertion(docx, tmp_path):
    pid = await _opened(docx, tmp_path)
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    eq = (await docx.ok("docx_insert_equation", latex=r"\alpha", position=f"end:{pid}", display=False)).element_id
    math = by_id(await docx.save(tmp_path / "out.docx"), eq)
    assert math.getparent().tag == f"{{{NS['w']}}}ins"


async def test_bad_latex_names_the_position_and_changes_nothing(docx, tmp_path):
    await _opened(docx, tmp_path)
    before = (await docx.ok("docx_read_content")).section("Content")
    answer = await docx.call("docx_insert_equation", latex=r"\frac{a}{b", position="end:document_body")
    assert answer.is_error and "ValidationError" in answer.text and "position 8" in answer.text
    assert (await docx.ok("docx_read_content")).section("Content") == before


async def test_set_equation_by_its_paragraph_replaces_it(docx, tmp_path):
    await _opened(docx, tmp_path)
    await docx.ok("docx_insert_equation", latex="x", position="end:document_body")
    content = (await docx.ok("docx_read_content")).text
    pid = next(line for line in content.splitlines() if "$$x$$" in line).split("(")[1].split(")")[0]
    answer = await docx.ok("docx_set_equation", element_id=pid, latex=r"\sum_{i} y_i")
    assert r"$$\sum_{i} y_{i}$$" in answer.text


async def test_set_equation_keeps_an_inline_equation_inline(docx, tmp_path):
    pid = await _opened(docx, tmp_path)
    eq = (await docx.ok("docx_insert_equation", latex="x", position=f"end:{pid}", display=False)).element_id
    await docx.ok("docx_set_equation", element_id=eq, latex=r"\beta")
    assert r"Hello$\beta$" in (await docx.ok("docx_read_content")).text


# ---- outside checks: the Open XML SDK validator and LibreOffice, on one file of many equations -------
SYMBOLS = ("∑", "∫", "α", "√", "∞", "π")


async def _many(docx, tmp_path):
    pid = await _opened(docx, tmp_path)
    for latex in EXPRESSIONS[::4]:
        await docx.ok("docx_insert_equation", latex=latex, position="end:document_body", view="none")
    await docx.ok("docx_insert_equation", latex=r"\sum_{i} \int \alpha \sqrt{\infty} \pi", position=f"end:{pid}",
                  display=False, view="none")
    await docx.save(tmp_path / "many.docx")
    return tmp_path / "many.docx"


async def test_inserted_equations_pass_the_sdk_validator(docx, tmp_path):
    from tests.support import sdk_validator as sdk
    path = await _many(docx, tmp_path)
    errors = sdk.validate_files([path])[path.resolve()]
    assert errors == [], errors[:5]


async def test_libreoffice_renders_inserted_equations(docx, tmp_path):
    from tests.support.libreoffice import convert_cached, pdf_text, require_soffice
    require_soffice(need_pdftotext=True)
    path = await _many(docx, tmp_path)
    pdf = convert_cached([path], label="equations")[path.resolve()]
    assert pdf is not None
    text = pdf_text(pdf)
    assert all(s in text for s in SYMBOLS), [s for s in SYMBOLS if s not in text]
