"""docx_replace_text in equations, as find shows them (LaTeX): a match counts between LaTeX tokens
only, a result that does not parse changes nothing, and undo gives the equation back."""
from __future__ import annotations

import pytest

from tests.builders import build_docx

pytestmark = pytest.mark.anyio


async def with_equation(docx, tmp_path, latex: str) -> None:
    await docx.open(build_docx(tmp_path / "in.docx", "<w:p><w:r><w:t>Area of a circle:</w:t></w:r></w:p>"))
    await docx.ok("docx_insert_equation", latex=latex, position="end:document_body")


async def shown(docx, query: str) -> str:
    return (await docx.ok("docx_find_paragraphs", query=query)).text


async def test_a_greek_letter_is_replaced_in_the_equation(docx, tmp_path):
    await with_equation(docx, tmp_path, r"\frac{a}{b}+\alpha^{2}")
    ans = await docx.ok("docx_replace_text", old_text=r"\alpha", new_text=r"\beta")
    assert ans.head["Equations Changed"] == "1" and ans.head["Replacements"] == "1"
    assert r"$$\frac{a}{b}+\beta^{2}$$" in await shown(docx, r"\beta")


async def test_a_letter_is_not_replaced_inside_a_command(docx, tmp_path):
    await with_equation(docx, tmp_path, r"\frac{a}{b}")
    ans = await docx.ok("docx_replace_text", old_text="a", new_text="c")
    assert ans.head["Equations Changed"] == "1"
    assert r"$$\frac{c}{b}$$" in await shown(docx, r"\frac")
    assert "Arec of c circle" in await shown(docx, "circle")  # the text's matches too


async def test_a_replacement_that_breaks_the_latex_changes_nothing(docx, tmp_path):
    await with_equation(docx, tmp_path, r"\frac{a}{b}")
    before = await shown(docx, r"\frac")
    err = await docx.call("docx_replace_text", old_text="{a}", new_text="{a")
    assert err.is_error and err.error_type == "ValidationError", err.text
    assert await shown(docx, r"\frac") == before


async def test_undo_gives_the_equation_back(docx, tmp_path):
    await with_equation(docx, tmp_path, r"\sqrt{x}")
    before = await shown(docx, "sqrt")
    await docx.ok("docx_replace_text", old_text="x", new_text="y")
    assert r"\sqrt{y}" in await shown(docx, "sqrt")
    await docx.ok("docx_undo")
    assert await shown(docx, "sqrt") == before
