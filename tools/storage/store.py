"""The storage interface: read an object with its version tag; write it only if the tag still
matches (or only if it is absent); list; delete. Backends: ``folder.FolderStore``, ``s3.S3Store``."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO, Protocol

from ooxml.xml.errors import LimitExceeded, OoxmlError


@dataclass(frozen=True)
class Blob:
    data: bytes
    tag: str  # the version read: an ETag, or size:sha256 for a file


class ObjectNotFound(OoxmlError):
    error_type = "FileNotFound"


class StoreDenied(OoxmlError):
    error_type = "PermissionDenied"


class StoreUnavailable(OoxmlError):
    error_type = "StoreUnavailable"


class Store(Protocol):
    """One bucket or folder; keys are '/'-separated names inside it, already judged by the sandbox."""

    def read(self, key: str, max_bytes: int) -> Blob:
        """The object's bytes and tag; LimitExceeded (before its bytes are fetched) over ``max_bytes``."""

    def stream(self, key: str, max_bytes: int, chunk: int = 1 << 20) -> tuple[int, Iterator[bytes]]:
        """(size, chunks): the object read piece by piece (downloads); LimitExceeded over ``max_bytes``."""

    def write(self, key: str, data: bytes, *, expected: str | None, overwrite: bool = False) -> str:
        """Put ``data``; returns the new tag. ``expected``: the tag it must still have (None: it must
        not exist). FileChanged otherwise and nothing is written, unless ``overwrite``."""

    def put_new(self, key: str, source: BinaryIO) -> str:
        """Store ``source`` (a binary file, read piece by piece) under a fresh key (an upload's: a
        random folder); returns the tag. Never holds the whole file in memory."""

    def exists(self, key: str) -> bool: ...

    def list(self, folder: str, limit: int = 1000) -> list[str]:
        """Keys under ``folder`` ("" for all; a folder, not a name prefix), at most ``limit``."""

    def delete(self, key: str) -> None: ...


def too_big(label: str, size: int, max_bytes: int) -> OoxmlError:
    return LimitExceeded(f"'{label}' is {size} bytes, over the file size limit ({max_bytes}).",
                         hint="Open a smaller file; the operator sets limits.max_file_bytes.")
