"""Checking a redline against its two documents: accept-all gives the revised, reject-all the original.

Documents are compared through a normal view of their stories (body, headers/footers in section
order, notes): paragraphs as (paragraph properties, runs merged by equal formatting with their
text and non-text items), tables as rows of cells. IDs, rsids and run boundaries do not count.
"""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from ooxml.compare import run, stories, views
from ooxml.compare import tokens as T
from ooxml.compare.paragraphs import Options
from ooxml.compare.paragraphs import _el_key  # noqa: PLC2701
from ooxml.model.document import Document
from ooxml.xml.namespaces import M, w
from ooxml.compare.marks import equations
from ooxml.compare.media import Images
from ooxml.text import notes as N
from ooxml.review import revisions as R
from ooxml.review.format_changes import RPR_NOT_FORMAT
from ooxml.review import comments as C
from ooxml.opc.package import Package

_PPR_SKIP = {R.W_RPR, w("sectPr"), w("pPrChange")}


def props_key(props, skip) -> list:
    """Properties as comparable text, in any order: a file's own order restored in schema order is the same."""
    if props is None:
        return []
    return sorted(_el_key(c) for c in props if isinstance(c.tag, str) and c.tag not in skip)


def build(data_a: bytes, data_b: bytes, granularity="word", formatting=True, moves=False) -> tuple[bytes, dict]:
    """The redline's bytes as docx_compare makes them (in process: ooxml/compare/run.py), and its counts."""
    result, made = run.compare(Package.from_bytes(data_a), Package.from_bytes(data_b), "Tester",
                               Options(granularity, formatting, moves))
    try:
        parts = {name: part.original_data() for name, part in made.package.parts.items()}
    finally:
        made.close()
    return parts, dict(result.counts)


def decided(parts: dict, accept: bool) -> Document:
    doc = Document(Package.from_parts(parts))
    views.decide_all(doc, accept)
    assert views.revision_count(doc) == 0
    return doc


_IMAGES: list = []  # the Images of the document view_of reads (else a parameter of every helper)


def view_of(doc, formatting=True) -> list:
    _IMAGES.append(Images(doc))
    try:
        return _view_of(doc, formatting)
    finally:
        _IMAGES.pop()


def _view_of(doc, formatting) -> list:
    out = [("body", _container(doc.body, formatting))]
    if formatting:
        from ooxml.compare.blocks import SECT_SKIP
        out.append(("sectPr", props_key(doc.body.find(B.W_SECTPR), SECT_SKIP)))
    for s, refs in enumerate(stories.effective(stories.section_refs(doc))):
        for key, name in sorted(refs.items()):  # as a reader sees them: inherited, and empty = none
            root = doc.register_part_root(doc.package.part(name))
            if "".join(root.itertext()).strip() or _has_items(root):
                out.append((s, key, _container(root, formatting)))
    found = C.Comments(doc)  # the comments a reader sees: those the body refers to, in its order
    texts = [found.by_word_id(ref.get(w("id"))) for ref in doc.body.iter(C.REF)]
    out.append(("comments", [None if c is None else C.comment_text(c) for c in texts]))
    for kind in N.KINDS:  # the notes a reader sees: those the body refers to, in its order
        notes = [N.note_by_id(doc, kind, ref.get(w("id"))) for ref in doc.body.iter(N.REF_TAGS[kind])]
        out.append((kind, [_container(n, formatting) for n in notes if n is not None]))
    return out


def _has_items(root) -> bool:
    return any(T.ITEM in T.read(p).text for p in root.iter(B.W_P))


def view_of_bytes(data: bytes, formatting=True) -> list:
    doc = Document.from_bytes(data)
    try:
        views.accept_all(doc)
        return view_of(doc, formatting)
    finally:
        doc.close()


def _container(el, formatting) -> list:
    blocks = list(B.iter_blocks(el))
    if el.tag in R.KEEPS_LAST and len(blocks) > 1 and blocks[-2].tag != B.W_P and _blank(blocks[-1]):
        blocks.pop()  # the story's last paragraph mark, after a table or content control: no revision removes it
    return [_block(b, formatting) for b in blocks]


def _blank(p) -> bool:
    return p.tag == B.W_P and not T.read(p).text and not equations(p)


def _block(el, formatting):
    if el.tag == B.W_P:
        return ("p", props_key(el.find(R.W_PPR), _PPR_SKIP) if formatting else b"", _runs(el, formatting),
                [_math(m) for m in equations(el)], [_container(box, formatting) for box in B.text_boxes(el)])
    if el.tag == B.W_TBL:
        return ("tbl", props_key(el.find(w("tblPr")), {w("tblPrChange")}) if formatting else "",
                [(_props(tr, "trPr", formatting), [(_props(tc, "tcPr", formatting), _container(tc, formatting))
                                                    for tc in B.row_cells(tr)]) for tr in B.table_rows(el)])
    if el.tag == B.W_SDT and el.find(w("sdtContent")) is not None:
        return ("sdt", _container(el.find(w("sdtContent")), formatting))
    return (etree.QName(el).localname, "".join(el.itertext()))


def _props(el, name, formatting) -> str:
    from ooxml.compare.blocks import _TC_PR_SKIP, _TR_PR_SKIP
    return props_key(el.find(w(name)), _TR_PR_SKIP if name == "trPr" else _TC_PR_SKIP) if formatting else ""


def _math(m) -> list:
    return [(etree.QName(e).localname, e.text or "") for e in m.iter(f"{{{M}}}*")]


def _runs(p, formatting) -> list:
    images = _IMAGES[-1] if _IMAGES else None
    t = T.read(p, images=images)
    out: list = []
    for k, seg in enumerate(t.segs):
        run = seg.child.getparent()
        key = props_key(run.find(R.W_RPR), RPR_NOT_FORMAT) if formatting else b""
        text = seg.text if seg.text != T.ITEM else T.signature(seg.child, images)
        if k in t.cached:  # a computed field's result: the field is what counts (ooxml/compare/fields.py)
            text = "" if k - 1 in t.cached else "<result>"
        if out and out[-1][0] == key:
            out[-1] = (key, out[-1][1] + text)
        else:
            out.append((key, text))
    return out


def _comments_apart(view: list) -> tuple[list, list]:
    return [x for x in view if x[0] != "comments"], [c for x in view if x[0] == "comments" for c in x[1]]


def check(data_a: bytes, data_b: bytes, **kw) -> dict:
    """Build the redline and assert both definitions of correct; its counts."""
    parts, counts = build(data_a, data_b, **kw)
    check_parts(parts, data_a, data_b, kw.get("formatting", True))
    return counts


def check_parts(parts: dict, data_a: bytes, data_b: bytes, formatting=True) -> None:
    """Both definitions of correct, for a redline already built (its parts)."""
    accepted, rejected = decided(parts, True), decided(parts, False)
    try:
        assert view_of(accepted, formatting) == view_of_bytes(data_b, formatting), "accept-all is not the revised"
        # Comments are kept from the revised side, and those of the original on text the redline
        # deletes come back with it (tests/tools/docx/test_compare_markup.py): reject-all is checked for the
        # rest, and for comments that every reference names one.
        got, want = _comments_apart(view_of(rejected, formatting)), _comments_apart(view_of_bytes(data_a, formatting))
        assert got[0] == want[0], "reject-all is not the original"
        assert None not in got[1], "reject-all refers to a comment it lacks"
    finally:
        accepted.close()
        rejected.close()
