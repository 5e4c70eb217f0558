"""ooxml/privacy/matcher.py: what docx_redact looks for, literal texts or one pattern, on the texts a
document's paragraphs read as (ooxml/privacy/reading.py joins runs; BARRIER stands for a tab or image)."""
from __future__ import annotations

import pytest

from ooxml.model.document import Document
from ooxml.privacy import matcher as M
from ooxml.text import body as B
from ooxml.xml.errors import ValidationError
from tests.builders import build_docx


def paragraph_text(tmp_path, runs: list[str]) -> str:
    """One paragraph whose text is split over runs as Word splits it."""
    xml = "<w:p>" + "".join(f'<w:r><w:t xml:space="preserve">{r}</w:t></w:r>' for r in runs) + "</w:p>"
    doc = Document.open(build_docx(tmp_path / "m.docx", xml))
    return B.paragraph_text(next(B.iter_blocks(doc.body)))


def found(m: M.Matcher, text: str) -> list[str]:
    return [text[a:b] for a, b in m.spans(text)]


def test_a_name_split_over_runs_is_found_whole(tmp_path):
    text = paragraph_text(tmp_path, ["Call Jo", "hn Sm", "ith today."])
    assert found(M.for_texts(["John Smith"]), text) == ["John Smith"]


def test_invisible_characters_inside_a_name_hide_nothing():
    assert found(M.for_texts(["Smith"]), "Mr S\u00admi\u200bth came") == ["S\u00admi\u200bth"]


def test_a_text_is_literal_whatever_characters_it_holds():
    m = M.for_texts(["a.b (c)"])
    assert found(m, "a.b (c) axb c") == ["a.b (c)"]


def test_the_longest_of_overlapping_texts_wins():
    assert found(M.for_texts(["Ann", "Ann Lee"]), "Ann Lee and Ann") == ["Ann Lee", "Ann"]


def test_whole_words_only_when_asked():
    text = "Anna met Ann."
    assert found(M.for_texts(["Ann"]), text) == ["Ann", "Ann"]
    assert found(M.for_texts(["Ann"], whole_word=True), text) == ["Ann"]


def test_case_is_ignored_only_when_asked():
    assert found(M.for_texts(["acme"]), "ACME and acme") == ["acme"]
    assert found(M.for_texts(["acme"], case_sensitive=False), "ACME and acme") == ["ACME", "acme"]


def test_no_match_reaches_across_a_tab_or_an_image():
    text = f"John{M.BARRIER}Smith"
    assert found(M.for_texts(["John Smith"]), text) == []
    assert found(M.for_pattern(r"John.Smith"), text) == []


def test_a_pattern_finds_what_it_describes():
    m = M.for_pattern(r"\d{3}-\d{4}", whole_word=True)
    assert found(m, "call 555-1234 or 5555-12345") == ["555-1234"]


@pytest.mark.parametrize("pattern, says", [("\\d*", "matches empty text"), ("(unclosed", "not a valid regular"),
                                           ("x" * (M.MAX_PATTERN + 1), "over 500"), (".", "redaction mark")])
def test_a_pattern_that_cannot_be_used_is_refused_with_a_hint(pattern, says):
    with pytest.raises(ValidationError) as e:
        M.for_pattern(pattern)
    assert says in str(e.value) and e.value.hint


def test_a_matcher_built_again_from_its_spec_finds_the_same():
    text = "Jane Roe, jane roe, 555-1234"
    for m in (M.for_texts(["Jane Roe"], case_sensitive=False, whole_word=True), M.for_pattern(r"\d+-\d+")):
        assert M.from_spec(m.spec).spans(text) == m.spans(text) != []


@pytest.mark.parametrize("text", ["", "   ", "two\nlines", "x" * (M.MAX_TEXT + 1)])
def test_a_text_to_redact_must_be_one_nonempty_line(text):
    with pytest.raises(ValidationError):
        M.check_text(text)


def test_a_pattern_that_backtracks_without_end_stops_at_the_calls_time_limit():
    from ooxml.xml import budget
    from ooxml.xml.errors import LimitExceeded
    m = M.for_pattern(r"(a|aa)+$")  # exponential on a run of a's not at the end
    with budget.time_limit(0.3), pytest.raises(LimitExceeded) as e:
        m.spans("a" * 60 + "!")
    assert "0.3 s" in str(e.value) and e.value.hint
