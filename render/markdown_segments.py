"""A paragraph's runs read as Markdown segments: text with its marks (bold, italic, strikethrough,
code), links, revisions, images and charts, note references, breaks and equations (as LaTeX).

Why apart from the block exporter: the same reading serves body paragraphs, table cells and notes,
and it keeps the caches a reading needs (relationship targets per part)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ooxml.charts import locate
from ooxml.math.legacy import is_legacy_equation
from ooxml.text import body as B
from ooxml.xml.namespaces import A, M, R, WP, w
from render.equations import shown as shown_equation
from render.markdown_inline import ESCAPE, Segment, md_url

CODE_CHAR_STYLES = {"verbatim char", "html code", "code char", "source code char", "inline code"}
MONOSPACE = {"courier new", "consolas", "courier", "menlo", "monaco", "lucida console", "source code pro"}
OMATH, OMATH_PARA = f"{{{M}}}oMath", f"{{{M}}}oMathPara"
CHART = "{http://schemas.openxmlformats.org/drawingml/2006/chart}chart"
_RUNLIKE = {w(n) for n in "smartTag customXml fldSimple bdo dir sdtContent".split()}


@dataclass
class Segments:
    doc: object
    notes: list = field(default_factory=list)  # (label, kind, note id) in order of reference
    _rels: dict | None = None

    def of(self, p) -> list[Segment]:
        """The segments of paragraph ``p`` (or any container of runs), in order."""
        out: list[Segment] = []
        self._collect(p, out, frozenset(), None, None)
        return out

    def _collect(self, parent, out, marks, link, rev) -> None:
        for child in parent:
            tag = child.tag
            if tag == B.W_R:
                self._run(child, out, link, rev)
            elif tag == w("hyperlink"):
                self._collect(child, out, marks, self._link_target(child) or link, rev)
            elif tag in (w("ins"), w("moveTo")):
                self._collect(child, out, marks, link, "ins")
            elif tag in (w("del"), w("moveFrom")):
                self._collect(child, out, marks, link, "del")
            elif tag == B.W_SDT:
                content = child.find(B.W_SDTCONTENT)
                if content is not None:
                    self._collect(content, out, marks, link, rev)
            elif tag in _RUNLIKE:
                self._collect(child, out, marks, link, rev)
            elif tag in (OMATH, OMATH_PARA):  # equations as LaTeX, GitHub's $…$ / $$…$$ math
                text = shown_equation(child)
                if text:
                    gap = " " if out and out[-1].text.endswith("$") else ""  # '$$' would open display math
                    out.append(Segment("image", f"{gap}{text}", frozenset(), link, rev))

    def _run(self, r, out, link, rev) -> None:
        self._run_children(r, self._marks(r), out, link, rev)

    def _run_children(self, r, marks, out, link, rev) -> None:
        for child in r:
            tag = child.tag
            if tag == B.MC_ALT:  # what Word shows: the Choice (its Fallback is a copy for old readers)
                choice = child.find(B.MC_CHOICE)
                if choice is not None:
                    self._run_children(choice, marks, out, link, rev)
                continue
            if tag in (w("drawing"), w("pict")) and next(child.iter(B.W_TXBX), None) is not None:
                continue  # a text box: its paragraphs follow as blocks
            if tag in (B.W_T, w("delText")):
                if child.text:
                    out.append(Segment("text", child.text, marks, link, rev))
            elif tag == w("tab"):
                out.append(Segment("text", "\t", marks, link, rev))
            elif tag in (w("br"), w("cr")):
                if child.get(w("type")) != "page":
                    out.append(Segment("break", "", marks, link, rev))
            elif tag == w("noBreakHyphen"):
                out.append(Segment("text", "\u2011", marks, link, rev))
            elif tag in (w("drawing"), w("pict")):
                out.append(Segment("image", self._image(child), marks, link, rev))
            elif tag == w("object") and is_legacy_equation(child):  # its formula is binary: never nothing
                out.append(Segment("text", "[equation]", marks, link, rev))
            elif tag in (w("footnoteReference"), w("endnoteReference")):
                kind = "footnote" if tag == w("footnoteReference") else "endnote"
                label = child.get(w("id"), "?") if kind == "footnote" else "e" + child.get(w("id"), "?")
                self.notes.append((label, kind, child.get(w("id"))))
                out.append(Segment("note", f"[^{label}]", marks, link, rev))

    def _marks(self, r) -> frozenset:
        rpr = r.find(w("rPr"))
        if rpr is None:
            return frozenset()
        marks = set()
        if _on(rpr, "b"):
            marks.add("b")
        if _on(rpr, "i"):
            marks.add("i")
        if _on(rpr, "strike") or _on(rpr, "dstrike"):
            marks.add("s")
        rstyle = rpr.find(w("rStyle"))
        name = self.doc.styles.name(rstyle.get(w("val"), "")).lower() if rstyle is not None else ""
        fonts = rpr.find(w("rFonts"))
        font = (fonts.get(w("ascii")) or fonts.get(w("hAnsi")) or "").lower() if fonts is not None else ""
        if name in CODE_CHAR_STYLES or font in MONOSPACE:
            marks.add("code")
        elif name == "strong":
            marks.add("b")
        elif name == "emphasis":
            marks.add("i")
        return frozenset(marks)

    def _target(self, el, rid: str) -> str | None:
        """A relationship's target, from the rels of the part holding ``el`` (body or notes)."""
        part = self.doc.part_of(el).name
        self._rels = self._rels or {}
        if part not in self._rels:
            self._rels[part] = {rel.get("Id"): rel.get("Target") for rel in self.doc.package.rels(part)}
        return self._rels[part].get(rid)

    def _link_target(self, hyperlink) -> str | None:
        rid = hyperlink.get(f"{{{R}}}id")
        if rid:
            return self._target(hyperlink, rid)
        anchor = hyperlink.get(w("anchor"))
        return "#" + anchor if anchor else None

    def _image(self, drawing) -> str:
        ref = next(drawing.iter(CHART), None)
        if ref is not None:
            chart = locate.read(self.doc, ref) if self.doc is not None else None
            kind = chart.kind if chart is not None else "chart"
            title = f": {chart.title}" if chart is not None and chart.title else ""
            return f"*Chart ({kind}){title.translate(ESCAPE)}*"
        doc_pr = next(drawing.iter(f"{{{WP}}}docPr"), None)
        alt = (doc_pr.get("descr") or "") if doc_pr is not None else ""
        name = (doc_pr.get("name") or "") if doc_pr is not None else ""
        if "." not in name:  # 'Picture 3' names no file: use the media part's name
            blip = next(drawing.iter(f"{{{A}}}blip"), None)
            rid = blip.get(f"{{{R}}}embed") if blip is not None else None
            name = self._target(drawing, rid).rsplit("/", 1)[-1] if rid and self._target(drawing, rid) else name
        return f"![{alt.translate(ESCAPE)}]({md_url(name or 'image')})"


def _on(rpr, name: str) -> bool:
    el = rpr.find(w(name))
    return el is not None and el.get(w("val"), "true").lower() not in ("0", "false", "off", "none")
