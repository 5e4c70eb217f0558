"""Markdown (CommonMark + GFM tables and strikethrough) into the document's own structures.

Parsing is markdown-it-py's; this module maps its syntax tree: headings to the document's
heading styles, lists to real numbering (ooxml/markdown/mdlists.py), tables to Word tables
(ooxml/tabular/build.py), links to w:hyperlink with an external relationship, emphasis to run
properties, block quotes and code blocks to the "Quote" and "Source Code" paragraph styles
(added when missing), images to inline pictures. Blocks are built detached; the caller inserts
them with Document.insert_block.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from lxml import etree

from ooxml.math.from_latex import to_omml
from ooxml.xml import budget
from ooxml.text import images as I
from ooxml.text.build import make_run
from ooxml.xml.errors import LimitExceeded
from ooxml.text import notes as N
from ooxml.markdown.mdlists import ListWriter
from ooxml.opc.types import RT
from ooxml.xml.namespaces import R, w
from ooxml.xml.order import get_or_add, set_child
from ooxml.stylesheet.styles_builtin import ensure_heading_style, ensure_style
from ooxml.tabular.build import build_table, column_widths

if TYPE_CHECKING:
    from markdown_it.tree import SyntaxTreeNode

MAX_MARKDOWN = 2_000_000


_ticks = [0]


def _budget_rule(state, *args) -> bool:
    """A parser rule that never matches: it checks the call's budget now and then, as parsing two
    million characters of Markdown (40,000 footnotes) takes longer than a call may."""
    _ticks[0] += 1
    if not _ticks[0] % 512:
        budget.check()
    return False


@functools.cache
def _parser():
    """Built on first use, not at start-up (markdown-it's import is 15 ms of a worker's start)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.footnote import footnote_plugin

    # maxNesting above MAX_NESTING: markdown-it silently drops what is nested past its own limit,
    # so anything it could drop is refused first (parse).
    parser = MarkdownIt("commonmark", {"html": True, "maxNesting": 40}).enable(["table", "strikethrough"]) \
        .use(footnote_plugin) \
        .use(dollarmath_plugin, allow_labels=False, allow_space=False, allow_digits=False)  # $x$, $$x$$: equations
    parser.validateLink = lambda url: True  # every link becomes a link node: ooxml/opc/link_policy.py decides
    for ruler in (parser.block.ruler, parser.inline.ruler):
        ruler.before(ruler.get_all_rules()[0], "call_budget", _budget_rule)
    return parser


MAX_NESTING = 24  # token levels: block quotes/lists inside each other (a list level is two), emphasis inside emphasis


def link_targets(tree: SyntaxTreeNode) -> list[str]:
    """The external addresses the Markdown links to (not #anchors), for the link policy."""
    return [href for n in nodes(tree) if n.type == "link"
            for href in [n.attrs.get("href", "")] if href and not href.startswith("#")]


def parse(markdown: str) -> SyntaxTreeNode:
    from markdown_it.tree import SyntaxTreeNode

    tokens = _parser().parse(markdown)
    _check_nesting(tokens)
    return SyntaxTreeNode(tokens)


def _check_nesting(tokens) -> None:
    """LimitExceeded past MAX_NESTING: markdown-it drops blocks nested past its own limit, and
    the tree of deeply nested emphasis overflows Python's stack."""
    deepest = max((t.level for t in tokens), default=0)
    for t in tokens:
        depth = 0
        for child in t.children or ():
            depth += child.nesting
            deepest = max(deepest, depth)
    if deepest > MAX_NESTING:
        raise LimitExceeded(f"The Markdown is nested more than {MAX_NESTING} levels deep (block quotes, lists or "
                            "emphasis inside each other; a list level counts two).",
                            hint=f"Nest at most {MAX_NESTING} levels: flatten the deeper parts, or insert them "
                                 "as plain paragraphs.")


def nodes(tree: SyntaxTreeNode):
    """Every node of the tree, in document order. (Not tree.walk(): its nested generators cost
    more than the rest of a 200-line insert's checks.)"""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def image_sources(tree: SyntaxTreeNode) -> list[str]:
    """Every image path the Markdown names (the caller checks and reads them before any change)."""
    return [node.attrs.get("src", "") for node in nodes(tree) if node.type == "image"]


# ---- the builder --------------------------------------------------------------------------------

@dataclass
class Builder:
    doc: object
    part_name: str  # the part the blocks go into (relationships are its)
    text_width: int  # twips available to a table or picture
    images: dict = field(default_factory=dict)  # src -> ooxml.text.images.ImageFile, read beforehand
    max_image: tuple[int, int] = (5486400, 8229600)  # EMU
    word_ids: Callable | None = None  # () -> WordIds of the target part (docPr ids)
    blocks: list = field(default_factory=list)
    _styles: dict = field(default_factory=dict)
    _lists: ListWriter | None = None
    _definitions: dict = field(default_factory=dict)  # footnote id -> its definition node
    _next_note: int | None = None  # the id the next footnote gets (one scan of the notes per insert)

    def style(self, name: str) -> str | None:
        """ensure_style(), once per name and insert."""
        if name not in self._styles:
            self._styles[name] = ensure_style(self.doc, name)
        return self._styles[name]

    def heading_style(self, level: int) -> str:
        key = ("heading", level)
        if key not in self._styles:
            self._styles[key] = ensure_heading_style(self.doc, level)
        return self._styles[key]

    def build(self, tree: SyntaxTreeNode) -> list[etree._Element]:
        self._definitions = {n.meta.get("id"): n for n in nodes(tree) if n.type == "footnote"}
        for node in tree.children:
            self.block(node, {})
        return self._tables_apart(self.blocks)

    # ---- blocks ----------------------------------------------------------------------------
    def block(self, node: SyntaxTreeNode, ctx: dict) -> None:
        if not len(self.blocks) % 512:
            budget.check()  # 2,000,000 characters of Markdown are 100,000s of blocks
        kind = node.type
        if kind == "heading":
            level = int(node.tag[1:])
            self.blocks.append(self.paragraph(node.children[0], self.heading_style(level), ctx.pop("num", None)))
        elif kind == "paragraph":
            self.blocks.append(self.paragraph(node.children[0], ctx.get("style"), ctx.get("num")))
            ctx.pop("num", None)  # only an item's first paragraph carries its number
        elif kind in ("bullet_list", "ordered_list"):
            self.list_(node, ctx)
        elif kind == "blockquote":
            inner = {**ctx, "style": self.style("Quote")}
            for child in node.children:
                self.block(child, inner)
            if "num" not in inner:  # the quote's first paragraph took the item's number
                ctx.pop("num", None)
        elif kind in ("fence", "code_block"):
            p = self._styled_p(self.style("Source Code"))
            code = node.content[:-1] if node.content.endswith("\n") else node.content
            p.append(make_run(code, None if self.style("Source Code") else _mono_rpr()))
            self.blocks.append(p)
        elif kind == "table":
            self.blocks.append(self.table(node))
        elif kind == "math_block":
            p = self._styled_p(ctx.get("style"))
            p.append(to_omml(node.content.strip(), display=True))
            self.blocks.append(p)
        elif kind == "hr":
            p = etree.Element(w("p"))
            set_child(get_or_add(get_or_add(p, "pPr"), "pBdr"), "bottom", val="single", sz="6", space="1",
                      color="auto")
            self.blocks.append(p)
        elif kind == "html_block":
            text = node.content.strip()
            if text and not (text.startswith("<!--") and text.endswith("-->")):  # our ID comments
                self.blocks.append(self._with_runs(self._styled_p(ctx.get("style")), [make_run(text)]))

    def list_(self, node: SyntaxTreeNode, ctx: dict) -> None:
        depth = ctx.get("depth", -1) + 1
        num_id = ctx.get("num_id")
        if num_id is None:  # a top-level list: one numbering definition for it and its sublists
            self._lists = self._lists or ListWriter(self.doc)
            num_id = self._lists.add(_levels(node), _start(node))
        for item in node.children:
            inner = {"depth": depth, "num_id": num_id, "num": (num_id, depth),
                     "style": self.style("List Paragraph")}
            for child in item.children:
                self.block(child, inner)
            if inner.get("num") is not None:  # an empty item still shows its label
                self.blocks.append(self.paragraph(None, inner["style"], inner["num"]))

    def paragraph(self, inline: SyntaxTreeNode | None, style: str | None, num=None) -> etree._Element:
        p = self._styled_p(style)
        if num is not None:
            num_pr = get_or_add(get_or_add(p, "pPr"), "numPr")
            etree.SubElement(num_pr, w("ilvl"), {w("val"): str(min(num[1], 8))})
            etree.SubElement(num_pr, w("numId"), {w("val"): num[0]})
        if inline is not None:
            self._with_runs(p, self.inline(inline))
        return p

    def table(self, node: SyntaxTreeNode) -> etree._Element:
        rows = [tr for section in node.children for tr in section.children]
        n_cols = max(len(tr.children) for tr in rows)
        tbl = build_table(len(rows), n_cols, column_widths(self.text_width, n_cols),
                          self.doc.styles.default_table_style())
        for i, (tr_el, tr) in enumerate(zip(tbl.iter(w("tr")), rows)):
            if not i % 128:
                budget.check()
            for tc_el, cell in zip(tr_el.iter(w("tc")), tr.children):
                p = tc_el.find(w("p"))
                align = (cell.attrs.get("style") or "").replace("text-align:", "")
                if align in ("center", "right"):
                    set_child(get_or_add(p, "pPr"), "jc", val=align)
                if cell.children:
                    self._with_runs(p, self.inline(cell.children[0]))
        first = next(tbl.iter(w("tr")))
        set_child(get_or_add(first, "trPr"), "tblHeader")
        return tbl

    # ---- inline ----------------------------------------------------------------------------
    def inline(self, node: SyntaxTreeNode, marks: frozenset = frozenset()) -> list[etree._Element]:
        out: list[etree._Element] = []
        for child in node.children:
            kind = child.type
            if kind == "text":
                out.append(self.run(child.content, marks))
            elif kind == "softbreak":
                out.append(self.run(" ", marks))
            elif kind == "hardbreak":
                out.append(self.run("\n", marks))
            elif kind == "code_inline":
                out.append(self.run(child.content, marks | {"code"}))
            elif kind in ("em", "strong", "s"):
                out += self.inline(child, marks | {{"em": "i", "strong": "b", "s": "s"}[kind]})
            elif kind == "link":
                out.append(self.link(child, marks))
            elif kind == "image":
                out.append(self.image(child))
            elif kind == "footnote_ref":
                out.append(self.footnote(child))
            elif kind in ("math_inline", "math_inline_double"):
                out.append(to_omml(child.content.strip(), display=False))
            elif kind == "html_inline":
                if not child.content.startswith("<!--"):
                    out.append(self.run(child.content, marks))
        return out

    def run(self, text: str, marks: frozenset) -> etree._Element:
        return make_run(text, self._rpr(marks))

    def _rpr(self, marks: frozenset) -> etree._Element:
        """Run properties for a set of marks, built once per insert (make_run copies them)."""
        key = ("rPr", marks)
        if key in self._styles:
            return self._styles[key]
        rpr = etree.Element(w("rPr"))
        style = None
        if "code" in marks:
            style = self.style("Verbatim Char")
            if style is None:
                rpr = _mono_rpr()
        elif "link" in marks:
            style = self.style("Hyperlink")
        if style:
            set_child(rpr, "rStyle", val=style)
        for mark, tag in (("b", "b"), ("i", "i"), ("s", "strike")):
            if mark in marks:
                set_child(rpr, tag)
        self._styles[key] = rpr
        return rpr

    def link(self, node: SyntaxTreeNode, marks: frozenset) -> etree._Element:
        href = node.attrs.get("href", "")
        hyperlink = etree.Element(w("hyperlink"))
        if href.startswith("#"):
            hyperlink.set(w("anchor"), href[1:])
        else:
            hyperlink.set(f"{{{R}}}id", self.doc.package.relate(self.part_name, RT.HYPERLINK, href,
                                                            external=True))
        for r in self.inline(node, marks | {"link"}):
            hyperlink.append(r)
        return hyperlink

    def image(self, node: SyntaxTreeNode) -> etree._Element:
        image = self.images[node.attrs.get("src", "")]
        cx, cy = I.fit_size(image.natural_emu(), None, None, *self.max_image)
        rid = I.add_image_part(self.doc.package, self.part_name, image)
        drawing = I.inline_drawing(rid, cx, cy, self.word_ids().new_doc_pr(), image.name)
        alt = "".join(c.content for c in node.walk() if c.type == "text")
        if alt:
            next(drawing.iter("{*}docPr")).set("descr", alt)
        r = etree.Element(w("r"))
        r.append(drawing)
        return r

    def footnote(self, ref: SyntaxTreeNode) -> etree._Element:
        """A real footnote with the definition's paragraphs, and the run referencing it."""
        if self._next_note is not None and not self._next_note % 256:
            budget.check()  # tens of thousands of notes in one paragraph
        definition = self._definitions.get(ref.meta.get("id"))
        body_part, self.part_name = self.part_name, N.notes_part_name(self.doc, "footnote")  # links in the note: its rels
        try:
            paragraphs = [self._note_paragraph(n.children[0]) for n in (definition.children if definition else [])
                          if n.type == "paragraph"]
        finally:
            self.part_name = body_part
        if paragraphs:
            mark = self._note_mark(etree.Element(w("footnoteRef")))
            paragraphs[0].insert(1 if paragraphs[0].find(w("pPr")) is not None else 0, mark)
            mark.addnext(make_run(" "))
        self._next_note = N.add_note(self.doc, "footnote", paragraphs, self._next_note) + 1
        note_id = str(self._next_note - 1)
        return self._note_mark(etree.Element(w("footnoteReference"), {w("id"): note_id}))

    def _note_paragraph(self, inline: SyntaxTreeNode) -> etree._Element:
        return self._with_runs(self._styled_p(self.style("footnote text")), self.inline(inline))

    def _note_mark(self, child: etree._Element) -> etree._Element:
        r = etree.Element(w("r"))
        style = self.style("footnote reference")
        rpr = etree.SubElement(r, w("rPr"))
        if style:
            set_child(rpr, "rStyle", val=style)
        else:
            set_child(rpr, "vertAlign", val="superscript")
        r.append(child)
        return r

    # ---- helpers -----------------------------------------------------------------------------
    @staticmethod
    def _styled_p(style: str | None) -> etree._Element:
        p = etree.Element(w("p"))
        if style:
            set_child(get_or_add(p, "pPr"), "pStyle", val=style)
        return p

    @staticmethod
    def _with_runs(p: etree._Element, runs: list[etree._Element]) -> etree._Element:
        for r in runs:
            p.append(r)
        return p

    @staticmethod
    def _tables_apart(blocks: list[etree._Element]) -> list[etree._Element]:
        """Word merges neighbouring tables: an empty paragraph goes between them."""
        out = []
        for el in blocks:
            if out and el.tag == w("tbl") and out[-1].tag == w("tbl"):
                out.append(etree.Element(w("p")))
            out.append(el)
        return out


def _mono_rpr() -> etree._Element:
    rpr = etree.Element(w("rPr"))
    set_child(rpr, "rFonts", ascii="Courier New", hAnsi="Courier New", cs="Courier New")
    return rpr


def _levels(node: SyntaxTreeNode, depth: int = 0, found: dict | None = None) -> dict[int, bool]:
    """Level -> numbered?, for a list and the lists nested in it (the first list at a level decides)."""
    found = {} if found is None else found
    found.setdefault(depth, node.type == "ordered_list")
    for item in node.children:
        for child in item.children:
            if child.type in ("bullet_list", "ordered_list"):
                _levels(child, depth + 1, found)
    return found


def _start(node: SyntaxTreeNode) -> int:
    try:
        return int(node.attrs.get("start", 1)) if node.type == "ordered_list" else 1
    except (TypeError, ValueError):
        return 1
