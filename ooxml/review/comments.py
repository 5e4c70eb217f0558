"""Comments as Word 2016+ writes them: comments.xml, commentsExtended.xml, commentsIds.xml, people.xml.

In the document a comment is a ``w:commentRangeStart``/``w:commentRangeEnd`` pair (siblings of
runs, never inside one) and a run holding ``w:commentReference``, all with the comment's w:id.
A reply is a comment of its own whose ``w15:commentEx`` names its parent's last paragraph
(``w15:paraIdParent``); resolved is ``w15:done="1"``. Documents whose comments come from other
tools (only comments.xml) get the other parts when a reply or a resolution needs them.
"""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from ooxml.text import body as B
from ooxml.xml import minting
from ooxml.text.build import make_run
from ooxml.opc.types import CT, RT
from ooxml.xml.errors import ElementNotFound, ValidationError
from ooxml.xml.namespaces import MC, W, W14, w
from ooxml.review.revisions import DEFAULT_AUTHOR, now
from ooxml.review.word_id_counter import new_word_id

W15 = "http://schemas.microsoft.com/office/word/2012/wordml"
W16CID = "http://schemas.microsoft.com/office/word/2016/wordml/cid"
PARTS = {  # kind: (relationship type, default part name, content type, root tag, namespaces)
    "comments": (RT.COMMENTS, "word/comments.xml", CT.COMMENTS, w("comments")),
    "extended": (RT.COMMENTS_EXTENDED, "word/commentsExtended.xml", CT.COMMENTS_EXTENDED, f"{{{W15}}}commentsEx"),
    "ids": (RT.COMMENTS_IDS, "word/commentsIds.xml", CT.COMMENTS_IDS, f"{{{W16CID}}}commentsIds"),
    "people": (RT.PEOPLE, "word/people.xml", CT.PEOPLE, f"{{{W15}}}people"),
}
_NSMAP = {"w": W, "w14": W14, "w15": W15, "w16cid": W16CID, "mc": MC}
PARA_ID = f"{{{W14}}}paraId"
TEXT_ID = f"{{{W14}}}textId"
W_ID, W_AUTHOR, W_DATE, W_INITIALS = w("id"), w("author"), w("date"), w("initials")
START, END, REF = w("commentRangeStart"), w("commentRangeEnd"), w("commentReference")


def _empty_root(tag: str) -> bytes:
    prefixes = {"w": W, "w14": W14, "w15": W15, "w16cid": W16CID, "mc": MC}
    ns = etree.QName(tag).namespace
    root = etree.Element(tag, nsmap=prefixes)
    root.set(f"{{{MC}}}Ignorable", "w14 w15 w16cid")
    _ = ns
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


class Comments:
    """The comment parts of one document, found (or made) on demand."""

    def __init__(self, doc):
        self.doc = doc
        self._used: set[str] | None = None  # paraIds in use, gathered once (instances live for one call)

    def part_root(self, kind: str, create: bool = False) -> etree._Element | None:
        doc = self.doc
        rel_type, default_name, content_type, tag = PARTS[kind]
        part = doc.related_part(rel_type)
        if part is None:
            if not create:
                return None
            name = doc.package.free_name(default_name, default_name.replace(".xml", "{}.xml"))
            part = doc.package.add_part(name, _empty_root(tag), content_type)
            doc.package.relate_part(doc.main_name, rel_type, name)
            doc._stories = None  # noqa: SLF001 (the new story part gets our namespace declared on parse)
        if kind == "comments":
            return doc.register_part_root(part)
        return part.tree.getroot()

    def touch(self, root: etree._Element) -> None:
        self.doc.will_change(root)
        for part in self.doc.package.parts.values():
            if part.loaded and part.tree.getroot() is root:
                part.touch()
                self.doc.modified = True
                self.doc.version += 1
                return

    # ---- reading ------------------------------------------------------------------------------
    def all(self) -> list[etree._Element]:
        root = self.part_root("comments")
        return [] if root is None else root.findall(w("comment"))

    def by_word_id(self, wid: str) -> etree._Element | None:
        return next((c for c in self.all() if c.get(W_ID) == wid), None)

    def extended(self) -> dict[str, etree._Element]:
        """commentEx entries by paraId."""
        root = self.part_root("extended")
        if root is None:
            return {}
        return {e.get(f"{{{W15}}}paraId", "").upper(): e for e in root.iter(f"{{{W15}}}commentEx")}

    @staticmethod
    def last_para_id(comment: etree._Element) -> str | None:
        ps = comment.findall(w("p"))
        return ps[-1].get(PARA_ID).upper() if ps and ps[-1].get(PARA_ID) else None

    def parent_of(self, comment: etree._Element, ext: dict | None = None,
                  by_para: dict | None = None) -> etree._Element | None:
        ext = self.extended() if ext is None else ext
        entry = ext.get(self.last_para_id(comment) or "")
        parent_pid = entry.get(f"{{{W15}}}paraIdParent") if entry is not None else None
        if not parent_pid:
            return None
        if by_para is None:
            by_para = {self.last_para_id(c): c for c in self.all()}
        return by_para.get(parent_pid.upper())

    def resolved(self, comment: etree._Element, ext: dict | None = None) -> bool:
        ext = self.extended() if ext is None else ext
        entry = ext.get(self.last_para_id(comment) or "")
        return entry is not None and entry.get(f"{{{W15}}}done") == "1"

    # ---- writing ------------------------------------------------------------------------------
    def _new_para_id(self, near: etree._Element) -> str:
        body_ids = self.doc.word_ids(self.doc.body).para_ids
        if self._used is None:  # once per instance: a comment of 8,000 lines must not rescan per line
            root = self.part_root("comments")
            self._used = set() if root is None else {v.upper() for v in
                                                     root.xpath("//@w14:paraId", namespaces=_NSMAP)}
        while True:
            value = f"{minting.randbelow(0x7FFFFFFE) + 1:08X}"
            if value not in self._used and value not in body_ids:
                body_ids.add(value)
                self._used.add(value)
                return value

    def _ensure_para_ids(self, comment: etree._Element) -> str:
        for p in comment.findall(w("p")):
            if not p.get(PARA_ID):
                p.set(PARA_ID, self._new_para_id(p))
                p.set(TEXT_ID, "77777777")
        if not comment.findall(w("p")):
            comment.append(etree.Element(w("p"), {PARA_ID: self._new_para_id(comment), TEXT_ID: "77777777"}))
        return self.last_para_id(comment)

    def new_comment(self, text: str, author: str, parent: etree._Element | None = None) -> etree._Element:
        root = self.part_root("comments", create=True)
        self.touch(root)
        wid = new_word_id(self.doc)
        initials = "".join(part[0] for part in author.split() if part)[:9] or author[:1]
        # Filled before it goes in: building its lines checks the call's budget, and undo must
        # know of the comment from the moment it is in the part.
        comment = etree.Element(w("comment"), {W_ID: wid, W_AUTHOR: author, W_DATE: now(), W_INITIALS: initials})
        for i, line in enumerate(text.split("\n") or [""]):
            p = etree.SubElement(comment, w("p"), {PARA_ID: self._new_para_id(comment), TEXT_ID: "77777777"})
            if i == 0:
                ref = etree.SubElement(p, w("r"))
                etree.SubElement(ref, w("annotationRef"))
            if line:
                p.append(make_run(line))
        root.append(comment)
        self.doc.history.inserted(comment)  # a block of the comments story: undo takes it out again
        self._extend(comment, parent)
        self._person(author)
        return comment

    def _extend(self, comment: etree._Element, parent: etree._Element | None) -> None:
        ext_root = self.part_root("extended", create=True)
        self.touch(ext_root)
        if not len(ext_root):  # a file that had only comments.xml: describe the comments it has
            for old in self.all():
                if old is not comment:
                    self._ext_entry(ext_root, old, None)
        self._ext_entry(ext_root, comment, parent)
        ids_root = self.part_root("ids", create=True)
        self.touch(ids_root)
        known = {e.get(f"{{{W16CID}}}paraId", "").upper() for e in ids_root}
        for c in self.all():
            pid = self._ensure_para_ids(c)
            if pid not in known:
                etree.SubElement(ids_root, f"{{{W16CID}}}commentId",
                                 {f"{{{W16CID}}}paraId": pid,
                                  f"{{{W16CID}}}durableId": f"{minting.randbelow(0x7FFFFFFE) + 1:08X}"})

    def _ext_entry(self, ext_root, comment, parent) -> etree._Element:
        attrs = {f"{{{W15}}}paraId": self._ensure_para_ids(comment)}
        if parent is not None:
            attrs[f"{{{W15}}}paraIdParent"] = self._ensure_para_ids(parent)
        attrs[f"{{{W15}}}done"] = "0"
        return etree.SubElement(ext_root, f"{{{W15}}}commentEx", attrs)

    def _person(self, author: str) -> None:
        root = self.part_root("people", create=True)
        if any(p.get(f"{{{W15}}}author") == author for p in root):
            return
        self.touch(root)
        person = etree.SubElement(root, f"{{{W15}}}person", {f"{{{W15}}}author": author})
        etree.SubElement(person, f"{{{W15}}}presenceInfo",
                         {f"{{{W15}}}providerId": "None", f"{{{W15}}}userId": author})

    def set_resolved(self, comment: etree._Element, done: bool) -> None:
        ext_root = self.part_root("extended", create=True)
        self.touch(ext_root)
        if not len(ext_root):
            for old in self.all():
                self._ext_entry(ext_root, old, None)
        pid = self._ensure_para_ids(comment)
        entry = self.extended().get(pid)
        if entry is None:
            entry = self._ext_entry(ext_root, comment, None)
        entry.set(f"{{{W15}}}done", "1" if done else "0")
        self.touch(self.part_root("comments"))

    def thread(self, comment: etree._Element) -> list[etree._Element]:
        """The comment and its replies (replies of replies too)."""
        ext = self.extended()
        by_para = {self.last_para_id(c): c for c in self.all()}
        out = [comment]
        for c in self.all():
            if c is comment:
                continue
            cur, seen = c, set()
            while cur is not None and id(cur) not in seen:
                seen.add(id(cur))
                cur = self.parent_of(cur, ext, by_para)
                if cur is comment:
                    out.append(c)
                    break
        return out

    def remove(self, comments: list[etree._Element]) -> None:
        """The comments and their entries in the extended and IDs parts (each part read once: linear)."""
        root = self.part_root("comments")
        self.touch(root)
        ext = self.extended()
        ids_root = self.part_root("ids")
        durable: dict[str, list] = {}
        for e in ids_root.iterchildren(f"{{{W16CID}}}commentId") if ids_root is not None else ():
            durable.setdefault(e.get(f"{{{W16CID}}}paraId", "").upper(), []).append(e)
        touched = set()
        for c in comments:
            pid = self.last_para_id(c)
            entry = ext.get(pid or "")
            gone = ([entry] if entry is not None else []) + (durable.pop(pid, []) if pid else [])
            for e in gone:
                part_root = e.getroottree().getroot()
                if part_root not in touched:
                    touched.add(part_root)
                    self.touch(part_root)
                e.getparent().remove(e)
            self.doc.ids.forget(c)
            self.doc.history.will_remove(c)  # undo puts it back in its place
            root.remove(c)


# ---- anchors in the document -------------------------------------------------------------------

def reference_run(wid: str) -> etree._Element:
    r = etree.Element(w("r"))
    etree.SubElement(r, REF, {W_ID: wid})
    return r


def anchor_paragraph(p: etree._Element, wid: str) -> etree._Element:
    """Markers around all of a paragraph's content; the reference run after the end. Returns the end."""
    start = etree.Element(START, {W_ID: wid})
    ppr = p.find(w("pPr"))
    p.insert(1 if ppr is not None else 0, start)
    end = etree.SubElement(p, END, {W_ID: wid})
    end.addnext(reference_run(wid))
    return end


def anchor_text(doc, runs, text: str, wid: str) -> None:
    """Markers around the first occurrence of ``text`` in ``runs`` (a paragraph's or one run; runs
    split at its edges)."""
    from ooxml.review.tracked_text import segments, split_at, _run_at
    segs, full = segments(runs)
    at = full.find(text)
    if at < 0 or not text:
        raise ValidationError(f"anchor_text '{text}' does not occur in the paragraph's text.",
                              hint="Pass an exact, case-sensitive span of the element's text (as read with "
                                   "revisions accepted).")
    split_at(doc, segs, at + len(text))
    first = split_at(doc, segs, at)
    last = _run_at(segs, at + len(text) - 1)
    first.addprevious(etree.Element(START, {W_ID: wid}))
    end = etree.Element(END, {W_ID: wid})
    last.addnext(end)
    end.addnext(reference_run(wid))


def anchor_range(first: etree._Element, last: etree._Element, wid: str) -> None:
    """Markers from the start of ``first`` to the end of ``last`` (runs or blocks)."""
    if first.tag == B.W_R:
        first.addprevious(etree.Element(START, {W_ID: wid}))
    else:
        p = first if first.tag == B.W_P else next(first.iter(B.W_P))
        ppr = p.find(w("pPr"))
        p.insert(1 if ppr is not None else 0, etree.Element(START, {W_ID: wid}))
    if last.tag == B.W_R:
        end = etree.Element(END, {W_ID: wid})
        last.addnext(end)
        end.addnext(reference_run(wid))
    else:
        ps = [last] if last.tag == B.W_P else list(last.iter(B.W_P))
        end = etree.SubElement(ps[-1], END, {W_ID: wid})
        end.addnext(reference_run(wid))


def markers(doc_root: etree._Element, wid: str) -> list[etree._Element]:
    return doc_root.xpath(".//w:commentRangeStart[@w:id=$i] | .//w:commentRangeEnd[@w:id=$i]"
                          " | .//w:commentReference[@w:id=$i]", namespaces=_NSMAP, i=wid)


def copy_anchor(doc_root: etree._Element, parent_wid: str, wid: str) -> bool:
    """Give a reply the same span as its parent: markers and reference next to the parent's."""
    found = markers(doc_root, parent_wid)
    if not found:
        return False
    for m in found:
        if m.tag == REF:
            run = m.getparent()
            run.addnext(reference_run(wid))
        else:
            m.addnext(etree.Element(m.tag, {W_ID: wid}))
    return True


def remove_anchor(doc, doc_root: etree._Element, wid: str) -> None:
    remove_markers(doc, markers(doc_root, wid))


def remove_markers(doc, found: list[etree._Element]) -> None:
    """Comment range marks and references gone (a reference's run too, when nothing else is in it)."""
    for m in found:
        if m.tag == REF:
            run = m.getparent()
            run.remove(m)
            if all(c.tag == w("rPr") for c in run):
                doc.ids.forget(run)
                run.getparent().remove(run)
        else:
            m.getparent().remove(m)


def anchored_text(doc_root: etree._Element, wid: str, limit: int = 200) -> str:
    """The text between a comment's range markers (deleted text left out)."""
    found = doc_root.xpath(".//w:commentRangeStart[@w:id=$i]", namespaces=_NSMAP, i=wid)
    if not found:
        return ""
    out: list[str] = []
    size = 0
    for el in _following(found[0]):
        if el.tag == END and el.get(W_ID) == wid:
            break
        if el.tag == B.W_T and B.find_ancestor(el, {w("del"), w("moveFrom")}) is None:
            out.append(el.text or "")
            size += len(el.text or "")
        elif el.tag == B.W_P and out:
            out.append(" ")
        if size > limit:
            break
    return "".join(out)[:limit]


def _following(el: etree._Element):
    cur = el
    while cur is not None:
        for sib in cur.itersiblings():
            yield sib
            yield from sib.iterdescendants()
        cur = cur.getparent()


def comment_text(comment: etree._Element) -> str:
    return "\n".join(B.paragraph_text(p) for p in comment.findall(w("p")))


@dataclass
class Listed:
    comment: etree._Element
    depth: int


def check_text(text: str) -> None:
    if not text or not text.strip():
        raise ValidationError("text is empty: a comment needs words.", hint="Pass the comment's text.")
    if len(text) > 100_000:
        raise ValidationError("text is over 100,000 characters.", error_type="LimitExceeded",
                              hint="Shorten the comment, or put the long text in the document itself.")


def not_found(raw: str) -> ElementNotFound:
    return ElementNotFound(f"Comment '{raw}' not found.", hint="docx_list_comments lists the comment IDs.")


__all__ = ["Comments", "DEFAULT_AUTHOR"]
