"""--roots-from-client: over stdio, the folders the client declares (``roots/list``) become the sandbox.

The server asks before the first call that follows the start or a ``notifications/roots/list_changed``
(never from the notification itself: an answer to a request sent from there would wait behind it).
``--root`` folders, when given, bound the client's: the sandbox is their intersection. Over HTTP
client roots are never asked for: they must not widen what the operator allowed. A client without
the roots capability (or on 2026-07-28, where roots are gone) leaves the sandbox as started; so does
a list with no folder inside the bounds (the server says so in a log message).
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import unquote, urlparse

log = logging.getLogger("ooxml_mcp")


def folders_of(uris) -> list[Path]:
    out = []
    for uri in uris:
        parsed = urlparse(str(uri))
        if parsed.scheme == "file" and parsed.netloc in ("", "localhost"):
            out.append(Path(unquote(parsed.path)).resolve())
    return out


def intersect(folders: list[Path], bounds: list[Path] | None) -> list[Path]:
    """Each folder inside a bound; each bound inside a folder (the overlap of two trees)."""
    if bounds is None:
        return list(dict.fromkeys(folders))
    inner = [f for f in folders if any(f.is_relative_to(b) for b in bounds)]
    inner += [b for b in bounds if any(b.is_relative_to(f) for f in folders)]
    return list(dict.fromkeys(inner))


class ClientRoots:
    def __init__(self, bounds: list[Path] | None):
        self.bounds = bounds  # the --root folders, or None: the client's folders as they are
        self.stale = True

    def changed(self) -> None:
        self.stale = True

    async def refresh(self, services, ctx, warn) -> None:
        """Before a stdio call: ask the client for its roots if they may have changed."""
        if not self.stale or getattr(ctx, "request", None) is not None:
            return
        self.stale = False
        capabilities = ctx.session.client_capabilities
        if capabilities is None or capabilities.roots is None:
            return
        try:
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # deprecated at 2026-07-28; this is the 2025-11-25 path
                answer = await ctx.session.list_roots()
        except Exception as e:  # a 2026-07-28 client cannot be asked: keep the sandbox
            log.debug("roots/list failed: %s", e)
            return
        sandbox = intersect(folders_of(r.uri for r in answer.roots), self.bounds)
        if not sandbox:
            await warn(f"None of the client's roots lies inside the server's folders: keeping "
                       f"{', '.join(map(str, services.roots))}.")
            return
        services.roots.replace(sandbox)


class Roots(Sequence):
    """The folders tools may read and write: fixed at the start, replaced whole only by the client's
    roots (--roots-from-client, ``ClientRoots.refresh``)."""

    def __init__(self, folders, objects=(), objects_first: bool = False):
        self._folders = tuple(Path(f) for f in folders)
        self.objects = tuple(objects)  # ObjectRoot (tools/storage/roots.py): fixed at the start
        self.objects_first = objects_first  # relative paths start at the first object root

    def replace(self, folders) -> None:
        self._folders = tuple(Path(f) for f in folders)  # one assignment: a reader sees the old or the new

    def __getitem__(self, index):
        return self._folders[index]

    def __len__(self) -> int:
        return len(self._folders)

    def __repr__(self) -> str:
        return f"Roots({list(map(str, self._folders))})"
