"""ooxml/compare/revised_tree.py: the spliced redline's tree built from the revised runs, parsed on
another core while the comparison runs (issue 29, defect 18: parsing the spliced 50,000-paragraph
redline again took a quarter of docx_compare's time). The session's tree must be the one its
bytes parse to, or the redline's next save would write something else."""
from __future__ import annotations

import copy
import threading

import pytest

from ooxml.compare import revised_tree, spliced, views
from ooxml.compare.paragraphs import Options
from ooxml.opc.package import Package
from ooxml.xml.id_bytes import predeclare
from ooxml.xml.ids import strip_ids
from ooxml.xml.safexml import parse_part, serialize
from tests.builders import build_docx, p, tbl, tc


def body(edits: set[int], gone: set[int] = frozenset(), gap: str = "") -> str:
    out = []
    for k in range(300):
        if k in gone:
            continue
        out.append(p(f"Paragraph {k} tells of item {k}" + (" and more" if k in edits else "") + "."))
        if k == 7:
            out.append('<w:bookmarkStart w:id="3" w:name="here"/><w:p/><w:bookmarkEnd w:id="3"/>')
        if k % 50 == 0:
            out.append(tbl([[tc(p(f"Cell {k}")), tc()]]))
    return gap + gap.join(out) + gap


def redline(tmp_path, a: str, b: str, placed: list):
    """The fast path's redline of bodies ``a`` and ``b``; ``placed`` gets what ``place`` answered."""
    def spy(*args):
        placed.append(real(*args))
        return placed[-1]
    real, revised_tree.place = revised_tree.place, spy
    try:
        x, y = (build_docx(tmp_path / f"{n}.docx", s).read_bytes() for n, s in (("a", a), ("b", b)))
        got = spliced.redline_of(Package.from_bytes(x), Package.from_bytes(y), "Tester", Options(),
                                 views.accept_all)
    finally:
        revised_tree.place = real
    assert got is not None  # the fast path ran
    return got[1]


def as_parsed(doc) -> bytes:
    """The redline's main tree against a parse of its bytes, our IDs cut from both."""
    part = doc.main
    mine = copy.deepcopy(part.tree)
    again = parse_part(predeclare(part._data)[0], part.name)  # noqa: SLF001 (the bytes the part was made of)
    for tree in (mine, again):
        strip_ids(tree.getroot())
    return serialize(mine) == serialize(again)


CASES = {
    "edits inside": (body(set()), body({3, 120, 121, 260})),
    "first and last blocks changed": (body(set()), body({0, 299})),
    "blocks gone at both ends": (body(set()), body({40}, gone={0, 1, 298, 299})),
    "blocks new at both ends": (body(set(), gone={0, 299}), body({40})),
    "blanks between blocks": (body(set(), gap="\n  "), body({5, 200}, gap="\n  ")),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_redline_tree_is_what_its_bytes_parse_to(tmp_path, case):
    placed: list = []
    doc = redline(tmp_path, *CASES[case], placed)
    try:
        assert placed == [True]  # built from the runs, not parsed again
        assert as_parsed(doc)
    finally:
        doc.close()


def test_on_one_core_the_redline_is_the_same(tmp_path):
    """``second_core=False``: the runs parsed after the engine, on the caller's thread."""
    x, y = (build_docx(tmp_path / f"{n}.docx", s).read_bytes() for n, s in zip("ab", CASES["edits inside"]))
    made = [spliced.redline_of(Package.from_bytes(x), Package.from_bytes(y), "Tester", Options(), views.accept_all,
                               second_core=core)[1] for core in (True, False)]
    try:
        assert [d.to_bytes() for d in made][0] == made[1].to_bytes()
        assert as_parsed(made[1])
    finally:
        for d in made:
            d.close()


def test_the_redline_saves_and_edits_as_a_parsed_one(tmp_path):
    """A new paragraph in the redline, saved: the same bytes as the same edit on the parsed bytes."""
    placed: list = []
    doc = redline(tmp_path, *CASES["edits inside"], placed)
    again = Package.from_parts({n: part._data for n, part in doc.package.parts.items()})  # noqa: SLF001
    from ooxml.model.document import Document
    other = Document(again)
    try:
        for d in (doc, other):
            d.body.insert(3, copy.deepcopy(d.body[0]))
            d.main.touch()
        assert doc.to_bytes() == other.to_bytes()
    finally:
        doc.close()
        other.close()


def test_a_declined_splice_leaves_no_parse_running(tmp_path):
    """A block reading like a placeholder makes the splice decline after the runs' parse started."""
    x = build_docx(tmp_path / "a.docx", body(set())).read_bytes()
    y = build_docx(tmp_path / "b.docx", body({9}) + p("\ue0010")).read_bytes()
    spliced.redline_of(Package.from_bytes(x), Package.from_bytes(y), "Tester", Options(), views.accept_all)
    assert not [t for t in threading.enumerate() if t.name == "compare-parse"]


def test_a_stretch_mark_out_of_place_is_not_taken_as_the_redline(tmp_path):
    """The runs' tree and the reduced redline must agree on every stretch, or nothing is placed."""
    reduced = parse_part(b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
                         b'<w:body><w:p><w:r><w:t>\xee\x80\x810</w:t></w:r></w:p></w:body></w:document>', "")
    runs = parse_part(b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
                      b'<w:body>' + revised_tree.stretch(0) + b'<w:p/>' + revised_tree.stretch(2) +
                      b'</w:body></w:document>', "")
    assert revised_tree.place(reduced, runs, 1) is False


def test_a_block_declaring_a_namespace_again_keeps_its_declaration(tmp_path):
    """lxml drops a moved element's declarations its new place already makes (a chart's ``xmlns:r``
    in Word files): the redline's tree must still be what its bytes parse to."""
    chart = ('<w:p><w:r><w:t>A chart of item 4.</w:t></w:r><w:r><w:rPr><w:b xmlns:r="http://schemas.'
             'openxmlformats.org/officeDocument/2006/relationships"/></w:rPr><w:t>Bold</w:t></w:r></w:p>')
    placed: list = []
    doc = redline(tmp_path, body(set()) + chart, body({3}) + chart.replace("item 4", "item 5"), placed)
    try:
        assert as_parsed(doc)
    finally:
        doc.close()

