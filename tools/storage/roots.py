"""Object roots (``--root s3://bucket[/prefix]``) and the sandbox for keys, the rules of paths:
no ``..`` or ``.`` or empty segment, no other bucket, no key outside the root's prefix."""
from __future__ import annotations

import posixpath
from dataclasses import dataclass

from ooxml.xml.errors import ValidationError
from tools.storage.store import StoreDenied

SCHEME = "s3://"
MAX_KEY_BYTES = 1024  # S3's limit


def is_object_url(text: str) -> bool:
    return text[:len(SCHEME)].lower() == SCHEME


@dataclass(frozen=True)
class ObjectRoot:
    bucket: str
    prefix: str  # "" or "a/b" (no slashes at either end)

    @classmethod
    def parse(cls, url: str) -> ObjectRoot:
        bucket, _, prefix = url[len(SCHEME):].partition("/")
        prefix = prefix.strip("/")
        if not bucket or not all(c.isalnum() or c in "-." for c in bucket):
            raise ValidationError(f"'{url}' is not an object root.", hint="Write it as s3://bucket or s3://bucket/prefix.")
        if prefix:
            check_segments(prefix, url)
        return cls(bucket, prefix)

    @property
    def url(self) -> str:
        return f"{SCHEME}{self.bucket}/{self.prefix}" if self.prefix else f"{SCHEME}{self.bucket}"

    def holds(self, key: str) -> bool:
        return not self.prefix or key.startswith(self.prefix + "/")

    def __str__(self) -> str:
        return self.url


@dataclass(frozen=True)
class ObjectLocation:
    """A document's place in an object root (what ``session.path`` is for one)."""
    root: ObjectRoot
    key: str

    @property
    def url(self) -> str:
        return f"{SCHEME}{self.root.bucket}/{self.key}"

    @property
    def name(self) -> str:
        return self.key.rpartition("/")[2]

    @property
    def suffix(self) -> str:
        stem, dot, ext = self.name.rpartition(".")
        return "." + ext if dot and stem else ""

    def sibling(self, name: str) -> ObjectLocation:
        folder = self.key.rpartition("/")[0]
        return ObjectLocation(self.root, f"{folder}/{name}" if folder else name)

    def __str__(self) -> str:
        return self.url


def check_segments(key: str, shown: str) -> None:
    bad = next((s for s in key.split("/") if s in ("", ".", "..")), None)
    if bad is not None or "\\" in key or any(ord(c) < 32 for c in key):
        raise StoreDenied(f"'{shown}' has a '{bad if bad is not None else 'control or backslash'}' part: "
                          "keys are plain names separated by single '/'.",
                          hint="Use a key without '..', '.', '//' or backslashes, inside an allowed root.")
    if len(key.encode()) > MAX_KEY_BYTES:
        raise ValidationError(f"The key is {len(key.encode())} bytes long; object stores allow {MAX_KEY_BYTES}.",
                              hint="Choose a shorter name.")


def locate(path: str, roots: list[ObjectRoot]) -> ObjectLocation:
    """The object ``path`` names (``s3://bucket/key``, or a key relative to the first object root),
    or PermissionDenied when it is outside every root."""
    if not roots:
        raise StoreDenied(f"'{path}' is in an object store, but no object root is allowed.",
                          hint="Start the server with --root s3://bucket[/prefix].")
    if is_object_url(path):
        bucket, _, key = path[len(SCHEME):].partition("/")
        candidates = [r for r in roots if r.bucket == bucket]
    else:
        root = roots[0]
        bucket, key, candidates = root.bucket, posixpath.join(root.prefix, path) if root.prefix else path, [root]
    if not key:
        raise ValidationError(f"'{path}' names a bucket, not an object.", hint="Give a key, e.g. s3://bucket/report.docx.")
    check_segments(key, path)
    inside = next((r for r in candidates if r.holds(key)), None)
    if inside is None:
        raise StoreDenied(f"'{path}' is outside the allowed object roots.",
                          hint="Allowed: " + ", ".join(r.url for r in roots) + ".")
    return ObjectLocation(inside, key)
