"""ooxml/compare/redline.py: the redline's build and its opening as a new document run without the
cyclic garbage collector (issue 29, defect 18: its collections walked the comparison's many
objects again and again, 0.18 s of a 50,000-paragraph compare's 3 s of CPU); it is back on after."""
from __future__ import annotations

import gc

from ooxml.compare import redline, views
from ooxml.compare.paragraphs import Options
from ooxml.model.document import Document
from tests.builders import build_docx, p


def pair(tmp_path) -> tuple[Document, Document]:
    words = [f"Paragraph {k} says something about item {k}." for k in range(600)]
    edited = [t.replace("something", "anything") if k % 3 == 0 else t for k, t in enumerate(words)]
    a = Document.open(build_docx(tmp_path / "a.docx", "".join(p(t) for t in words)))
    b = Document.open(build_docx(tmp_path / "b.docx", "".join(p(t) for t in edited)))
    return a, b


def test_a_comparison_of_many_edited_paragraphs_runs_no_garbage_collection(tmp_path):
    a, b = pair(tmp_path)
    runs = []

    def note(phase, info):
        if phase == "start":
            runs.append(info["generation"])
    gc.enable()
    gc.collect()  # no count left over from earlier tests: what follows is the comparison's own
    gc.callbacks.append(note)
    try:
        result = redline.build(a, b, "Tester", Options())
        made = views.as_new_document(b)
    finally:
        gc.callbacks.remove(note)
    assert result.counts["insertions"] == result.counts["deletions"] == 200
    # at most the young collection each pause's end lets through (10, older ones too, before)
    assert len(runs) <= 2 and set(runs) <= {0}, runs
    assert gc.isenabled()
    for doc in (a, b, made):
        doc.close()
