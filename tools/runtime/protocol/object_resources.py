"""resources/read of an ``s3://`` link (what docx_save and docx_export_markdown answer on an object
root): the object's bytes as a blob, for clients that read resources. The sandbox and the tenants'
uploads hold as for tools; the read limit holds before the bytes are fetched."""
from __future__ import annotations

import base64

import anyio
import mcp_types as types
from mcp.shared.exceptions import MCPError

from ooxml.opc.limits import DEFAULT_LIMITS  # not package.py: no lxml at start-up
from ooxml.opc.types import CT
from ooxml.xml.errors import OoxmlError
from tools.runtime.sessions.sandbox import object_target
from tools.storage.s3 import store_for
from tools.storage.uploads import check_owner

RESOURCE_NOT_FOUND = -32002
MIME = {".docx": CT.DOCX, ".md": "text/markdown"}


async def read(services, tenant: str | None, uri: str) -> types.ReadResourceResult:
    try:
        data = await anyio.to_thread.run_sync(_read, services, tenant, uri)
    except OoxmlError as e:
        raise MCPError(RESOURCE_NOT_FOUND, f"{e.message} ({uri[:200]})", {"hint": e.hint} if e.hint else None) \
            from None
    mime = MIME.get("." + uri.rpartition(".")[2].lower(), "application/octet-stream")
    return types.ReadResourceResult(contents=[types.BlobResourceContents(
        uri=uri, mime_type=mime, blob=base64.b64encode(data).decode("ascii"))])


def _read(services, tenant: str | None, uri: str) -> bytes:
    where = object_target(uri, services.roots)
    section = getattr(services.config, "storage", None)
    check_owner(services.roots, section, where, tenant)
    limits = getattr(services.config, "document_limits", None) or DEFAULT_LIMITS
    return store_for(where.root.bucket, section).read(where.key, limits.max_file_bytes).data
