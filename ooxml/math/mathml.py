"""MathML (latex2mathml's ElementTree: tags without namespace) -> Office Math: one function per MathML element in ``_RULES``.

A row is read as a sequence, as a reader of the formula would: an n-ary operator takes the item after
it as its operand, ``{`` + table is cases, a fence + table + fence is a matrix, a row broken by
``\\\\`` is an equation array.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable

from lxml import etree

from ooxml.math.to_latex import FUNCTIONS
from ooxml.xml.namespaces import M, W

_El = Any  # an element of latex2mathml's ElementTree (xml.etree)
NARY = frozenset("∑∏∐∫∬∭∮∯⋃⋂⋁⋀⨁⨂⨀⨄")
INTEGRALS = frozenset("∫∬∭∮∯")
LIMIT_OPS = frozenset("lim liminf limsup max min sup inf det gcd Pr".split())
_OVER = {"―": "bar", "¯": "acc", "⏞": "group", "‾": "bar"}
_SPACES = {"0.167em": "\u2009", "0.222em": "\u2005", "0.278em": "\u2005", "1em": "\u2003", "2em": "\u2003\u2003"}


class Out(list):
    """The OMML written so far, as XML text: lxml's API costs microseconds per element, so the whole
    equation is written as text and parsed once (a third of an insert's CPU went to building it)."""

    def open(self, tag: str) -> None:
        self.append(f"<{_P}{tag}>")

    def close(self, tag: str) -> None:
        self.append(f"</{_P}{tag}>")


_P = "ns0:"  # the prefix lxml gives a namespace declared by no ancestor: the same bytes as before
P = _P
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_PARSER = etree.XMLParser(huge_tree=True, resolve_entities=False, no_network=True)  # our own text only
# _utf8: our text is parsed as UTF-8 bytes. A str holding a character past Latin-1 (−, ±, …) reaches
# libxml2 as UTF-16 or UCS-4 and is converted there: the quadratic's parse 15.0 -> 11.3 µs. Every text
# in it went through _escaped (no surrogates), so the encoding cannot fail.


def _escaped(text: str, attribute: bool = False) -> str:
    if _NOT_XML.search(text):  # what lxml says of such text
        raise ValueError("All strings must be XML compatible: Unicode or ASCII, no NULL bytes or control characters")
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")
    if attribute:
        text = text.replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")
    return text


def pr(out: Out, tag: str, **vals: str) -> None:
    if vals:
        out.append(f"<{_P}{tag}>" + "".join(f'<{_P}{key} {_P}val="{_escaped(val, True)}"/>'
                                             for key, val in vals.items()) + f"</{_P}{tag}>")


def convert(math: _El) -> etree._Element:
    """A MathML ``math`` element as ``m:oMath``."""
    return parsed(written(math))


def written(math: _El) -> str:
    """The inside of ``m:oMath`` for a MathML ``math`` element, as OMML text."""
    out = Out()
    _sequence(list(math), out)
    return "".join(out)


def parsed(inside: str, display: bool = False) -> etree._Element:
    """``m:oMath`` holding ``inside`` (OMML text with the ``ns0`` prefix), in an ``m:oMathPara`` if
    ``display``: one parse (the same bytes as a paragraph element made and the equation appended)."""
    math = f"<{_P}oMath>{inside}</{_P}oMath>"
    text = f"<{_P}oMathPara>{math}</{_P}oMathPara>" if display else math
    return etree.fromstring(text.replace(">", f' xmlns:ns0="{M}">', 1).encode(), _PARSER)  # see _utf8


def in_paragraph(inside: str) -> etree._Element:
    """A new ``w:p`` holding ``inside`` as a display equation: parsed with it (the same bytes as the
    paragraph made and the equation appended, without the two element calls: the parse is warm by then)."""
    math = f'<{_P}oMathPara xmlns:ns0="{M}"><{_P}oMath>{inside}</{_P}oMath></{_P}oMathPara>'
    return etree.fromstring(f'<{_P}p xmlns:ns0="{W}">{math}</{_P}p>'.encode(), _PARSER)  # see _utf8


def _items(el: _El) -> list[_El]:
    """The row an element stands for: an mrow's children (flattened), else the element itself."""
    if el.tag in ("mrow", "mstyle") and not _is_fenced(el):
        out = []
        for child in el:
            out.extend(_items(child))
        return out
    return [el]


def _is_fenced(el: _El) -> bool:
    return len(el) >= 2 and el[0].get("fence") == "true" and el[-1].get("fence") == "true"


def _arg(out: Out, tag: str, content: _El | list | None) -> None:
    out.open(tag)
    if content is not None:
        _sequence(content if isinstance(content, list) else [content], out)
    out.close(tag)


def _sequence(nodes: list[_El], out: Out) -> None:
    items = [i for n in nodes for i in _items(n)]
    if any(i.tag == "mspace" and i.get("linebreak") == "newline" for i in items):
        out.open("eqArr")
        row: list = []
        for item in items + [None]:
            if item is None or (item.tag == "mspace" and item.get("linebreak") == "newline"):
                _arg(out, "e", row)
                row = []
            else:
                row.append(item)
        out.close("eqArr")
        return
    i = 0
    while i < len(items):
        i = _one(items, i, out)


def _text(el: _El) -> str:
    return "".join(el.itertext())


def _one(items: list, i: int, out: Out) -> int:
    """Write items[i] (and what it takes after it) into ``out``; the index after what it used."""
    el = items[i]
    name = el.tag
    nxt = items[i + 1] if i + 1 < len(items) else None
    text = _text(el) if name == "mo" and nxt is not None else ""
    if text and text in "([|‖{" and nxt.tag == "mtable":
        close = items[i + 2] if i + 2 < len(items) and items[i + 2].tag == "mo" else None
        _delimited(out, text, _text(close) if close is not None else "", [nxt])
        return i + (3 if close is not None else 2)
    if text == "(" and nxt.tag == "mfrac" and nxt.get("linethickness") == "0" and \
            i + 2 < len(items) and _text(items[i + 2]) == ")":
        _delimited(out, "(", ")", [nxt])
        return i + 3
    if _nary_op(el) is not None:
        _nary(el, out)  # leaves its operand box (m:e) open: the next item fills it
        after = _one(items, i + 1, out) if nxt is not None else i + 1
        out.append(f"</{_P}e></{_P}nary>")
        return after
    _RULES.get(name, _unknown)(el, out)
    return i + 1


def _nary_op(el: _El) -> str | None:
    name = el.tag
    base = el if name == "mo" else (el[0] if len(el) and name in ("msub", "msup", "msubsup", "munder",
                                                                     "mover", "munderover") else None)
    if base is not None and base.tag == "mo" and _text(base) in NARY and len(_text(base)) == 1:
        return _text(base)
    return None


def _nary(el: _El, out: Out) -> None:
    """The n-ary operator, up to its operand box (m:e) opened."""
    op, name = _nary_op(el), el.tag
    sub = el[1] if name in ("msub", "msubsup", "munder", "munderover") else None
    sup = el[2] if name in ("msubsup", "munderover") else el[1] if name in ("msup", "mover") else None
    out.open("nary")
    props = {"chr": op, "limLoc": "subSup" if op in INTEGRALS or name.startswith("ms") and
             op in INTEGRALS else "undOvr"}
    if sub is None:
        props["subHide"] = "1"
    if sup is None:
        props["supHide"] = "1"
    pr(out, "naryPr", **props)
    _arg(out, "sub", sub)
    _arg(out, "sup", sup)
    out.open("e")


def _delimited(out: Out, beg: str, end: str, content: list) -> None:
    out.open("d")
    props = {}
    if beg != "(":
        props["begChr"] = beg
    if end != ")":
        props["endChr"] = end
    pr(out, "dPr", **props)
    _arg(out, "e", content)
    out.close("d")


def _token(el: _El, out: Out) -> None:
    token(out, el.tag, _text(el), el.get("mathvariant"))


def token(out: Out, name: str, text: str, variant: str | None) -> None:
    """A token element (mi, mn, mo, mtext) of ``text`` as a run (fast_latex.py writes through it too)."""
    out.append(run(name, text, variant))


def run(name: str, text: str, variant: str | None) -> str:
    """The run of a token (its XML text; empty for no text)."""
    return _short_run(name, text, variant) if len(text) <= 24 else _run(name, text, variant)


@lru_cache(maxsize=2048)  # the same symbols, letters and digits recur in every formula; long texts not kept
def _short_run(name: str, text: str, variant: str | None) -> str:
    return _run(name, text, variant)


def _run(name: str, text: str, variant: str | None) -> str:
    text = text.replace("\u00a0", " ")
    if not text:
        return ""
    if name == "mtext":
        props = f"<{_P}rPr><{_P}nor/></{_P}rPr>"
    elif (len(text) > 1 and "".join(text.split()).isalpha()) or variant == "normal" or \
            (name == "mi" and text in FUNCTIONS):
        props = f'<{_P}rPr><{_P}sty {_P}val="p"/></{_P}rPr>'
    else:
        props = ""
    space = ' xml:space="preserve"' if text != text.strip() else ""
    return f"<{_P}r>{props}<{_P}t{space}>{_escaped(text)}</{_P}t></{_P}r>"


def _space(el: _El, out: Out) -> None:
    space(out, el.get("width", ""))


def space(out: Out, width: str) -> None:
    char = _SPACES.get(width)
    if char:
        out.append(f"<{_P}r><{_P}t>{char}</{_P}t></{_P}r>")


def _frac(el: _El, out: Out) -> None:
    out.open("f")
    if el.get("linethickness") in ("0", "0pt", "0em"):
        pr(out, "fPr", type="noBar")
    _arg(out, "num", el[0] if len(el) else None)
    _arg(out, "den", el[1] if len(el) > 1 else None)
    out.close("f")


def _script(el: _El, out: Out) -> None:
    name = el.tag
    base = el[0]
    if base.tag == "mo" and "".join(_text(base).split()) in LIMIT_OPS and name == "msub":
        return _limit(base, el[1], out, "limLow")
    tag = {"msub": "sSub", "msup": "sSup", "msubsup": "sSubSup"}[name]
    out.open(tag)
    _arg(out, "e", base)
    if name != "msup":
        _arg(out, "sub", el[1])
    if name != "msub":
        _arg(out, "sup", el[2] if name == "msubsup" else el[1])
    out.close(tag)


def _limit(base: _El, lim: _El, out: Out, tag: str) -> None:
    out.open(tag)
    _arg(out, "e", base)
    _arg(out, "lim", lim)
    out.close(tag)


def _under_over(el: _El, out: Out) -> None:
    name = el.tag
    base, mark = el[0], el[1]
    char = _text(mark) if mark.tag == "mo" else ""
    if name == "munderover":
        return _limit_both(el, out)
    if name == "mover" and char in ("⏞",):
        return _group(out, base, "⏞", "top")
    if name == "munder" and char == "⏟":
        return _group(out, base, "⏟", "bot")
    if char in ("―", "‾") or (name == "mover" and char == "¯" and mark.get("stretchy") == "true" and
                               el.get("accent") != "true" and False):
        out.open("bar")
        pr(out, "barPr", pos="top" if name == "mover" else "bot")
        _arg(out, "e", base)
        out.close("bar")
        return
    if name == "mover" and (el.get("accent") == "true" or mark.get("accent") == "true" or
                            (len(char) == 1 and mark.tag == "mo")):
        out.open("acc")
        pr(out, "accPr", chr=ACCENT_CHARS.get(char, char))
        _arg(out, "e", base)
        out.close("acc")
        return
    if name == "munder" and base.tag == "mo" and _text(base) in LIMIT_OPS:
        return _limit(base, mark, out, "limLow")
    if base.tag in ("munder", "mover") and len(base) > 1 and _text(base[1]) in ("⏞", "⏟"):
        return _limit(base, mark, out, "limLow" if name == "munder" else "limUpp")
    _limit(base, mark, out, "limLow" if name == "munder" else "limUpp")


# latex2mathml's accent marks as the combining characters Word writes in m:accPr/m:chr.
ACCENT_CHARS = {"^": "\u0302", "\u02c6": "\u0302", "¯": "\u0305", "˙": "\u0307", "¨": "\u0308",
                 "→": "\u20d7", "~": "\u0303", "˜": "\u0303", "ˇ": "\u030c", "´": "\u0301",
                 "`": "\u0300", "˘": "\u0306", "˚": "\u030a", "⃛": "\u20db", "←": "\u20d6", "↔": "\u20e1"}


def _limit_both(el: _El, out: Out) -> None:
    out.append(f"<{_P}limUpp><{_P}e>")
    _limit(el[0], el[1], out, "limLow")
    out.close("e")
    _arg(out, "lim", el[2])
    out.close("limUpp")


def _group(out: Out, base: _El, char: str, pos: str) -> None:
    out.open("groupChr")
    props = {"chr": char, "pos": pos} if pos == "top" else {"chr": char}
    if pos == "top":
        props["vertJc"] = "bot"
    pr(out, "groupChrPr", **props)
    _arg(out, "e", base)
    out.close("groupChr")


def _root(el: _El, out: Out) -> None:
    out.open("rad")
    if el.tag == "msqrt":
        pr(out, "radPr", degHide="1")
        out.append(f"<{_P}deg/>")
        _arg(out, "e", list(el))
    else:
        _arg(out, "deg", el[1])
        _arg(out, "e", el[0])
    out.close("rad")


def _row(el: _El, out: Out) -> None:
    if _is_fenced(el):
        return _delimited(out, _text(el[0]), _text(el[-1]), list(el)[1:-1])
    _sequence(list(el), out)


def _table(el: _El, out: Out) -> None:
    rows = [tr for tr in el if tr.tag in ("mtr", "mlabeledtr")]
    cols = max((len(tr) for tr in rows), default=1)
    align = "left" if el.find("mtr/mtd[@columnalign='left']") is not None else "center"
    out.append(f'<{_P}m><{_P}mPr><{_P}mcs><{_P}mc><{_P}mcPr><{_P}count {_P}val="{cols}"/>'
               f'<{_P}mcJc {_P}val="{align}"/></{_P}mcPr></{_P}mc></{_P}mcs></{_P}mPr>')
    for tr in rows:
        out.open("mr")
        cells = list(tr)
        for j in range(cols):
            _arg(out, "e", list(cells[j]) if j < len(cells) else None)
        out.close("mr")
    out.close("m")


def _boxed(tag: str) -> Callable[[_El, Out], None]:
    def write(el: _El, out: Out) -> None:
        out.open(tag)
        _arg(out, "e", list(el))
        out.close(tag)
    return write


def _unknown(el: _El, out: Out) -> None:
    _sequence(list(el), out)


_RULES: dict[str, Callable[[_El, Out], None]] = {
    "mi": _token, "mn": _token, "mo": _token, "mtext": _token, "ms": _token,
    "mspace": _space, "mfrac": _frac, "msub": _script, "msup": _script, "msubsup": _script,
    "munder": _under_over, "mover": _under_over, "munderover": _under_over,
    "msqrt": _root, "mroot": _root, "mrow": _row, "mstyle": _row, "mtable": _table,
    "menclose": _boxed("borderBox"), "mphantom": _boxed("phant"),
}
