"""A paragraph's line, drawn from one table of inline kinds.

Each inline kind is an element path (``.//w:tag``, relative to the paragraph) and a way to draw
one match. The line is every kind's matches in document order, each drawn, with the *wrappers* a
match sits in (insertions, deletions, hyperlinks ...) opened and closed around runs of matches that
share them. A new inline kind (a field, a note reference, a comment mark) is one row in INLINE_KINDS
or WRAPPERS, not a special case in a run walker.

Reads the XML and never changes it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from lxml import etree

from ooxml.text import body as B
from ooxml.xml.namespaces import NSMAP, R, w


@dataclass(frozen=True)
class LineContext:
    """What drawing needs besides the element: the document (rels, numbering ...), if any, and
    the paragraph being drawn."""
    doc: object | None
    paragraph: etree._Element

    def relationship_target(self, rid: str | None) -> str | None:
        if self.doc is None or not rid:
            return None
        for rel in self.doc.package.rels(self.doc.part_of(self.paragraph).name):
            if rel.get("Id") == rid:
                return rel.get("Target")
        return None


@dataclass(frozen=True)
class InlineKind:
    name: str
    xpath: str  # ".//prefix:tag" relative to the paragraph; the nesting guard is _matches'
    draw: Callable[[etree._Element, LineContext], str]


@dataclass(frozen=True)
class Wrapper:
    """An element that wraps inline content: drawn as an opening and a closing mark."""
    open: Callable[[etree._Element, LineContext], str]
    close: Callable[[etree._Element, LineContext], str]


def _on(rpr: etree._Element | None, name: str) -> bool:
    if rpr is None:
        return False
    el = next(rpr.iterchildren(w(name)), None)  # find() goes through lxml's Python path code
    return el is not None and el.get(w("val"), "true").lower() not in ("0", "false", "off", "none")


_COLOURS = {"FF0000": "red", "C00000": "dark red", "00FF00": "green", "00B050": "green",
            "0000FF": "blue", "0070C0": "blue", "FFFF00": "yellow", "FFC000": "orange",
            "7030A0": "purple", "808080": "grey", "FFFFFF": "white"}


def colour_name(hex_value: str) -> str:
    return _COLOURS.get(hex_value.upper(), "#" + hex_value.upper())


_W_BR, _W_TYPE, _W_RPR, _W_COLOR, _W_HIGHLIGHT = w("br"), w("type"), w("rPr"), w("color"), w("highlight")


def marked_run_text(r: etree._Element, ctx: LineContext | None = None) -> str:
    """A run's text with **bold**, *italic* and [colour] marks, images as [IMG: name]."""
    text = B.run_text(r, deleted=True).replace("\n", "↵").replace("\t", "→")
    for name in B.run_images(r):
        text += f"[IMG: {name}]"
    if next(r.iterchildren(_W_BR), None) is not None and \
            any(b.get(_W_TYPE) == "page" for b in r.iterchildren(_W_BR)):
        text = text.replace("↵", "") + "[PAGE BREAK]"
    if not text.strip():
        return text
    rpr = next(r.iterchildren(_W_RPR), None)
    core, lead, trail = text.strip(), text[: len(text) - len(text.lstrip())], text[len(text.rstrip()):]
    if _on(rpr, "i"):
        core = f"*{core}*"
    if _on(rpr, "b"):
        core = f"**{core}**"
    colour = next(rpr.iterchildren(_W_COLOR), None) if rpr is not None else None
    if colour is not None and colour.get(w("val"), "auto").lower() not in ("auto", "000000"):
        name = colour_name(colour.get(w("val")))
        core = f"[{name}]{core}[/{name}]"
    return lead + shown_effects(rpr, core) + trail


# Run effects that change what a reader sees (or whether): [caps]…[/caps], [hl yellow]…[/hl] ...
_EFFECTS = (("caps", "caps"), ("smallCaps", "smallcaps"), ("vanish", "hidden"))


def shown_effects(rpr: etree._Element | None, core: str) -> str:
    """``core`` inside marks for the run's caps, small caps, hidden text and highlight."""
    if rpr is None:
        return core
    for prop, mark in _EFFECTS:
        if _on(rpr, prop):
            core = f"[{mark}]{core}[/{mark}]"
    highlight = next(rpr.iterchildren(_W_HIGHLIGHT), None)
    if highlight is not None and highlight.get(w("val"), "none") != "none":
        core = f"[hl {highlight.get(w('val'))}]{core}[/hl]"
    return core


def _hyperlink_target(el: etree._Element, ctx: LineContext) -> str:
    target = ctx.relationship_target(el.get(f"{{{R}}}id"))
    anchor = el.get(w("anchor"))
    if target:
        return target + (f"#{anchor}" if anchor else "")
    return f"#{anchor}" if anchor else ""


# ---- the table ----------------------------------------------------------------------------------

INLINE_KINDS: tuple[InlineKind, ...] = (
    InlineKind("run", ".//w:r", marked_run_text),
)

WRAPPERS: dict[str, Wrapper] = {
    w("ins"): Wrapper(lambda el, ctx: "[+", lambda el, ctx: "+]"),
    w("moveTo"): Wrapper(lambda el, ctx: "[+", lambda el, ctx: "+]"),
    w("del"): Wrapper(lambda el, ctx: "[-", lambda el, ctx: "-]"),
    w("moveFrom"): Wrapper(lambda el, ctx: "[-", lambda el, ctx: "-]"),
    w("hyperlink"): Wrapper(lambda el, ctx: "[", lambda el, ctx: f"]({_hyperlink_target(el, ctx)})"),
}

# Matches that belong to this paragraph: not inside a text box's own paragraphs (a nested w:p),
# and not in a markup-compatibility fallback (the choice is what a reader shows). Walked in Python,
# not as one XPath union: libxml2 merges union node-sets in quadratic time (20,000 footnote marks: 2 s).
_W_P, _FALLBACK = w("p"), f"{{{NSMAP['mc']}}}Fallback"


def _compile() -> dict:
    by_tag = {}
    for k in INLINE_KINDS:  # every kind is ".//prefix:tag"
        tag = k.xpath.rsplit("/", 1)[-1].split("[", 1)[0]
        prefix, _, local = tag.partition(":")
        by_tag[f"{{{NSMAP[prefix]}}}{local}"] = k
    return by_tag


def _matches(p: etree._Element) -> Iterator[etree._Element]:
    """The paragraph's inline elements of every kind, in document order, lazily."""
    if next(p.iterancestors(_FALLBACK), None) is not None:  # in C: an XPath costs twice as much
        return
    for el in p.iter(*_KIND_OF):
        a = el.getparent()
        while a is not p and a.tag != _W_P and a.tag != _FALLBACK:
            a = a.getparent()
        if a is p:
            yield el


_KIND_OF = _compile()


def register(kind: InlineKind | None = None, *, wrapper_tag: str | None = None,
             wrapper: Wrapper | None = None) -> None:
    """Add an inline kind or a wrapper (feature modules call this at import)."""
    global INLINE_KINDS, _KIND_OF
    if kind is not None:
        INLINE_KINDS = tuple(k for k in INLINE_KINDS if k.name != kind.name) + (kind,)
        _KIND_OF = _compile()
    if wrapper_tag is not None and wrapper is not None:
        WRAPPERS[wrapper_tag] = wrapper


def _wrappers(el: etree._Element, p: etree._Element) -> tuple[etree._Element, ...]:
    """The wrapper elements around ``el`` inside ``p``, outermost first."""
    found = []
    for a in el.iterancestors():
        if a is p:
            break
        if a.tag in WRAPPERS:
            found.append(a)
    return tuple(reversed(found))


def paragraph_line(p: etree._Element, doc=None, limit: int | None = None) -> str:
    """The paragraph as one line of marked text: every inline kind drawn in document order.

    ``limit``: stop once the line is that long (a box cuts it anyway; long paragraphs full of
    revisions would otherwise cost a draw per run that nobody sees).
    """
    ctx = LineContext(doc, p)
    out: list[str] = []
    size = 0
    open_now: tuple[etree._Element, ...] = ()
    for el in _matches(p):
        if limit is not None and size > limit:
            break
        kind = _KIND_OF.get(el.tag)
        if kind is None:
            continue
        text = kind.draw(el, ctx)
        if not text:
            continue
        wanted = () if el.getparent() is p else _wrappers(el, p)  # most runs sit in no wrapper
        keep = 0
        while keep < min(len(open_now), len(wanted)) and open_now[keep] is wanted[keep]:
            keep += 1
        for a in reversed(open_now[keep:]):
            out.append(WRAPPERS[a.tag].close(a, ctx))
        for a in wanted[keep:]:
            out.append(WRAPPERS[a.tag].open(a, ctx))
        open_now = wanted
        out.append(text)
        size += len(text)
    for a in reversed(open_now):
        out.append(WRAPPERS[a.tag].close(a, ctx))
    return "".join(out).replace("****", "").replace("**  **", "  ")
