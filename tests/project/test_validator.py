"""The answer validator finds what breaks a line-based parser, and only that."""
from __future__ import annotations

from render import answer as A
from tests.support.answer_validator import validate_answer


def success_answer(*args, **kw) -> str:
    return A.markdown(A.success_answer(*args, **kw))


def error_answer(*args) -> str:
    return A.markdown(A.error_answer(*args))


def levels(text: str) -> list[str]:
    return [f"{f.level}: {f.message}" for f in validate_answer(text)]


def test_a_well_formed_success_answer_passes():
    text = success_answer("Insert Paragraph", element_id="para_1", fields={"Position": "end:document_body"},
                          context="  [Document Start]", changes="+x", cursor="Cursor: after Paragraph para_1")
    assert levels(text) == []


def test_a_well_formed_error_answer_passes():
    assert levels(error_answer("Delete", "ElementNotFound", "Element 'para_1' not found", "Use an ID")) == []


def test_missing_title_is_an_error():
    assert levels("**Status**: ✅ Success\n")[0].startswith("ERROR")


def test_status_must_come_first():
    text = "# 操作结果: X\n\n**Operation**: X\n**Status**: ✅ Success\n"
    assert any(f.startswith("ERROR: the head must start") for f in levels(text))


def test_element_id_must_precede_operation():
    text = "# 操作结果: X\n\n**Status**: ✅ Success\n**Operation**: X\n**Element ID**: para_1\n"
    assert any("head order" in f for f in levels(text))


def test_error_answer_with_context_is_an_error():
    text = error_answer("X", "ValidationError", "bad") + "\n---\n\n## 📄 Document Context\n\nstuff\n"
    assert any("must not carry context" in f for f in levels(text))


def test_unknown_section_is_an_error():
    text = success_answer("X") + "\n---\n\n## Extra Stuff\n"
    assert any("unknown section" in f for f in levels(text))


def test_sections_out_of_order_is_a_warning():
    text = success_answer("X", changes="+a") + "\n---\n\n## 📄 Document Context\n\n  [Document Start]\n"
    assert any(f.startswith("WARNING: sections out of order") for f in levels(text))


def test_too_many_context_elements_is_an_error():
    boxes = "\n".join("  ┌──┐\n  │ x │\n  └──┘" for _ in range(16))
    assert any("16 elements" in f for f in levels(success_answer("X", context=boxes)))


def test_long_lines_are_a_warning():
    text = success_answer("X", content="x" * 300)
    assert any(f.startswith("WARNING") and "wider" in f for f in levels(text))


def test_cjk_counts_two_columns_per_character():
    text = success_answer("X", content="标" * 90)  # 180 columns
    assert any("wider" in f for f in levels(text))
