"""Field results brought up to date, in Word's order: SEQ numbers first (references read them),
then references and properties, then page numbers (from a layout, ooxml/refs/page_fields.py).

Each stage plans its changes from the state as it is, lets the caller announce the paragraphs
(undo), then writes them (tracked as Word records an update).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ooxml.refs import compute as C
from ooxml.refs import field_list as FLD
from ooxml.refs import page_fields as PF

KINDS = (*C.COMPUTED, *PF.PAGED)


@dataclass
class Change:
    field: FLD.Field
    old: str
    new: str


def stage(doc, fields: list[FLD.Field], names: set[str], result: Callable, announce: Callable) -> list[Change]:
    """The ``names`` fields whose result differs from ``result(f)``, rewritten (paragraphs announced first)."""
    plan = []
    for f in fields:
        if f.name not in names or f.in_code:  # a field in another's instruction: Word shows its result nowhere
            continue
        new = result(f)
        old = FLD.result_of(f)
        if new is not None and old is not None and new != old:
            plan.append(Change(f, old, new))
    announce(*{id(c.field.paragraph): c.field.paragraph for c in plan if c.field.paragraph is not None}.values())
    for c in plan:
        FLD.write_result(doc, c.field, c.new)
    return plan


def update_computed(doc, kinds: set[str], announce: Callable, fields: list[FLD.Field] | None = None) -> list[Change]:
    """SEQ, then REF, NOTEREF, STYLEREF and DOCPROPERTY, as ``kinds`` allows."""
    fields = FLD.all_fields(doc) if fields is None else fields
    changes = stage(doc, fields, kinds & {"SEQ"}, C.Results(doc, fields).of, announce)
    results = C.Results(doc, fields)  # afresh: references read the new numbers
    return changes + stage(doc, fields, kinds & set(C.COMPUTED) - {"SEQ"}, results.of, announce)


def update_paged(doc, kinds: set[str], pages: PF.Pages, announce: Callable,
                 fields: list[FLD.Field] | None = None) -> list[Change]:
    fields = FLD.all_fields(doc) if fields is None else fields
    return stage(doc, fields, kinds & set(PF.PAGED), PF.PageResults(doc, pages).of, announce)


def needs_layout(fields: list[FLD.Field], kinds: set[str]) -> bool:
    return any(f.name in kinds and f.name in PF.PAGED and PF.computable(f) for f in fields)
