"""The leak check finds a secret where it hides, or names the place it could not look (issue 29, defect 9):
invisible characters inside the secret, base64 w:binData, an embedded zip whose central directory is
damaged; a Deflate64 or encrypted member is a place that could not be checked, never an InternalError."""
from __future__ import annotations

import base64
import io
import re
import zipfile

import pytest

from tests.builders import build_docx
from tests.support.client import read_part

pytestmark = pytest.mark.anyio
SECRET = "Quillfeather"
INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")


def docx_with(tmp_path, body: str = "", **parts: bytes):
    body = f"<w:p><w:r><w:t>Opening words stay.</w:t></w:r></w:p>{body}"
    return build_docx(tmp_path / "in.docx", body, extra_parts={f"word/embeddings/{k}.bin": v for k, v in parts.items()})


def embedded(member: str = "word/document.xml", text: str = SECRET, method=zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        z.writestr(member, f'<?xml version="1.0"?><doc><t>Client {text} here</t></doc>')
    return buf.getvalue()


def patched(data: bytes, offset_local: int, offset_central: int, value: int) -> bytes:
    """A 16-bit field of the (one) member's local and central headers set to ``value``."""
    out = bytearray(data)
    central = data.index(b"PK\x01\x02")
    out[offset_local:offset_local + 2] = value.to_bytes(2, "little")
    out[central + offset_central:central + offset_central + 2] = value.to_bytes(2, "little")
    return bytes(out)


async def test_invisible_characters_inside_the_secret_do_not_hide_it(docx, tmp_path):
    src = docx_with(tmp_path, "<w:p><w:r><w:t>Client Quill\u200bfeather signed.</w:t></w:r></w:p>"
                              "<w:p><w:r><w:t>Also Quill\u00adfea</w:t></w:r><w:r><w:t>ther here.</w:t></w:r></w:p>"
                              "<w:p><w:r><w:t>Quill</w:t></w:r><w:r><w:softHyphen/></w:r>"
                              "<w:r><w:t>feather</w:t></w:r></w:p>")
    await docx.open(src)
    found = await docx.ok("docx_inspect", find=SECRET)
    assert found.head["Leak Check"].startswith("FAILED")
    a = await docx.ok("docx_redact", text=SECRET)
    assert a.head["Matches"] == "3" and a.head["Leak Check"].startswith("nothing left"), a.text
    await docx.save(tmp_path / "out.docx")
    assert SECRET not in INVISIBLE.sub("", read_part(tmp_path / "out.docx").decode())


async def test_a_secret_in_base64_bin_data_fails_the_leak_check(docx, tmp_path):
    data = base64.b64encode(b"\x89PNG\r\n\x1a\n" + SECRET.encode("utf-16-le")).decode()
    await docx.open(docx_with(tmp_path, f'<w:p><w:r><w:pict><w:binData w:name="wordml://1.png">{data}'
                                        "</w:binData></w:pict></w:r></w:p>"))
    a = await docx.ok("docx_redact", text=SECRET)
    assert a.head["Leak Check"].startswith("FAILED"), a.text
    assert "still there: word/document.xml > w:binData #1 (binary" in a.text


async def test_an_embedded_zip_with_a_damaged_directory_is_read_from_its_local_headers(docx, tmp_path):
    whole = embedded()
    damaged = whole[:whole.index(b"PK\x01\x02") + 10]  # the central directory cut short, its end record gone
    await docx.open(docx_with(tmp_path, oleObject1=damaged))
    a = await docx.ok("docx_redact", text=SECRET)
    assert a.head["Leak Check"].startswith("FAILED"), a.text
    assert "still there: word/embeddings/oleObject1.bin > word/document.xml (read without its zip directory)" in a.text


@pytest.mark.parametrize("call,args", [("docx_redact", {"text": SECRET}), ("docx_inspect", {"find": SECRET})])
@pytest.mark.parametrize("field,value,why", [((8, 10), 9, "Deflate64 compression"), ((6, 8), 1, "encrypted")],
                         ids=["deflate64", "encrypted"])
async def test_a_member_that_cannot_be_read_is_named_as_not_checked(docx, tmp_path, call, args, field, value, why):
    member = patched(embedded("secret.xml", method=zipfile.ZIP_STORED), *field, value)
    await docx.open(docx_with(tmp_path, oleObject1=member))
    a = await docx.ok(call, **args)
    assert f"not checked: word/embeddings/oleObject1.bin > secret.xml ({why}" in a.text, a.text


async def test_an_embedded_zip_with_an_unreadable_member_is_kept_whole_and_named(docx, tmp_path):
    """Rewriting it would drop the member it cannot read: it stays as it came, and the check says so."""
    package = patched(embedded("packed.xml", "other words", zipfile.ZIP_STORED), 8, 10, 9)
    buf = io.BytesIO(package)
    with zipfile.ZipFile(buf, "a", zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", f"<?xml version='1.0'?><doc><t>Client {SECRET}</t></doc>")
    package = buf.getvalue()
    await docx.open(docx_with(tmp_path, oleObject1=package))
    a = await docx.ok("docx_redact", text=SECRET)
    assert "still there: word/embeddings/oleObject1.bin > word/document.xml" in a.text, a.text
    assert "not checked: word/embeddings/oleObject1.bin > packed.xml (Deflate64" in a.text
    await docx.save(tmp_path / "out.docx")
    assert read_part(tmp_path / "out.docx", "word/embeddings/oleObject1.bin") == package
