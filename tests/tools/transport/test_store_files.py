"""Files over HTTP for remote clients (tools/transport/files.py): POST /files stores an upload in the
caller's upload area (here a SeaweedFS bucket prefix), GET /files/<path> streams a file back; the
same tokens and tenants as /mcp; byte-exact; tenants isolated; limits enforced; nothing outside the
roots. And the whole remote flow: upload, docx_open, edit, save, download."""
from __future__ import annotations

import hashlib

import httpx2
import obstore
import pytest
import yaml

from ooxml.model.document import Document
from ooxml.text import body as B
from tests.builders import build_docx, p
from tests.support.http_server import http_client, http_server
from tools.config.reload import apply_config_file
from tools.services import Services
from tools.storage.roots import ObjectRoot

pytestmark = pytest.mark.anyio
TOKENS = {"acme": "acme-files-token", "beta": "beta-files-token"}
LIMIT = 256 * 1024
BUCKET = "files-http"
W_P = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}p"


@pytest.fixture(scope="module")
def served(seaweed, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("files")
    seaweed.make_bucket(BUCKET)
    seaweed.make_bucket(BUCKET + "-other")
    config = {"tenants": {t: {"token_env": f"TEST_FILES_{t.upper()}"} for t in TOKENS},
              "storage": {**seaweed.settings(), "uploads": f"s3://{BUCKET}/team/uploads", "max_upload_bytes": LIMIT}}
    path = tmp / "config.yaml"
    path.write_text(yaml.safe_dump(config))
    with pytest.MonkeyPatch.context() as mp:
        for t, token in TOKENS.items():
            mp.setenv(f"TEST_FILES_{t.upper()}", token)
        services = Services(roots=[tmp], objects=[ObjectRoot(BUCKET, "team")])
        apply_config_file(services, path)
    (tmp / "local.docx").write_bytes(build_docx(tmp / "local.docx", p("Local")).read_bytes())
    with http_server(services) as url:
        yield url.removesuffix("/mcp"), tmp


def auth(tenant: str | None) -> dict:
    return {"Authorization": f"Bearer {TOKENS[tenant]}"} if tenant else {}


def upload(base: str, tenant: str | None, data: bytes, name: str = "report.docx", **kw) -> httpx2.Response:
    return httpx2.post(f"{base}/files", params={"name": name}, content=data, headers=auth(tenant), timeout=30, **kw)


def download(base: str, tenant: str | None, path: str) -> httpx2.Response:
    return httpx2.get(f"{base}/files/{path}", headers=auth(tenant), timeout=30)


def document_bytes(tmp_path, text: str = "Uploaded") -> bytes:
    return build_docx(tmp_path / "up.docx", p(text)).read_bytes()


def test_upload_then_download_is_byte_exact(served, tmp_path):
    base, _ = served
    data = document_bytes(tmp_path)
    answer = upload(base, "acme", data)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["bytes"] == len(data) and body["sha256"] == hashlib.sha256(data).hexdigest()
    assert body["path"].startswith(f"s3://{BUCKET}/team/uploads/acme/") and body["path"].endswith("/report.docx")
    got = download(base, "acme", body["path"])
    assert got.status_code == 200, got.text
    assert hashlib.sha256(got.content).hexdigest() == body["sha256"]


def test_multipart_upload_is_byte_exact(served, tmp_path):
    base, _ = served
    data = document_bytes(tmp_path, "Multipart")
    answer = httpx2.post(f"{base}/files", files={"file": ("memo.docx", data)}, headers=auth("beta"), timeout=30)
    assert answer.status_code == 201, answer.text
    assert answer.json()["path"].endswith("/memo.docx")
    assert download(base, "beta", answer.json()["path"]).content == data


def test_another_tenants_upload_is_not_found(served, tmp_path):
    base, _ = served
    path = upload(base, "acme", document_bytes(tmp_path)).json()["path"]
    refused = download(base, "beta", path)
    assert refused.status_code == 404, refused.text
    assert refused.json()["error"]["type"] == "FileNotFound"


@pytest.mark.parametrize("method", ["POST", "GET"])
def test_no_token_is_refused(served, method):
    base, _ = served
    answer = httpx2.request(method, f"{base}/files" + ("" if method == "POST" else "/local.docx"), content=b"x",
                            timeout=30)
    assert answer.status_code == 401


def test_an_upload_over_the_limit_is_refused_and_nothing_is_stored(served, seaweed):
    base, _ = served
    store = seaweed.client(BUCKET)
    before = sum(len(b) for b in obstore.list(store, prefix="team/uploads/acme"))
    declared = upload(base, "acme", b"x" * (LIMIT + 1))
    assert declared.status_code == 413, declared.text

    def chunks():  # no Content-Length: counted as it streams in
        for _ in range(LIMIT // 4096 + 2):
            yield b"y" * 4096
    streamed = httpx2.post(f"{base}/files", params={"name": "big.docx"}, content=chunks(), headers=auth("acme"),
                           timeout=30)
    assert streamed.status_code == 413, streamed.text
    assert sum(len(b) for b in obstore.list(store, prefix="team/uploads/acme")) == before


def test_a_name_of_another_kind_is_refused(served):
    base, _ = served
    answer = upload(base, "acme", b"#!/bin/sh", name="run.sh")
    assert answer.status_code == 400 and "kind of file" in answer.json()["error"]["message"]


@pytest.mark.parametrize("path", ["/etc/passwd", f"s3://{BUCKET}-other/team/x.docx", f"s3://{BUCKET}/elsewhere.docx",
                                  "..%2F..%2Foutside.docx"])
def test_downloads_outside_the_roots_are_refused(served, path):
    base, _ = served
    refused = download(base, "acme", path)
    assert refused.status_code in (403, 404), refused.text
    assert refused.json()["error"]["type"] in ("PermissionDenied", "FileNotFound")


def test_a_folder_file_downloads(served):
    base, tmp = served
    got = download(base, "beta", "local.docx")
    assert got.status_code == 200 and got.content == (tmp / "local.docx").read_bytes()


async def test_remote_client_uploads_edits_saves_and_downloads(served, tmp_path):
    base, _ = served
    path = upload(base, "acme", document_bytes(tmp_path, "Draft")).json()["path"]
    async with http_client(base + "/mcp", "auto", [], token=TOKENS["acme"]) as c:
        sid = (await c.ok("docx_open", file_path=path)).head["Session ID"]
        await c.ok("docx_insert_paragraph", session_id=sid, text="Edited remotely", position="end:document_body")
        saved = await c.client.call_tool("docx_save", {"session_id": sid})
    links = [x for x in saved.content if x.type == "resource_link"]
    assert links and str(links[0].uri) == path
    got = download(base, "acme", path)
    doc = Document.from_bytes(got.content)
    try:
        assert "Edited remotely" in [B.paragraph_text(el) for el in doc.body.iter(W_P)]
    finally:
        doc.close()


async def test_another_tenants_upload_is_not_found_by_docx_open(served, tmp_path):
    base, _ = served
    path = upload(base, "acme", document_bytes(tmp_path)).json()["path"]
    async with http_client(base + "/mcp", "auto", [], token=TOKENS["beta"]) as c:
        refused = await c.call("docx_open", file_path=path)
    assert refused.error_type == "FileNotFound", refused.text


async def test_markdown_is_not_exported_into_another_tenants_upload_area(served, tmp_path):
    base, _ = served
    path = upload(base, "acme", document_bytes(tmp_path)).json()["path"]
    async with http_client(base + "/mcp", "auto", [], token=TOKENS["beta"]) as c:
        await c.ok("docx_create")
        refused = await c.call("docx_export_markdown", file_path=path.rsplit(".", 1)[0] + ".md")
    assert refused.is_error and refused.error_type in ("FileNotFound", "PermissionDenied"), refused.text
