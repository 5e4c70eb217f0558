"""Which file names a document may be saved under: the extension must match the main part.

Word refuses a file whose extension disagrees with its main part's content type (a macro-free
document named .docm, a document named .dotx), so a save never writes one: the four Word
extensions are the only ones written, and each only for its own kind of document. A save does
not convert between kinds (it would have to drop macros or change what the file is).
"""
from __future__ import annotations

from pathlib import Path

from ooxml.opc.types import CT
from ooxml.xml.errors import OoxmlError

MAIN_TYPES = {
    ".docx": CT.DOCUMENT_MAIN,
    ".docm": CT.MACRO_DOCUMENT_MAIN,
    ".dotx": CT.TEMPLATE_MAIN,
    ".dotm": CT.MACRO_TEMPLATE_MAIN,
}
KIND_NAMES = {".docx": "a Word document", ".docm": "a macro-enabled Word document",
              ".dotx": "a Word template", ".dotm": "a macro-enabled Word template"}


class UnsupportedFileType(OoxmlError):
    error_type = "UnsupportedFileType"


def extension_for(main_content_type: str | None) -> str | None:
    """The extension a document with this main part content type is saved under (None: unknown)."""
    for ext, ctype in MAIN_TYPES.items():
        if main_content_type and main_content_type.lower() == ctype.lower():
            return ext
    return None


def check_save_name(path: Path, main_content_type: str | None) -> None:
    """Refuse a name that is not a Word file, or names another kind of Word file than this one."""
    ext = path.suffix.lower()
    own = extension_for(main_content_type)
    if ext not in MAIN_TYPES:
        better = path.with_suffix(own or ".docx").name
        raise UnsupportedFileType(
            f"'{path.name}' is not a Word file name: docx_save writes only .docx, .docm, .dotx and .dotm files.",
            hint=f"Save under a name such as '{better}'.")
    if own is not None and own != ext:
        raise UnsupportedFileType(
            f"'{path.name}' names {KIND_NAMES[ext]} ({ext}), but this document is {KIND_NAMES[own]} ({own}); "
            "Word refuses a file whose extension does not match its content, and a save does not convert.",
            hint=f"Save it as '{path.with_suffix(own).name}'.")
