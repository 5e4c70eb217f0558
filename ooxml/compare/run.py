"""docx_compare's comparison of two packages into the redline, a new document: on bytes where
that is sure (``spliced.py``), else on both documents' whole trees."""
from __future__ import annotations

from ooxml.compare import redline, sides, spliced, views
from ooxml.model.document import Document
from ooxml.xml import gc_pause


def compare(pkg_a, pkg_b, author: str, opts, policy=views.accept_all, second_core: bool = True) -> tuple:
    """(``redline.Result``, the redline as a new document); ``policy(doc)`` readies each document
    (accepts its revisions, or refuses it); ``second_core``: the redline's tree may be parsed on
    another thread while the engine runs (less wall time, ~15 % more CPU). The packages are closed after."""
    try:
        with gc_pause.paused():  # the accepted views' walks too (redline.build pauses it itself)
            fast = spliced.redline_of(pkg_a, pkg_b, author, opts, policy, second_core)
            if fast is not None:
                return fast
            with sides.about(sides.ORIGINAL, sides.file_of(pkg_a)):
                doc_a = Document(pkg_a)
                policy(doc_a)
            with sides.about(sides.REVISED, sides.file_of(pkg_b)):
                doc_b = Document(pkg_b)
                policy(doc_b)
            return redline.build(doc_a, doc_b, author, opts), views.as_new_document(doc_b)
    finally:
        pkg_a.close()
        pkg_b.close()
