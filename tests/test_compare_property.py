"""docx_compare on small random documents (Hypothesis): for any two documents built from the same
few words, runs (bold or not), paragraph alignments and small tables, accepting every revision
of the redline gives the revised document and rejecting every one gives the original."""
from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.builders import build_docx, tbl, tc
from tests.support import redline as RL

WORDS = ["alpha", "beta", "gamma", "delta", "the", "a", "fox", "dog", "Alpha.", "Beta,"]

runs = st.lists(st.tuples(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4), st.booleans()),
                min_size=0, max_size=3)
paragraph = st.tuples(runs, st.sampled_from(["", "center", "right"]))


def p_xml(para) -> str:
    run_list, jc = para
    ppr = f'<w:pPr><w:jc w:val="{jc}"/></w:pPr>' if jc else ""
    body = "".join(f'<w:r>{"<w:rPr><w:b/></w:rPr>" if bold else ""}<w:t xml:space="preserve">{" ".join(ws)} </w:t></w:r>'
                   for ws, bold in run_list)
    return f"<w:p>{ppr}{body}</w:p>"


table = st.lists(st.lists(paragraph, min_size=2, max_size=2), min_size=1, max_size=3)
block = st.one_of(paragraph.map(p_xml), paragraph.map(p_xml),
                  table.map(lambda rows: tbl([[tc(p_xml(c)) for c in r] for r in rows])))
document = st.lists(block, min_size=1, max_size=6).map("".join)


def as_bytes(body: str) -> bytes:
    with tempfile.TemporaryDirectory() as d:
        return build_docx(Path(d) / "x.docx", body).read_bytes()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document, document, st.sampled_from(["word", "character"]), st.booleans())
def test_accept_and_reject_hold_for_any_pair(a, b, granularity, moves):
    RL.check(as_bytes(a), as_bytes(b), granularity=granularity, moves=moves)


@settings(max_examples=20, deadline=None)
@given(document)
def test_a_document_against_itself_has_no_revision(a):
    data = as_bytes(a)
    _, counts = RL.build(data, data)
    assert counts == {}
