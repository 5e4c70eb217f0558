"""Scripted edits of a document, for comparison pairs: the edited copy's bytes.

Each edit is made on the accepted view, untracked, straight in the XML: a word changed, a
paragraph deleted, one inserted (a copy of another with new words), a run made bold, a table
cell's text changed and a row duplicated, a header and a footnote edited, a list item's level, an
image removed or resized (a replaced image: the old one deleted, the new one inserted).
"""
from __future__ import annotations

import copy
import random

from ooxml.text import body as B
from ooxml.text import notes as N
from ooxml.compare import stories, views
from ooxml.model.document import Document
from ooxml.xml.namespaces import A, WP, w
from ooxml.xml.order import get_or_add

EDITS = ("word", "delete", "insert", "bold", "cell", "row", "header", "footnote", "list", "move", "image")


def edited(data: bytes, seed: int, kinds=EDITS, count: int = 4) -> bytes:
    doc = Document.from_bytes(data)
    try:
        views.accept_all(doc)
        rnd = random.Random(seed)
        for _ in range(count):
            globals()["_" + rnd.choice(kinds)](doc, rnd)
        for part in doc.package.parts.values():
            if part.loaded:
                part.touch()
        return _zip(views.part_bytes(doc))
    finally:
        doc.close()


def to_bytes(doc) -> bytes:
    return _zip(views.part_bytes(doc, keep=True))


def _zip(parts: dict) -> bytes:
    import io
    import zipfile
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():  # a fixed date: the same parts make the same bytes
            z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
    return out.getvalue()


def _texts(root):
    return [t for t in root.iter(B.W_T) if (t.text or "").strip()]


def _paragraphs(root):
    return [p for p in root.iter(B.W_P) if B.paragraph_text(p).strip()]


def _word(doc, rnd, root=None):
    ts = _texts(root if root is not None else doc.body)
    if ts:
        t = rnd.choice(ts)
        words = t.text.split(" ")
        k = rnd.randrange(len(words))
        words[k] = rnd.choice(["alpha", "beta", "gamma", ""]) + words[k][:2]
        t.text = " ".join(words)


def _delete(doc, rnd):
    ps = [p for p in _paragraphs(doc.body) if p.getparent() is doc.body and p.find(f"{w('pPr')}/{w('sectPr')}") is None]
    if len(ps) > 1:
        p = rnd.choice(ps)
        p.getparent().remove(p)


def _insert(doc, rnd):
    ps = [p for p in _paragraphs(doc.body) if p.getparent().tag in (B.W_BODY, B.W_TC)]
    if ps:
        p = rnd.choice(ps)
        new = copy.deepcopy(p)
        for el in list(new.iter(w("bookmarkStart"), w("bookmarkEnd"), w("footnoteReference"),
                                w("endnoteReference"), w("commentReference"), w("sectPr"))):
            el.getparent().remove(el)
        _no_para_ids(new)
        ts = _texts(new)
        if ts:
            ts[0].text = "Inserted words " + ts[0].text
        p.addnext(new)


def _no_para_ids(el):
    for x in el.iter():
        for name in [k for k in x.attrib if k.endswith("}paraId") or k.endswith("}textId")]:
            del x.attrib[name]


def _bold(doc, rnd):
    runs = [t.getparent() for t in _texts(doc.body)]
    if runs:
        r = rnd.choice(runs)
        rpr = get_or_add(r, "rPr")
        get_or_add(rpr, "b")


def _cell(doc, rnd):
    tcs = list(doc.body.iter(B.W_TC))
    if tcs:
        _word(doc, rnd, rnd.choice(tcs))


def _row(doc, rnd):
    trs = [tr for tr in doc.body.iter(B.W_TR) if tr.getparent().tag == B.W_TBL]
    if trs:
        tr = rnd.choice(trs)
        new = copy.deepcopy(tr)
        for el in list(new.iter(w("bookmarkStart"), w("bookmarkEnd"), w("footnoteReference"),
                                w("endnoteReference"), w("commentReference"))):
            el.getparent().remove(el)
        _no_para_ids(new)
        for t in _texts(new)[:1]:
            t.text = "New row " + t.text
        tr.addnext(new)


def _header(doc, rnd):
    names = [n for refs in stories.section_refs(doc) for n in refs.values()]
    if names:
        root = doc.register_part_root(doc.package.part(rnd.choice(names)))
        _word(doc, rnd, root)


def _footnote(doc, rnd):
    root = N.notes_root(doc, "footnote")
    if root is not None:
        notes = [n for n in root if N.is_user_note(n)]
        if notes:
            _word(doc, rnd, rnd.choice(notes))


def _list(doc, rnd):
    ilvls = list(doc.body.iter(w("ilvl")))
    if ilvls:
        el = rnd.choice(ilvls)
        el.set(w("val"), str((int(el.get(w("val"), "0")) + 1) % 3) if el.get(w("val"), "0").isdigit() else "0")


def _move(doc, rnd):
    ps = [p for p in _paragraphs(doc.body) if p.getparent() is doc.body and p.find(f"{w('pPr')}/{w('sectPr')}") is None]
    if len(ps) > 3:
        p = rnd.choice(ps)
        target = rnd.choice([x for x in ps if x is not p])
        target.addnext(p)


def _image(doc, rnd):
    drawings = [d for d in doc.body.iter(w("drawing")) if d.find(f".//{{{A}}}blip") is not None]
    if not drawings:
        return
    d = rnd.choice(drawings)
    run = d.getparent()
    if rnd.random() < 0.5 and run.tag == B.W_R and run.getparent() is not None:
        run.getparent().remove(run)
        return
    for ext in d.iter(f"{{{WP}}}extent", f"{{{A}}}ext"):
        if ext.get("cx", "").isdigit():
            ext.set("cx", str(int(ext.get("cx")) * 2 // 3 + 1))
