"""Office Math (``m:oMath``, ``m:oMathPara``) as LaTeX: one function per OMML structure in ``_RULES``.

Reads the tree and never changes it. Unknown structures show their arguments, never nothing.
"""
from __future__ import annotations

import re
from typing import Callable

from lxml import etree

from ooxml.math.symbols import latex_of_text
from ooxml.xml.namespaces import M, W

_M = f"{{{M}}}"
_VAL = f"{_M}val"
_T, _R, _RPR = f"{_M}t", f"{_M}r", f"{_M}rPr"
_E, _NUM, _DEN, _SUB, _SUP, _DEG = (_M + name for name in ("e", "num", "den", "sub", "sup", "deg"))
_FPR, _RADPR = f"{_M}fPr", f"{_M}radPr"
FUNCTIONS = frozenset("sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth log ln lg exp "
                      "det dim gcd hom ker deg arg inf sup lim liminf limsup max min Pr".split())
_LIMIT_OPS = frozenset("lim liminf limsup max min sup inf det gcd Pr".split())
_NARY = {"∑": r"\sum", "∏": r"\prod", "∐": r"\coprod", "∫": r"\int", "∬": r"\iint", "∭": r"\iiint",
         "∮": r"\oint", "∯": r"\oiint", "⋃": r"\bigcup", "⋂": r"\bigcap", "⋁": r"\bigvee", "⋀": r"\bigwedge",
         "⨁": r"\bigoplus", "⨂": r"\bigotimes", "⨀": r"\bigodot", "⨄": r"\biguplus"}
_ACCENTS = {"\u0302": r"\hat", "^": r"\hat", "\u0304": r"\bar", "\u0305": r"\bar", "¯": r"\bar",
            "\u0307": r"\dot", "˙": r"\dot", "\u0308": r"\ddot", "¨": r"\ddot", "\u20db": r"\dddot",
            "\u20d7": r"\vec", "→": r"\vec", "\u0303": r"\tilde", "~": r"\tilde", "\u030c": r"\check",
            "ˇ": r"\check", "\u0301": r"\acute", "´": r"\acute", "\u0300": r"\grave", "`": r"\grave",
            "\u0306": r"\breve", "˘": r"\breve", "\u030a": r"\mathring", "˚": r"\mathring",
            "\u20d6": r"\overleftarrow", "\u20e1": r"\overleftrightarrow"}
_LEFT = {"(": "(", ")": ")", "[": "[", "]": "]", "{": r"\{", "}": r"\}", "|": "|", "‖": r"\|",
         "⟨": r"\langle", "⟩": r"\rangle", "〈": r"\langle", "〉": r"\rangle", "⌊": r"\lfloor",
         "⌋": r"\rfloor", "⌈": r"\lceil", "⌉": r"\rceil", "": "."}
_SINGLE_COMMAND = re.compile(r"\\[A-Za-z]+")
_MIDDLE = r"\middle"
_MATRIX_FENCES = {("(", ")"): "pmatrix", ("[", "]"): "bmatrix", ("|", "|"): "vmatrix",
                  ("‖", "‖"): "Vmatrix", ("{", "}"): "Bmatrix"}


def to_latex(math: etree._Element) -> str:
    """An ``m:oMath`` or ``m:oMathPara`` (or any OMML element) as LaTeX."""
    if math.tag == f"{_M}oMathPara":
        return r" \\ ".join(_row(o).strip() for o in math.iter(f"{_M}oMath") if _outermost(o, math))
    return _row(math).strip()


def is_display(math: etree._Element) -> bool:
    return math.tag == f"{_M}oMathPara" or math.getparent() is not None and \
        math.getparent().tag == f"{_M}oMathPara"


def _outermost(o: etree._Element, top: etree._Element) -> bool:
    parent = o.getparent()
    while parent is not None and parent is not top:
        if parent.tag == f"{_M}oMath":
            return False
        parent = parent.getparent()
    return True


def _prop(el: etree._Element, pr: str, name: str, default: str | None = None) -> str | None:
    # what el.find("m:pr/m:name") finds, by plain loops: find goes through lxml's Python ElementPath,
    # iterchildren(tag) builds a tag matcher (1 µs a call, more than the loop over a structure's children)
    pr, name = _M + pr, _M + name
    for props in el:
        if props.tag == pr:
            for node in props:
                if node.tag == name:
                    return node.get(_VAL, "on")
    return default


def _on(el: etree._Element, pr: str, name: str) -> bool:
    return (_prop(el, pr, name, "off") or "on") in ("on", "1", "true")


def _child(el: etree._Element, tag: str) -> etree._Element | None:
    for child in el:  # el.find(tag), without its Python path walk (see _prop)
        if child.tag == tag:
            return child
    return None


def _children(el: etree._Element, tag: str) -> list[etree._Element]:
    return [child for child in el if child.tag == tag]  # el.findall(tag)


def _arg(el: etree._Element, name: str) -> str:
    name = _M + name
    for child in el:  # el.find's answer, without its Python path walk (see _prop)
        if child.tag == name:
            return _row(child).strip()
    return ""


def _row(el: etree._Element) -> str:
    """The children of an argument (m:e, m:num …) one after another, commands kept apart."""
    out = ""
    for child in el:
        tag = child.tag  # lxml builds the string on each read
        if tag == _R and len(child) == 1:  # most children: a run of one m:t, no properties (no call)
            t = child[0]
            if t.tag == _T and not len(t):
                text = t.text
                piece = latex_of_text(text) if text else ""
            else:
                piece = _run(child)
        else:
            rule = _RULES.get(tag)
            piece = rule(child) if rule else (_row(child) if tag.startswith(_M) and
                                               not tag.endswith("Pr") else _foreign(child))
        if out and piece and out[-1].isalpha() and piece[0].isalpha() and _ends_command(out):
            out += " "
        out += piece
    return out


def _ends_command(text: str) -> bool:
    i = len(text)
    while i and text[i - 1].isalpha():
        i -= 1
    return i > 0 and text[i - 1] == "\\"


def _foreign(el: etree._Element) -> str:
    """A Word run (w:r) or other non-math content inside math: its text, as text."""
    text = "".join(t.text or "" for t in el.iter(f"{{{W}}}t"))
    return rf"\text{{{text}}}" if text else ""


def _group(text: str) -> str:
    return text if len(text) == 1 or _SINGLE_COMMAND.fullmatch(text) else f"{{{text}}}"


def _run(r: etree._Element) -> str:
    if len(r) == 1:  # most runs: one m:t, no properties
        t = r[0]
        if t.tag == _T and not len(t):
            return latex_of_text(t.text) if t.text else ""
    text = "".join(t.text or "" for t in r.iter(_T))
    if not text:
        return ""
    rpr = _child(r, _RPR)  # most runs have none: no path lookups then
    if rpr is None:
        return latex_of_text(text)
    if _on(r, "rPr", "nor") or _child(rpr, f"{_M}lit") is not None and text.isalpha():
        return rf"\text{{{text}}}"
    word = "".join(text.split())
    if _prop(r, "rPr", "sty") == "p" and len(word) > 1 and word.isalpha():
        return "\\" + word if word in FUNCTIONS else rf"\operatorname{{{text}}}"
    return latex_of_text(text)


def _split(el: etree._Element, pr: str) -> tuple[dict, list]:
    """``el``'s children in one pass (a structure's rule would walk them once per argument): the
    first of each tag, and every ``pr`` property element (``_prop`` reads them all, in order)."""
    first: dict = {}
    props = []
    for child in el:
        tag = child.tag
        if tag == pr:
            props.append(child)
        elif tag not in first:
            first[tag] = child
    return first, props


def _value(props: list, name: str, default: str | None) -> str | None:
    """``_prop`` over property elements ``_split`` found."""
    name = _M + name
    for pr in props:
        for node in pr:
            if node.tag == name:
                return node.get(_VAL, "on")
    return default


def _text(el: etree._Element | None) -> str:
    return "" if el is None else _row(el).strip()


def _frac(f: etree._Element) -> str:
    parts, props = _split(f, _FPR)
    num, den = _text(parts.get(_NUM)), _text(parts.get(_DEN))
    kind = _value(props, "type", "bar")
    if kind == "noBar":
        return rf"\binom{{{num}}}{{{den}}}"
    if kind in ("lin", "skw"):
        return f"{_group(num)}/{_group(den)}"
    return rf"\frac{{{num}}}{{{den}}}"


def _script(el: etree._Element, sub: bool, sup: bool) -> str:
    parts = _split(el, "")[0]
    base = _text(parts.get(_E))
    out = _group(base) if base else "{}"
    if sub:
        out += "_" + _braced(_text(parts.get(_SUB)))
    if sup:
        mark = _text(parts.get(_SUP))
        out += mark if mark and set(mark) == {"'"} else "^" + _braced(mark)
    return out


def _braced(text: str) -> str:
    return f"{{{text}}}"


def _pre(el: etree._Element) -> str:
    return "{}_" + _braced(_arg(el, "sub")) + "^" + _braced(_arg(el, "sup")) + _group(_arg(el, "e"))


def _rad(el: etree._Element) -> str:
    parts, props = _split(el, _RADPR)
    deg, base = _text(parts.get(_DEG)), _text(parts.get(_E))
    if (_value(props, "degHide", "off") or "on") in ("on", "1", "true") or not deg:
        return rf"\sqrt{{{base}}}"
    return rf"\sqrt[{deg}]{{{base}}}"


def _nary(el: etree._Element) -> str:
    op = _prop(el, "naryPr", "chr", "∫")
    out = _NARY.get(op) or latex_of_text(op)
    if not _on(el, "naryPr", "subHide") and _arg(el, "sub"):
        out += "_" + _braced(_arg(el, "sub"))
    if not _on(el, "naryPr", "supHide") and _arg(el, "sup"):
        out += "^" + _braced(_arg(el, "sup"))
    body = _arg(el, "e")
    return f"{out} {body}" if body else out


def _delimiter(el: etree._Element) -> str:
    beg, end = _prop(el, "dPr", "begChr", "("), _prop(el, "dPr", "endChr", ")")
    sep = _prop(el, "dPr", "sepChr", "|")
    args = [_row(e).strip() for e in _children(el, f"{_M}e")]
    if len(args) == 1:
        only = [c for c in _child(el, f"{_M}e") if not c.tag.endswith("Pr")]
        if len(only) == 1 and only[0].tag in (f"{_M}m", f"{_M}eqArr"):
            env = "cases" if (beg, end) == ("{", "") else _MATRIX_FENCES.get((beg, end))
            if env:
                return _table(only[0], env)
        if len(only) == 1 and only[0].tag == f"{_M}f" and (beg, end) == ("(", ")") and \
                _prop(only[0], "fPr", "type") == "noBar":
            return args[0]
    middle = f" {_fence(sep, _MIDDLE)} ".join(args) if len(args) > 1 else (args[0] if args else "")
    return _joined(rf"\left{_fence(beg)}", middle) + rf"\right{_fence(end)}"


def _joined(left: str, right: str) -> str:
    """``left`` then ``right``, a space between when a command would run into a letter."""
    gap = " " if right[:1].isalpha() and _ends_command(left) else ""
    return left + gap + right


def _fence(char: str, prefix: str = "") -> str:
    out = _LEFT.get(char, latex_of_text(char))
    return f"{prefix}{out}" if prefix else out


def _rows(el: etree._Element) -> list[list[str]]:
    if el.tag == f"{_M}eqArr":
        return [[_row(e).strip()] for e in _children(el, f"{_M}e")]
    return [[_row(e).strip() for e in _children(mr, f"{_M}e")] for mr in _children(el, f"{_M}mr")]


def _table(el: etree._Element, env: str) -> str:
    body = r" \\ ".join(" & ".join(cells) for cells in _rows(el))
    return rf"\begin{{{env}}}{body}\end{{{env}}}"


def _acc(el: etree._Element) -> str:
    char = _prop(el, "accPr", "chr", "\u0302")
    command = _ACCENTS.get(char)
    if command is None:
        return rf"\overset{{{latex_of_text(char)}}}{{{_arg(el, 'e')}}}"
    base = _arg(el, "e")
    if command in (r"\hat", r"\tilde") and len(base) > 1:
        command = r"\widehat" if command == r"\hat" else r"\widetilde"
    return f"{command}{{{base}}}"


def _bar(el: etree._Element) -> str:
    top = _prop(el, "barPr", "pos", "bot") == "top"
    return (r"\overline" if top else r"\underline") + _braced(_arg(el, "e"))


def _func(el: etree._Element) -> str:
    name_el = _child(el, f"{_M}fName")
    name = "" if name_el is None else _row(name_el).strip()
    body = _arg(el, "e")
    if name.isalpha() and name in FUNCTIONS:
        name = "\\" + name
    elif name.isalpha():
        name = rf"\operatorname{{{name}}}"
    return f"{name} {body}".strip() if body[:1].isalpha() or body[:1] == "\\" else name + body


def _lim(el: etree._Element, low: bool) -> str:
    base_el = _child(el, f"{_M}e")
    base, lim = _arg(el, "e"), _arg(el, "lim")
    if base.lstrip("\\") in _LIMIT_OPS or base.startswith((r"\underbrace", r"\overbrace", r"\operatorname")):
        return base + ("_" if low else "^") + _braced(lim)
    if base_el is not None and len(base_el) == 1 and base_el[0].tag == f"{_M}groupChr":
        return base + ("_" if low else "^") + _braced(lim)
    return (r"\underset" if low else r"\overset") + _braced(lim) + _braced(base)


def _group_chr(el: etree._Element) -> str:
    char = _prop(el, "groupChrPr", "chr", "⏟")
    pos = _prop(el, "groupChrPr", "pos", "bot")
    base = _arg(el, "e")
    if char == "⏞" or (char != "⏟" and pos == "top"):
        return rf"\overbrace{{{base}}}" if char in ("⏞", "︷") else rf"\overset{{{latex_of_text(char)}}}{{{base}}}"
    return rf"\underbrace{{{base}}}" if char in ("⏟", "︸") else rf"\underset{{{latex_of_text(char)}}}{{{base}}}"


_RULES: dict[str, Callable[[etree._Element], str]] = {
    f"{_M}r": _run,
    f"{_M}f": _frac,
    f"{_M}sSub": lambda el: _script(el, True, False),
    f"{_M}sSup": lambda el: _script(el, False, True),
    f"{_M}sSubSup": lambda el: _script(el, True, True),
    f"{_M}sPre": _pre,
    f"{_M}rad": _rad,
    f"{_M}nary": _nary,
    f"{_M}d": _delimiter,
    f"{_M}m": lambda el: _table(el, "matrix"),
    f"{_M}eqArr": lambda el: _table(el, "aligned"),
    f"{_M}acc": _acc,
    f"{_M}bar": _bar,
    f"{_M}func": _func,
    f"{_M}limLow": lambda el: _lim(el, True),
    f"{_M}limUpp": lambda el: _lim(el, False),
    f"{_M}groupChr": _group_chr,
    f"{_M}borderBox": lambda el: rf"\boxed{{{_arg(el, 'e')}}}",
    f"{_M}box": lambda el: _arg(el, "e"),
    f"{_M}phant": lambda el: rf"\phantom{{{_arg(el, 'e')}}}",
    f"{_M}oMath": lambda el: _row(el),
}
