"""Documents on object roots: opened with the object's tag, saved by a conditional put on it
(``If-Match`` the tag read or last written; ``If-None-Match: *`` for an object never seen)."""
from __future__ import annotations

from ooxml.model.document import Document
from ooxml.opc.limits import Limits
from tools.storage.roots import ObjectLocation
from tools.storage.s3 import store_for

TAGS = "storage.tags"  # doc.caches: object URL -> the tag this session read or wrote there last


def store_of(location: ObjectLocation, section: dict | None):
    return store_for(location.root.bucket, section)


def open_document(location: ObjectLocation, limits: Limits, section: dict | None) -> Document:
    """Read limits apply before anything is parsed: the size on the object's head, then while streaming."""
    blob = store_of(location, section).read(location.key, limits.max_file_bytes)
    doc = Document.from_bytes(blob.data, limits)
    doc.caches[TAGS] = {location.url: blob.tag}
    return doc


def save_document(doc: Document, location: ObjectLocation, section: dict | None, *, strip: bool = False,
                  overwrite: bool = False, remember: bool = True) -> int:
    """Store the document at ``location``; FileChanged (nothing written) if the object is not what this
    session read or wrote there last. Returns the bytes written."""
    data = doc.to_bytes(strip)
    tags = doc.caches.setdefault(TAGS, {})
    tag = store_of(location, section).write(location.key, data, expected=tags.get(location.url), overwrite=overwrite)
    if remember:
        tags[location.url] = tag
        doc.modified = False
    return len(data)


def has_been_read(doc: Document, location: ObjectLocation) -> bool:
    return location.url in doc.caches.get(TAGS, {})
