"""Folders as a Store: today's files, through the one reader (``savefile.read_stamped``) and the one
writer (``outfile``). A tag is ``size:sha256`` of what was read or written, so a write refused as
FileChanged is the same lost-update check as a save's."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from ooxml.opc.outfile import FileKind, write_bytes, write_file
from ooxml.opc.savefile import FileStamp, read_stamped
from tools.storage.store import Blob, ObjectNotFound, too_big

ANY_FILE = FileKind("a stored file", (".docx", ".docm", ".dotx", ".dotm", ".md", ".markdown", ".pdf", ".bin"))


def tag_of(stamp: FileStamp) -> str:
    return f"{stamp.size}:{stamp.sha256}"


def stamp_of(tag: str) -> FileStamp:
    size, _, sha = tag.partition(":")
    return FileStamp(int(size), 0, sha)


class FolderStore:
    def __init__(self, folder: Path, kind: FileKind = ANY_FILE):
        self.folder = Path(folder)
        self.kind = kind

    def _path(self, key: str) -> Path:
        return self.folder.joinpath(*key.split("/"))

    def read(self, key: str, max_bytes: int) -> Blob:
        path = self._path(key)
        try:
            size = path.stat().st_size
            if size > max_bytes:
                raise too_big(key, size, max_bytes)
            data, stamp = read_stamped(path, max_bytes)
        except FileNotFoundError:
            raise ObjectNotFound(f"'{key}' does not exist.", hint="Check the name.") from None
        if len(data) > max_bytes:
            raise too_big(key, len(data), max_bytes)
        return Blob(data, tag_of(stamp))

    def stream(self, key: str, max_bytes: int, chunk: int = 1 << 20):
        """(size, chunks) without holding the file: for downloads."""
        path = self._path(key)
        try:
            f = open(path, "rb")
        except (FileNotFoundError, IsADirectoryError):
            raise ObjectNotFound(f"'{key}' does not exist.", hint="Check the name.") from None
        size = os.fstat(f.fileno()).st_size
        if size > max_bytes:
            f.close()
            raise too_big(key, size, max_bytes)

        def chunks():
            with f:
                while data := f.read(chunk):
                    yield data
        return size, chunks()

    def write(self, key: str, data: bytes, *, expected: str | None, overwrite: bool = False) -> str:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        inside = self._inside
        stamp = write_bytes(path, data, kind=self.kind, inside=inside,
                            expected=stamp_of(expected) if expected else None, overwrite=overwrite)
        return tag_of(stamp)

    def put_new(self, key: str, source) -> str:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        stamp = write_file(path, lambda out: shutil.copyfileobj(source, out, 1 << 20), kind=self.kind,
                           inside=self._inside, expected=None)
        return tag_of(stamp)

    def _inside(self, real_folder: Path) -> None:
        root = Path(os.path.realpath(self.folder))
        if real_folder != root and root not in real_folder.parents:
            raise ObjectNotFound(f"'{real_folder}' is outside {root}.", hint="Use a name inside the folder.")

    def exists(self, key: str) -> bool:
        return self._path(key).is_file()

    def list(self, folder: str, limit: int = 1000) -> list[str]:
        out = []
        base = self._path(folder) if folder else self.folder
        for path in sorted(base.rglob("*")) if base.is_dir() else []:
            if path.is_file():
                out.append(path.relative_to(self.folder).as_posix())
                if len(out) >= limit:
                    break
        return out

    def delete(self, key: str) -> None:
        self._path(key).unlink(missing_ok=True)
