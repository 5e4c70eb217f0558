"""Hostile and broken inputs: each is refused with the right error, naming the problem.

All inputs are built here, in temporary folders. Expected:
- zip bombs (declared sizes, lying headers), oversize files/parts/part counts -> LimitExceeded
  (or InvalidDocument for a header that lies), never inflating more than declared;
- DTDs: XXE, external DTDs, billion laughs -> InvalidDocument naming the DTD, nothing read
  or fetched;
- non-zips, truncated or damaged zips, packages without [Content_Types].xml or a main part
  -> InvalidDocument;
- nesting deeper than 256 and text nodes over 10 MB -> LimitExceeded.
"""
from __future__ import annotations

import os
import socket
import struct
import time
import tracemalloc
import zipfile
import zlib
from pathlib import Path

import pytest

from ooxml.model.document import Document
from ooxml.xml.errors import InvalidDocument, LimitExceeded
from ooxml.opc.package import DEFAULT_LIMITS, Limits

pytestmark = pytest.mark.hostile

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
CONTENT_TYPES = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>"""
ROOT_RELS = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>"""
DECL = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
BODY = f'<w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p><w:sectPr/></w:body></w:document>'
DOCUMENT = DECL + BODY.encode()


def make_docx(path: Path, parts: dict[str, bytes] | None = None, *, drop: tuple[str, ...] = (),
              compression=zipfile.ZIP_DEFLATED) -> Path:
    """A minimal valid .docx, with parts replaced/added by ``parts`` and parts in ``drop`` left out."""
    members = {"[Content_Types].xml": CONTENT_TYPES, "_rels/.rels": ROOT_RELS, "word/document.xml": DOCUMENT}
    members.update(parts or {})
    with zipfile.ZipFile(path, "w", compression) as z:
        for name, data in members.items():
            if name not in drop:
                z.writestr(name, data)
    return path


def document_with(body_xml: str, prolog: bytes = DECL) -> bytes:
    return prolog + f'<w:document xmlns:w="{W}"><w:body>{body_xml}<w:sectPr/></w:body></w:document>'.encode()


def refused(path: Path, error: type, *words: str | tuple[str, ...], limits: Limits = DEFAULT_LIMITS) -> str:
    """Open must raise ``error`` whose message names every one of ``words`` (case-insensitive;
    a tuple means any one of its words)."""
    with pytest.raises((InvalidDocument, LimitExceeded)) as info:
        Document.open(path, limits).close()
    err = info.value
    assert isinstance(err, error), f"expected {error.__name__}, got {type(err).__name__}: {err.message}"
    for word in words:
        options = word if isinstance(word, tuple) else (word,)
        assert any(w.lower() in err.message.lower() for w in options), (
            f"message does not name {' or '.join(map(repr, options))}: {err.message}")
    return err.message


# ---- control ----------------------------------------------------------------------------------

def test_minimal_docx_opens_and_saves(tmp_path):
    """The generator makes valid packages: the hostile variants fail for their own reason."""
    src = make_docx(tmp_path / "ok.docx")
    doc = Document.open(src)
    try:
        assert doc.body is not None
        doc.save(tmp_path / "saved.docx")
    finally:
        doc.close()
    with zipfile.ZipFile(tmp_path / "saved.docx") as z:
        assert z.testzip() is None


# ---- zip bombs and size limits -----------------------------------------------------------------

def _bomb_xml(size: int) -> bytes:
    """Well-formed XML of ``size`` bytes that compresses ~1000x (a comment full of spaces)."""
    head, tail = DECL + b"<!--", b"-->" + BODY.encode()
    return head + b" " * (size - len(head) - len(tail)) + tail


def test_zip_bomb_declared_in_header_default_limits(tmp_path):
    """A main part that inflates 11 MB from ~11 KB: over max_ratio above ratio_floor."""
    size = DEFAULT_LIMITS.ratio_floor + 1024 * 1024
    path = make_docx(tmp_path / "bomb.docx", {"word/document.xml": _bomb_xml(size)})
    info = zipfile.ZipFile(path).getinfo("word/document.xml")
    assert info.file_size > DEFAULT_LIMITS.max_ratio * info.compress_size  # it is a bomb
    t0 = time.monotonic()
    refused(path, LimitExceeded, "ratio", "word/document.xml")
    assert time.monotonic() - t0 < 2, "the bomb must be refused from its header, before inflating"


def test_zip_bomb_in_any_part(tmp_path):
    """A bomb in a part nobody reads (media) is refused too: the check covers every member."""
    path = make_docx(tmp_path / "media-bomb.docx", {"word/media/image1.png": b"\0" * (4 * 1024 * 1024)})
    refused(path, LimitExceeded, "ratio", "word/media/image1.png",
            limits=Limits(ratio_floor=1024 * 1024, max_ratio=100))


def test_zip_bomb_small_limits(tmp_path):
    path = make_docx(tmp_path / "bomb.docx", {"word/document.xml": _bomb_xml(300_000)})
    refused(path, LimitExceeded, "ratio", limits=Limits(ratio_floor=100_000, max_ratio=50))


def _patch_member(path: Path, name: str, *, file_size: int, crc: int | None = None) -> None:
    """Rewrite a member's uncompressed size (and CRC) in its local header and the central directory."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(name)
    lh = info.header_offset
    assert data[lh:lh + 4] == b"PK\x03\x04"
    struct.pack_into("<I", data, lh + 22, file_size)
    if crc is not None:
        struct.pack_into("<I", data, lh + 14, crc)
    eocd = data.rfind(b"PK\x05\x06")
    pos = struct.unpack_from("<I", data, eocd + 16)[0]
    while data[pos:pos + 4] == b"PK\x01\x02":
        n, m, k = struct.unpack_from("<HHH", data, pos + 28)
        if data[pos + 46:pos + 46 + n].decode() == name:
            struct.pack_into("<I", data, pos + 24, file_size)
            if crc is not None:
                struct.pack_into("<I", data, pos + 16, crc)
            break
        pos += 46 + n + m + k
    else:
        raise AssertionError(f"{name} not in the central directory")
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("crc", ["original", "matching-prefix"])
def test_zip_bomb_with_lying_header(tmp_path, crc):
    """The header says 4 KB; the data inflates to 64 MB. The product must not inflate it:
    it reads at most the declared size + 1 byte, then refuses the part."""
    declared = 4096
    payload = _bomb_xml(64 * 1024 * 1024)
    path = make_docx(tmp_path / "liar.docx", {"word/document.xml": payload})
    _patch_member(path, "word/document.xml", file_size=declared,
                  crc=zlib.crc32(payload[:declared]) if crc == "matching-prefix" else None)
    del payload
    tracemalloc.start()
    t0 = time.monotonic()
    try:
        with pytest.raises((InvalidDocument, LimitExceeded)) as info:
            Document.open(path).close()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    elapsed = time.monotonic() - t0
    assert peak < 20 * 1024 * 1024, f"opening allocated {peak / 1e6:.0f} MB: the bomb was inflated"
    assert elapsed < 5, f"opening took {elapsed:.1f}s"
    message = info.value.message.lower()
    assert "word/document.xml" in message
    assert any(w in message for w in ("damaged", "truncated", "declared size", "well-formed")), message


def test_file_size_limit(tmp_path):
    path = make_docx(tmp_path / "big.docx")
    refused(path, LimitExceeded, "file size limit", limits=Limits(max_file_bytes=100))


def test_part_size_limit(tmp_path):
    path = make_docx(tmp_path / "part.docx", {"word/media/a.bin": os.urandom(50_000)})
    refused(path, LimitExceeded, "word/media/a.bin", "uncompressed part size limit",
            limits=Limits(max_part_uncompressed=10_000))


def test_total_size_limit(tmp_path):
    parts = {f"word/media/{i}.bin": os.urandom(20_000) for i in range(5)}
    path = make_docx(tmp_path / "total.docx", parts)
    refused(path, LimitExceeded, "total uncompressed size limit",
            limits=Limits(max_total_uncompressed=60_000, max_part_uncompressed=30_000))


def test_part_count_limit(tmp_path):
    parts = {f"customXml/item{i}.xml": b"<a/>" for i in range(30)}
    path = make_docx(tmp_path / "many.docx", parts)
    refused(path, LimitExceeded, "part count limit", limits=Limits(max_parts=20))


# ---- DTDs and entities ---------------------------------------------------------------------------

@pytest.fixture
def secret(tmp_path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text("TOP-SECRET-MARKER-4711")
    return path


@pytest.fixture
def listener():
    """A local TCP port that records whether anything connected (nothing may be fetched)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(5)
    sock.setblocking(False)
    port = sock.getsockname()[1]

    def connected() -> bool:
        try:
            conn, _ = sock.accept()
        except BlockingIOError:
            return False
        conn.close()
        return True

    yield port, connected
    sock.close()


def _xxe_document(secret: Path, padding: int = 0) -> bytes:
    pad = ("<!--" + " " * padding + "-->\n") if padding else ""
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n{pad}'
            f'<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "{secret.as_uri()}">]>\n'
            f'<w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>'
            ).encode()


@pytest.mark.parametrize("padding", [0, 8000], ids=["doctype-first", "doctype-after-8kb-comment"])
def test_xxe_local_file(tmp_path, secret, padding):
    path = make_docx(tmp_path / "xxe.docx", {"word/document.xml": _xxe_document(secret, padding)})
    message = refused(path, InvalidDocument, "DTD", "word/document.xml")
    assert "TOP-SECRET" not in message


def test_xxe_utf16(tmp_path, secret):
    """The same XXE encoded as UTF-16: a byte search for '<!DOCTYPE' does not see it."""
    xml = _xxe_document(secret).decode().replace('encoding="UTF-8"', 'encoding="UTF-16"')
    path = make_docx(tmp_path / "xxe16.docx", {"word/document.xml": xml.encode("utf-16")})
    message = refused(path, InvalidDocument, "DTD")
    assert "TOP-SECRET" not in message


@pytest.mark.parametrize("padding", [0, 8000], ids=["doctype-first", "doctype-after-8kb-comment"])
def test_external_dtd_is_not_fetched(tmp_path, listener, padding):
    port, connected = listener
    pad = ("<!--" + " " * padding + "-->\n") if padding else ""
    xml = (f'<?xml version="1.0" encoding="UTF-8"?>\n{pad}'
           f'<!DOCTYPE w:document SYSTEM "http://127.0.0.1:{port}/evil.dtd">\n'
           f'<w:document xmlns:w="{W}"><w:body><w:p/></w:body></w:document>').encode()
    path = make_docx(tmp_path / "dtd.docx", {"word/document.xml": xml})
    refused(path, InvalidDocument, "DTD")
    assert not connected(), "the parser fetched the external DTD"


@pytest.mark.parametrize("padding", [0, 8000], ids=["doctype-first", "doctype-after-8kb-comment"])
def test_billion_laughs(tmp_path, padding):
    entities = ['<!ENTITY lol "lol">'] + [f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'
                                          for i in range(1, 10)]
    pad = ("<!--" + " " * padding + "-->\n") if padding else ""
    xml = (f'<?xml version="1.0" encoding="UTF-8"?>\n{pad}<!DOCTYPE w:document [{"".join(entities)}]>\n'
           f'<w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>'
           ).encode()
    path = make_docx(tmp_path / "lol.docx", {"word/document.xml": xml})
    t0 = time.monotonic()
    # Past the first 4 KB the product's DTD sniffing does not look; libxml2's own entity
    # amplification guard refuses it then ("Maximum entity amplification factor exceeded").
    refused(path, InvalidDocument, ("DTD", "entity"))
    assert time.monotonic() - t0 < 2


def test_xxe_in_package_relationships(tmp_path, secret):
    rels = ROOT_RELS.replace(b"<Relationships", b'<!DOCTYPE r [<!ENTITY x SYSTEM "' + secret.as_uri().encode()
                             + b'">]>\n<Relationships', 1)
    path = make_docx(tmp_path / "rels.docx", {"_rels/.rels": rels})
    refused(path, InvalidDocument, "DTD", "_rels/.rels")


def test_xxe_in_content_types_when_read(tmp_path, secret):
    """[Content_Types].xml is parsed on first use, not at open: then it is refused."""
    ct = CONTENT_TYPES.replace(b"<Types", b'<!DOCTYPE t [<!ENTITY x SYSTEM "' + secret.as_uri().encode()
                               + b'">]>\n<Types', 1)
    path = make_docx(tmp_path / "ct.docx", {"[Content_Types].xml": ct})
    try:
        doc = Document.open(path)
    except InvalidDocument as e:
        assert "DTD" in e.message
        return
    try:
        with pytest.raises(InvalidDocument, match="DTD"):
            doc.package.content_type_of("word/document.xml")
    finally:
        doc.close()


# ---- not a package, damaged packages ------------------------------------------------------------

@pytest.mark.parametrize("content", [b"", b"Hello, I am a text file.\n", os.urandom(4096),
                                     b"%PDF-1.7\n" + b"0" * 1000],
                         ids=["empty", "text", "random", "pdf"])
def test_not_a_zip(tmp_path, content):
    path = tmp_path / "not.docx"
    path.write_bytes(content)
    refused(path, InvalidDocument, "zip")


@pytest.mark.parametrize("keep", [0.5, 0.9, -10], ids=["half", "90%", "minus-10-bytes"])
def test_truncated(tmp_path, keep):
    src = make_docx(tmp_path / "ok.docx", {"word/media/pad.bin": os.urandom(20_000)})
    data = src.read_bytes()
    cut = int(len(data) * keep) if keep > 0 else len(data) + keep
    path = tmp_path / "truncated.docx"
    path.write_bytes(data[:cut])
    refused(path, InvalidDocument, "truncated")


def test_damaged_main_part_data(tmp_path):
    """The central directory is intact but the main part's compressed bytes are garbage."""
    path = make_docx(tmp_path / "damaged.docx", {"word/document.xml": document_with("<w:p/>" * 2000)})
    with zipfile.ZipFile(path) as z:
        info = z.getinfo("word/document.xml")
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for i in range(start + 10, start + min(info.compress_size, 200)):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))
    refused(path, InvalidDocument, "word/document.xml")


def test_no_content_types(tmp_path):
    path = make_docx(tmp_path / "noct.docx", drop=("[Content_Types].xml",))
    refused(path, InvalidDocument, "[Content_Types].xml")


def test_no_package_relationships(tmp_path):
    path = make_docx(tmp_path / "norels.docx", drop=("_rels/.rels",))
    refused(path, InvalidDocument, "main document part")


def test_no_main_part_relationship(tmp_path):
    rels = ROOT_RELS.replace(b"relationships/officeDocument", b"relationships/extended-properties")
    path = make_docx(tmp_path / "norel.docx", {"_rels/.rels": rels})
    refused(path, InvalidDocument, "main document part")


def test_main_part_missing(tmp_path):
    path = make_docx(tmp_path / "nomain.docx", drop=("word/document.xml",))
    refused(path, InvalidDocument, "word/document.xml", "missing")


def test_main_part_not_wordprocessingml(tmp_path):
    path = make_docx(tmp_path / "notw.docx", {"word/document.xml": DECL + b"<html><body/></html>"})
    refused(path, InvalidDocument, "not a WordprocessingML document")


def test_main_part_without_body(tmp_path):
    path = make_docx(tmp_path / "nobody.docx", {"word/document.xml": DECL + f'<w:document xmlns:w="{W}"/>'.encode()})
    refused(path, InvalidDocument, "w:body")


def test_main_part_not_well_formed(tmp_path):
    path = make_docx(tmp_path / "bad.docx", {"word/document.xml": document_with("<w:p><w:r></w:p>")})
    refused(path, InvalidDocument, "well-formed", "word/document.xml")


def test_part_name_escaping_the_package(tmp_path):
    path = make_docx(tmp_path / "escape.docx", {"../evil.xml": b"<a/>"})
    refused(path, InvalidDocument, "escapes")


# ---- parser limits ------------------------------------------------------------------------------------

@pytest.mark.parametrize("depth", [300, 5000])
def test_nesting_depth(tmp_path, depth):
    body = "<w:sdt><w:sdtContent>" * (depth // 2) + "</w:sdtContent></w:sdt>" * (depth // 2)
    path = make_docx(tmp_path / "deep.docx", {"word/document.xml": document_with(body)})
    refused(path, LimitExceeded, "nesting depth limit", "256")


def test_nesting_within_limit_is_fine(tmp_path):
    body = "<w:sdt><w:sdtContent>" * 100 + "<w:p/>" + "</w:sdtContent></w:sdt>" * 100
    path = make_docx(tmp_path / "deep-ok.docx", {"word/document.xml": document_with(body)})
    Document.open(path).close()


def test_huge_text_node(tmp_path):
    """One text node over libxml2's 10 MB limit (stored, so no ratio limit trips first)."""
    text = os.urandom(11 * 1024 * 1024 // 2).hex()[: 11 * 1024 * 1024]
    xml = document_with(f"<w:p><w:r><w:t>{text}</w:t></w:r></w:p>")
    path = make_docx(tmp_path / "huge.docx", {"word/document.xml": xml}, compression=zipfile.ZIP_STORED)
    refused(path, LimitExceeded, "10 MB")
