"""The upload area: where ``POST /files`` puts what a remote client sends, one folder per tenant
(``<area>/<tenant>/<random id>/<name>``). The area is the config's ``storage.uploads`` (a folder or
``s3://bucket/prefix`` inside the roots), else ``.uploads`` in the first root. Another tenant's
uploads are not found: ``owner_of`` tells whose a place in the area is."""
from __future__ import annotations

import hashlib
import os
import re
import uuid
from dataclasses import dataclass
from pathlib import Path

from ooxml.opc.outfile import FileKind
from ooxml.xml.errors import ValidationError
from tools.storage.folder import FolderStore
from tools.storage.roots import ObjectLocation, is_object_url, locate
from tools.storage.s3 import store_for
from tools.storage.store import ObjectNotFound

AREA = ".uploads"
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
KINDS = (".docx", ".docm", ".dotx", ".dotm", ".md", ".markdown", ".pdf", ".png", ".jpg", ".jpeg", ".gif")
_SAFE_TENANT = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
_UPLOAD_KIND = FileKind("an upload", KINDS)


@dataclass(frozen=True)
class Area:
    store: object  # a Store (tools/storage/store.py)
    base: str  # the area's key inside the store
    prefix: str  # what a key is shown with: "s3://bucket/" or the folder root + "/"

    def shown(self, key: str) -> str:
        return self.prefix + key


def area_of(roots, section: dict | None) -> Area:
    configured = (section or {}).get("uploads")
    objects = list(getattr(roots, "objects", ()))
    if configured and is_object_url(configured) or not configured and objects and roots.objects_first:
        where = locate(configured or AREA, objects)
        return Area(store_for(where.root.bucket, section), where.key, f"s3://{where.root.bucket}/")
    folder = Path(os.path.realpath(configured or Path(roots[0]) / AREA))
    root = next((Path(os.path.realpath(r)) for r in roots if folder.is_relative_to(os.path.realpath(r))), None)
    if root is None:
        raise ValidationError(f"The upload area {folder} is outside the roots.",
                              hint="Set storage.uploads to a folder inside a --root.")
    return Area(FolderStore(root, _UPLOAD_KIND), folder.relative_to(root).as_posix(), str(root) + os.sep)


def tenant_folder(tenant: str | None) -> str:
    if tenant is None:
        return "anonymous"
    return tenant if _SAFE_TENANT.match(tenant) else "t-" + hashlib.sha256(tenant.encode()).hexdigest()[:16]


def upload_key(area: Area, tenant: str | None, name: str | None) -> str:
    return f"{area.base}/{tenant_folder(tenant)}/{uuid.uuid4().hex}/{checked_name(name)}"


def checked_name(name: str | None) -> str:
    name = (name or "upload.docx").replace("\\", "/").rpartition("/")[2]
    if not name or name in (".", "..") or any(ord(c) < 32 for c in name) or len(name.encode()) > 200:
        raise ValidationError(f"'{name}' is not a file name.", hint="Send a plain name such as report.docx.")
    if not name.lower().endswith(KINDS):
        raise ValidationError(f"'{name}' is not a kind of file the server takes.",
                              hint="Upload " + ", ".join(KINDS) + " files.")
    return name


def owner_of(area: Area, target) -> str | None:
    """The tenant folder a place in the area belongs to; None outside the area."""
    if isinstance(target, ObjectLocation):
        if not isinstance(area.store, FolderStore) and area.prefix == f"s3://{target.root.bucket}/":
            rest = target.key
        else:
            return None
    elif isinstance(area.store, FolderStore):
        real = Path(os.path.realpath(target))
        if not real.is_relative_to(area.store.folder):
            return None
        rest = real.relative_to(area.store.folder).as_posix()
    else:
        return None
    if not rest.startswith(area.base + "/"):
        return None
    return rest[len(area.base) + 1:].partition("/")[0]


def check_owner(roots, section: dict | None, target, tenant: str | None) -> None:
    """FileNotFound for a place in another tenant's uploads (said as missing: its name tells nothing)."""
    try:
        area = area_of(roots, section)
    except ValidationError:
        return  # no upload area inside the roots: nothing there to guard
    owner = owner_of(area, target)
    if owner is not None and owner != tenant_folder(tenant):
        raise ObjectNotFound(f"File '{target}' does not exist.", hint="Check the path.")
