"""What the document tools need of object roots (docx_open / docx_create / docx_save, exports, images): the
same answers as on folders; the object's tag taken at open makes every save a conditional put."""
from __future__ import annotations

from pathlib import PurePosixPath

from ooxml.opc.filekinds import check_save_name
from ooxml.opc.package import DEFAULT_LIMITS
from tools.storage.documents import open_document, save_document
from tools.storage.roots import ObjectLocation
from tools.storage.uploads import check_owner


def storage_section(ctx) -> dict | None:
    return getattr(ctx.services.config, "storage", None)


def open_object(ctx, location: ObjectLocation):
    limits = getattr(ctx.services.config, "document_limits", None) or DEFAULT_LIMITS
    return open_document(location, limits, storage_section(ctx))


def check_name(location: ObjectLocation, doc) -> None:
    check_save_name(PurePosixPath(location.name), doc.package.content_type_of(doc.main_name))


def save_object(ctx, doc, location: ObjectLocation, *, strip: bool, overwrite: bool) -> int:
    check_name(location, doc)
    return save_document(doc, location, storage_section(ctx), strip=strip, overwrite=overwrite)


def check_tenant(ctx, target) -> None:
    """Another tenant's uploads are not found by tools either (tools/storage/uploads.py)."""
    check_owner(ctx.services.roots, storage_section(ctx), target, ctx.caller.tenant)


def open_url(ctx, url: str):
    """A document fetched from an allowed https:// host (tools/storage/fetch.py); its session has no path."""
    from ooxml.model.document import Document
    from tools.storage.fetch import FetchPolicy, fetch
    limits = getattr(ctx.services.config, "document_limits", None) or DEFAULT_LIMITS
    data = fetch(url, FetchPolicy.of(getattr(ctx.services.config, "fetch", None)), limits.max_file_bytes)
    return Document.from_bytes(data, limits)
