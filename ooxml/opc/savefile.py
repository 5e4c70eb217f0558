"""Writing a file so that nothing saved is lost.

- Atomic: a temporary file in the target's folder, fsync, rename over the target, fsync the folder.
  A crash at any moment leaves the old file or the new one, complete.
- Race-free folder: the target's folder is opened once; the temporary file, the check and the
  rename all go through that folder handle, and ``check_dir`` judges the folder the handle really
  is (a folder swapped for a symlink after the path was checked cannot redirect the write).
- No lost updates: the target is compared (size, then SHA-256) with the stamp of what was opened
  or last saved there, right before the rename; another writer's change is refused (FileChanged)
  unless ``overwrite``.
- Permissions: an existing target keeps its mode (and owner, where we may set it); a new file
  gets the umask's mode, as any other program's new file would.
- Temporary files have a name only we use (``ooxml.opc.tempfiles``), so those a killed save left
  behind can be removed at the next start, and nothing else ever is.
"""
from __future__ import annotations

import errno
import hashlib
import os
import stat
import threading
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ooxml.xml import budget
from ooxml.xml.errors import OoxmlError, ValidationError
from ooxml.opc.tempfiles import temp_name

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

MAX_NAME_BYTES = 255  # NAME_MAX of every common file system
_CHUNK = 1 << 20
_REPLACE_LOCK = threading.Lock()


class FileChanged(OoxmlError):
    error_type = "FileChanged"


@dataclass(frozen=True)
class FileStamp:
    """What a file was when we read or wrote it."""

    size: int
    mtime_ns: int
    sha256: str


def stamp_of(data: bytes, st: os.stat_result) -> FileStamp:
    return FileStamp(len(data), st.st_mtime_ns, hashlib.sha256(data).hexdigest())


def read_stamped(path: Path, max_bytes: int) -> tuple[bytes, FileStamp]:
    """The file's bytes (at most ``max_bytes + 1``) and its stamp, from one open file."""
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        chunks, size = [], 0
        while size <= max_bytes and (chunk := f.read(min(_CHUNK * 16, max_bytes + 1 - size))):
            chunks.append(chunk)
            size += len(chunk)
    data = b"".join(chunks)
    return data, stamp_of(data, st)


def check_target_name(path: Path) -> None:
    """Names no file system takes are refused before anything is written."""
    name = path.name
    if name in ("", ".", ".."):
        raise ValidationError(f"'{path}' names a folder, not a file.",
                              hint="Give a file name, e.g. 'report.docx'.")
    size = len(os.fsencode(name))
    if size > MAX_NAME_BYTES:
        raise ValidationError(f"The file name is {size} bytes long; file systems allow at most {MAX_NAME_BYTES}.",
                              hint="Choose a shorter file name.")


def write_atomically(path: Path, write: Callable[[BinaryIO], None], *, expected: FileStamp | None,
                     overwrite: bool = False, check_dir: Callable[[Path], None] | None = None) -> FileStamp:
    """Write ``path`` through ``write(file)``; returns the new file's stamp.

    ``expected`` is the stamp of what this writer opened or last saved at ``path`` (None: nothing).
    If the file there is not that (another writer saved, or it was edited on disk), FileChanged is
    raised and nothing changes, unless ``overwrite``.
    """
    check_target_name(path)
    folder = _open_folder(path)
    try:
        if check_dir is not None:
            check_dir(folder.real())
        return _write_in(folder, path, write, expected, overwrite)
    finally:
        folder.close()


def _open_folder(path: Path) -> _Folder:
    try:
        return _Folder(path.parent)
    except OSError as e:
        if os.path.islink(path.parent):  # O_NOFOLLOW: ELOOP, or ENOTDIR with O_DIRECTORY
            e = OSError(errno.ELOOP, os.strerror(errno.ELOOP))
        raise _named(e, path.parent) from None


class _Folder:
    """The target's folder, through an open handle where the system allows it (so a folder
    swapped for a symlink meanwhile cannot redirect the write), else by its path (Windows)."""

    HANDLES = os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd

    def __init__(self, path: Path):
        self.path = path
        # O_NOFOLLOW: a folder swapped for a symlink since its path was checked is not entered.
        self.fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) |
                          getattr(os, "O_CLOEXEC", 0)) if self.HANDLES else None

    def at(self, name: str) -> tuple[str, dict]:
        """(name, keyword arguments) to reach ``name`` in this folder."""
        return (name, {"dir_fd": self.fd}) if self.fd is not None else (os.path.join(self.path, name), {})

    def real(self) -> Path:
        """The folder the handle really is (Linux: /proc names it; elsewhere: the resolved path)."""
        if self.fd is not None:
            try:
                return Path(os.readlink(f"/proc/self/fd/{self.fd}"))
            except OSError:
                pass
        return Path(os.path.realpath(self.path))

    def open(self, name: str, flags: int, mode: int = 0o666) -> int:
        where, kw = self.at(name)
        return os.open(where, flags | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), mode, **kw)

    def lstat(self, name: str) -> os.stat_result | None:
        where, kw = self.at(name)
        try:
            return os.stat(where, follow_symlinks=False, **kw)
        except FileNotFoundError:
            return None

    def unlink(self, name: str) -> None:
        where, kw = self.at(name)
        os.unlink(where, **kw)

    def replace(self, src: str, dst: str) -> None:
        if self.fd is not None:
            os.replace(src, dst, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        else:
            os.replace(self.at(src)[0], self.at(dst)[0])

    @contextmanager
    def locked(self):
        """An exclusive advisory lock on the folder (where the system has flock), so two server
        processes saving one file cannot both pass the lost-update check before either renames."""
        locked = False
        if self.fd is not None and fcntl is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX)
                locked = True
            except OSError:
                pass  # a file system without locks (some network mounts): the in-process lock remains
        try:
            yield
        finally:
            if locked:
                fcntl.flock(self.fd, fcntl.LOCK_UN)

    def sync(self) -> None:
        if self.fd is not None:
            _fsync_dir(self.fd)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)


def check_writable(path: Path, *, expected: FileStamp | None, overwrite: bool = False) -> None:
    """What ``write_atomically`` would refuse at once (a folder, a special file, a file not ours),
    judged now: a long job (an export) fails before its work, not after."""
    check_target_name(path)
    folder = _open_folder(path)
    try:
        _check_target(folder, path, expected, overwrite)
    finally:
        folder.close()


def _check_target(folder: _Folder, path: Path, expected: FileStamp | None, overwrite: bool) -> os.stat_result | None:
    old = folder.lstat(path.name)
    if old is not None and stat.S_ISDIR(old.st_mode):
        raise ValidationError(f"'{path}' is a folder, not a file.",
                              hint=f"Give a file name inside it, e.g. '{path / ('report' + path.suffix)}'.")
    if old is not None and not (stat.S_ISREG(old.st_mode) or stat.S_ISLNK(old.st_mode)):
        raise ValidationError(f"'{path}' is a special file ({_special(old.st_mode)}), not a regular file.",
                              hint="Write to another path.")
    if not overwrite:
        _refuse_if_changed(folder, path, expected, quick=True)  # fail fast, before a long write
    return old


def _write_in(folder: _Folder, path: Path, write, expected: FileStamp | None, overwrite: bool) -> FileStamp:
    name = path.name
    old = _check_target(folder, path, expected, overwrite)
    tmp = temp_name()
    new_file = old is None or not stat.S_ISREG(old.st_mode)
    try:
        fd = folder.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                         0o666 if new_file else 0o600)
    except OSError as e:
        raise _named(e, path) from None
    try:
        if not new_file:
            _keep_mode(fd, old)
        with os.fdopen(fd, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        written = _sha256_at(folder, tmp)  # read back: zipfile seeks back to patch headers
        with _REPLACE_LOCK, folder.locked():  # one check-and-rename at a time, here and in other processes
            if not overwrite:
                _refuse_if_changed(folder, path, expected)
            budget.check()  # a save past its call's limit writes nothing (its call is answered LimitExceeded)
            folder.replace(tmp, name)
    except BaseException as e:
        try:
            folder.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise _named(e, path) from None
        raise
    folder.sync()
    st = folder.lstat(name)
    return FileStamp(st.st_size, st.st_mtime_ns, written)


def _special(mode: int) -> str:
    return ("a named pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")


def _keep_mode(fd: int, old: os.stat_result) -> None:
    if not hasattr(os, "fchmod"):
        return  # Windows: a new file gets the folder's defaults
    os.fchmod(fd, stat.S_IMODE(old.st_mode) & 0o777)
    if hasattr(os, "fchown") and (old.st_uid, old.st_gid) != _owner(fd):
        try:
            os.fchown(fd, old.st_uid, old.st_gid)
        except OSError:
            pass  # only root may give a file away; the mode is kept all the same


def _owner(fd: int) -> tuple[int, int]:
    st = os.fstat(fd)
    return st.st_uid, st.st_gid


def _refuse_if_changed(folder: _Folder, path: Path, expected: FileStamp | None, quick: bool = False) -> None:
    """FileChanged unless the file at ``path`` is missing or is ``expected`` (``quick``: judge by
    what a stat shows, without reading the file)."""
    current = folder.lstat(path.name)
    if current is None:
        return  # nothing there (any more): nobody's work is lost
    hint = ("Open the file again to see its current content (docx_open), or save to another path; "
            "pass overwrite=true to replace it anyway.")
    if expected is None:
        raise FileChanged(f"'{path}' already exists, and it is not a file this session opened or saved.",
                          hint=hint)
    if stat.S_ISREG(current.st_mode) and current.st_size == expected.size and \
            (quick or _sha256_at(folder, path.name) == expected.sha256):
        return
    what = (f"{current.st_size} bytes now, {expected.size} then" if current.st_size != expected.size
            else "same size, other content")
    raise FileChanged(f"'{path}' was changed by another writer since this session opened or last saved it "
                      f"({what}).", hint=hint)


def _sha256_at(folder: _Folder, name: str) -> str | None:
    try:
        fd = folder.open(name, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    digest = hashlib.sha256()
    with os.fdopen(fd, "rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _fsync_dir(dir_fd: int) -> None:
    try:
        os.fsync(dir_fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename itself is atomic


def _named(e: OSError, path: Path) -> OoxmlError:
    """An OSError as an error an agent can act on."""
    reason = e.strerror or str(e)
    if e.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return OoxmlError(f"Cannot write '{path}': {reason}.", error_type="PermissionDenied",
                          hint="Check the folder's permissions, or save to another path.")
    if e.errno in (errno.ENOENT, errno.ENOTDIR):
        return OoxmlError(f"Folder '{path if path.is_dir() else path.parent}' does not exist: {reason}.",
                          error_type="FileNotFound", hint="Create the folder first or pick another path.")
    if e.errno == errno.ELOOP:
        return OoxmlError(f"Cannot write '{path}': a folder on its path became a symbolic link.",
                          error_type="PermissionDenied", hint="Write to a real folder inside the allowed roots.")
    if e.errno == errno.EISDIR:
        return ValidationError(f"'{path}' is a folder, not a file.", hint="Give a file name.")
    if e.errno == errno.ENAMETOOLONG:
        return ValidationError(f"The path '{path}' is too long: {reason}.", hint="Choose a shorter path.")
    if e.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", -1), errno.EFBIG):
        return OoxmlError(f"Cannot write '{path}': {reason}. The previous file is intact.",
                          error_type="SaveFailed", hint="Free some disk space, or save to another disk.")
    return OoxmlError(f"Cannot write '{path}': {reason}. The previous file is intact.",
                      error_type="SaveFailed", hint="Check the disk and the folder, then save again.")
