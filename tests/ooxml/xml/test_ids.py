"""Stable IDs: lazy, unique, declared before parsing, taken back when a call fails."""
from __future__ import annotations

import asyncio
import time
from copy import deepcopy
from pathlib import Path

import pytest
from lxml import etree

import tools.catalog  # noqa: F401  (registers the tools)
from ooxml.text.body import iter_blocks
from ooxml.model.document import Document
from ooxml.xml.errors import OoxmlError
from ooxml.xml.ids import strip_ids
from ooxml.xml.namespaces import OX_ID, w
from tests.bench.gen_docs import document_xml
from tests.builders import build_docx, p
from tools.runtime.call.dispatch import run_tool
from tools.runtime.call.registry import CallContext, tool
from tools.builtin import builtin
from tools.services import Services


def test_ids_are_given_lazily_and_once(tmp_path):
    doc = Document.open(build_docx(tmp_path / "a.docx", p("one") + p("two")))
    first, second = list(iter_blocks(doc.body))
    assert first.get(OX_ID) is None
    given = doc.id_of(first)
    assert given.startswith("para_") and doc.id_of(first) == given and second.get(OX_ID) is None


def test_rollback_takes_back_ids_given_since_mark(tmp_path):
    doc = Document.open(build_docx(tmp_path / "a.docx", p("one") + p("two")))
    first, second = list(iter_blocks(doc.body))
    kept = doc.id_of(first)
    doc.ids.mark()
    dropped = doc.id_of(second)
    doc.ids.rollback()
    assert second.get(OX_ID) is None and doc.ids.get(dropped) is None and doc.ids.get(kept) is first


def test_a_failed_call_leaves_no_new_id(tmp_path: Path):
    def docx_test_name_then_fail(ctx: CallContext, session_id: str) -> str:
        """Test-only tool: gives an ID, then fails."""
        from tools.docx.common import session_of
        session = session_of(ctx, session_id)
        session.doc.id_of(next(iter_blocks(session.doc.body)))
        raise OoxmlError("failing on purpose", error_type="ValidationError")

    failing = tool(title="test only", kind="meta")(docx_test_name_then_fail).tool  # described, registered nowhere
    build_docx(tmp_path / "a.docx", p("one"))
    services = Services(roots=[tmp_path])
    ctx = CallContext(None, services)
    asyncio.run(run_tool(builtin()["docx_open"], "docx_open", {"file_path": "a.docx"}, ctx))
    doc = services.sessions.get(None, None).doc
    first = next(iter_blocks(doc.body))
    first.attrib.pop(OX_ID, None)
    out = asyncio.run(run_tool(failing, "docx_test_name_then_fail", {}, ctx))
    assert out.is_error and first.get(OX_ID) is None


@pytest.mark.parametrize("prolog", [b"", b"<!-- a comment with <w:tags> -->\n", b"<?pi x?>"])
def test_namespace_is_declared_in_the_root_tag_before_parsing(tmp_path, prolog):
    from ooxml.xml.id_bytes import predeclare, undeclare
    xml = b'<?xml version="1.0"?>' + prolog + b'<w:document xmlns:w="W" a="x>y"><w:body/></w:document>'
    data, note = predeclare(xml)
    assert b'<w:document xmlns:oxm="urn:ooxml-mcp:ids:2026"' in data and not note.had_ids
    assert undeclare(data, note) == xml


def test_an_id_given_after_undo_lists_our_prefix_on_the_root_again(tmp_path):
    # The namespace declaration stays on the root once made; its mc:Ignorable listing goes with undo.
    doc = Document.open(build_docx(tmp_path / "a.docx", p("one") + p("two")))
    first, second = list(iter_blocks(doc.body))
    ignorable = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Ignorable"
    before = doc.root.get(ignorable, "")
    doc.history.begin()
    doc.will_change(first)
    first.set("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}rsidR", "00AB12CD")
    doc.id_of(first)
    doc.changed(first)
    doc.history.commit("edit", "")
    assert "oxm" in doc.root.get(ignorable).split()
    doc.history.undo(1)
    assert doc.root.get(ignorable, "") == before and "oxm" not in before.split()
    doc.id_of(second)
    assert "oxm" in doc.root.get(ignorable).split()
    doc.save(tmp_path / "b.docx")
    assert "oxm" in Document.open(tmp_path / "b.docx").root.get(ignorable).split()



def _strip_cpu(n: int) -> float:
    """CPU of ``strip_ids`` (best of 3) on a bench document of ``n`` paragraphs, each with our ID."""
    root = etree.fromstring(document_xml(n))
    for k, el in enumerate(root.iter(w("p"))):
        el.set(OX_ID, f"para_{k:06x}")
    best = float("inf")
    for _ in range(3):
        copy = deepcopy(root)
        t0 = time.process_time()
        strip_ids(copy)
        best = min(best, time.process_time() - t0)
        assert b"oxm:id" not in etree.tostring(copy)
    return best


def test_stripping_our_ids_grows_linearly():
    """``strip_ids`` selected the elements by ``//*[@oxm:id]``, which libxml2 evaluated in about
    quadratic time on Word-like bodies: 1.3 s for 10,000 paragraphs, so docx_compare's whole path
    on two 50,000-paragraph files saved by this server (the redline's bytes lose our IDs) took 165 s."""
    small, large = _strip_cpu(1000), _strip_cpu(5000)
    assert large / small < 8, (small, large)  # linear: ~5; the XPath: ~25
