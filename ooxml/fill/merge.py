"""MERGEFIELD fields, simple (``w:fldSimple``) and complex (begin, instruction, separate, result,
end in one paragraph): the whole field becomes its value, formatted like its result's first run."""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass

from lxml import etree

from ooxml.text import body as B
from ooxml.review import revisions as REV
from ooxml.text.build import make_run
from ooxml.xml.namespaces import w

_NAME = re.compile(r'^\s*MERGEFIELD\s+(?:"([^"]+)"|([^\s\\"]+))', re.I)
_FLD = w("fldChar")


@dataclass
class MergeField:
    name: str
    runs: list[etree._Element]  # the field's runs (complex) or [the fldSimple]
    model: etree._Element | None  # the run whose formatting the value takes


def name_of(instr: str) -> str | None:
    m = _NAME.match(instr or "")
    return (m.group(1) or m.group(2)) if m else None


def in_paragraph(p: etree._Element) -> list[MergeField]:
    out = []
    for simple in p.iter(w("fldSimple")):
        name = name_of(simple.get(w("instr")))
        if name and B.find_ancestor(simple, B.W_P) is p:
            out.append(MergeField(name, [simple], next(simple.iter(B.W_R), None)))
    runs = [r for r in B.iter_runs(p) if r.getparent().tag != w("fldSimple")]
    i = 0
    while i < len(runs):
        f = runs[i].find(_FLD)
        if f is None or f.get(w("fldCharType")) != "begin":
            i += 1
            continue
        found = _complex(runs, i)
        if found is None:
            i += 1
            continue
        field, end = found
        if field is not None:
            out.append(field)
        i = end + 1
    return out


def _complex(runs: list[etree._Element], start: int):
    """(MergeField or None, index of the end run) for the field beginning at ``start``."""
    depth, instr, result_model, separated = 0, [], None, False
    for j in range(start, len(runs)):
        r = runs[j]
        for child in r:
            if child.tag == _FLD:
                kind = child.get(w("fldCharType"))
                depth += 1 if kind == "begin" else -1 if kind == "end" else 0
                if kind == "separate" and depth == 1:
                    separated = True
            elif child.tag == w("instrText") and depth == 1 and not separated:
                instr.append(child.text or "")
            elif child.tag == B.W_T and separated and depth == 1 and result_model is None:
                result_model = r
        if depth == 0:
            name = name_of("".join(instr))
            group = runs[start:j + 1]
            same_parent = all(x.getparent() is group[0].getparent() for x in group)
            if name and same_parent:
                return MergeField(name, group, result_model if result_model is not None else runs[start]), j
            return None, j
    return None


def replace(doc, field: MergeField, value: str, tracked: bool) -> None:
    rpr = field.model.find(w("rPr")) if field.model is not None else None
    run = make_run(value, copy.deepcopy(rpr) if rpr is not None else None)
    last = field.runs[-1]
    if tracked:
        if field.runs[0].tag == w("fldSimple"):
            REV.delete_runs(doc, list(field.runs[0].iter(B.W_R)))
        else:
            REV.delete_runs(doc, field.runs)
            last = field.runs[-1].getparent() if field.runs[-1].getparent().tag == w("del") else last
        REV.place_inserted_run(doc, run, after=last)
        return
    last.addnext(run)
    for el in field.runs:
        if el.getparent() is not None:
            el.getparent().remove(el)
