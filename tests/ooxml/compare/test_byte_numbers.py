"""ooxml/compare/byte_numbers.py: blocks numbered by their bytes for ``align`` (equal numbers
exactly where the bytes are equal), though the numbers that group them first see only a block's
length and first 24 bytes."""
from __future__ import annotations

from ooxml.compare.byte_blocks import scan
from ooxml.compare.byte_numbers import numbers
from tests.builders import document_xml, p, tbl, tc


def classes(keys: list[bytes]) -> list[int]:
    """Each key's first index: the partition equal bytes make."""
    first: dict = {}
    return [first.setdefault(k, i) for i, k in enumerate(keys)]


def same_partition(a_xml: str, b_xml: str) -> None:
    a, b = scan(document_xml(a_xml)), scan(document_xml(b_xml))
    x, y = numbers(a, b)
    keys = [a.key(k) for k in range(len(a.spans))] + [b.key(k) for k in range(len(b.spans))]
    assert classes([*x.tolist(), *y.tolist()]) == classes(keys)


def para(k: int, last: str = "text") -> str:
    return p(f"The paragraph's {last}", f' w:rsidR="{k:08X}"')  # (its number in its first 24 bytes)


def test_a_copy_edited_in_places_numbers_each_block_as_its_bytes():
    a = [para(k) for k in range(40)]
    for at in (0, 5, 39):  # TEXT: the same length and start as the block it stands for
        b = a[:at] + [para(at, "TEXT")] + a[at + 1:20] + [p("New")] + a[20:]
        same_partition("".join(a), "".join(b))


def test_blocks_alike_in_length_and_start_but_not_equal_get_numbers_apart():
    cells = [tbl([[tc(p(f"Cell {k:03}"))]]) for k in range(12)]  # one length, one start: differ at the end
    same_partition("".join(cells), "".join(cells[::-1]))
    same_partition("".join(cells[:6]), "".join(cells[6:]))


def test_repeated_blocks_on_one_side_or_both_share_a_number():
    same_partition(p("x") * 3 + "<w:p/>" + p("y") + "<w:p/>", "<w:p/>" * 2 + p("y") + p("x"))
    same_partition(p("x") + p("x"), p("z"))


def test_a_run_of_copies_with_other_bytes_between_them_is_compared_block_by_block():
    mark = '<w:bookmarkStart w:id="{}" w:name="b"/>'
    a = para(1) + para(2) + para(3)
    same_partition(a, para(1) + mark.format(1) + para(2) + para(3))
    same_partition(a, para(1) + para(2, "TEXT") + para(3))
    same_partition(para(1) + mark.format(1) + para(2), para(1) + mark.format(2) + para(2))
