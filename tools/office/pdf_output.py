"""The PDF LibreOffice wrote, read and fixed for the answer: its page count, and for reproducible
output its dates and file ID set to fixed values."""
from __future__ import annotations

import io
import re
import struct
import zlib
from pathlib import Path

FIXED_DIGITS = "20000101000000"  # 2000-01-01 00:00:00, the date a reproducible PDF carries
_DATES = re.compile(rb"(/(?:CreationDate|ModDate)\s*\(D:)([^)]*)(\))")
_XMP_DATES = re.compile(rb"(<xmp:(?:CreateDate|ModifyDate|MetadataDate)>)([^<]*)(<)")
ICC_DATE = struct.pack(">6H", 2000, 1, 1, 0, 0, 0)


def page_count(path: Path) -> int:
    import pypdfium2 as pdfium  # here, not at start-up

    from render.pages import PDFIUM

    with PDFIUM:
        pdf = pdfium.PdfDocument(str(path))
        try:
            return len(pdf)
        finally:
            pdf.close()


def _fixed(value: bytes) -> bytes:
    digits = iter(FIXED_DIGITS)
    return bytes(ord(next(digits, "0")) if 48 <= c <= 57 else c for c in value)


def reproducible(data: bytes) -> bytes:
    """``data`` with its dates fixed (info, XMP, ICC profiles: LibreOffice writes its sRGB profile with the
    time of the export) and its /ID derived from its content (qpdf's deterministic ID)."""
    import pikepdf  # here, not at start-up: only reproducible exports need it

    data = _DATES.sub(lambda m: m.group(1) + _fixed(m.group(2)) + m.group(3), data)
    data = _XMP_DATES.sub(lambda m: m.group(1) + _fixed(m.group(2)) + m.group(3), data)
    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream) and "/N" in obj:
                profile = obj.read_bytes()
                if profile[36:40] == b"acsp":  # an ICC profile: its header holds a date at 24-36
                    obj.write(zlib.compress(profile[:24] + ICC_DATE + profile[36:]), filter=pikepdf.Name.FlateDecode)
        for key in ("/DocChecksum", "/ID"):  # LibreOffice's digest of the export and its ID, time-stamped
            if key in pdf.trailer:
                del pdf.trailer[key]
        pdf.save(out, deterministic_id=True, compress_streams=False)
    return out.getvalue()
