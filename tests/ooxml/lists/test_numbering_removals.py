"""List labels hear of removed blocks through Document.on_removed (no monkeypatched remove_block)."""
from __future__ import annotations

from ooxml.lists import numbering as N
from ooxml.model.document import Document
from ooxml.text import body as B
from tests.support import list_docs as LD


def numbered_doc(tmp_path, n: int = 80) -> Document:
    body = "".join(LD.para(f"item {i}", 1, 0) for i in range(n))
    path = LD.build(tmp_path / "list.docx", body, LD.numbering_xml([LD.abstract(0, LD.outline())], [LD.num(1, 0)]))
    return Document.open(path)


def test_labels_listen_for_removals_instead_of_replacing_remove_block(tmp_path):
    doc = numbered_doc(tmp_path)
    paras = list(B.iter_blocks(doc.body))
    N.label_of(doc, paras[70])
    N.label_of(doc, paras[71])
    assert "remove_block" not in doc.__dict__ and len(doc.on_removed) == 1


def test_a_block_moved_down_the_list_renumbers_the_items_after_its_old_place(tmp_path):
    doc = numbered_doc(tmp_path)
    paras = list(B.iter_blocks(doc.body))
    before = N.label_of(doc, paras[70])  # counted through checkpoints
    doc.remove_block(paras[5])
    doc.insert_block(paras[5], container=doc.body, after=paras[75])
    assert (before, N.label_of(doc, paras[70])) == ("71.", "70.")
