"""Tools that read or write files other than the session's document, on object roots against a real
SeaweedFS: docx_export (LibreOffice's output stored by a conditional put), docx_compare of two objects,
images read from objects by docx_fill_template and docx_insert_markdown."""
from __future__ import annotations

import io
import zipfile

import pytest

from tests.support.libreoffice import require_soffice
from tests.tools.storage.test_store_objects import bucket, client_for, exists, get, put, text_of  # noqa: F401 (bucket: a fixture)

pytestmark = pytest.mark.anyio


@pytest.mark.libreoffice
async def test_pdf_export_to_an_object(seaweed, bucket, tmp_path):
    require_soffice()
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_create")).head["Session ID"]
        await c.ok("docx_insert_paragraph", session_id=sid, text="Exported to the bucket", position="end:document_body")
        exported = await c.client.call_tool("docx_export", {"session_id": sid, "file_path": "out/report.pdf"})
    assert not exported.is_error, exported.content[0].text
    links = [(x.uri, x.mime_type) for x in exported.content if x.type == "resource_link"]
    assert links == [(f"s3://{bucket}/team/out/report.pdf", "application/pdf")]
    assert get(seaweed, bucket, "team/out/report.pdf").startswith(b"%PDF-")
    assert not list(tmp_path.glob("**/*.pdf"))


async def test_export_refuses_an_object_it_did_not_write_before_converting(seaweed, bucket, tmp_path):
    put(seaweed, bucket, "team/out/r.odt", b"theirs")
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_create")).head["Session ID"]
        refused = await c.call("docx_export", session_id=sid, file_path="out/r.odt", format="odt")
    assert refused.error_type == "FileChanged", refused.text
    assert get(seaweed, bucket, "team/out/r.odt") == b"theirs"


@pytest.mark.libreoffice
async def test_odt_export_over_an_object_with_overwrite_then_again_as_its_own(seaweed, bucket, tmp_path):
    require_soffice()
    put(seaweed, bucket, "team/out/r.odt", b"theirs")
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_create")).head["Session ID"]
        await c.ok("docx_insert_paragraph", session_id=sid, text="Open format", position="end:document_body")
        first = await c.ok("docx_export", session_id=sid, file_path="out/r.odt", format="odt", overwrite=True)
        again = await c.ok("docx_export", session_id=sid, file_path="out/r.odt", format="odt")  # its own object
    assert first.head["File"] == again.head["File"] == f"s3://{bucket}/team/out/r.odt"
    with zipfile.ZipFile(io.BytesIO(get(seaweed, bucket, "team/out/r.odt"))) as z:
        assert z.read("mimetype") == b"application/vnd.oasis.opendocument.text"
        assert b"Open format" in z.read("content.xml")


async def test_export_to_a_key_outside_the_root_is_refused(seaweed, bucket, tmp_path):
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_create")).head["Session ID"]
        refused = await c.call("docx_export", session_id=sid, file_path=f"s3://{bucket}/elsewhere/r.pdf")
        wrong = await c.call("docx_export", session_id=sid, file_path="out/r.docx")
    assert refused.error_type == "PermissionDenied", refused.text
    assert wrong.error_type == "UnsupportedFileType", wrong.text
    assert not exists(seaweed, bucket, "elsewhere/r.pdf")


async def _two_versions(c) -> None:
    """team/v1.docx ("alpha") and team/v2.docx ("alpha beta") saved in the bucket."""
    for name, text in (("v1.docx", "alpha"), ("v2.docx", "alpha beta")):
        sid = (await c.ok("docx_create", file_path=name)).head["Session ID"]
        await c.ok("docx_insert_paragraph", session_id=sid, text=text, position="end:document_body")
        await c.ok("docx_save", session_id=sid)
        await c.ok("docx_close", session_id=sid)


async def test_compare_of_two_objects(seaweed, bucket, tmp_path):
    async with client_for(seaweed, tmp_path, bucket) as c:
        await _two_versions(c)
        compared = await c.ok("docx_compare", original_path=f"s3://{bucket}/team/v1.docx", revised_path="v2.docx")
        redline = compared.head["Session ID"]
        listed = await c.ok("docx_list_revisions", session_id=redline)
    assert compared.head["Changes"] == "1" and compared.head["Insertions"] == "1", compared.text
    assert "beta" in listed.text


async def test_compare_of_a_session_against_an_object(seaweed, bucket, tmp_path):
    async with client_for(seaweed, tmp_path, bucket) as c:
        await _two_versions(c)
        sid = (await c.ok("docx_open", file_path="v2.docx")).head["Session ID"]
        compared = await c.ok("docx_compare", session_id=sid, original_path="v1.docx")
        outside = await c.call("docx_compare", session_id=sid, original_path=f"s3://{bucket}/elsewhere/v1.docx")
    assert compared.head["Insertions"] == "1", compared.text
    assert outside.error_type == "PermissionDenied", outside.text


def _red_png() -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (20, 10), "red").save(out, "PNG")
    return out.getvalue()


def _media(data: bytes) -> list[bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return [z.read(n) for n in z.namelist() if n.startswith("word/media/")]


async def test_fill_template_takes_a_picture_from_an_object(seaweed, bucket, tmp_path):
    png = _red_png()
    put(seaweed, bucket, "team/pics/red.png", png)
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_create", file_path="form.docx")).head["Session ID"]
        para = (await c.ok("docx_insert_paragraph", session_id=sid, text="Photo: ",
                           position="end:document_body")).element_id
        await c.ok("docx_insert_content_control", session_id=sid, kind="picture", position=f"end:{para}", tag="photo")
        await c.ok("docx_fill_template", session_id=sid, data={"photo": "pics/red.png"})
        await c.ok("docx_save", session_id=sid)
    assert _media(get(seaweed, bucket, "team/form.docx")) == [png]


async def test_markdown_images_from_an_object(seaweed, bucket, tmp_path):
    png = _red_png()
    put(seaweed, bucket, "team/pics/red.png", png)
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_create", file_path="md.docx")).head["Session ID"]
        await c.ok("docx_insert_markdown", session_id=sid, markdown="Chart:\n\n![red](pics/red.png)",
                   position="end:document_body")
        outside = await c.call("docx_insert_markdown", session_id=sid, markdown=f"![x](s3://{bucket}/x/red.png)",
                               position="end:document_body")
        await c.ok("docx_save", session_id=sid)
    assert outside.error_type == "PermissionDenied", outside.text
    assert _media(get(seaweed, bucket, "team/md.docx")) == [png]


@pytest.mark.libreoffice
async def test_an_rtf_object_opens_converted_and_saves_beside_itself(seaweed, bucket, tmp_path):
    require_soffice()
    rtf = b"{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Arial;}}\\f0 Hello from RTF\\par}"
    put(seaweed, bucket, "team/old/letter.rtf", rtf)
    async with client_for(seaweed, tmp_path, bucket) as c:
        opened = await c.ok("docx_open", file_path="old/letter.rtf")
        sid = opened.head["Session ID"]
        await c.ok("docx_insert_paragraph", session_id=sid, text="Converted", position="end:document_body")
        saved = await c.ok("docx_save", session_id=sid)
    assert "saves as letter.docx" in opened.head["Converted"], opened.text
    assert saved.head["File"] == f"s3://{bucket}/team/old/letter.docx"
    assert "Hello from RTF" in text_of(get(seaweed, bucket, "team/old/letter.docx"))
    assert get(seaweed, bucket, "team/old/letter.rtf") == rtf
