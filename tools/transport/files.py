"""Files over HTTP for remote clients (no shared disk, no base64 through the model), inside the
bearer-token wrapper (tenancy.py): the same authentication and tenant as /mcp.

- ``POST /files`` (raw body, name in ``?name=``; or multipart with one file) stores the upload in the
  caller's upload area (tools/storage/uploads.py) and answers ``{"path", "bytes", "sha256"}``: the
  path docx_open takes. The body is counted as it arrives (past the limit the answer is 413 at once)
  and spooled to an anonymous temporary file, then streamed to the store: never held in memory.
- ``GET /files/<path>`` streams a file of the caller's roots (a path as tools take it: relative,
  absolute, or ``s3://bucket/key``); another tenant's uploads are not found.
Both are audited (events ``file_uploaded``/``file_downloaded``).
"""
from __future__ import annotations

import hashlib
import json
import logging
import tempfile
from urllib.parse import parse_qs

import anyio

from ooxml.opc.package import DEFAULT_LIMITS
from ooxml.xml.errors import OoxmlError
from tools.runtime.sessions.sandbox import object_target, resolve_in_roots
from tools.storage.folder import FolderStore
from tools.storage.s3 import store_for
from tools.storage.uploads import DEFAULT_MAX_BYTES, area_of, check_owner, upload_key

log = logging.getLogger("ooxml_mcp")
PREFIX = "/files"
STATUS = {"ValidationError": 400, "UnsupportedFileType": 415, "PermissionDenied": 404, "FileNotFound": 404,
          "LimitExceeded": 413, "FileChanged": 409, "StoreUnavailable": 503}


class _TooBig(Exception):
    pass


def with_files(app, services):
    async def files_app(scope, receive, send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not (path == PREFIX or path.startswith(PREFIX + "/")):
            return await app(scope, receive, send)
        tenant = scope.get("state", {}).get("tenant")
        try:
            if path == PREFIX and scope["method"] == "POST":
                return await _upload(services, tenant, scope, receive, send)
            if path.startswith(PREFIX + "/") and scope["method"] == "GET":
                return await _download(services, tenant, path[len(PREFIX) + 1:], send)
            await _json(send, 405, _error("MethodNotAllowed", "Use POST /files or GET /files/<path>.", None))
        except OoxmlError as e:
            await _json(send, STATUS.get(e.error_type, 500), _error(e.error_type, e.message, e.hint))
        except _TooBig as e:
            await _json(send, 413, _error("LimitExceeded", str(e), "Send a smaller file; the operator sets "
                                                                   "storage.max_upload_bytes."))
    return files_app


def _section(services) -> dict | None:
    return getattr(services.config, "storage", None)


async def _upload(services, tenant, scope, receive, send) -> None:
    limit = int((_section(services) or {}).get("max_upload_bytes") or DEFAULT_MAX_BYTES)
    declared = _header(scope, b"content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _TooBig(f"The upload is {declared} bytes, over the limit ({limit}).")
    counted = _counting(receive, limit)
    kind = _header(scope, b"content-type") or ""
    name = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("name") or [None])[0]
    with _Spool() as spool:  # the body goes to disk as it arrives: memory stays bounded, whatever the size
        if kind.lower().startswith("multipart/form-data"):
            name = await _multipart(scope, counted, name, spool)
        else:
            await _raw(counted, spool)
        await spool.flush()
        area = await anyio.to_thread.run_sync(area_of, services.roots, _section(services))
        key = upload_key(area, tenant, name)
        await anyio.to_thread.run_sync(area.store.put_new, key, spool.rewound())
    answer = {"path": area.shown(key), "bytes": spool.size, "sha256": spool.sha.hexdigest()}
    _audit(services, "file_uploaded", tenant, answer)
    await _json(send, 201, answer)


class _Spool:
    """An anonymous temporary file (gone when closed, even if the process dies) with the size and
    SHA-256 of what was written; writes are gathered up to ``BATCH`` and done in a worker thread."""
    BATCH = 1 << 20

    def __init__(self):
        self.file = tempfile.TemporaryFile()
        self.sha, self.size, self._held = hashlib.sha256(), 0, bytearray()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.file.close()

    async def write(self, data: bytes) -> None:
        self.sha.update(data)
        self.size += len(data)
        self._held += data
        if len(self._held) >= self.BATCH:
            await self.flush()

    async def flush(self) -> None:
        held, self._held = bytes(self._held), bytearray()
        if held:
            await anyio.to_thread.run_sync(self.file.write, held)

    def rewound(self):
        self.file.flush()
        self.file.seek(0)
        return self.file


def _counting(receive, limit: int):
    seen = 0

    async def counted():
        nonlocal seen
        message = await receive()
        seen += len(message.get("body", b""))
        if seen > limit:
            raise _TooBig(f"The upload is over the limit ({limit} bytes).")
        return message
    return counted


async def _raw(receive, spool: _Spool) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise OoxmlError("The client went away during the upload.", error_type="ValidationError",
                             hint="Send the file again.")
        await spool.write(message.get("body", b""))
        if not message.get("more_body"):
            return


async def _multipart(scope, receive, name: str | None, spool: _Spool) -> str | None:
    """The one file of a form copied into ``spool`` piece by piece (Starlette spools it to disk past
    1 MB); the name it carries unless ``?name=`` gave one."""
    from starlette.requests import Request
    from starlette.datastructures import UploadFile
    async with Request(scope, receive).form(max_files=1, max_fields=8) as form:
        files = [v for v in form.values() if isinstance(v, UploadFile)]
        if len(files) != 1:
            raise OoxmlError("A multipart upload must hold exactly one file.", error_type="ValidationError",
                             hint="Send one file field, e.g. curl -F file=@report.docx.")
        while data := await files[0].read(_Spool.BATCH):
            await spool.write(data)
        return name or files[0].filename


async def _download(services, tenant, raw: str, send) -> None:
    limits = getattr(services.config, "document_limits", None) or DEFAULT_LIMITS
    store, key, size, chunks = await anyio.to_thread.run_sync(_open_for_download, services, tenant, raw,
                                                             limits.max_file_bytes)
    name = key.rpartition("/")[2].replace('"', "")
    await send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", b"application/octet-stream"), (b"content-length", str(size).encode()),
        (b"content-disposition", f'attachment; filename="{name}"'.encode("utf-8", "replace"))]})
    sent = 0
    while (chunk := await anyio.to_thread.run_sync(next, chunks, None)) is not None:
        sent += len(chunk)
        await send({"type": "http.response.body", "body": chunk, "more_body": True})
    await send({"type": "http.response.body", "body": b""})
    _audit(services, "file_downloaded", tenant, {"path": raw, "bytes": sent})


def _open_for_download(services, tenant, raw: str, max_bytes: int):
    roots = services.roots
    target = object_target(raw, roots) or resolve_in_roots(raw, roots, must_exist=True)
    check_owner(roots, _section(services), target, tenant)
    if hasattr(target, "key"):
        store, key = store_for(target.root.bucket, _section(services)), target.key
    else:
        store, key = FolderStore(target.parent), target.name
    size, chunks = store.stream(key, max_bytes)
    return store, key, size, chunks


def _audit(services, kind: str, tenant, details: dict) -> None:
    audit = services.audit
    if audit is not None:
        audit.event(kind, tenant=tenant, **details)
    log.info("%s %s", kind, details.get("path"))


def _header(scope, wanted: bytes) -> str | None:
    for name, value in scope.get("headers", []):
        if name == wanted:
            return value.decode("latin-1")
    return None


def _error(kind: str, message: str, hint: str | None) -> dict:
    return {"error": {"type": kind, "message": message, **({"hint": hint} if hint else {})}}


async def _json(send, status: int, body: dict) -> None:
    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})
