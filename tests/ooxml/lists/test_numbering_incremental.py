"""Checkpointed labels equal a full recount after any sequence of edits (ooxml/lists/numbering.py).

Random inserts, removals, level changes and restarts on a 400-item document; after each, the
labels of a random window (read through the checkpoints) must equal those of a fresh count.
"""
from __future__ import annotations

import random

from lxml import etree

from ooxml.text import body as B
from ooxml.lists import lists_edit as L
from ooxml.lists import numbering as N
from ooxml.model.document import Document
from tests.support import list_docs as LD

STEPS = 120


def fresh_labels(doc) -> dict:
    """Every body paragraph's label by a plain count from the start, without any cache."""
    defs, state, out = N.definitions(doc), N.State(), {}
    for p in doc.body.iter(B.W_P):
        ref = defs.para_num(p)
        counts = N.step(defs, state, *ref) if ref else None
        out[p] = N.render(defs, ref[0], ref[1], counts) if counts is not None else None
    return out


def numbered(text: str, nid: int, ilvl: int) -> etree._Element:
    return etree.fromstring(LD.para(text, nid, ilvl).replace("<w:p>", f'<w:p xmlns:w="{LD.W_NS[9:-1]}">', 1))


def test_labels_through_checkpoints_equal_a_full_recount(tmp_path):
    body = "".join(LD.para(f"item {i}", 1 + (i // 150) % 2, [0, 1, 1, 2][i % 4]) for i in range(400))
    path = LD.build(tmp_path / "inc.docx", body,
                    LD.numbering_xml([LD.abstract(0, LD.outline())], [LD.num(1, 0), LD.num(2, 0, {0: 1})]))
    doc = Document.open(path)
    rnd = random.Random(9)
    for step in range(STEPS):
        paras = list(doc.body.iter(B.W_P))
        target = rnd.choice(paras)
        action = rnd.choice(["insert", "remove", "level", "restart", "read", "move"])
        if action == "insert":
            doc.insert_block(numbered(f"new {step}", rnd.choice([1, 2]), rnd.randrange(3)),
                             container=doc.body, after=target)
        elif action == "remove" and len(paras) > 10:
            doc.remove_block(target)
        elif action == "move":  # out of the body and back in elsewhere, as undo or a move tool would
            doc.remove_block(target)
            doc.insert_block(target, container=doc.body, after=rnd.choice([q for q in paras if q is not target]))
        elif action == "level":
            doc.will_change(target)
            L.set_num(target, rnd.choice([1, 2]), rnd.randrange(3))
            doc.changed(target)
        elif action == "restart":
            ref = N.definitions(doc).para_num(target)
            if ref:
                doc.will_change(target)
                L.set_num(target, L.restart_num(doc, ref[0], ref[1], 1), ref[1])
                doc.changed(target)
        paras = list(doc.body.iter(B.W_P))
        start = rnd.randrange(len(paras))
        window = paras[start:start + 15]
        seen = [N.label_of(doc, p) for p in window]  # through the checkpoints kept so far
        full = fresh_labels(doc)
        assert seen == [full[p] for p in window], f"step {step} ({action})"
    doc.close()


def test_paragraphs_of_other_stories_count_in_their_own_story(tmp_path):
    from tests.builders import part_xml
    numbering = LD.numbering_xml([LD.abstract(0, LD.outline())], [LD.num(1, 0)])
    path = LD.build(tmp_path / "hdr.docx", LD.para("body one", 1, 0) + LD.para("body two", 1, 0), numbering)
    import zipfile
    with zipfile.ZipFile(path) as z:
        items = {n: z.read(n) for n in z.namelist()}
    items["word/header1.xml"] = part_xml("w:hdr", LD.para("head a", 1, 0) + LD.para("head b", 1, 0))
    items["word/_rels/document.xml.rels"] = items["word/_rels/document.xml.rels"].replace(
        b"</Relationships>", b'<Relationship Id="rIdH" Type="http://schemas.openxmlformats.org/officeDocument/'
                             b'2006/relationships/header" Target="header1.xml"/></Relationships>')
    items["[Content_Types].xml"] = items["[Content_Types].xml"].replace(
        b"</Types>", b'<Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-'
                     b'officedocument.wordprocessingml.header+xml"/></Types>')
    with zipfile.ZipFile(path, "w") as z:
        for n, data in items.items():
            z.writestr(n, data)
    doc = Document.open(path)
    header = doc.register_part_root(doc.package.part("word/header1.xml"))
    assert [N.label_of(doc, p) for p in header.iter(B.W_P)] == ["1.", "2."]
    assert [N.label_of(doc, p) for p in doc.body.iter(B.W_P)] == ["1.", "2."]
    doc.close()
