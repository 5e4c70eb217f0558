"""The Answer value (render/answer.py): what its head says is what its rendered text shows, as a client
reads it; a field added (durable recovery's Not Replayed) comes last in the head."""
from __future__ import annotations

import pytest

from render import answer as A
from tests.support.answer_validator import parse_head

LONG = "x" * 600


@pytest.mark.parametrize("answer", [
    A.Answer("Insert Paragraph", "para_1", {"Position": "end:document_body", "Left Out": None, "Note": "a\nb"},
             context="  [Document Start]", changes="+x", cursor="Cursor: after Paragraph para_1"),
    A.Answer("Save Document", fields={"File": LONG, "Page": A.OneOf(2, 9)}),
    A.Answer("Delete", fields={"Message": "Element 'p' not found\nat all", "Hint": "Use an ID."}, error="ElementNotFound"),
    A.Answer("Delete", fields={"Message": "no hint", "Hint": None}, error="ValidationError"),
], ids=["success", "long-values", "error", "error-without-hint"])
def test_an_answers_head_is_what_its_text_shows(answer):
    assert answer.head() == parse_head(A.markdown(answer))


def test_a_field_added_comes_last_in_the_head_and_leaves_the_answer_as_it_was():
    answer = A.Answer("Insert Paragraph", "para_1", {"Position": "end"}, changes="+x")
    told = answer.with_field("Not Replayed", "1 call")
    assert list(told.head())[-2:] == ["Position", "Not Replayed"] and "Not Replayed" not in answer.fields
    assert A.markdown(told).index("**Not Replayed**: 1 call\n") < A.markdown(told).index("## 🔄 Changes")
