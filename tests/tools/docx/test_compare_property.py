"""docx_compare on small random documents (Hypothesis): for any two documents built from the same
few words, runs (bold or not), paragraph alignments and small tables, accepting every revision
of the redline gives the revised document and rejecting every one gives the original."""
from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.builders import SECT, build_docx, p, part_xml, tbl, tc
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




# ---- richer, unrelated documents: headers and footers one side lacks, row and cell properties,
# equation-only paragraphs, comments ------------------------------------------------------------

M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
TR_PRS = ["", "<w:trPr><w:cantSplit/></w:trPr>", '<w:trPr><w:tblHeader/></w:trPr>']
TC_PRS = ["", '<w:shd w:val="clear" w:fill="FFFF00"/>', '<w:vAlign w:val="center"/>']
COMMENTS_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"
HEADER_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"
FOOTER_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"


def math_xml(words) -> str:
    return (f'<w:p><m:oMathPara xmlns:m="{M_NS}"><m:oMath><m:r><m:t>{"+".join(words)}</m:t></m:r></m:oMath>'
            "</m:oMathPara></w:p>")


def rich_table(rows) -> str:
    out = []
    for cells, tr_pr in rows:
        tcs = "".join(tc(p_xml(c), TC_PRS[k]) for c, k in cells)
        out.append(f"<w:tr>{TR_PRS[tr_pr]}{tcs}</w:tr>")
    return tbl([[tc(p("x"))]]).split("<w:tr>")[0] + "".join(out) + "</w:tbl>"


cell = st.tuples(paragraph, st.integers(0, len(TC_PRS) - 1))
rich_block = st.one_of(
    paragraph.map(lambda para: ("p", p_xml(para))),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(lambda ws: ("p", math_xml(ws))),
    st.lists(st.tuples(st.lists(cell, min_size=2, max_size=2), st.integers(0, len(TR_PRS) - 1)),
             min_size=1, max_size=3).map(lambda rows: ("p", rich_table(rows))),
    st.tuples(paragraph, st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)).map(
        lambda x: ("comment", x)))
story = st.one_of(st.none(), st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join))
rich_document = st.tuples(st.lists(rich_block, min_size=1, max_size=5), story, story)


def rich_bytes(doc) -> bytes:
    blocks, header, footer = doc
    body, comments = [], []
    for kind, x in blocks:
        if kind == "p":
            body.append(x)
            continue
        para, words = x
        n = len(comments)
        inner = p_xml(para)[len("<w:p>"):-len("</w:p>")]
        body.append(f'<w:p><w:commentRangeStart w:id="{n}"/>{inner}<w:commentRangeEnd w:id="{n}"/>'
                    f'<w:r><w:commentReference w:id="{n}"/></w:r></w:p>')
        comments.append(f'<w:comment w:id="{n}" w:author="A">{p(" ".join(words))}</w:comment>')
    rels, parts, overrides = [], {}, {}
    for name, text, rid, kind, root, ct in (("header1.xml", header, "rIdH", "header", "w:hdr", HEADER_CT),
                                            ("footer1.xml", footer, "rIdF", "footer", "w:ftr", FOOTER_CT)):
        if text is not None:
            rels.append((rid, kind, name))
            parts["word/" + name] = part_xml(root, p(text))
            overrides["word/" + name] = ct
    if comments:
        rels.append(("rIdC", "comments", "comments.xml"))
        parts["word/comments.xml"] = part_xml("w:comments", "".join(comments))
        overrides["word/comments.xml"] = COMMENTS_CT
    refs = "".join(f'<w:{kind}Reference w:type="default" r:id="{rid}"/>' for kind, rid, text in
                   (("header", "rIdH", header), ("footer", "rIdF", footer)) if text is not None)
    sect = SECT.replace("<w:sectPr>", "<w:sectPr>" + refs)
    with tempfile.TemporaryDirectory() as d:
        return build_docx(Path(d) / "x.docx", "".join(body), sect=sect, rels=rels, extra_parts=parts,
                          overrides=overrides).read_bytes()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rich_document, rich_document, st.sampled_from(["word", "character"]), st.booleans())
def test_accept_and_reject_hold_for_unrelated_documents_with_headers_rows_equations_and_comments(
        a, b, granularity, formatting):
    RL.check(rich_bytes(a), rich_bytes(b), granularity=granularity, formatting=formatting)


@settings(max_examples=35, deadline=None)
@given(st.one_of(document.map(as_bytes), rich_document.map(rich_bytes)))
def test_a_document_against_itself_has_no_revision(data):
    _, counts = RL.build(data, data)
    assert counts == {}
