"""Absurd numbers inside a document never kill or stall the server (issue 12, defect 1).

Every count read from a file (spans, grid columns, gridBefore/After, widths, ids, outline
levels, symbol codes) is clamped to what the format allows: the document opens, reads,
edits and saves, and nothing is built sized by the number in the file. The calls run under
a memory cap, so a regression fails with an error instead of swapping the machine.
"""
from __future__ import annotations

import re
import resource
import zipfile

import pytest

from tests.builders import build_docx, p, tbl, tc
from tests.support.client import W, read_part

pytestmark = pytest.mark.anyio
HUGE = ("2147483647", "99999999999999999999", "1e400", "-1e400", "NaN", "²", "9" * 5000)


@pytest.fixture
def memory_cap():
    """Cap this process's address space at what it uses now plus 1.5 GB, for one test."""
    with open("/proc/self/status") as f:
        used = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (used + 1536 * 1024 * 1024, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def hostile_tables() -> str:
    tables = []
    for n in HUGE:
        span = tc(p("span"), f'<w:gridSpan w:val="{n}"/>')
        rows = [[span, tc(p("b"))], [tc(p("c"), '<w:vMerge w:val="restart"/>'), tc(p("d"), f'<w:gridSpan w:val="{n}"/>')]]
        table = tbl(rows, grid=[2000] * 2).replace('<w:gridCol w:w="2000"/>', f'<w:gridCol w:w="{n}"/>', 1)
        table = table.replace("<w:tr>", f'<w:tr><w:trPr><w:gridBefore w:val="{n}"/><w:gridAfter w:val="{n}"/></w:trPr>', 1)
        tables.append(table + p(f"after {n[:20]}"))
    heading = f'<w:p><w:pPr><w:outlineLvl w:val="{HUGE[1]}"/></w:pPr><w:r><w:sym w:font="Symbol" w:char="FFFFFFFFFFFF"/></w:r></w:p>'
    bookmark = f'<w:p><w:bookmarkStart w:id="{HUGE[1]}" w:name="b"/><w:r><w:t>x</w:t></w:r><w:bookmarkEnd w:id="{HUGE[1]}"/></w:p>'
    return heading + bookmark + "".join(tables)


async def test_absurd_numbers_in_a_document_are_clamped_not_obeyed(docx, tmp_path, memory_cap):
    path = build_docx(tmp_path / "absurd.docx", hostile_tables())
    await docx.open(path)
    sid = docx.session_id
    listing = await docx.ok("docx_list_tables", session_id=sid)
    tables = [line.split(":")[0].strip("- ") for line in listing.text.splitlines() if line.startswith("- table_")]
    assert len(tables) == len(HUGE)
    for line in listing.text.splitlines():
        if line.startswith("- table_"):
            cols = int(line.split(": ")[1].split("×")[1].split()[0])
            assert cols <= 63, line  # Word's 63 columns, whatever the file claims
    await docx.ok("docx_get_structure", session_id=sid)
    await docx.ok("docx_get_context", session_id=sid, element_id=tables[0])
    for table_id in tables:
        await docx.ok("docx_get_table", session_id=sid, table_id=table_id)
        await docx.ok("docx_get_cell", session_id=sid, table_id=table_id, row=1, col=0)
        await docx.ok("docx_insert_row_at", session_id=sid, table_id=table_id, position="end")
        await docx.ok("docx_copy_table", session_id=sid, table_id=table_id, position=f"after:{table_id}")
        a = await docx.call("docx_insert_col_at", session_id=sid, table_id=table_id, position="start")
        assert not a.is_error or a.error_type == "ValidationError", a.text
    body = await docx.save(tmp_path / "out.docx")
    assert body is not None and len(body.findall(f"{{{W}}}tbl")) == 2 * len(HUGE)


ROWLESS = ('<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>'
           '<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="3000"/></w:tblGrid></w:tbl>') + p("after")


async def rowless(docx, tmp_path) -> str:
    await docx.open(build_docx(tmp_path / "rowless.docx", ROWLESS))
    listing = await docx.ok("docx_list_tables", session_id=docx.session_id)
    assert "0×2" in listing.text
    await docx.save(tmp_path / "before.docx")
    return next(line.split(":")[0].strip("- ") for line in listing.text.splitlines() if line.startswith("- table_"))


@pytest.mark.parametrize("name,args,error_type", [
    ("docx_insert_row_at", {"position": "before:0"}, "InvalidPosition"),
    ("docx_delete_row", {"row_index": 0}, "InvalidPosition"),
    ("docx_get_cell", {"row": 0, "col": 0}, "ValidationError"),
    ("docx_merge_cells", {"start_row": 0, "start_col": 0, "end_row": 0, "end_col": 1}, "ValidationError"),
])
async def test_a_table_without_rows_gives_named_errors(docx, tmp_path, name, args, error_type):
    table = await rowless(docx, tmp_path)
    a = await docx.call(name, session_id=docx.session_id, table_id=table, **args)
    assert a.is_error and a.error_type == error_type, a.text
    assert "no rows" in a.text and "--1" not in a.text and a.head.get("Hint")
    await docx.save(tmp_path / "after.docx")
    assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")


async def test_insert_row_into_a_table_without_rows_builds_one_from_the_grid(docx, tmp_path):
    table = await rowless(docx, tmp_path)
    a = await docx.ok("docx_insert_row_at", session_id=docx.session_id, table_id=table, position="end")
    assert "1×2" in a.text
    cells = (await docx.save(tmp_path / "out.docx")).findall(f".//{{{W}}}tr/{{{W}}}tc")
    assert len(cells) == 2 and all(tc[-1].tag == f"{{{W}}}p" for tc in cells)


async def test_fill_a_table_without_rows_adds_its_rows(docx, tmp_path):
    table = await rowless(docx, tmp_path)
    a = await docx.ok("docx_fill_table", session_id=docx.session_id, table_id=table, data=[["a", "b"], ["c", "d"]])
    assert a.head["Cells Written"] == "4" and a.head["Rows Added"] == "2"
    body = await docx.save(tmp_path / "out.docx")
    assert len(body.findall(f".//{{{W}}}tr")) == 2


async def test_show_a_table_without_rows(docx, tmp_path):
    table = await rowless(docx, tmp_path)
    a = await docx.ok("docx_get_table", session_id=docx.session_id, table_id=table)
    assert a.head["Dimensions"] == "0 rows × 2 columns" and "--1" not in a.text


@pytest.mark.parametrize("bad_id", ["para_1\n## Injected section", "x" * 5000, "last_insert", "document_body",
                                    "para 123456", ""])
async def test_ids_of_ours_that_no_server_wrote_are_replaced(docx, tmp_path, bad_id):
    """A file may carry oxm:id values nobody of ours wrote: they are never shown or used as given."""
    from xml.sax.saxutils import quoteattr

    body = (f'<w:p xmlns:oxm="urn:ooxml-mcp:ids:2026" oxm:id={quoteattr(bad_id)}><w:r><w:t>odd</w:t></w:r></w:p>'
            + p("plain"))
    path = build_docx(tmp_path / "ids.docx", body)
    xml = read_part(path).replace(b"<w:document ", b'<w:document xmlns:oxm="urn:ooxml-mcp:ids:2026" ', 1)
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts["word/document.xml"] = xml
    with zipfile.ZipFile(path, "w") as z:
        for n, d in parts.items():
            z.writestr(n, d)
    await docx.open(path)
    a = await docx.ok("docx_read_content", session_id=docx.session_id)
    assert "Injected" not in a.text and "x" * 100 not in a.text
    odd = next(line for line in a.text.splitlines() if "odd" in line)
    assert re.search(r"\bpara_[0-9a-f]{6}\b", odd) and (not bad_id or bad_id not in odd), a.text


def injected_document(tmp_path):
    """Newlines where a file should have none: text, alt text, style and colour values, style IDs."""
    evil = "a&#10;## Injected&#13;&#10;---&#9;x"
    image = (f'<w:r><w:drawing><wp:inline><wp:extent cx="9525" cy="9525"/><wp:docPr id="1" name="n" descr="{evil}"/>'
             '</wp:inline></w:drawing></w:r>')
    body = (f'<w:p><w:pPr><w:pStyle w:val="Evil"/></w:pPr><w:r><w:rPr><w:color w:val="{evil}"/></w:rPr>'
            f'<w:t>line{evil}</w:t></w:r>{image}</w:p>'
            + tbl([[tc(f'<w:p><w:r><w:t>cell{evil}</w:t></w:r></w:p>'), tc(p("ok"))]])
            + f'<w:p><w:pPr><w:pStyle w:val="Other{evil}"/></w:pPr><w:r><w:t>tail</w:t></w:r></w:p>')
    path = build_docx(tmp_path / "inject.docx", body)
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    style = (f'<w:style w:type="paragraph" w:styleId="Evil"><w:name w:val="Evil{evil}"/>'
             f'<w:basedOn w:val="Normal"/></w:style></w:styles>').encode()
    parts["word/styles.xml"] = parts["word/styles.xml"].replace(b"</w:styles>", style)
    with zipfile.ZipFile(path, "w") as z:
        for n, d in parts.items():
            z.writestr(n, d)
    return path


async def test_newlines_inside_document_values_never_break_an_answer(docx, tmp_path):
    """Every answer passes the validator (the client checks): no value from the file adds a line."""
    await docx.open(injected_document(tmp_path))
    sid = docx.session_id
    answers = [await docx.ok("docx_read_content", session_id=sid),
               await docx.ok("docx_get_structure", session_id=sid),
               await docx.ok("docx_find_paragraphs", session_id=sid, query="Injected"),
               await docx.ok("docx_list_tables", session_id=sid)]
    table = next(line.split(":")[0].strip("- ") for line in answers[-1].text.splitlines() if line.startswith("- table_"))
    answers.append(await docx.ok("docx_get_table", session_id=sid, table_id=table))
    answers.append(await docx.ok("docx_get_cell", session_id=sid, table_id=table, row=0, col=0))
    answers.append(await docx.ok("docx_insert_paragraph", session_id=sid, text="after", position=f"after:{table}"))
    for a in answers:
        assert not any(line.startswith("## Injected") for line in a.text.splitlines()), a.text
