"""docx_open of .doc, .dot, .rtf, .odt and .wpd files: LibreOffice converts them into a new .docx
session; the session saves beside the original (same name, .docx), never over it."""
from __future__ import annotations

import tempfile
from pathlib import Path, PurePosixPath

from ooxml.model.document import Document
from ooxml.xml.errors import LimitExceeded
from ooxml.opc.savefile import read_stamped
from ooxml.opc.sniff import CONVERTED, mislabelled
from tools.office.service import Job, convert_in_budget
from tools.runtime.call.progress import heartbeats

TO_DOCX = Job(ext="docx", filter="MS Word 2007 XML", data={}, neutralise=False)
# What a conversion may lose, per source extension (said in the answer's head).
MAY_LOSE = {
    ".doc": "macros, ActiveX controls and some legacy fields or drawing objects",
    ".dot": "macros, ActiveX controls and some legacy fields or drawing objects",
    ".rtf": "RTF-only formatting and embedded objects",
    ".odt": "OpenDocument features Word lacks (some fields, shapes and styles)",
    ".wpd": "WordPerfect codes Word lacks; layout may shift",
}


def converts(path) -> bool:  # a Path or an ObjectLocation
    return path.suffix.lower() in CONVERTED


def converted_document(ctx, path: Path, limits) -> tuple[Document, str]:
    """(the document LibreOffice made of ``path``, the head's note). The source is only read."""
    data, _ = read_stamped(path, limits.max_file_bytes)
    beside = path.with_suffix(".docx")
    return converted(ctx, path.name, data, limits), note(path.suffix.lower(), beside.name, beside.exists())


def converted_object(ctx, location, limits, section) -> tuple[Document, object, str]:
    """(the document made of the object at ``location``, the .docx object beside it it saves to, the note)."""
    from tools.storage.documents import store_of
    store = store_of(location, section)
    data = store.read(location.key, limits.max_file_bytes).data
    beside = location.sibling(location.name[:-len(location.suffix)] + ".docx")
    doc = converted(ctx, location.name, data, limits)
    return doc, beside, note(location.suffix.lower(), beside.name, store.exists(beside.key))


def converted(ctx, name: str, data: bytes, limits) -> Document:
    """The document LibreOffice makes of ``data`` (a file's or an object's bytes, ``name`` its name)."""
    ext = PurePosixPath(name).suffix.lower()
    if len(data) > limits.max_file_bytes:
        raise LimitExceeded(f"File is over the file size limit ({limits.max_file_bytes}).",
                            hint="Open a smaller file; the operator sets limits.max_file_bytes.")
    wrong = mislabelled(name, data, CONVERTED[ext])
    if wrong is not None:
        raise wrong
    with tempfile.TemporaryDirectory(prefix="ooxml-mcp-import-") as tmp:
        src, out = Path(tmp) / f"source{ext}", Path(tmp) / "source.docx"
        src.write_bytes(data)  # LibreOffice reads a private copy, never the user's file
        with heartbeats(ctx, 0, 1, f"LibreOffice is converting {name}"):
            convert_in_budget(ctx.services.office, src, out, TO_DOCX)
        return Document.from_bytes(out.read_bytes(), limits)


def note(ext: str, beside: str, exists: bool) -> str:
    return f"from {ext} by LibreOffice; may be lost: {MAY_LOSE[ext]}; saves as {beside}" + \
        (" (it exists: save with overwrite=true or another file_path)" if exists else "")
