"""How views draw content controls: inline ones as ``⟦tag: value⟧`` around their runs, block-level
ones with their kind and tag in the box title. Reads only."""
from __future__ import annotations

from lxml import etree

from ooxml.controls import model as M
from ooxml.xml.namespaces import w
from render import blocks
from render.inline import Wrapper
from render.renderer import Renderer


def _name(sdt: etree._Element) -> str:
    ctrl = M.read(sdt)
    name = ctrl.tag or ctrl.alias or ctrl.kind.replace("_", " ")
    return f"{name} (placeholder)" if ctrl.placeholder else name


def _open(sdt: etree._Element, ctx) -> str:
    return f"⟦{_name(sdt)}: "


def title(doc, sdt: etree._Element) -> str | None:
    ctrl = M.read(sdt)
    if M.is_toc(ctrl):
        return None
    extra = f" [{ctrl.tag or ctrl.alias}]" if ctrl.tag or ctrl.alias else ""
    shown = " (placeholder)" if ctrl.placeholder else ""
    return f"Content Control ({blocks.element_id(sdt)}) {ctrl.kind.replace('_', ' ')}{extra}{shown}"


RENDERER = Renderer(wrappers={w("sdt"): Wrapper(_open, lambda el, ctx: "⟧")}, titles={w("sdt"): title})
