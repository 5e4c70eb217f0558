"""Packages inside the package (a chart's workbook, an embedded document): read and rewritten member
by member, recursively, within the package's size limits."""
from __future__ import annotations

import io
import zipfile
from typing import Callable, Iterator

from ooxml.xml.errors import LimitExceeded

MAX_DEPTH = 3
ZIP_MAGIC = b"PK\x03\x04"


def is_zip(data: bytes) -> bool:
    return data[:4] == ZIP_MAGIC


def is_xml_name(name: str) -> bool:
    return name.lower().endswith((".xml", ".rels", ".vml"))


def members(data: bytes, max_bytes: int) -> Iterator[tuple[zipfile.ZipInfo, bytes]]:
    """Each member and its bytes; None for a damaged zip (nothing is yielded)."""
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        infos = z.infolist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError):
        return
    total = 0
    for info in infos:
        total += info.file_size
        if total > max_bytes:
            raise LimitExceeded(f"An embedded package unpacks to over {max_bytes:,} bytes.",
                                hint="Remove the embedded object with docx_scrub(categories=['embedded_objects']).")
        try:
            yield info, z.read(info)
        except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError):
            continue


def rewrite(data: bytes, change: Callable[[str, bytes, int], bytes | None], max_bytes: int,
            depth: int = 0) -> bytes | None:
    """The zip with each member ``change(name, bytes, depth)`` returned new bytes for rewritten (others
    kept); None when nothing changed."""
    out, changed = [], False
    for info, body in members(data, max_bytes):
        new = change(info.filename, body, depth)
        if new is not None and new != body:
            changed = True
            body = new
        out.append((info, body))
    if not changed:
        return None
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for info, body in out:
            new_info = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            new_info.compress_type = info.compress_type if info.compress_type in (0, 8) else 8
            new_info.external_attr = info.external_attr
            z.writestr(new_info, body)
    return buf.getvalue()
