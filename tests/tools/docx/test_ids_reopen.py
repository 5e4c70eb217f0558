"""Reopening a file this server saved: its IDs are found by line number, without walking the tree
(issue 21), and resolve exactly as before: every kind, after edits, copies, moves and undo."""
from __future__ import annotations

import copy
import zipfile
from pathlib import Path

import pytest

from ooxml.model.document import Document
from ooxml.xml import ids as ids_module
from ooxml.xml import minting
from ooxml.xml.errors import ElementNotFound
from ooxml.xml.namespaces import OX_ID, W
from ooxml.xml.safexml import serialize
from tests.builders import build_docx, p, part_xml, tbl, tc
from tests.support.client import read_part

HDR_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"
SECT = '<w:sectPr><w:headerReference w:type="default" r:id="rIdH"/><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>'


def _source(tmp_path: Path, n: int = 30) -> Path:
    body = "".join(p(f"Paragraph {i}") for i in range(n))
    body += tbl([[tc(p("a1")), tc(p("b1"))], [tc(p("a2")), tc(p("b2") + p("b2 second"))]])
    body += p('Text that reads like ours: oxm:id="para_abcdef" and &lt;w:p oxm:id="para_abcdef"&gt;')
    body += "".join(p(f"Tail {i}") for i in range(10))
    return build_docx(tmp_path / "src.docx", body, sect=SECT, rels=[("rIdH", "header", "header1.xml")],
                      extra_parts={"word/header1.xml": part_xml("w:hdr", p("Header"))},
                      overrides={"word/header1.xml": HDR_CT})


def _locator(el):
    out = []
    while el.getparent() is not None:
        out.append(el.getparent().index(el))
        el = el.getparent()
    return tuple(reversed(out))


def _saved(tmp_path: Path, every: int = 1, n: int = 30) -> tuple[Path, dict[str, tuple[str, tuple]]]:
    """The source saved with IDs on every ``every``-th element of the body and on the header's
    root and paragraph; returns the file and ID -> (part, locator)."""
    doc = Document.open(_source(tmp_path, n))
    doc.register_stories()
    given = {}
    for i, el in enumerate(doc.body.iter()):
        if isinstance(el.tag, str) and el.tag.startswith(f"{{{W}}}") and i % every == 0 and el is not doc.body:
            given[doc.id_of(el)] = ("main", _locator(el))
    header = doc.package.part("word/header1.xml").tree.getroot()
    for el in (header, header[0]):
        given[doc.id_of(el)] = ("header", _locator(el))
    out = tmp_path / "saved.docx"
    doc.save(out)
    doc.close()
    return out, given


def _at(doc: Document, where: tuple[str, tuple]):
    part, loc = where
    el = doc.root if part == "main" else doc.package.part("word/header1.xml").tree.getroot()
    for i in loc:
        el = el[i]
    return el


@pytest.fixture
def walks(monkeypatch) -> list:
    """Each walk of a whole part's tree for its IDs."""
    seen, xpath = [], ids_module._XPATH_ID_ATTRS
    monkeypatch.setattr(ids_module, "_XPATH_ID_ATTRS", lambda root: seen.append(root) or xpath(root))
    return seen


def test_reopening_a_saved_file_finds_its_ids_without_walking_the_tree(tmp_path, walks):
    saved, given = _saved(tmp_path, every=3)
    doc = Document.open(saved)
    first = next(iter(doc.body))
    assert doc.id_of(first) == first.get(OX_ID)  # what the open answer does
    for element_id, where in given.items():
        assert doc.find(element_id) is _at(doc, where), element_id
    assert walks == []


def test_every_kind_resolves_after_reopening_in_lines_or_not(tmp_path):
    saved, given = _saved(tmp_path)
    data = read_part(saved)
    head, root = data.split(b"\n", 1)
    variants = {"as saved": data,
                "line breaks": head + b"\n" + root.replace(b"><", b">\n<"),  # text has none here
                "CRLF": head + b"\r\n" + root.replace(b"><", b">\r\n<")}
    for name, part in variants.items():
        path = tmp_path / f"{name}.docx"
        with zipfile.ZipFile(saved) as src, zipfile.ZipFile(path, "w") as dst:
            for info in src.infolist():
                dst.writestr(info, part if info.filename == "word/document.xml" else src.read(info))
        doc = Document.open(path)
        assert doc.main.prepared.marks is not None, name
        wrong = [i for i, where in given.items() if doc.find(i) is not _at(doc, where)]
        assert not wrong, (name, wrong[:5])
        doc.close()


def test_the_tree_is_the_same_as_the_files(tmp_path):
    saved, _ = _saved(tmp_path)
    doc = Document.open(saved)
    assert serialize(doc.main.tree, doc.main.head) == read_part(saved)


def test_text_that_reads_like_an_id_is_no_id(tmp_path):
    saved, _ = _saved(tmp_path)
    doc = Document.open(saved)
    with pytest.raises(ElementNotFound):
        doc.find("para_abcdef")


def test_a_new_id_never_repeats_one_not_looked_up_yet(tmp_path, monkeypatch):
    saved, given = _saved(tmp_path, every=5)
    doc = Document.open(saved)
    old = next(i for i in given if i.startswith("para_")).split("_")[1]
    tokens = iter([old, "0a0b0c"])
    monkeypatch.setattr(minting, "token_hex", lambda n: next(tokens))
    fresh = doc.body.makeelement(f"{{{W}}}p")
    doc.insert_block(fresh, container=doc.body, after=doc.body[0])
    assert doc.id_of(fresh) == "para_0a0b0c"


def _old_ids(doc: Document, given: dict, **blocks) -> dict:
    """For each name -> body index: (the block's first child, its ID)."""
    by_loc = {where: i for i, where in given.items()}
    out = {}
    for name, index in blocks.items():
        block = doc.body[index]
        out[name] = (block[0], by_loc[("main", _locator(block[0]))])
    return out


def test_ids_resolve_after_edits_made_before_the_first_lookup_without_a_walk(tmp_path, walks):
    saved, given = _saved(tmp_path)
    doc = Document.open(saved)
    old = _old_ids(doc, given, copied=5, wrapped=8, gone=12, down=2, last=len(doc.body) - 2)
    copied, run, gone, down, last = (old[k][0].getparent() if k != "wrapped" else old[k][0]
                                     for k in ("copied", "wrapped", "gone", "down", "last"))
    twin = copy.deepcopy(copied)  # a copy right after its original keeps its line, not its IDs
    doc.ids.clear_ids(twin)
    copied.addnext(twin)
    ins = run.makeelement(f"{{{W}}}ins")  # a tracked change made around an old run
    run.addprevious(ins)
    ins.append(run)
    doc.remove_block(gone)
    last.addnext(down)  # a block moved to the end, after the last one with IDs
    for name in ("copied", "wrapped", "down", "last"):
        el, element_id = old[name]
        assert doc.find(element_id) is el, name
    with pytest.raises(ElementNotFound):
        doc.find(old["gone"][1])
    assert walks == []


def test_ids_resolve_after_a_block_moved_up_before_the_first_lookup(tmp_path, walks):
    saved, given = _saved(tmp_path, n=200)
    doc = Document.open(saved)
    old = _old_ids(doc, given, moved=120, stays=25, after=150)
    doc.body.insert(0, old["moved"][0].getparent())  # its line is above its followers': they are walked
    for el, element_id in old.values():
        assert doc.find(element_id) is el
    assert len(walks) == 1


@pytest.mark.anyio
async def test_an_old_id_inside_a_block_deleted_then_undone_resolves(docx, tmp_path):
    saved, given = _saved(tmp_path)
    para = next(i for i, (part, loc) in given.items() if part == "main" and len(loc) == 2 and loc[1] == 12)
    run = next(i for i, (part, loc) in given.items() if part == "main" and loc[:2] == given[para][1] and len(loc) == 3
               and i.startswith("run_"))
    await docx.open(saved)
    await docx.ok("docx_delete", element_id=para)
    gone = await docx.call("docx_update_paragraph_text", element_id=para, new_text="x")
    assert gone.is_error and gone.error_type == "ElementNotFound"
    await docx.ok("docx_undo")
    back = await docx.ok("docx_read_content", start_element_id=para, max_elements=1)
    assert "Paragraph 12" in back.text
    await docx.ok("docx_update_run_text", element_id=run, new_text="Paragraph twelve")
    body = await docx.save(tmp_path / "after.docx")
    ns = {"oxm": "urn:ooxml-mcp:ids:2026", "w": W}
    assert body.xpath(f"string(//w:r[@oxm:id='{run}'])", namespaces=ns) == "Paragraph twelve"
    assert body.xpath(f"string(//w:p[@oxm:id='{para}'])", namespaces=ns) == "Paragraph twelve"
