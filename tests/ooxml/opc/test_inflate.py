"""ooxml/opc/inflate.py: a deflated member read by ISA-L is what zipfile reads, and a damaged one is
refused as zipfile refused it: the part named, the file left alone (a CRC-32 that does not match,
a stream cut short, a local header naming another member)."""
from __future__ import annotations

import struct
import zipfile

import pytest

from ooxml.opc.package import Package
from ooxml.xml.errors import InvalidDocument
from tests.builders import build_docx, p

MAIN = "word/document.xml"


def docx(tmp_path):
    return build_docx(tmp_path / "a.docx", "".join(p(f"Paragraph {k} of a document read back.") for k in range(300)))


def member_offsets(path, name: str) -> tuple[int, int, int]:
    """(local header offset, data offset, compressed size) of ``name``."""
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(name)
    data = path.read_bytes()
    name_len, extra_len = struct.unpack("<2H", data[info.header_offset + 26:info.header_offset + 30])
    return info.header_offset, info.header_offset + 30 + name_len + extra_len, info.compress_size


def test_every_member_reads_as_zipfile_reads_it(tmp_path):
    path = docx(tmp_path)
    with zipfile.ZipFile(path) as z:
        want = {i.filename: z.read(i) for i in z.infolist()}
    pkg = Package.open(path)
    try:
        assert {name: part.data for name, part in pkg.parts.items()} == want
    finally:
        pkg.close()


def refused(path) -> str:
    pkg = Package.open(path)
    try:
        with pytest.raises(InvalidDocument) as err:
            pkg.part(MAIN).data
    finally:
        pkg.close()
    return str(err.value)


def test_a_wrong_crc_is_refused_naming_the_part(tmp_path):
    path = docx(tmp_path)
    with zipfile.ZipFile(path) as z:
        crc = z.getinfo(MAIN).CRC
    data = path.read_bytes().replace(struct.pack("<L", crc), struct.pack("<L", crc ^ 1))
    path.write_bytes(data)
    message = refused(path)
    assert MAIN in message and "CRC" in message


def test_a_stream_cut_short_is_refused_naming_the_part(tmp_path):
    path = docx(tmp_path)
    _, start, size = member_offsets(path, MAIN)
    data = bytearray(path.read_bytes())
    data[start + size // 2:start + size] = bytes(size - size // 2)  # the second half of the stream zeroed
    path.write_bytes(bytes(data))
    assert MAIN in refused(path)


def test_a_local_header_naming_another_member_is_refused(tmp_path):
    path = docx(tmp_path)
    header, _, _ = member_offsets(path, MAIN)
    data = bytearray(path.read_bytes())
    data[header + 30:header + 30 + len(MAIN)] = b"word/documenX.xml"
    path.write_bytes(bytes(data))
    message = refused(path)
    assert MAIN in message and "differ" in message
