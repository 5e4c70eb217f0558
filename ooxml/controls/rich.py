"""Rich text controls take Markdown (SPEC §11): built by ooxml/markdown/markdown_in.py into the control's
content, each run keeping the control's own run formatting under what the Markdown adds."""
from __future__ import annotations

import copy
import re

from lxml import etree

from ooxml.text import body as B
from ooxml.xml.errors import ValidationError
from ooxml.markdown.markdown_in import MAX_MARKDOWN, Builder, image_sources, link_targets, nodes, parse
from ooxml.xml.namespaces import w
from ooxml.xml.order import insert_child

# Plain text needs no Markdown: the plain path keeps the content's runs and formatting as they are.
_SYNTAX = re.compile(r"[*_`#\[\]|>~]|^\s*(?:[-+]|\d+[.)])\s", re.M)
_INLINE_ONLY = {"paragraph"}


def is_markdown(text: str) -> bool:
    return bool(_SYNTAX.search(text))


def check(text: str, inline: bool, check_url=None) -> None:
    """Refuse what a control cannot hold; nothing is built yet."""
    if len(text) > MAX_MARKDOWN:
        raise ValidationError(f"The Markdown is {len(text):,} characters, over {MAX_MARKDOWN:,}.",
                              hint="Pass a shorter value.")
    tree = parse(text)
    if image_sources(tree) or any(n.type.startswith("footnote") for n in nodes(tree)):
        raise ValidationError("A rich text value cannot hold images or footnotes.",
                              hint="Use a picture control for images; write notes with docx_insert_footnote.")
    if inline and any(n.type not in _INLINE_ONLY for n in tree.children):
        raise ValidationError("An inline rich text control takes one paragraph of Markdown (bold, italic, links).",
                              hint="Leave out headings, lists and tables, or use a block-level control.")
    for href in link_targets(tree) if check_url else []:
        check_url(href)


def build(doc, sdt: etree._Element, text: str) -> list[etree._Element]:
    builder = Builder(doc, doc.part_of(sdt).name, 9360, {}, (5486400, 8229600), lambda: doc.word_ids(sdt))
    return builder.build(parse(text))


def with_model(runs, model: etree._Element | None) -> None:
    """Each run's properties on top of the control's own (the Markdown's win)."""
    if model is None:
        return
    for r in runs:
        own = r.find(w("rPr"))
        merged = copy.deepcopy(model)
        for child in list(own) if own is not None else []:
            for same in merged.findall(child.tag):
                merged.remove(same)
            try:
                insert_child(merged, copy.deepcopy(child))
            except ValueError:
                merged.append(copy.deepcopy(child))
        if own is not None:
            r.remove(own)
        r.insert(0, merged)


def place(doc, ctrl, text: str, model: etree._Element | None) -> None:
    """Replace the control's content with the Markdown's blocks (block level) or runs (inline)."""
    content = ctrl.content if ctrl.content is not None else etree.SubElement(ctrl.el, w("sdtContent"))
    blocks = build(doc, ctrl.el, text)
    if ctrl.level == "inline":
        inline = []
        for i, p in enumerate(b for b in blocks if b.tag == B.W_P):
            if i:
                br = etree.Element(w("r"))
                etree.SubElement(br, w("br"))
                inline.append(br)
            inline += [c for c in p if c.tag != w("pPr")]
        for child in [c for c in content if c.tag not in B.MARKERS]:
            content.remove(child)
        content.extend(inline)
        with_model([r for el in inline for r in el.iter(B.W_R)], model)
        return
    keep = content.find(B.W_P)
    ppr = keep.find(w("pPr")) if keep is not None else None
    for child in [c for c in content if B.is_block(c)]:
        content.remove(child)
    for b in blocks:
        if b.tag == B.W_P and b.find(w("pPr")) is None and ppr is not None:
            b.insert(0, copy.deepcopy(ppr))
        content.append(b)
    with_model([r for b in blocks for r in b.iter(B.W_R)], model)
