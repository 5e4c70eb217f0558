"""The one writer of every file the server writes: saved documents, Markdown exports, recovery
files (and PDFs). Each goes through ``write_file`` with the same rules:

- only the extensions of its kind (``FileKind``): a Markdown export never lands on a .txt or a .docx;
- a target that exists and is not what this writer last read or wrote there: FileChanged,
  unless ``overwrite``; a folder or a special file (FIFO, device, socket): a named error;
- the folder is judged by ``inside(real_folder)`` at write time, through the folder handle the
  file is then created and renamed in (``ooxml.opc.savefile``): a folder swapped for a symlink after
  the path was checked cannot put the file elsewhere;
- atomic rename; permissions of a file written over kept, a new file gets the umask's.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ooxml.opc.filekinds import MAIN_TYPES, UnsupportedFileType
from ooxml.opc.savefile import FileStamp, check_target_name, check_writable, write_atomically


@dataclass(frozen=True)
class FileKind:
    what: str  # for messages: "docx_export_markdown writes only ..."
    extensions: tuple[str, ...]

    def check(self, path: Path) -> None:
        check_target_name(path)
        if path.suffix.lower() not in self.extensions:
            better = path.with_suffix(self.extensions[0]).name
            raise UnsupportedFileType(
                f"'{path.name}' is not a name for {self.what}: only {', '.join(self.extensions)} files are written.",
                hint=f"Write it under a name such as '{better}'.")


DOCUMENT = FileKind("a Word document", tuple(MAIN_TYPES))
MARKDOWN = FileKind("a Markdown export", (".md", ".markdown"))
PDF = FileKind("a PDF", (".pdf",))
ODT = FileKind("an OpenDocument text", (".odt",))
RTF = FileKind("an RTF document", (".rtf",))
HTML = FileKind("an HTML export", (".html", ".htm"))
TEXT = FileKind("a text export", (".txt",))


def write_file(path: Path, write: Callable[[BinaryIO], None], *, kind: FileKind,
               inside: Callable[[Path], None] | None, expected: FileStamp | None = None,
               overwrite: bool = False) -> FileStamp:
    """Write ``path`` (a file of ``kind``) through ``write(file)``; returns its stamp.

    ``inside(real_folder)`` raises if the folder really written in is not allowed (the sandbox);
    None only for the server's own private temporary folders.
    """
    kind.check(path)
    return write_atomically(path, write, expected=expected, overwrite=overwrite, check_dir=inside)


def check_file(path: Path, *, kind: FileKind, expected: FileStamp | None = None, overwrite: bool = False) -> None:
    """What ``write_file`` would refuse at once, judged before a long job rather than after it
    (the write checks everything again)."""
    kind.check(path)
    check_writable(path, expected=expected, overwrite=overwrite)


def write_bytes(path: Path, data: bytes, **rules) -> FileStamp:
    return write_file(path, lambda out: out.write(data), **rules)
