"""A part's bytes parsed on a thread of their own, as a document's part is parsed (our namespace
declared): libxml2 parses without Python's lock, so a second core does it while the caller works
on (docx_compare parses the redline's runs so while its engine runs: ``compare/revised_tree.py``).
The thread ends once the parse does; ``tree()`` waits for that, so no caller leaves one running."""
from __future__ import annotations

import threading

from lxml import etree

from ooxml.xml.id_bytes import predeclare
from ooxml.xml.safexml import new_parser, parse_part


class BackgroundParse:
    """``data`` being parsed; ``tree()`` waits for it, ``close()`` drops it untaken."""

    def __init__(self, data: bytes, name: str = "background-parse", threaded: bool = True):
        """``threaded``: False parses in ``tree()``, on the caller's thread (one core: the same
        result for less CPU, as two threads on one core's siblings slow each other)."""
        self._tree: etree._ElementTree | None = None
        self._data: bytes | None = None if threaded else data
        self._thread = threading.Thread(target=self._run, args=(data,), daemon=True, name=name) if threaded else None
        if self._thread is not None:
            self._thread.start()

    def _run(self, data: bytes) -> None:
        try:
            prepared, pre = predeclare(data)
            if not pre.had_ids:  # (a root declaring our namespace: the part's own parse marks IDs: None)
                self._tree = parse_part(prepared, "", new_parser())
        except Exception:  # (the caller's own parse then says what is wrong)
            self._tree = None

    def tree(self) -> etree._ElementTree | None:
        """The parsed tree, once (None when it could not be parsed)."""
        if self._thread is not None:
            self._thread.join()
        elif self._data is not None:
            self._run(self._data)
            self._data = None
        tree, self._tree = self._tree, None
        return tree

    def close(self) -> None:
        """Drop what was not taken: the thread waited for (none is left running), bytes not parsed
        yet never parsed."""
        self._data = None
        self.tree()
