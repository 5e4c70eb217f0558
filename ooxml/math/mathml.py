"""MathML (latex2mathml's ElementTree: tags without namespace) -> Office Math: one function per MathML element in ``_RULES``.

A row is read as a sequence, as a reader of the formula would: an n-ary operator takes the item after
it as its operand, ``{`` + table is cases, a fence + table + fence is a matrix, a row broken by
``\\\\`` is an equation array.
"""
from __future__ import annotations

from typing import Callable

from lxml import etree

from ooxml.math.to_latex import FUNCTIONS
from ooxml.xml.namespaces import M

_M = f"{{{M}}}"
_NARY = frozenset("∑∏∐∫∬∭∮∯⋃⋂⋁⋀⨁⨂⨀⨄")
_INTEGRALS = frozenset("∫∬∭∮∯")
_LIMIT_OPS = frozenset("lim liminf limsup max min sup inf det gcd Pr".split())
_OVER = {"―": "bar", "¯": "acc", "⏞": "group", "‾": "bar"}
_SPACES = {"0.167em": "\u2009", "0.222em": "\u2005", "0.278em": "\u2005", "1em": "\u2003", "2em": "\u2003\u2003"}


def m(tag: str, parent: etree._Element | None = None, **vals: str) -> etree._Element:
    el = etree.Element(f"{_M}{tag}") if parent is None else etree.SubElement(parent, f"{_M}{tag}")
    for key, val in vals.items():
        etree.SubElement(el, f"{_M}{key}").set(f"{_M}val", val)
    return el


def _pr(parent: etree._Element, tag: str, **vals: str) -> None:
    if vals:
        parent.append(m(tag, **vals))


def _local(el: etree._Element) -> str:
    tag = el.tag  # a comment or processing instruction has a function as its tag
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def convert(math: etree._Element) -> etree._Element:
    """A MathML ``math`` element as ``m:oMath``."""
    out = m("oMath")
    _sequence(list(math), out)
    return out


def _items(el: etree._Element) -> list[etree._Element]:
    """The row an element stands for: an mrow's children (flattened), else the element itself."""
    if _local(el) in ("mrow", "mstyle") and not _is_fenced(el):
        out = []
        for child in el:
            out.extend(_items(child))
        return out
    return [el]


def _is_fenced(el: etree._Element) -> bool:
    return len(el) >= 2 and el[0].get("fence") == "true" and el[-1].get("fence") == "true"


def _arg(parent: etree._Element, tag: str, content: etree._Element | list | None) -> etree._Element:
    box = m(tag, parent)
    if content is not None:
        _sequence(content if isinstance(content, list) else [content], box)
    return box


def _sequence(nodes: list[etree._Element], out: etree._Element) -> None:
    items = [i for n in nodes for i in _items(n)]
    if any(_local(i) == "mspace" and i.get("linebreak") == "newline" for i in items):
        array = m("eqArr", out)
        row: list = []
        for item in items + [None]:
            if item is None or (_local(item) == "mspace" and item.get("linebreak") == "newline"):
                _arg(array, "e", row)
                row = []
            else:
                row.append(item)
        return
    i = 0
    while i < len(items):
        i = _one(items, i, out)


def _text(el: etree._Element) -> str:
    return "".join(el.itertext())


def _one(items: list, i: int, out: etree._Element) -> int:
    """Write items[i] (and what it takes after it) into ``out``; the index after what it used."""
    el = items[i]
    name = _local(el)
    nxt = items[i + 1] if i + 1 < len(items) else None
    if name == "mo" and _text(el) in "([|‖{" and _text(el) and nxt is not None and _local(nxt) == "mtable":
        close = items[i + 2] if i + 2 < len(items) and _local(items[i + 2]) == "mo" else None
        _delimited(out, _text(el), _text(close) if close is not None else "", [nxt])
        return i + (3 if close is not None else 2)
    if name == "mo" and _text(el) == "(" and nxt is not None and _local(nxt) == "mfrac" and \
            nxt.get("linethickness") == "0" and i + 2 < len(items) and _text(items[i + 2]) == ")":
        _delimited(out, "(", ")", [nxt])
        return i + 3
    if _nary_op(el) is not None:
        body = _nary(el, out)
        return _one(items, i + 1, body) if nxt is not None else i + 1
    _RULES.get(name, _unknown)(el, out)
    return i + 1


def _nary_op(el: etree._Element) -> str | None:
    name = _local(el)
    base = el if name == "mo" else (el[0] if len(el) and name in ("msub", "msup", "msubsup", "munder",
                                                                     "mover", "munderover") else None)
    if base is not None and _local(base) == "mo" and _text(base) in _NARY and len(_text(base)) == 1:
        return _text(base)
    return None


def _nary(el: etree._Element, out: etree._Element) -> etree._Element:
    """The n-ary operator; its empty operand box (m:e), which the next item fills."""
    op, name = _nary_op(el), _local(el)
    sub = el[1] if name in ("msub", "msubsup", "munder", "munderover") else None
    sup = el[2] if name in ("msubsup", "munderover") else el[1] if name in ("msup", "mover") else None
    nary = m("nary", out)
    props = {"chr": op, "limLoc": "subSup" if op in _INTEGRALS or name.startswith("ms") and
             op in _INTEGRALS else "undOvr"}
    if sub is None:
        props["subHide"] = "1"
    if sup is None:
        props["supHide"] = "1"
    _pr(nary, "naryPr", **props)
    _arg(nary, "sub", sub)
    _arg(nary, "sup", sup)
    return m("e", nary)


def _delimited(out: etree._Element, beg: str, end: str, content: list) -> None:
    d = m("d", out)
    props = {}
    if beg != "(":
        props["begChr"] = beg
    if end != ")":
        props["endChr"] = end
    _pr(d, "dPr", **props)
    _arg(d, "e", content)


def _token(el: etree._Element, out: etree._Element) -> None:
    text = _text(el).replace("\u00a0", " ")
    if not text:
        return
    r = m("r", out)
    name = _local(el)
    if name == "mtext":
        m("rPr", r).append(m("nor"))
    elif (len(text) > 1 and "".join(text.split()).isalpha()) or el.get("mathvariant") == "normal" or \
            (name == "mi" and text in FUNCTIONS):
        rpr = m("rPr", r)
        etree.SubElement(rpr, f"{_M}sty").set(f"{_M}val", "p")
    t = m("t", r)
    t.text = text
    if text != text.strip():
        t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")


def _space(el: etree._Element, out: etree._Element) -> None:
    char = _SPACES.get(el.get("width", ""))
    if char:
        m("t", m("r", out)).text = char


def _frac(el: etree._Element, out: etree._Element) -> None:
    f = m("f", out)
    if el.get("linethickness") in ("0", "0pt", "0em"):
        _pr(f, "fPr", type="noBar")
    _arg(f, "num", el[0] if len(el) else None)
    _arg(f, "den", el[1] if len(el) > 1 else None)


def _script(el: etree._Element, out: etree._Element) -> None:
    name = _local(el)
    base = el[0]
    if _local(base) == "mo" and "".join(_text(base).split()) in _LIMIT_OPS and name == "msub":
        return _limit(base, el[1], out, "limLow")
    tag = {"msub": "sSub", "msup": "sSup", "msubsup": "sSubSup"}[name]
    s = m(tag, out)
    _arg(s, "e", base)
    if name != "msup":
        _arg(s, "sub", el[1])
    if name != "msub":
        _arg(s, "sup", el[2] if name == "msubsup" else el[1])


def _limit(base: etree._Element, lim: etree._Element, out: etree._Element, tag: str) -> None:
    box = m(tag, out)
    _arg(box, "e", base)
    _arg(box, "lim", lim)


def _under_over(el: etree._Element, out: etree._Element) -> None:
    name = _local(el)
    base, mark = el[0], el[1]
    char = _text(mark) if _local(mark) == "mo" else ""
    if name == "munderover":
        return _limit_both(el, out)
    if name == "mover" and char in ("⏞",):
        return _group(out, base, "⏞", "top")
    if name == "munder" and char == "⏟":
        return _group(out, base, "⏟", "bot")
    if char in ("―", "‾") or (name == "mover" and char == "¯" and mark.get("stretchy") == "true" and
                               el.get("accent") != "true" and False):
        bar = m("bar", out)
        _pr(bar, "barPr", pos="top" if name == "mover" else "bot")
        _arg(bar, "e", base)
        return
    if name == "mover" and (el.get("accent") == "true" or mark.get("accent") == "true" or
                            (len(char) == 1 and _local(mark) == "mo")):
        acc = m("acc", out)
        _pr(acc, "accPr", chr=_ACCENT_CHARS.get(char, char))
        _arg(acc, "e", base)
        return
    if name == "munder" and _local(base) == "mo" and _text(base) in _LIMIT_OPS:
        return _limit(base, mark, out, "limLow")
    if _local(base) in ("munder", "mover") and len(base) > 1 and _text(base[1]) in ("⏞", "⏟"):
        return _limit(base, mark, out, "limLow" if name == "munder" else "limUpp")
    _limit(base, mark, out, "limLow" if name == "munder" else "limUpp")


# latex2mathml's accent marks as the combining characters Word writes in m:accPr/m:chr.
_ACCENT_CHARS = {"^": "\u0302", "\u02c6": "\u0302", "¯": "\u0305", "˙": "\u0307", "¨": "\u0308",
                 "→": "\u20d7", "~": "\u0303", "˜": "\u0303", "ˇ": "\u030c", "´": "\u0301",
                 "`": "\u0300", "˘": "\u0306", "˚": "\u030a", "⃛": "\u20db", "←": "\u20d6", "↔": "\u20e1"}


def _limit_both(el: etree._Element, out: etree._Element) -> None:
    upp = m("limUpp", out)
    inner = m("e", upp)
    low = m("limLow", inner)
    _arg(low, "e", el[0])
    _arg(low, "lim", el[1])
    _arg(upp, "lim", el[2])


def _group(out: etree._Element, base: etree._Element, char: str, pos: str) -> None:
    g = m("groupChr", out)
    props = {"chr": char, "pos": pos} if pos == "top" else {"chr": char}
    if pos == "top":
        props["vertJc"] = "bot"
    _pr(g, "groupChrPr", **props)
    _arg(g, "e", base)


def _root(el: etree._Element, out: etree._Element) -> None:
    rad = m("rad", out)
    if _local(el) == "msqrt":
        _pr(rad, "radPr", degHide="1")
        m("deg", rad)
        _arg(rad, "e", list(el))
    else:
        _arg(rad, "deg", el[1])
        _arg(rad, "e", el[0])


def _row(el: etree._Element, out: etree._Element) -> None:
    if _is_fenced(el):
        return _delimited(out, _text(el[0]), _text(el[-1]), list(el)[1:-1])
    _sequence(list(el), out)


def _table(el: etree._Element, out: etree._Element) -> None:
    rows = [tr for tr in el if _local(tr) in ("mtr", "mlabeledtr")]
    cols = max((len(tr) for tr in rows), default=1)
    mat = m("m", out)
    mpr = m("mPr", mat)
    mcs = m("mcs", mpr)
    mc = m("mcPr", m("mc", mcs))
    etree.SubElement(mc, f"{_M}count").set(f"{_M}val", str(cols))
    etree.SubElement(mc, f"{_M}mcJc").set(f"{_M}val", "left" if el.find("mtr/mtd[@columnalign='left']")
                                          is not None else "center")
    for tr in rows:
        mr = m("mr", mat)
        cells = list(tr)
        for j in range(cols):
            _arg(mr, "e", list(cells[j]) if j < len(cells) else None)


def _enclose(el: etree._Element, out: etree._Element) -> None:
    _arg(m("borderBox", out), "e", list(el))


def _phantom(el: etree._Element, out: etree._Element) -> None:
    _arg(m("phant", out), "e", list(el))


def _unknown(el: etree._Element, out: etree._Element) -> None:
    _sequence(list(el), out)


_RULES: dict[str, Callable[[etree._Element, etree._Element], None]] = {
    "mi": _token, "mn": _token, "mo": _token, "mtext": _token, "ms": _token,
    "mspace": _space, "mfrac": _frac, "msub": _script, "msup": _script, "msubsup": _script,
    "munder": _under_over, "mover": _under_over, "munderover": _under_over,
    "msqrt": _root, "mroot": _root, "mrow": _row, "mstyle": _row, "mtable": _table,
    "menclose": _enclose, "mphantom": _phantom,
}
