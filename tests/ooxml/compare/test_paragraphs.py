"""ooxml/compare/paragraphs.py: formatting compared along an equal stretch (first as a whole, then
piece by piece where it differs) finds every difference, flat or nested in a run's properties, and
only those: the revised runs whose formatting changed get a w:rPrChange holding the original's."""
from __future__ import annotations

from ooxml.compare import redline
from ooxml.compare.paragraphs import Options
from ooxml.model.document import Document
from ooxml.xml.namespaces import w
from tests.builders import build_docx

W14 = "http://schemas.microsoft.com/office/word/2010/wordml"


def run(text: str, rpr: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


def changes(tmp_path, runs_a: list[str], runs_b: list[str]) -> tuple[list[tuple[str, str]], dict]:
    """(revised run text, its original formatting as the w:rPrChange holds it) per formatting
    change, and the counts."""
    a = Document.open(build_docx(tmp_path / "a.docx", f"<w:p>{''.join(runs_a)}</w:p>"))
    b = Document.open(build_docx(tmp_path / "b.docx", f"<w:p>{''.join(runs_b)}</w:p>"))
    try:
        result = redline.build(a, b, "Tester", Options())
        found = [("".join(r.itertext()), "".join(c.tag.split("}")[1] for c in change.find(w("rPr"))))
                 for r in b.body.iter(w("r")) for change in r.iterfind(f"{w('rPr')}/{w('rPrChange')}")]
        return found, dict(result.counts)
    finally:
        a.close()
        b.close()


def test_a_word_edit_between_runs_formatted_alike_changes_no_formatting(tmp_path):
    found, counts = changes(tmp_path, [run("Plain start "), run("bold middle ", "<w:b/>"), run("plain end")],
                            [run("Plain start "), run("bold centre ", "<w:b/>"), run("plain end")])
    assert found == [] and "formatting changes" not in counts
    assert counts["insertions"] == counts["deletions"] == 1


def test_a_flat_formatting_change_in_an_equal_stretch_is_found(tmp_path):
    found, counts = changes(tmp_path, [run("One two "), run("three four", "<w:i/>")],
                            [run("One two "), run("three four", "<w:b/>")])
    assert found == [("three four", "i")] and counts["formatting changes"] == 1


def test_a_formatting_change_nested_in_a_property_is_found(tmp_path):
    fill = '<w14:textFill xmlns:w14="%s"><w14:solidFill><w14:srgbClr w14:val="%s"/></w14:solidFill></w14:textFill>'
    found, counts = changes(tmp_path, [run("Coloured words", "<w:b/>" + fill % (W14, "FF0000"))],
                            [run("Coloured words", "<w:b/>" + fill % (W14, "00FF00"))])
    assert found == [("Coloured words", "btextFill")] and counts["formatting changes"] == 1


def test_runs_alike_in_shape_and_apart_in_value_are_apart(tmp_path):
    found, _ = changes(tmp_path, [run("Small ", '<w:sz w:val="20"/>'), run("text", '<w:sz w:val="20"/>')],
                       [run("Small ", '<w:sz w:val="20"/>'), run("text", '<w:sz w:val="28"/>')])
    assert found == [("text", "sz")]
