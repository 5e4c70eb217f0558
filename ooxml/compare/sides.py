"""Which of the two documents a comparison's error is about: "The revised document (v2.docx): Part
'word/document.xml' is not well-formed ...", so the user knows which file to fix."""
from __future__ import annotations

from contextlib import contextmanager

from ooxml.xml.errors import OoxmlError

ORIGINAL, REVISED = "original", "revised"


def file_of(pkg) -> str | None:
    """The name of the file a package was read from (None: made in memory, a session's state)."""
    return pkg.path.name if getattr(pkg, "path", None) is not None else None


@contextmanager
def about(side: str, file: str | None):
    """Errors raised inside name ``side`` and its ``file`` (the same error, its message prefixed:
    its type and hint stay)."""
    try:
        yield
    except OoxmlError as e:
        if not getattr(e, "side_named", False):
            name = f" ({file})" if file else ""
            e.message = f"The {side} document{name}: {e.message}"
            e.args = (e.message,)
            e.side_named = True
        raise
