"""Documents on object roots: opened with the object's tag, saved by a conditional put on it
(``If-Match`` the tag read or last written; ``If-None-Match: *`` for an object never seen)."""
from __future__ import annotations

import hashlib

from dataclasses import dataclass

from ooxml.model.document import Document
from ooxml.opc.limits import Limits
from ooxml.opc.savefile import FileChanged
from tools.storage.roots import ObjectLocation
from tools.storage.s3 import store_for


@dataclass(frozen=True)
class ObjectStamp:
    """What an object was when this session read or wrote it, kept in ``package.stamps`` under its
    URL (beside the files' stamps): snapshots carry it, so an adopted session saves conditionally too."""
    tag: str
    size: int
    sha256: str | None = None  # of the bytes read or written (docx_save answers it)


def store_of(location: ObjectLocation, section: dict | None):
    return store_for(location.root.bucket, section)


def open_document(location: ObjectLocation, limits: Limits, section: dict | None) -> Document:
    """Read limits apply before anything is parsed: the size on the object's head, then while streaming."""
    blob = store_of(location, section).read(location.key, limits.max_file_bytes)
    doc = Document.from_bytes(blob.data, limits)
    doc.package.stamps[location.url] = ObjectStamp(blob.tag, len(blob.data), hashlib.sha256(blob.data).hexdigest())
    return doc


def save_document(doc: Document, location: ObjectLocation, section: dict | None, *, strip: bool = False,
                  overwrite: bool = False, remember: bool = True) -> int:
    """Store the document at ``location``; FileChanged (nothing written) if the object is not what this
    session read or wrote there last. Returns the bytes written."""
    data = doc.to_bytes(strip)
    store_bytes(location, data, section, doc.package.stamps if remember else {}, overwrite=overwrite)
    if remember:
        doc.modified = False
    return len(data)


def store_bytes(location: ObjectLocation, data: bytes, section: dict | None, stamps: dict, *,
                overwrite: bool = False) -> None:
    """A conditional put of ``data`` (exports too): against the tag ``stamps`` holds for the object,
    else only if absent; the new tag goes into ``stamps``."""
    known = stamps.get(location.url)
    tag = store_of(location, section).write(location.key, data, expected=known.tag if known else None,
                                            overwrite=overwrite)
    stamps[location.url] = ObjectStamp(tag, len(data), hashlib.sha256(data).hexdigest())


def check_put(location: ObjectLocation, section: dict | None, stamps: dict, *, overwrite: bool = False) -> None:
    """What ``store_bytes`` would refuse for an object this session never wrote, judged before a long
    job (an export) rather than after it (the put is conditional all the same)."""
    if overwrite or location.url in stamps or not store_of(location, section).exists(location.key):
        return
    raise FileChanged(f"'{location.url}' already exists and this session did not write it; nothing was written.",
                      hint="Export under another name, or pass overwrite=true to replace it.")
