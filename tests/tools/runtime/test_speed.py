"""What keeps calls at the transport's floor and a server's memory in check (issue 21)."""
from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path

import anyio
import pytest

from tests.support.client import NS

pytestmark = pytest.mark.anyio


async def test_closing_a_session_frees_its_document_without_waiting_for_the_cycle_collector(docx):
    # A closed document that waits for the cyclic collector keeps its tree (hundreds of MB for a
    # large file) while the next docx_open parses: that open then page-faults fresh memory.
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="One", position="end:document_body", style="List Number")
    await docx.ok("docx_delete", element_id=(await docx.ok(
        "docx_insert_paragraph", text="Two", position="end:document_body", style="List Number")).element_id)
    doc = weakref.ref(docx.services.sessions._sessions[docx.session_id].doc)
    gc.disable()
    try:
        closed = await docx.ok("docx_close", session_id=docx.session_id)
        assert closed.head["Unsaved Changes"] == "yes, discarded"
        for _ in range(100):  # the worker thread lets go of the call's frame a moment after it answers
            if doc() is None:
                break
            await anyio.sleep(0.01)
        assert doc() is None
    finally:
        gc.enable()


async def test_first_footnote_of_a_document_without_notes_is_numbered_without_scanning_the_body(
        docx, tmp_path, monkeypatch):
    # A scan of every note reference costs 50-100 ms at 50,000 paragraphs; with no note yet the
    # body holds no reference, so the list starts empty and follows the edits.
    from ooxml.text import doc_order

    await docx.create()
    first = (await docx.ok("docx_insert_paragraph", text="First.", position="end:document_body")).element_id
    second = (await docx.ok("docx_insert_paragraph", text="Second.", position="end:document_body")).element_id
    scans = []
    rescan = doc_order.Tracked._rescan
    monkeypatch.setattr(doc_order.Tracked, "_rescan", lambda self, root: (scans.append(self.tags), rescan(self, root)))
    a = await docx.ok("docx_insert_footnote", element_id=second, text="On the second.")
    assert a.head["Number"] == "1" and "Second.[^1]" in a.section("Context")
    b = await docx.ok("docx_insert_footnote", element_id=first, text="On the first.")
    assert b.head["Number"] == "1" and "First.[^1]" in b.section("Context") and "Second.[^2]" in b.section("Context")
    assert not [t for t in scans if "footnoteReference" in t[0]]
    body = await docx.save(tmp_path / "n.docx")
    assert [r.get(f"{{{NS['w']}}}id") for r in body.iter(f"{{{NS['w']}}}footnoteReference")] == ["2", "1"]


def test_a_worker_loads_only_what_answering_initialize_needs(tmp_path):
    # Imported at their first use instead: the HTTP tools' config (httpx, pygments: 85 ms of CPU)
    # without --config/--toolsets, markdown-it, pdfium and jsonschema (15-30 ms each), the document
    # model and lxml (15 ms).
    code = ("import sys, server; server.build_server(server.make_services(server.parse_args(['--root', sys.argv[1]])));"
            "print(sorted(m for m in ('tools.config.loading', 'httpx', 'markdown_it', 'pypdfium2', 'jsonschema', "
            "'lxml.etree', 'ooxml.model.document', 'ooxml.opc.package') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=Path(__file__).resolve().parents[3],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_worker_starts_without_walking_the_sdks_objects_in_garbage_collections(tmp_path):
    # Importing the MCP SDK makes ~120,000 objects; collections over them cost 70 ms of the
    # ~0.6 s to initialize (14 of generation 1, one full). They live as long as the process.
    code = ("import gc, sys; runs = []; gc.callbacks.append(lambda phase, info: phase == 'stop' and "
            "runs.append(info['generation']));"
            "import server; server.build_server(server.make_services(server.parse_args(['--root', sys.argv[1]])));"
            "print(len([g for g in runs if g > 0]), gc.get_freeze_count() > 100_000, gc.isenabled())")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=Path(__file__).resolve().parents[3],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", "True", "True"]  # and collections still run for what calls make
