"""docx_render_page on real content: what the warm LibreOffice renders, its fallback, and what runs
off the event loop (issue 18 defect 2, issue 17 defect 8)."""
from __future__ import annotations

import asyncio
import shutil
import threading
import time

import pytest

from tests.builders import build_docx, p
from tests.support.corpus import corpus_dir
from tests.support.client import open_client
from tests.support.libreoffice import require_soffice, write_blank_pdf

pytestmark = pytest.mark.anyio
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WORD_COMMENTS = "Open-XML-SDK__comment.docx"
V, O = "urn:schemas-microsoft-com:vml", "urn:schemas-microsoft-com:office:office"
TEXT_BOX = (f'<w:p><w:r><w:pict><v:shape xmlns:v="{V}" xmlns:o="{O}" id="_x0000_s1026" '
            'style="width:100pt;height:50pt"><v:textbox><w:txbxContent><w:p><w:r><w:t>in box</w:t></w:r></w:p>'
            '</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>')


async def _new(docx, text: str) -> str:
    await docx.create()
    return (await docx.ok("docx_insert_paragraph", session_id=docx.session_id, text=text,
                          position="end:document_body")).element_id


async def _sessions_with_features(docx, tmp_path) -> dict[str, str]:
    """One session per feature: the name of the feature -> its session ID."""
    made = {}

    async def edit(tool, **kw):
        return await docx.ok(tool, session_id=docx.session_id, **kw)

    para = await _new(docx, "Commented paragraph")
    comment = (await edit("docx_add_comment", element_id=para, text="A remark", author="Reviewer")).element_id
    await edit("docx_reply_comment", comment_id=comment, text="A reply")
    made["comments"] = docx.session_id
    para = await _new(docx, "Tracked paragraph")
    await edit("docx_set_track_changes", enabled=True, author="Editor")
    await edit("docx_insert_paragraph", text="Inserted while tracking", position=f"after:{para}")
    await edit("docx_delete", element_id=para)
    made["tracked changes"] = docx.session_id
    para = await _new(docx, "Page ")
    for field in ("PAGE", "NUMPAGES", "DATE", "AUTHOR"):
        await edit("docx_insert_field", field=field, position=f"end:{para}")
    made["fields"] = docx.session_id
    made["text boxes"] = (await docx.open(build_docx(tmp_path / "box.docx", TEXT_BOX + p("after")))).head["Session ID"]
    para = await _new(docx, "A noted sentence.")
    await edit("docx_insert_footnote", element_id=para, text="The note.")
    await edit("docx_insert_footnote", element_id=para, text="The end note.", kind="endnote")
    made["footnotes"] = docx.session_id
    corpus = corpus_dir()
    if corpus is not None and (corpus / WORD_COMMENTS).is_file():  # comments as Word writes them
        made["Word's comments"] = (await docx.open(shutil.copy(corpus / WORD_COMMENTS, tmp_path))).head["Session ID"]
    return made


async def test_comments_tracked_changes_fields_text_boxes_and_footnotes_render_through_the_warm_worker(
        docx, tmp_path):
    require_soffice()
    for feature, sid in (await _sessions_with_features(docx, tmp_path)).items():
        answer = await docx.call("docx_render_page", session_id=sid, page=1)
        assert not answer.is_error, f"{feature}: {answer.text}"
        assert answer.images[0][1].startswith(PNG_SIGNATURE), feature
        assert "LibreOffice" not in answer.head, f"{feature} fell back: {answer.head['LibreOffice']}"
    assert docx.services.office.starts == 1  # one warm LibreOffice rendered them all, none restarted


async def test_a_failed_warm_worker_falls_back_to_a_one_off_conversion_and_says_so(docx, monkeypatch):
    require_soffice()
    from tools.office import service as office

    def broken(self, *args):
        raise office.RenderFailed("LibreOffice did not start: forced by the test.")

    monkeypatch.setattr(office._Worker, "__init__", broken)
    await _new(docx, "Rendered all the same")
    answer = await docx.ok("docx_render_page", session_id=docx.session_id, page=1)
    assert answer.head["Page"] == "1 of 1" and answer.images[0][1].startswith(PNG_SIGNATURE)
    assert answer.head["LibreOffice"].startswith("one-off conversion: the warm LibreOffice failed")
    assert "forced by the test" in answer.head["LibreOffice"]


class PdfOffice:
    """Stands in for LibreOffice: writes a one-page PDF (the test is about what follows)."""

    def to_pdf(self, src, out, timeout=None):
        write_blank_pdf(out)

    def close(self):
        pass


async def test_reading_the_pdf_does_not_stall_other_clients(tmp_path, monkeypatch):
    from render import pages

    async with open_client([tmp_path], office=PdfOffice()) as docx:
        await _new(docx, "One page")
        entered, gate, finished = threading.Event(), threading.Event(), []
        real = pages.PdfPages.mark_pages

        def slow_marks(self):  # a 200-page document's named destinations take seconds to read
            entered.set()
            gate.wait(30)  # the test opens it once the other call has answered
            finished.append(time.monotonic())
            return real(self)

        monkeypatch.setattr(pages.PdfPages, "mark_pages", slow_marks)
        render = asyncio.create_task(docx.ok("docx_render_page", session_id=docx.session_id, page=1))
        try:
            for _ in range(400):  # the render reaches the PDF (a blocked loop would stop this loop too)
                if entered.is_set():
                    break
                await asyncio.sleep(0.05)
            assert entered.is_set(), "the render never reached its PDF"
            other = await asyncio.wait_for(docx.ok("docx_create"), 25)
            answered = time.monotonic()
        finally:
            gate.set()
        assert (await render).head["Page"] == "1 of 1"
        assert other.head["Session ID"] != docx.session_id
        assert answered < finished[0]  # the other client had its answer while the PDF was still being read
