"""What a file's bytes are, whatever its name says: a Word 97-2003 file renamed .docx, an .odt renamed
.docx or a .docx renamed .doc gets an error naming what it is and what to do, never a parse error."""
from __future__ import annotations

import io
import zipfile

from ooxml.xml.errors import InvalidDocument

ODT_MIME = b"application/vnd.oasis.opendocument.text"
# kind -> (what it is, the extension docx_open takes it under)
KINDS = {
    "ole2": ("a Word 97-2003 document (OLE2 compound file)", ".doc"),
    "rtf": ("an RTF document", ".rtf"),
    "odt": ("an OpenDocument text", ".odt"),
    "wpd": ("a WordPerfect document", ".wpd"),
    "ooxml": ("a Word document (Open XML package)", ".docx"),
    "pdf": ("a PDF", ".pdf"),
}
# The extensions docx_open converts, and the kinds of bytes each may hold.
CONVERTED = {".doc": {"ole2"}, ".dot": {"ole2"}, ".rtf": {"rtf"}, ".odt": {"odt"}, ".wpd": {"wpd"}}


class MislabelledFile(InvalidDocument):
    error_type = "MislabelledFile"


def kind_of(data: bytes) -> str | None:
    """The kind of file ``data`` is (a key of KINDS), None when none of them."""
    head = data[:8]
    if head == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        return "ole2"
    if head.startswith(b"{\\rtf"):
        return "rtf"
    if head.startswith(b"\xffWPC"):
        return "wpd"
    if head.startswith(b"%PDF"):
        return "pdf"
    if head.startswith(b"PK"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                names = set(z.namelist())
                if "[Content_Types].xml" in names:
                    return "ooxml"
                if "mimetype" in names and z.read("mimetype").strip() == ODT_MIME:
                    return "odt"
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, KeyError):
            return None
    return None


def mislabelled(name: str, data: bytes, expected: set[str]) -> MislabelledFile | None:
    """The error for a file named ``name`` whose bytes are a known kind outside ``expected``."""
    kind = kind_of(data)
    if kind is None or kind in expected:
        return None
    what, ext = KINDS[kind]
    if kind == "pdf":
        hint = "A PDF cannot be opened for editing; open the document it was made from."
    else:
        hint = f"Rename it to '{name.rsplit('.', 1)[0]}{ext}' and open that: docx_open " + \
               ("opens it directly." if kind == "ooxml" else "converts it into a new .docx session.")
    return MislabelledFile(f"'{name}' is named {('.' + name.rsplit('.', 1)[-1]) if '.' in name else 'without an extension'}"
                           f" but is {what}{', not a Word (zip) package' if 'ooxml' in expected else ''}.", hint=hint)
