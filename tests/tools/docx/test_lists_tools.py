"""List tools through the MCP client: labels in every view, the numbering XML they write."""
from __future__ import annotations

import re
import zipfile

import pytest
from lxml import etree

from tests.support import list_docs as LD
from tests.support.client import by_id, read_part

pytestmark = pytest.mark.anyio
NS = {"w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main"}
W = "{%s}" % NS["w"]


def ids_in(answer_text: str, prefix: str = "para_") -> list[str]:
    return re.findall(rf"\(({prefix}[0-9a-f]+)\)", answer_text)


def numbering(path) -> etree._Element:
    return etree.fromstring(read_part(path, "word/numbering.xml"))


def numpr(p) -> tuple[int | None, int | None]:
    nid = p.find("w:pPr/w:numPr/w:numId", NS)
    ilvl = p.find("w:pPr/w:numPr/w:ilvl", NS)
    return (int(nid.get(W + "val")) if nid is not None else None,
            int(ilvl.get(W + "val")) if ilvl is not None else None)


def read_lines(answer_text: str) -> list[str]:
    return [line for line in answer_text.splitlines() if line.startswith("[")]


async def paragraphs(docx, texts: list[str]) -> list[str]:
    await docx.create()
    out = []
    for t in texts:
        out.append((await docx.ok("docx_insert_paragraph", text=t, position="end:document_body")).element_id)
    return out


# ---- views -----------------------------------------------------------------------------------------

async def test_read_content_shows_word_labels_before_the_text(docx, tmp_path):
    path = LD.build_all(tmp_path / "gen")["outline_restarts"]
    await docx.open(path)
    lines = read_lines((await docx.ok("docx_read_content")).text)
    assert [re.sub(r"^\[[^]]*\]\] |^\[[^]]*\] ", "", ln) for ln in lines[:4]] == \
        ["1. o item 0", "1.1. o item 1", "1.2. o item 2", "1.2.1. o item 3"]


async def test_box_shows_label_and_relabels_after_an_insert_before_it(docx, tmp_path):
    ids = await paragraphs(docx, ["one", "two", "three"])
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[2], list_type="number")
    a = await docx.ok("docx_get_context", element_id=ids[2])
    assert "│ 3. three" in a.text
    await docx.ok("docx_copy_paragraph", element_id=ids[0], position=f"before:{ids[0]}")
    a = await docx.ok("docx_get_context", element_id=ids[2])
    assert "│ 4. three" in a.text and "│ 1. one" in a.text  # the cached box of 'three' was redrawn


async def test_structure_shows_numbered_headings(docx, tmp_path):
    body, numbering, styles = LD.cases()["style_linked"]
    styles += ('<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/>'
               '<w:basedOn w:val="H1N"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>')
    body = LD.para("Scope", style="Heading1") + body
    await docx.open(LD.build(tmp_path / "h.docx", body, numbering, styles))
    a = await docx.ok("docx_get_structure")
    assert "H1 1 Scope" in a.text


# ---- docx_set_list ---------------------------------------------------------------------------------

async def test_set_list_range_writes_numpr_and_list_paragraph_style(docx, tmp_path):
    ids = await paragraphs(docx, ["a", "b", "c"])
    a = await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[2], list_type="bullet")
    assert "│ • a" in a.text and "│ • c" in a.text
    out = tmp_path / "out.docx"
    body = await docx.save(out)
    nids = {numpr(by_id(body, i)) for i in ids}
    assert len(nids) == 1 and next(iter(nids))[1] == 0
    nid = next(iter(nids))[0]
    num = numbering(out).find(f"w:num[@w:numId='{nid}']", NS)
    aid = num.find("w:abstractNumId", NS).get(W + "val")
    lvl0 = numbering(out).find(f"w:abstractNum[@w:abstractNumId='{aid}']/w:lvl[@w:ilvl='0']", NS)
    assert lvl0.find("w:numFmt", NS).get(W + "val") == "bullet"
    for i in ids:
        assert by_id(body, i).find("w:pPr/w:pStyle", NS).get(W + "val") == "ListParagraph"
    with zipfile.ZipFile(out) as z:
        assert "numbering+xml" in z.read("[Content_Types].xml").decode()
        assert "relationships/numbering" in z.read("word/_rels/document.xml.rels").decode()


async def test_set_list_continues_the_previous_list_of_the_same_type(docx, tmp_path):
    ids = await paragraphs(docx, ["a", "b", "plain", "c"])
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[1], list_type="number")
    a = await docx.ok("docx_set_list", element_id=ids[3], list_type="number")
    assert "│ 3. c" in a.text and "continues" in a.text
    body = await docx.save(tmp_path / "o.docx")
    assert numpr(by_id(body, ids[3])) == numpr(by_id(body, ids[0]))


async def test_set_list_new_list_restarts_and_reuses_the_abstract(docx, tmp_path):
    ids = await paragraphs(docx, ["a", "b", "c"])
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[1], list_type="number")
    a = await docx.ok("docx_set_list", element_id=ids[2], list_type="number", continue_list=False)
    assert "│ 1. c" in a.text
    out = tmp_path / "o.docx"
    await docx.save(out)
    root = numbering(out)
    assert len(root.findall("w:abstractNum", NS)) == 1 and len(root.findall("w:num", NS)) == 2


async def test_set_list_level_and_type_show_nested_label(docx, tmp_path):
    ids = await paragraphs(docx, ["a", "b"])
    await docx.ok("docx_set_list", element_id=ids[0], list_type="number")
    a = await docx.ok("docx_set_list", element_id=ids[1], list_type="lower_letter", level=1)
    assert "│ a. b" in a.text


async def test_set_list_none_takes_paragraph_out(docx, tmp_path):
    ids = await paragraphs(docx, ["a", "b", "c"])
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[2], list_type="number")
    a = await docx.ok("docx_set_list", element_id=ids[1], list_type="none")
    assert "│ b" in a.text
    ctx = await docx.ok("docx_get_context", element_id=ids[2])
    assert "│ 2. c" in ctx.text
    body = await docx.save(tmp_path / "o.docx")
    assert by_id(body, ids[1]).find("w:pPr/w:numPr", NS) is None


async def test_set_list_bad_type_changes_nothing(docx, tmp_path):
    ids = await paragraphs(docx, ["a"])
    await docx.save(tmp_path / "before.docx")
    err = await docx.call("docx_set_list", element_id=ids[0], list_type="roman")
    assert err.error_type == "ValidationError" and "bullet" in err.text
    await docx.save(tmp_path / "after.docx")
    assert read_part(tmp_path / "before.docx") == read_part(tmp_path / "after.docx")


# ---- docx_insert_list ------------------------------------------------------------------------------

async def test_insert_list_nested_items_become_levels(docx, tmp_path):
    await docx.create()
    a = await docx.ok("docx_insert_list", items=["Fruit", ["Apple", "Pear"], "Bread"], position="end:document_body",
                      list_type="number")
    assert "│ 1. Fruit" in a.text and "│ a. Apple" in a.text and "│ b. Pear" in a.text and "│ 2. Bread" in a.text
    body = await docx.save(tmp_path / "o.docx")
    levels = [numpr(p)[1] for p in body.findall("w:p", NS) if p.find("w:pPr/w:numPr", NS) is not None]
    assert levels == [0, 1, 1, 0]


async def test_insert_list_bad_position_changes_nothing(docx, tmp_path):
    await docx.create()
    await docx.save(tmp_path / "before.docx")
    err = await docx.call("docx_insert_list", items=["x"], position="after:document_body")
    assert err.error_type == "InvalidPosition"
    await docx.save(tmp_path / "after.docx")
    with zipfile.ZipFile(tmp_path / "after.docx") as z:
        assert "word/numbering.xml" not in z.namelist()


async def test_insert_list_rejects_non_strings(docx):
    await docx.create()
    err = await docx.call("docx_insert_list", items=["x", 3], position="end:document_body")
    assert err.error_type == "ValidationError"


# ---- docx_restart_numbering ------------------------------------------------------------------------

async def test_restart_numbering_restarts_here_and_later_items_follow(docx, tmp_path):
    ids = await paragraphs(docx, ["a", "b", "c", "d"])
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[3], list_type="number")
    a = await docx.ok("docx_restart_numbering", element_id=ids[2])
    assert "│ 1. c" in a.text
    ctx = await docx.ok("docx_get_context", element_id=ids[3])
    assert "│ 2. d" in ctx.text and "│ 2. b" in ctx.text
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    nid = numpr(by_id(body, ids[2]))[0]
    assert numpr(by_id(body, ids[3]))[0] == nid != numpr(by_id(body, ids[0]))[0]
    num = numbering(out).find(f"w:num[@w:numId='{nid}']", NS)
    assert num.find("w:lvlOverride/w:startOverride", NS).get(W + "val") == "1"


async def test_restart_numbering_at_a_start_value(docx):
    ids = await paragraphs(docx, ["a", "b"])
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[1], list_type="upper_roman")
    a = await docx.ok("docx_restart_numbering", element_id=ids[1], start=5)
    assert "│ V. b" in a.text


async def test_restart_numbering_of_a_plain_paragraph_is_an_error(docx):
    ids = await paragraphs(docx, ["a"])
    err = await docx.call("docx_restart_numbering", element_id=ids[0])
    assert err.error_type == "InvalidElementType" and "docx_set_list" in err.text


# ---- existing tools keep numbering right -----------------------------------------------------------

async def test_insert_paragraph_with_latent_list_number_style_numbers_it(docx, tmp_path):
    await docx.create()
    a = await docx.ok("docx_insert_paragraph", text="First", position="end:document_body", style="List Number")
    first = a.element_id
    assert "│ 1. First" in a.text
    b = await docx.ok("docx_insert_paragraph", text="Second", position=f"after:{first}", style="List Number")
    assert "│ 2. Second" in b.text
    c = await docx.ok("docx_insert_paragraph", text="Between", position=f"after:{first}", style="List Number")
    assert "│ 2. Between" in c.text and "│ 3. Second" in c.text
    out = tmp_path / "o.docx"
    await docx.save(out)
    styles = etree.fromstring(read_part(out, "word/styles.xml"))
    nid = styles.find("w:style[@w:styleId='ListNumber']/w:pPr/w:numPr/w:numId", NS).get(W + "val")
    num = numbering(out).find(f"w:num[@w:numId='{nid}']", NS)
    aid = num.find("w:abstractNumId", NS).get(W + "val")
    lvl0 = numbering(out).find(f"w:abstractNum[@w:abstractNumId='{aid}']/w:lvl[@w:ilvl='0']", NS)
    assert lvl0.find("w:pStyle", NS).get(W + "val") == "ListNumber"


async def test_copy_paragraph_into_another_list_continues_it(docx, tmp_path):
    ids = await paragraphs(docx, ["a1", "a2", "gap", "b1", "b2"])
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[1], list_type="number")
    await docx.ok("docx_set_list", element_id=ids[3], end_id=ids[4], list_type="number", continue_list=False)
    a = await docx.ok("docx_copy_paragraph", element_id=ids[0], position=f"after:{ids[4]}")
    assert "│ 3. a1" in a.text
    body = await docx.save(tmp_path / "o.docx")
    assert numpr(by_id(body, a.element_id)) == numpr(by_id(body, ids[4]))


async def test_copy_paragraph_within_its_list_continues_it(docx):
    ids = await paragraphs(docx, ["a", "b"])
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[1], list_type="number")
    a = await docx.ok("docx_copy_paragraph", element_id=ids[0], position=f"after:{ids[1]}")
    assert "│ 3. a" in a.text


async def test_copy_range_of_a_whole_list_keeps_its_own_numbering(docx, tmp_path):
    ids = await paragraphs(docx, ["a", "b", "c", "end"])
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[2], list_type="number")
    a = await docx.ok("docx_copy_elements_range", start_id=ids[0], end_id=ids[2], position=f"after:{ids[3]}")
    assert "│ 1. a" in a.text.split("## 📄 Document Context")[1].split(ids[3])[1]
    ctx = await docx.ok("docx_read_content")
    assert [ln.rsplit("] ", 1)[1] for ln in read_lines(ctx.text)] == ["1. a", "2. b", "3. c", "end",
                                                                       "1. a", "2. b", "3. c"]
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    copies = body.findall("w:p", NS)[4:7]
    new = {numpr(p)[0] for p in copies}
    assert len(new) == 1 and new != {numpr(by_id(body, ids[0]))[0]}
    num = numbering(out).find(f"w:num[@w:numId='{next(iter(new))}']", NS)
    assert num.find("w:lvlOverride[@w:ilvl='0']/w:startOverride", NS).get(W + "val") == "1"


async def test_copy_of_a_whole_list_opening_nested_numbers_afresh_at_every_level(docx, tmp_path):
    ids = await paragraphs(docx, ["a", "b", "c", "end"])
    await docx.ok("docx_set_list", element_id=ids[0], list_type="number", level=1)
    await docx.ok("docx_set_list", element_id=ids[1], end_id=ids[2], list_type="number")
    await docx.ok("docx_copy_elements_range", start_id=ids[0], end_id=ids[2], position=f"after:{ids[3]}")
    ctx = await docx.ok("docx_read_content")
    # (level 1 shown first: level 0 takes its start, so b is 2.) A startOverride acts on its num's
    # first item only, here at level 1: the copy's level 0 must restart all the same.
    assert [ln.rsplit("] ", 1)[1] for ln in read_lines(ctx.text)] == ["1. a", "2. b", "3. c", "end",
                                                                       "1. a", "2. b", "3. c"]


async def test_copy_range_of_part_of_a_list_continues_it(docx):
    ids = await paragraphs(docx, ["a", "b", "c"])
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[2], list_type="number")
    await docx.ok("docx_copy_elements_range", start_id=ids[0], end_id=ids[1], position=f"after:{ids[2]}")
    ctx = await docx.ok("docx_read_content")
    assert [ln.rsplit("] ", 1)[1] for ln in read_lines(ctx.text)] == ["1. a", "2. b", "3. c", "4. a", "5. b"]


async def test_delete_relabels_the_items_after(docx):
    ids = await paragraphs(docx, ["a", "b", "c"])
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[2], list_type="lower_roman")
    a = await docx.ok("docx_delete", element_id=ids[0])
    assert "│ ii. c" in a.text and "│ i. b" in a.text


async def test_set_list_level_moves_an_item_in_within_its_list(docx):
    ids = await paragraphs(docx, ["a", "b", "c"])
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[2], list_type="number")
    a = await docx.ok("docx_set_list", element_id=ids[1], list_type="number", level=1)
    assert "│ a. b" in a.text
    ctx = await docx.ok("docx_get_context", element_id=ids[2])
    assert "│ 2. c" in ctx.text


async def test_unknown_formats_fall_back_to_decimal_and_structure_says_so(docx, tmp_path):
    numbering = LD.numbering_xml([LD.abstract(0, [LD.lvl(0, "koreanCounting", "%1、")] + LD.outline()[1:])],
                                 [LD.num(1, 0)])
    await docx.open(LD.build(tmp_path / "f.docx", LD.para("one", 1, 0) + LD.para("two", 1, 0), numbering))
    lines = read_lines((await docx.ok("docx_read_content")).text)
    assert lines[1].endswith("] 2、 two")
    a = await docx.ok("docx_get_structure")
    assert a.head["List formats shown as decimal"] == "koreanCounting"


async def test_new_list_before_an_existing_one_does_not_renumber_it(docx, tmp_path):
    ids = await paragraphs(docx, ["new", "old 1", "old 2"])
    await docx.ok("docx_set_list", element_id=ids[1], end_id=ids[2], list_type="number")
    await docx.ok("docx_set_list", element_id=ids[0], list_type="number", continue_list=False)
    lines = [ln.rsplit("] ", 1)[1] for ln in read_lines((await docx.ok("docx_read_content")).text)]
    assert lines == ["1. new", "1. old 1", "2. old 2"]
    out = tmp_path / "o.docx"
    await docx.save(out)
    assert len(numbering(out).findall("w:abstractNum", NS)) == 2  # sharing one would have renumbered 'old'


async def test_insert_list_reuses_an_unused_definition(docx, tmp_path):
    body, numbering_part, _ = LD.cases()["simple"]
    await docx.open(LD.build(tmp_path / "u.docx", LD.para("plain"), numbering_part))
    await docx.ok("docx_insert_list", items=["x", "y"], position="end:document_body", list_type="number")
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    assert {numpr(p)[0] for p in body.findall("w:p", NS)[1:]} == {1}
    assert len(numbering(out).findall("w:num", NS)) == 1


async def test_copy_of_a_whole_list_before_it_leaves_the_original_numbering(docx, tmp_path):
    ids = await paragraphs(docx, ["top", "a", "b"])
    await docx.ok("docx_set_list", element_id=ids[1], end_id=ids[2], list_type="number")
    await docx.ok("docx_copy_elements_range", start_id=ids[1], end_id=ids[2], position=f"before:{ids[0]}")
    lines = [ln.rsplit("] ", 1)[1] for ln in read_lines((await docx.ok("docx_read_content")).text)]
    assert lines == ["1. a", "2. b", "top", "1. a", "2. b"]
    out = tmp_path / "o.docx"
    await docx.save(out)
    assert len(numbering(out).findall("w:abstractNum", NS)) == 2


# ---- Markdown export shows Word's labels ------------------------------------------------------------

async def test_markdown_export_writes_word_numbers_and_labels(docx):
    ids = await paragraphs(docx, ["a", "b", "c"])
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[2], list_type="number")
    await docx.ok("docx_restart_numbering", element_id=ids[0], start=3)
    await docx.ok("docx_insert_list", items=["Fruit", ["Apple", "Pear"]], position="end:document_body",
                  list_type="number")
    md = (await docx.ok("docx_export_markdown")).text
    assert re.search(r"^3\. a\b", md, re.M) and re.search(r"^5\. c\b", md, re.M)  # Word's numbers, restart kept
    # A label Markdown cannot write as a marker is the item's one label, under its parent (issue 29, 6).
    assert re.search(r"^ +a\. Apple", md, re.M) and not re.search(r"\d\. a\. Apple", md)


# ---- new lists start at 1 (issue 18) ---------------------------------------------------------------

def _seven_items_and_a_spare(tmp_path):
    """Seven '1)' items over abstractNum 0, and abstractNum 1 ('%1)' from 8) that no paragraph uses."""
    body = LD._items("old", [(1, 0)] * 7 + [None])
    numbering = LD.numbering_xml([LD.abstract(0, [LD.lvl(0, "decimal", "%1)")] + LD.outline()[1:]),
                                  LD.abstract(1, [LD.lvl(0, "decimal", "%1)", start=8)] + LD.outline()[1:])],
                                 [LD.num(1, 0), LD.num(2, 1)])
    return LD.build(tmp_path / "seven.docx", body, numbering)


def _level0_start(root, nid: int) -> int:
    """The number level 0 of num ``nid`` starts at: its startOverride, else its abstractNum's start."""
    num = root.find(f"w:num[@w:numId='{nid}']", NS)
    over = num.find("w:lvlOverride[@w:ilvl='0']/w:startOverride", NS)
    if over is not None:
        return int(over.get(W + "val"))
    aid = num.find("w:abstractNumId", NS).get(W + "val")
    return int(root.find(f"w:abstractNum[@w:abstractNumId='{aid}']/w:lvl[@w:ilvl='0']/w:start", NS).get(W + "val"))


async def test_insert_list_at_the_end_starts_at_one_after_another_list(docx, tmp_path):
    await docx.open(_seven_items_and_a_spare(tmp_path))
    a = await docx.ok("docx_insert_list", items=["Fruit", "Bread"], position="end:document_body", list_type="number")
    assert "│ 1) Fruit" in a.text and "│ 2) Bread" in a.text
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    paras = body.findall("w:p", NS)
    nid = numpr(paras[-1])[0]
    assert nid not in (1, 2) and numpr(paras[-2])[0] == nid  # a num of its own
    assert _level0_start(numbering(out), nid) == 1
    assert "7) old item 6" in (await docx.ok("docx_read_content")).text  # the list before keeps its numbers


async def test_set_list_named_type_at_a_level_shows_that_type(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_list", items=["One", "Two"], position="end:document_body", list_type="upper_letter")
    p = (await docx.ok("docx_insert_paragraph", text="Three", position="end:document_body")).element_id
    a = await docx.ok("docx_set_list", element_id=p, list_type="upper_letter", level=1)
    assert "│ A. Three" in a.text and "new list" in a.text
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    nid, ilvl = numpr(by_id(body, p))
    root = numbering(out)
    aid = root.find(f"w:num[@w:numId='{nid}']/w:abstractNumId", NS).get(W + "val")
    fmt = root.find(f"w:abstractNum[@w:abstractNumId='{aid}']/w:lvl[@w:ilvl='1']/w:numFmt", NS)
    assert ilvl == 1 and fmt.get(W + "val") == "upperLetter"


async def test_set_list_new_list_starts_at_one_after_another_list(docx, tmp_path):
    await docx.open(_seven_items_and_a_spare(tmp_path))
    plain = ids_in((await docx.ok("docx_read_content")).text)[-1]
    a = await docx.ok("docx_set_list", element_id=plain, list_type="number", continue_list=False)
    assert "│ 1) old plain 7" in a.text
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    assert _level0_start(numbering(out), numpr(by_id(body, plain))[0]) == 1


async def test_markdown_list_at_the_end_starts_at_one_after_another_list(docx, tmp_path):
    await docx.open(_seven_items_and_a_spare(tmp_path))
    a = await docx.ok("docx_insert_markdown", markdown="1. Fruit\n2. Bread\n", position="end:document_body")
    assert "│ 1. Fruit" in a.text and "│ 2. Bread" in a.text
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    nid = numpr(body.findall("w:p", NS)[-1])[0]
    assert nid not in (1, 2) and _level0_start(numbering(out), nid) == 1
