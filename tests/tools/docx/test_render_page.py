"""docx_render_page: the page LibreOffice lays out, as a PNG, with the elements on it."""
from __future__ import annotations

import asyncio
import io
import shutil
import time

import pypdfium2 as pdfium
import pytest
from PIL import Image

from tests.support.client import open_client
from tests.support.corpus import corpus_params, editable_files
from tests.support.libreoffice import convert_cached, require_soffice
from tests.support.polling import wait_until

pytestmark = [pytest.mark.anyio, pytest.mark.libreoffice]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def _soffice():
    require_soffice()


async def three_pages(docx) -> list[str]:
    """A new document with three pages (explicit page breaks); the IDs of the paragraph opening each."""
    await docx.create()
    firsts = []
    for page in range(3):
        if page:
            await docx.ok("docx_insert_page_break", position="end:document_body")
        first = await docx.ok("docx_insert_paragraph", text=f"Page {page + 1} starts here",
                              position="end:document_body")
        firsts.append(first.element_id)
        await docx.ok("docx_insert_paragraph", text=f"More text on page {page + 1}", position="end:document_body")
    return firsts


async def test_the_image_is_a_valid_png_of_the_page_size_at_the_dpi(docx):
    await three_pages(docx)
    answer = await docx.ok("docx_render_page", page=1, dpi=72)
    assert len(answer.images) == 1
    mime, data = answer.images[0]
    assert mime == "image/png" and data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    image.verify()
    # The new document's page is US Letter or A4 (template): 8.5×11 in or 210×297 mm at 72 dpi.
    assert image.size in ((612, 792), (595, 842))
    assert answer.head["Image"] == f"PNG {image.size[0]}×{image.size[1]} px at 72 dpi"


async def test_an_element_on_page_3_is_reported_on_page_3(docx):
    firsts = await three_pages(docx)
    answer = await docx.ok("docx_render_page", element_id=firsts[2])
    assert answer.head["Page"] == "3 of 3"
    assert firsts[2] in answer.head["Elements"]
    assert firsts[0] not in answer.head["Elements"] and firsts[1] not in answer.head["Elements"]
    assert "Page 3 starts here" in answer.section("Content")


async def test_a_page_number_lists_the_elements_starting_on_it(docx):
    firsts = await three_pages(docx)
    answer = await docx.ok("docx_render_page", page=2)
    assert answer.head["Page"] == "2 of 3"
    assert answer.head["Elements"].startswith(firsts[1])


async def test_rendering_shows_unsaved_edits_and_never_writes_the_users_file(docx, tmp_path):
    await three_pages(docx)
    path = tmp_path / "mine.docx"
    await docx.save(path)
    saved = path.read_bytes()
    await docx.ok("docx_insert_page_break", position="end:document_body")
    await docx.ok("docx_insert_paragraph", text="A fourth page", position="end:document_body")
    answer = await docx.ok("docx_render_page", page=4)
    assert answer.head["Page"] == "4 of 4"
    assert path.read_bytes() == saved
    listed = await docx.ok("docx_list_sessions")
    assert "| yes |" in listed.text  # the render did not count as a save


async def test_a_page_beyond_the_last_is_a_validation_error(docx):
    await three_pages(docx)
    answer = await docx.call("docx_render_page", page=9)
    assert answer.is_error and answer.error_type == "ValidationError"
    assert "3 page(s)" in answer.head["Message"]


async def test_missing_libreoffice_gives_the_named_error_with_what_to_install(docx, monkeypatch, tmp_path):
    await three_pages(docx)
    monkeypatch.setenv("OOXML_MCP_SOFFICE", str(tmp_path / "no-such-dir" / "soffice"))
    answer = await docx.call("docx_render_page", page=1)
    assert answer.is_error and answer.error_type == "LibreOfficeNotFound"
    assert "libreoffice-writer-nogui" in answer.head["Hint"] and "python3-uno" in answer.head["Hint"]


async def test_concurrent_renders_from_two_sessions_both_succeed(tmp_path):
    async with open_client([tmp_path]) as a:
        firsts = await three_pages(a)
        other = (await a.ok("docx_create")).head["Session ID"]
        await a.ok("docx_insert_paragraph", session_id=other, text="Only one page", position="end:document_body")
        one, two = await asyncio.gather(
            a.ok("docx_render_page", session_id=a.session_id, element_id=firsts[1]),
            a.ok("docx_render_page", session_id=other))
    assert one.head["Page"] == "2 of 3" and two.head["Page"] == "1 of 1"
    assert one.images[0][1].startswith(PNG_SIGNATURE) and two.images[0][1].startswith(PNG_SIGNATURE)


async def test_a_dead_libreoffice_is_restarted(tmp_path):
    async with open_client([tmp_path]) as docx:
        await three_pages(docx)
        await docx.ok("docx_render_page", page=1)
        office = docx.services.office
        office.kill_for_test()
        answer = await docx.ok("docx_render_page", page=2)
        assert answer.head["Page"] == "2 of 3"
        assert office.starts == 2


async def test_a_hung_render_is_stopped_after_the_timeout(docx, monkeypatch):
    await three_pages(docx)
    monkeypatch.setenv("OOXML_MCP_RENDER_TIMEOUT", "0.001")
    answer = await docx.call("docx_render_page", page=1)
    assert answer.is_error and answer.error_type == "RenderFailed"
    assert "did not answer within" in answer.head["Message"]
    monkeypatch.delenv("OOXML_MCP_RENDER_TIMEOUT")
    assert (await docx.ok("docx_render_page", page=1)).head["Page"] == "1 of 3"


async def test_progress_is_reported_when_the_client_asks(docx):
    await three_pages(docx)
    seen = []

    async def on_progress(done, total, message):
        seen.append((done, total, message))

    result = await docx.client.call_tool("docx_render_page", {"page": 1}, progress_callback=on_progress)
    assert not result.is_error
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1]
    assert [s[0] for s in seen] == sorted(s[0] for s in seen)


def _sample():
    """A few corpus files of different sizes (rendering all of them would take minutes)."""
    files = sorted(editable_files(), key=lambda p: p.stat().st_size)
    return files[:: max(1, len(files) // 5)][:5] if files else None


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_sample()))
async def test_corpus_pages_match_libreoffices_own_pdf(docx, path, tmp_path):
    reference = convert_cached([path], label="render_page reference")[path.resolve()]
    if reference is None:
        pytest.skip(f"LibreOffice does not convert {path.name} itself")
    pdf = pdfium.PdfDocument(str(reference))
    try:
        count = len(pdf)
        last = count
        widths_heights = [pdf[i].get_size() for i in (0, last - 1)]
    finally:
        pdf.close()
    await docx.open(shutil.copy(path, tmp_path / path.name))
    for number, (w_pt, h_pt) in zip((1, last), widths_heights):
        answer = await docx.ok("docx_render_page", page=number, dpi=96)
        assert answer.head["Page"] == f"{number} of {count}"
        image = Image.open(io.BytesIO(answer.images[0][1]))
        assert abs(image.size[0] - w_pt * 96 / 72) <= 1 and abs(image.size[1] - h_pt * 96 / 72) <= 1


def test_the_worker_needs_a_uno_python():
    """The warm path is what the speed target assumes: say so when only the cold fallback exists."""
    from tools.office.find import find_soffice, find_uno_python

    assert find_uno_python(find_soffice()) is not None, \
        "no Python with LibreOffice's 'uno' module (apt-get install python3-uno): renders run cold"
    assert shutil.which("soffice") or shutil.which("libreoffice")


async def test_over_stdio_the_page_arrives_as_image_content_with_progress(tmp_path):
    """Real JSON-RPC framing: the progress token travels in _meta and the PNG as base64 image content."""
    import base64
    import sys
    from pathlib import Path

    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    repo = Path(__file__).resolve().parents[3]
    params = StdioServerParameters(command=sys.executable, args=["server.py", "--root", str(tmp_path)],
                                   cwd=str(repo))
    seen = []

    async def on_progress(done, total, message):
        seen.append(done)

    async with Client(params, cache=None) as client:
        created = await client.call_tool("docx_create", {})
        sid = [line for line in created.content[0].text.splitlines() if line.startswith("**Session ID**")][0]
        sid = sid.split(": ", 1)[1]
        await client.call_tool("docx_insert_paragraph", {"session_id": sid, "text": "Hello",
                                                         "position": "end:document_body"})
        result = await client.call_tool("docx_render_page", {"session_id": sid}, progress_callback=on_progress)
    assert not result.is_error, result.content[0].text
    assert [c.type for c in result.content] == ["text", "image"]
    assert result.content[1].mime_type == "image/png"
    assert base64.b64decode(result.content[1].data).startswith(PNG_SIGNATURE)
    assert seen and seen == sorted(seen)


class GatedOffice:
    """The real LibreOffice behind a gate: a layout waits until the test opens it."""

    def __init__(self, gate):
        import threading
        from tools.office.service import Office
        self.real, self.gate, self.reached = Office(), gate, threading.Event()

    def to_pdf(self, src, pdf, timeout=None):
        self.reached.set()
        assert self.gate.wait(30), "the test never opened the gate"
        return self.real.to_pdf(src, pdf, timeout)

    def close(self):
        self.real.close()


class CountedLock:
    """A session's lock that counts the attempts to take it (a waiting call is one)."""

    def __init__(self, lock):
        self.lock, self.attempts = lock, 0

    def acquire(self, *args, **kwargs):
        self.attempts += 1
        return self.lock.acquire(*args, **kwargs)

    def release(self):
        self.lock.release()

    __enter__ = acquire

    def __exit__(self, *exc):
        self.release()


async def test_an_edit_on_the_session_runs_while_its_page_is_laid_out(tmp_path):
    import threading
    gate = threading.Event()
    office = GatedOffice(gate)
    async with open_client([tmp_path], office=office) as docx:
        await three_pages(docx)
        render = asyncio.create_task(docx.ok("docx_render_page", page=1))
        try:
            await wait_until(office.reached.is_set)  # the render has written its copy and waits at the gate
            assert office.reached.is_set()
            edit = await asyncio.wait_for(
                docx.ok("docx_insert_paragraph", text="Written during the render", position="end:document_body"), 10)
        finally:
            gate.set()
        answer = await render
        assert answer.head["Page"] == "1 of 3" and not render.cancelled()
        assert "Written during the render" in (await docx.ok("docx_get_context", element_id=edit.element_id)).text


async def test_a_render_waiting_for_its_session_does_not_stall_other_clients(docx):
    import threading
    await three_pages(docx)
    session = next(s for s in docx.services.sessions.all() if s.id == docx.session_id)
    lock = session.lock = CountedLock(session.lock)
    held, release = threading.Event(), threading.Event()

    def long_call():  # another call holding the session, as a long edit would
        with session.lock:
            held.set()
            release.wait(15)

    threading.Thread(target=long_call, daemon=True).start()
    held.wait(5)
    started = time.monotonic()  # the test runs on the server's event loop: a blocked loop stops its clock too
    render = asyncio.create_task(docx.ok("docx_render_page", page=1))
    try:
        await wait_until(lambda: lock.attempts >= 2)  # the render waits for the lock the long call holds
        assert lock.attempts >= 2
        other = await docx.ok("docx_create")
        waited = time.monotonic() - started  # a loop blocked by the render's wait goes on only at release
    finally:
        release.set()
    assert waited < 5 and other.head["Session ID"] != docx.session_id
    assert (await render).head["Page"] == "1 of 3"
