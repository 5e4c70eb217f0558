"""The package LibreOffice is given (page images, TOC page numbers): a throwaway copy rewritten in place.

Two things differ from the user's document: every external reference is cut (external_refs.py),
and comment anchors are dropped. LibreOffice built without its UI files (Debian's
libreoffice-*-nogui) aborts ("Binary URP bridge disposed") when a document loaded over UNO has a
comment: its comment sidebar window needs a .ui file that is not installed. A PDF export draws no
comment anyway, so the pages are the same.
"""
from __future__ import annotations

import os
import zipfile
from pathlib import Path

from ooxml.opc import external_refs
from ooxml.xml.errors import OoxmlError
from ooxml.xml.namespaces import STRICT_W, W
from ooxml.xml.safexml import parse_part, serialize

_ANCHORS = ("commentRangeStart", "commentRangeEnd", "commentReference")


def prepare(path: Path) -> None:
    """Rewrite the package at ``path`` (a temporary copy) as LibreOffice may see it."""
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
        parts = {i.filename: z.read(i) for i in infos}
    new = external_refs.cut(parts)
    for name, data in new.items():
        if b"comment" in data and name.endswith(".xml") and name.startswith("word/"):
            new[name] = _without_comment_anchors(name, data)
    if all(new[n] is parts[n] for n in parts):
        return
    tmp = path.with_name(path.name + ".cut")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for info in infos:
            z.writestr(info, new[info.filename])
    os.replace(tmp, path)


def _without_comment_anchors(name: str, data: bytes) -> bytes:
    try:
        tree = parse_part(data, name)
    except OoxmlError:
        return data
    found = [el for ns in (W, STRICT_W) for el in tree.getroot().iter(*(f"{{{ns}}}{t}" for t in _ANCHORS))]
    for el in found:
        el.getparent().remove(el)
    return serialize(tree) if found else data
