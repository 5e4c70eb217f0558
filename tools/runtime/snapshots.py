"""A document session as bytes: the document WITH our IDs, plus the session's own state.

Session state is every field of ``Session`` except the live objects (document, lock, timers),
so fields that other features add (tracking mode, history bounds) travel too when they hold
plain data (str, numbers, bool, None, Path, lists, dicts, dataclasses of those). A field that
cannot be encoded is left out and logged: the restored session keeps its default.
"""
from __future__ import annotations

import dataclasses
import importlib
import io
import json
import logging
import struct
from pathlib import Path

from ooxml.document import Document
from ooxml.package import DEFAULT_LIMITS, Package
from tools.runtime.sessions import Session

log = logging.getLogger("ooxml_mcp")
MAGIC = b"OXMSNAP1"
LIVE_FIELDS = {"id", "doc", "lock", "last_used", "ended"}


class _Unencodable(Exception):
    pass


def _encode(value):
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, Path):
        return {"__path__": str(value)}
    if isinstance(value, tuple):
        return {"__tuple__": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"__dict__": {k: _encode(v) for k, v in value.items()}}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        return {"__dc__": f"{cls.__module__}:{cls.__qualname__}",
                "f": {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    raise _Unencodable(type(value).__name__)


def _decode(value):
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "__path__" in value:
        return Path(value["__path__"])
    if "__tuple__" in value:
        return tuple(_decode(v) for v in value["__tuple__"])
    if "__dict__" in value:
        return {k: _decode(v) for k, v in value["__dict__"].items()}
    module, _, name = value["__dc__"].partition(":")
    if not (module.startswith("ooxml.") or module.startswith("tools.")):
        raise ValueError(f"snapshot names a class outside the project: {module}")
    cls = importlib.import_module(module)
    for part in name.split("."):
        cls = getattr(cls, part)
    return cls(**{k: _decode(v) for k, v in value["f"].items()})


def document_bytes(doc: Document) -> bytes:
    """The package as it is in memory, IDs included, without touching any file or flag."""
    out = io.BytesIO()
    doc.package.verify()
    doc.package._write_zip(out, None)
    return out.getvalue()


def encode(session: Session, head: str) -> bytes:
    fields = {}
    for f in dataclasses.fields(Session):
        if f.name in LIVE_FIELDS:
            continue
        try:
            fields[f.name] = _encode(getattr(session, f.name))
        except _Unencodable as e:
            log.warning("snapshot of %s leaves out the field %s (%s)", session.id, f.name, e)
    pkg = session.doc.package
    header = {"head": head, "id": session.id, "fields": fields, "modified": session.doc.modified,
              "package_path": str(pkg.path) if pkg.path else None,
              "stamps": {k: _encode(v) for k, v in pkg.stamps.items()},
              "tracking": getattr(session.doc.tracker, "author", None)}  # tracked changes on: by whom
    raw = json.dumps(header, separators=(",", ":")).encode()
    return MAGIC + struct.pack(">I", len(raw)) + raw + document_bytes(session.doc)


def _header(blob: bytes) -> tuple[dict, int]:
    if not blob.startswith(MAGIC):
        raise ValueError("not a session snapshot")
    (n,) = struct.unpack(">I", blob[len(MAGIC):len(MAGIC) + 4])
    start = len(MAGIC) + 4
    return json.loads(blob[start:start + n]), start + n


def snapshot_head(blob: bytes) -> str:
    return _header(blob)[0]["head"]


def decode(blob: bytes, limits=DEFAULT_LIMITS) -> Session:
    header, at = _header(blob)
    path = Path(header["package_path"]) if header["package_path"] else None
    doc = Document._checked(Package.from_bytes(blob[at:], path, limits))
    doc.modified = header["modified"]
    doc.package.stamps.update({k: _decode(v) for k, v in header["stamps"].items()})
    if header.get("tracking") is not None:
        from ooxml.revisions import Tracker
        doc.tracker = Tracker(header["tracking"])
    fields = {k: _decode(v) for k, v in header["fields"].items()}
    known = {f.name for f in dataclasses.fields(Session)}
    return Session(id=header["id"], doc=doc, **{k: v for k, v in fields.items() if k in known})
