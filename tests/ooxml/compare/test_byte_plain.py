"""ooxml/compare/byte_plain.py: save marks cut from blocks' bytes as byte_align's regexes cut them,
or None (the regexes run) where that is not certain."""
from __future__ import annotations

import random

from ooxml.compare import byte_align
from ooxml.compare.byte_blocks import scan
from ooxml.compare.byte_plain import plain_keys
from tests.builders import document_xml, tbl, tc

SECT_MARKED = '<w:sectPr w:rsidR="00A1B2C3" w:rsidSect="00D4E5F6"><w:pgSz w:w="11906" w:h="16838"/></w:sectPr>'


def marked(k: int, rnd: random.Random) -> str:
    def mark():
        return f"{rnd.getrandbits(31):08X}"
    return (f'<w:p w14:paraId="{mark()}" w14:textId="{mark()}" w:rsidR="{mark()}" w:rsidRDefault="{mark()}" '
            f'w:rsidP="{mark()}"><w:pPr><w:rPr><w:b/></w:rPr></w:pPr><w:r w:rsidR="{mark()}" w:rsidRPr="{mark()}">'
            f'<w:t xml:space="preserve">Paragraph {k} said "so"</w:t></w:r><w:r><w:t>more</w:t></w:r></w:p>')


def regexes(data: bytes) -> list[bytes]:
    body = scan(data)
    return byte_align._plains([body.key(k) for k in range(len(body.spans))])


def cut(data: bytes) -> list[bytes] | None:
    body = scan(data)
    return plain_keys(body, 0, len(body.spans))


def test_marks_of_paragraphs_runs_tables_and_sections_are_cut_as_the_regexes_cut_them():
    rnd = random.Random(5)
    table = tbl([[tc(marked(1, rnd)), tc('<w:p w:rsidR="00112233"/>')]])
    data = document_xml("".join(marked(k, rnd) for k in range(40)) + table + "<w:p/>"
                        + '<w:bookmarkStart w:id="0" w:name="b"/>' + marked(41, rnd), sect=SECT_MARKED)
    got = cut(data)
    assert got is not None and got == regexes(data)
    assert b"rsid" not in b"".join(got) and b"paraId" not in b"".join(got)  # every mark went
    assert got[0].startswith(b"<w:p><w:pPr>")


def test_a_mark_whose_cut_joins_a_paragraph_id_is_left_to_the_regexes():
    # ' w14:para' + ' w:rsidR="1"' + 'Id="v"': the rsid's cut makes a paragraph ID the second regex cuts
    data = document_xml('<w:p w:x=" w14:para w:rsidR="1"Id="v" w:y="2"/>' + '<w:p w:rsidR="00AA00AA"/>')
    assert cut(data) is None
    assert regexes(data)[0] == b'<w:p w:x=" w:y="2"/>'


def test_overlapping_marks_are_left_to_the_regexes():
    # the first mark's value runs to the next quote: its match swallows the second one's start
    data = document_xml('<w:p w:x=" w:rsidR=" w:rsidP="2"/>')
    assert cut(data) is None
    assert regexes(data) == [b'<w:p w:x="2"/>']


def test_a_mark_start_in_text_is_left_to_the_regexes():
    # text that reads ' w:rsidR="' runs, for the regex, to the next tag's first quote
    data = document_xml('<w:p><w:r><w:t> w:rsidR="x</w:t></w:r><w:r w:rsidR="00AA00AA"><w:t>y</w:t></w:r></w:p>')
    assert cut(data) is None


def test_a_raw_greater_than_in_text_is_left_to_the_regexes():
    data = document_xml('<w:p w:rsidR="00AA00AA"><w:r><w:t>a > b</w:t></w:r></w:p>')
    assert cut(data) is None
    assert regexes(data) == [b"<w:p><w:r><w:t>a > b</w:t></w:r></w:p>"]


def test_values_of_other_lengths_are_cut_too():
    data = document_xml('<w:p w:rsidR="1" w14:paraId="0123456789ABC" w:rsidRDefault=""><w:r><w:t>x</w:t></w:r></w:p>')
    assert cut(data) == regexes(data) == [b"<w:p><w:r><w:t>x</w:t></w:r></w:p>"]


def test_a_stretch_of_blocks_is_cut_alone():
    rnd = random.Random(9)
    data = document_xml("".join(marked(k, rnd) for k in range(30)))
    body = scan(data)
    keys = [body.key(k) for k in range(len(body.spans))]
    assert plain_keys(body, 7, 19) == byte_align._plains(keys[7:19])
