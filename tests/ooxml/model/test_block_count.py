"""Document.block_count: the blocks a container holds, counted at open without a Python step per
child (issue 29: on 50,000 short paragraphs that walk was the open's largest cost after the parse)."""
from __future__ import annotations

import sys

from ooxml.model.document import Document
from ooxml.text.body import iter_blocks
from tests.builders import build_docx, p, tbl, tc

MARKED = ('<w:bookmarkStart w:id="0" w:name="a"/>' + p("one") + "<!-- a comment -->" + '<?pi data?>'
          + tbl([[tc(p("cell"))]]) + '<w:bookmarkEnd w:id="0"/><w:proofErr w:type="spellStart"/>' + p("two"))


def python_calls(fn) -> int:
    """How many Python functions (generator steps included) ``fn`` runs."""
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        calls += event == "call"
    sys.setprofile(count)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return calls


def test_markers_comments_and_processing_instructions_are_no_blocks(tmp_path):
    doc = Document.open(build_docx(tmp_path / "marked.docx", MARKED))
    assert doc.block_count(doc.body) == len(list(iter_blocks(doc.body))) == 3


def test_counting_a_long_body_takes_no_python_step_per_paragraph(tmp_path):
    short = Document.open(build_docx(tmp_path / "short.docx", MARKED))
    long = Document.open(build_docx(tmp_path / "long.docx", MARKED + "".join(p(f"para {i}") for i in range(2000))))
    assert python_calls(lambda: long.block_count(long.body)) < python_calls(lambda: short.block_count(short.body)) + 50
    assert long.block_count(long.body) == 2003
