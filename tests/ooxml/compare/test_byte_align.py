"""ooxml/compare/byte_align.py: two bodies' blocks aligned on their bytes, then on their bytes without
save marks, as the two passes on the blocks' bytes align them. (Its speed on a body written again by
another program is tests/bench/bench_compare.py's "rewritten" pair: a benchmark, not a timed test.)"""
from __future__ import annotations

import random

import pytest

from ooxml.compare import byte_align
from ooxml.compare.align import align, refine
from ooxml.compare.byte_blocks import scan
from tests.builders import document_xml, p, tbl, tc

WORDS = "the of agreement party notice term payment section clause shall".split()


def body(n: int, seed: int, drop: int = 0) -> bytes:
    """``n`` paragraphs as Word writes them (every 50th a table, every 40th empty; save marks on
    paragraphs and runs), each block's save marks drawn from ``seed``, the text from a fixed seed:
    two bodies of other seeds are one written again. ``drop``: every drop-th paragraph left out,
    another put in its place."""
    rnd, text = random.Random(seed), random.Random(1)

    def mark(*names):
        return "".join(f' {x}="{rnd.getrandbits(31):08X}"' for x in names)
    out = []
    for k in range(n):
        runs = [" ".join(text.choice(WORDS) for _ in range(6)) for _ in range(4)]
        if drop and k % drop == drop - 1:
            out.append(f'<w:p{mark("w14:paraId")}><w:r><w:t>new {rnd.random()}</w:t></w:r></w:p>')
        elif k % 50 == 49:
            out.append(tbl([[tc(f"<w:p><w:r><w:t>{runs[0]}</w:t></w:r></w:p>"), tc()]]))
        elif k % 40 == 39:
            out.append("<w:p/>")
        else:
            marks = mark("w14:paraId", "w14:textId", "w:rsidR", "w:rsidRDefault", "w:rsidP")
            out.append(f'<w:p{marks}><w:pPr><w:jc w:val="both"/></w:pPr>' + "".join(
                f'<w:r{mark("w:rsidR", "w:rsidRPr")}><w:rPr><w:i/></w:rPr><w:t xml:space="preserve">{x} </w:t></w:r>'
                for x in runs) + "</w:p>")
    return document_xml("".join(out))


def two_passes(a, b) -> list:
    """The alignment as the two passes on bytes make it (byte_align's own before numbers and numpy)."""
    keys_a = [a.key(k) for k in range(len(a.spans))]
    keys_b = [b.key(k) for k in range(len(b.spans))]

    def by_plain(lo_a, hi_a, lo_b, hi_b):
        if hi_a - lo_a == 1 == hi_b - lo_b:
            return [(lo_a, None), (None, lo_b)]
        got = align(byte_align._plains(keys_a[lo_a:hi_a]), byte_align._plains(keys_b[lo_b:hi_b]))
        return [(None if i is None else i + lo_a, None if j is None else j + lo_b) for i, j in got]
    return refine(align(keys_a, keys_b), by_plain)


@pytest.mark.parametrize("revised", [
    pytest.param(dict(seed=2, drop=30), id="written again, tables and empty paragraphs as they were"),
    pytest.param(dict(seed=1, drop=30), id="edited in places"),
])
def test_blocks_align_as_the_two_passes_on_bytes_align_them(revised):
    a, b = scan(body(600, 1)), scan(body(600, **revised))
    assert byte_align.pairs(a, b, True) == two_passes(a, b)


def test_a_body_written_again_with_no_block_as_it_was_aligns_as_the_two_passes():
    plain = document_xml('<w:p w:rsidR="00000001"><w:r><w:t>one</w:t></w:r></w:p>' * 3
                         + '<w:p w:rsidR="00000002"><w:r><w:t>two</w:t></w:r></w:p>' * 300)
    again = plain.replace(b'w:rsidR="0000000', b'w:rsidR="1000000')
    a, b = scan(plain), scan(again)
    assert byte_align._numbered(a, b) == ()
    assert byte_align.pairs(a, b, True) == two_passes(a, b)


def test_a_paragraph_whose_text_reads_like_an_unclosed_save_mark_keeps_its_neighbours_apart():
    # 64 blocks or more have their marks cut in one pass over the blocks joined: a mark's pattern
    # must not run from one block's text into the next block's tag
    blocks = [f'<w:p w:rsidR="0000000{k % 9}"><w:r><w:t>para {k}</w:t></w:r></w:p>' for k in range(70)]
    blocks[10] = '<w:p><w:r><w:t xml:space="preserve"> w:rsidR="open quote</w:t></w:r></w:p>'
    keys = [b.encode() for b in blocks]
    plains = byte_align._plains(keys)
    assert len(plains) == len(keys)
    assert plains == [byte_align._plain(x) for x in keys]


def _drawing(inside: str) -> str:
    return ('<w:p><w:r><w:drawing><wp:inline><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
            f'{inside}</a:graphic></wp:inline></w:drawing></w:r></w:p>')


def test_blocks_with_section_breaks_notes_pictures_and_charts_are_held_for_the_engine():
    held = {  # what an equal block still brings to a comparison: its parts and properties elsewhere
        1: '<w:p><w:pPr><w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr></w:pPr></w:p>',
        3: '<w:p><w:r><w:footnoteReference w:id="1"/></w:r></w:p>',
        4: '<w:p><w:r><w:endnoteReference w:id="2"/></w:r></w:p>',
        5: _drawing('<a:graphicData><pic:pic><pic:blipFill><a:blip r:embed="rId9"/></pic:blipFill></pic:pic></a:graphicData>'),
        6: _drawing('<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"/>'),
        8: tbl([[tc('<w:p><w:r><w:footnoteReference w:id="3"/></w:r></w:p>')]]),
    }
    plain = {  # nothing beyond their XML: a shape, words that name such elements
        0: p("First"), 2: _drawing('<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"/>'),
        7: p("A blip, a noteReference, drawingml/2006/chart"), 9: p("Last"),
    }
    body = scan(document_xml("".join({**held, **plain}[k] for k in range(10))))
    assert byte_align.with_context(body) == set(held)  # (the body's own w:sectPr is no block)
