"""LaTeX -> OMML text in one pass, for the common subset: letters, numbers, symbols, ^ _ and primes,
groups, \\frac \\dfrac \\tfrac \\binom \\sqrt[n], \\left…\\right, accents and bars, \\text,
\\operatorname, \\mathrm… . What it does not know for certain gives None: latex2mathml then parses
it (from_latex.py), the complete and reference path; both give the same bytes
(tests/ooxml/math/test_fast_latex.py).

A symbol's MathML (tag and text) is latex2mathml's own, asked once per symbol (probes.py); the
OMML is written by mathml.py's writers, so the two paths cannot drift apart in how they write.
"""
from __future__ import annotations

import re
from ooxml.math import mathml, probes

_TOKEN = re.compile(r"\s*(?:(?P<L>[a-zA-Z])|(?P<S>[_^])(?P<D>\d)?|(?P<N>\d+(?:\.\d+)?)|(?P<C>\\[a-zA-Z]+)"
                    r"|(?P<E>\\[\[\]{}!,:>;|_#$ ])|(?P<P>[!-~]))")
# What latex2mathml tokenizes apart from the above: dimensions (2em), .5 (not 3.14, but x_1.5 and
# 1.2.3), comments, \\ and &.
_REFUSED = re.compile(r"(?=[-\d.%&\\_^])"  # what each alternative starts with: other places are passed at once
                      r"(?:-?\d+(?:\.\d+)?\s*(?:in|mm|cm|pt|em|ex|pc|bp|dd|cc|sp|mu)|(?<!\d)\.\d|\d\.\d+\.\d|[_^]\d\.\d"
                      r"|[%&]|\\\\|\\[^a-zA-Z\[\]{}!,:>;|_#$ ]|\\[a-zA-Z]{33})")  # long commands: not cached
_FONT = re.compile(r"\\math(?!ring|bin|close|inner|op|open|ord|punct|rel|strut)[a-z]+$")
_NAME = re.compile(r"\{([a-zA-Z]{1,32})\}")  # longer: the reference path (probes cache by name)
_TEXT = re.compile(r"\s*\{((?:(?![}\\{$&%#^_~])[ -~])*)\}")  # printable ASCII: the rest takes the reference path
_FRACS = frozenset((r"\frac", r"\dfrac", r"\tfrac"))
_PRIMES = {1: "\u2032", 2: "\u2033", 3: "\u2034"}
_MARKS = ("_", "^", "'")
_MARK_AHEAD = re.compile(r"\s*[_^']")
_MAX_DEPTH = 40  # deeper formulas take the reference path (and its nesting limit)


class _Unsure(Exception):
    """The formula leaves the subset: the reference path parses it."""


def omml(latex: str) -> str | None:
    """The inside of ``m:oMath`` for ``latex``, as mathml.py writes it; None outside the subset."""
    if _REFUSED.search(latex):
        return None
    try:
        parser = _Parser(latex)
        items = parser.row(None)
        out = mathml.Out()
        _write_row(items, out)
        return "".join(out)
    except (_Unsure, RecursionError):
        return None


class _Parser:
    def __init__(self, latex: str):
        self.s, self.pos, self.depth, self.degree = latex, 0, 0, 0

    def token(self):
        """The next token's match (None at the end); anything it cannot read leaves the subset."""
        m = _TOKEN.match(self.s, self.pos)
        if m is None and self.s[self.pos:].strip():
            raise _Unsure
        return m

    def row(self, end: str | None) -> list:
        """Items up to ``end`` (``}``, ``]``, ``\\right``; None: the end of the text), groups flattened
        as mathml.py flattens an mrow."""
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise _Unsure
        items: list = []
        latex = self.s
        while True:
            m = _TOKEN.match(latex, self.pos)
            if m is None:
                if end is not None or latex[self.pos:].strip():
                    raise _Unsure
                break
            kind = m.lastgroup
            text = m.group("S") if kind == "D" else m.group(kind)
            self.pos = m.end()
            if kind == "L":  # the commonest items first, without a call
                node, source = ("t", "mi", text, None), None
            elif kind == "N":
                node, source = ("t", "mn", text, None), None
            elif text == end and kind in ("P", "C"):
                break
            elif kind in ("S", "D") or kind == "P" and text in ("}", "'") or text == r"\right":
                raise _Unsure  # a script with no base, an unmatched closing
            else:
                node, source = self.node(kind, text)
            ahead = latex[self.pos:self.pos + 1]
            if ahead in _MARKS or ahead.isspace() and _MARK_AHEAD.match(latex, self.pos):
                node = self.scripts(node, source)  # most items have none: no regex match then
            if node[0] == "g":
                items.extend(node[1])
            else:
                items.append(node)
        self.depth -= 1
        return items

    def node(self, kind: str, text: str) -> tuple[tuple, str | None]:
        """The item a token starts and, for a symbol, the LaTeX it came from."""
        if kind == "L":
            return ("t", "mi", text, None), None
        if kind == "N":
            return ("t", "mn", text, None), None
        if text == "{":
            return ("g", self.row("}")), None
        if kind == "C":
            return self.command(text)
        return _atom(text), text

    def command(self, name: str) -> tuple[tuple, str | None]:
        if name in _FRACS:
            return ("f", self.group(), self.group(), False), None
        if name == r"\binom":
            if self.degree:
                raise _Unsure  # latex2mathml reads a \binom in a root's degree its own way
            return ("f", self.group(), self.group(), True), None
        if name == r"\sqrt":
            return self.root(), None
        if name == r"\left":
            return self.fenced(), None
        if name == r"\text":
            return self.text(), None
        if name == r"\operatorname":
            return self.operator()
        if _FONT.match(name):
            return self.font(name)
        atom = probes.atom(name)
        if atom is not None:
            return atom, name
        mark = probes.accent(name)
        if mark is None:
            raise _Unsure
        return ("a", mark, self.group()), None

    def group(self) -> list:
        m = self.token()
        if m is None or m.group(0).strip() != "{":
            raise _Unsure
        self.pos = m.end()
        return self.row("}")

    def root(self) -> tuple:
        m = self.token()
        if m is not None and m.group(0).strip() == "[":
            self.pos = m.end()
            self.degree += 1
            degree = self.row("]")
            self.degree -= 1
            if not degree:
                raise _Unsure  # \sqrt[]{x}: latex2mathml writes a square root
            return ("r", degree, self.group())
        return ("r", None, self.group())

    def fenced(self) -> tuple:
        begin = self.delimiter()
        items = self.row(r"\right")
        return ("d", _fence(begin, True), _fence(self.delimiter(), False), items)

    def delimiter(self) -> str:
        m = self.token()
        if m is None or m.lastgroup not in ("P", "E", "C") or m.group(0).strip() in ("{", "}", "'"):
            raise _Unsure
        self.pos = m.end()
        return m.group(m.lastgroup)

    def text(self) -> tuple:
        m = _TEXT.match(self.s, self.pos)
        if m is None or any(c.isspace() and c != " " for c in m.group(1)):
            raise _Unsure
        self.pos = m.end()
        return ("t", "mtext", m.group(1), None)

    def operator(self) -> tuple[tuple, str]:
        m = _NAME.match(self.s, self.pos)
        if m is None:
            raise _Unsure
        self.pos = m.end()
        return ("t", "mo", m.group(1), None), r"\operatorname" + m.group(0)

    def font(self, name: str) -> tuple[tuple, str | None]:
        m = _NAME.match(self.s, self.pos)
        if m is None:
            raise _Unsure
        self.pos = m.end()
        letters = m.group(1)
        if len(letters) == 1:
            atom = probes.atom(name + m.group(0))
            if atom is not None:
                return atom, name + m.group(0)
        variant = probes.variant(name)
        if variant is None:
            raise _Unsure
        return ("g", [("t", "mi", c, variant[0]) for c in letters]), None

    def scripts(self, node: tuple, source: str | None) -> tuple:
        """``node`` with the scripts after it: _ and ^ (once each, either order), or primes."""
        sub = sup = None
        while True:
            m = _TOKEN.match(self.s, self.pos)
            if m is None:
                break
            kind = m.lastgroup
            if kind not in ("S", "D"):
                if m.group(0).strip() != "'":
                    break
                if sub is not None or sup is not None or node[:2] != ("t", "mi") or len(node[2]) != 1:
                    raise _Unsure
                return ("s", node, None, [("t", "mi", _PRIMES[self.primes()], None)])
            mark = m.group("S")
            self.pos = m.end()
            arg = [("t", "mn", m.group("D"), None)] if kind == "D" else self.argument()
            if (sub if mark == "_" else sup) is not None:
                raise _Unsure
            if mark == "_":
                sub = arg
            else:
                sup = arg
        if sub is None and sup is None:
            return node
        if node[0] == "f" and node[3] or node[0] == "g" and len(node[1]) == 1 and node[1][0][:2] == ("t", "mo"):
            raise _Unsure  # \binom is three MathML items; {\sum} is a row, not the operator
        if node[0] == "t" and node[1] not in ("mi", "mn") and _nary_op(node) is None and \
                not probes.scripts_plainly(source, node, sub is not None, sup is not None):
            raise _Unsure
        return ("s", node, sub, sup)

    def primes(self) -> int:
        count = 0
        while True:
            m = _TOKEN.match(self.s, self.pos)
            if m is None or m.group(0).strip() != "'":
                break
            count += 1
            self.pos = m.end()
        if count > 3 or m is not None and m.lastgroup in ("S", "D"):
            raise _Unsure
        return count

    def argument(self) -> list:
        m = self.token()
        if m is None:
            raise _Unsure
        kind, text = m.lastgroup, m.group(m.lastgroup)
        self.pos = m.end()
        if text == "{" and kind == "P":
            return self.row("}")
        if kind == "L":
            return [("t", "mi", text, None)]
        if kind == "N" and len(text) == 1:
            return [("t", "mn", text, None)]
        if kind == "C":
            atom = probes.atom(text)
            if atom is not None:
                return [atom]
        raise _Unsure


def _fence(token: str, left: bool) -> str:
    text = probes.fence(token, left)
    if text is None:
        raise _Unsure
    return text


def _atom(token: str) -> tuple:
    atom = probes.atom(token)
    if atom is None:
        raise _Unsure
    return atom


def _nary_op(node: tuple) -> str | None:
    base = node[1] if node[0] == "s" else node
    if base[0] == "t" and base[1] == "mo" and base[2] in mathml.NARY:  # one character each
        return base[2]
    return None


def _write_row(items: list, out: mathml.Out) -> None:
    i, n = 0, len(items)
    while i < n:
        node = items[i]
        if node[0] == "t" and node[1] != "mspace" and (node[1] != "mo" or node[2] not in mathml.NARY):
            out.append(mathml.run(node[1], node[2], node[3]))  # most items: a run (_write_one's first case)
            i += 1
        else:
            i = _write_one(items, i, out)


def _arg(out: mathml.Out, tag: str, items: list | None) -> None:
    out.open(tag)
    if items:
        _write_row(items, out)
    out.close(tag)


def _write_one(items: list, i: int, out: mathml.Out) -> int:
    """items[i] (an n-ary operator with the item after it as its operand); the index after."""
    node = items[i]
    op = _nary_op(node)
    if op is None:
        if node[0] == "t" and node[1] != "mspace":  # most items: a run, written once per symbol
            out.append(mathml.run(node[1], node[2], node[3]))
        else:
            _WRITERS[node[0]](node, out)
        return i + 1
    sub, sup = (node[2], node[3]) if node[0] == "s" else (None, None)
    out.open("nary")
    props = {"chr": op, "limLoc": "subSup" if op in mathml.INTEGRALS else "undOvr"}
    if sub is None:
        props["subHide"] = "1"
    if sup is None:
        props["supHide"] = "1"
    mathml.pr(out, "naryPr", **props)
    _arg(out, "sub", sub)
    _arg(out, "sup", sup)
    out.open("e")
    after = _write_one(items, i + 1, out) if i + 1 < len(items) else i + 1
    out.close("e")
    out.close("nary")
    return after


def _token(node: tuple, out: mathml.Out) -> None:
    if node[1] == "mspace":
        mathml.space(out, node[2])
    else:
        mathml.token(out, node[1], node[2], node[3])


def _frac(node: tuple, out: mathml.Out) -> None:
    if node[3]:  # \binom: ( fraction without bar ), as mathml.py writes the three items
        out.append(f"<{mathml.P}d><{mathml.P}e>")
    out.open("f")
    if node[3]:
        mathml.pr(out, "fPr", type="noBar")
    _arg(out, "num", node[1])
    _arg(out, "den", node[2])
    out.close("f")
    if node[3]:
        out.append(f"</{mathml.P}e></{mathml.P}d>")


def _root(node: tuple, out: mathml.Out) -> None:
    out.open("rad")
    if node[1] is None:
        mathml.pr(out, "radPr", degHide="1")
        out.append(f"<{mathml.P}deg/>")
    else:
        _arg(out, "deg", node[1])
    _arg(out, "e", node[2])
    out.close("rad")


def _fenced(node: tuple, out: mathml.Out) -> None:
    out.open("d")
    props = {}
    if node[1] != "(":
        props["begChr"] = node[1]
    if node[2] != ")":
        props["endChr"] = node[2]
    mathml.pr(out, "dPr", **props)
    _arg(out, "e", node[3])
    out.close("d")


def _accented(node: tuple, out: mathml.Out) -> None:
    kind, value = node[1]
    out.open(kind)
    if kind == "bar":
        mathml.pr(out, "barPr", pos=value)
    else:
        mathml.pr(out, "accPr", chr=value)
    _arg(out, "e", node[2])
    out.close(kind)


def _scripted(node: tuple, out: mathml.Out) -> None:
    _, base, sub, sup = node
    base_row = base[1] if base[0] == "g" else [base]
    if sup is None and base[:2] == ("t", "mo") and "".join(base[2].split()) in mathml.LIMIT_OPS:
        out.open("limLow")
        _arg(out, "e", base_row)
        _arg(out, "lim", sub)
        out.close("limLow")
        return
    tag = "sSubSup" if sub is not None and sup is not None else "sSub" if sub is not None else "sSup"
    out.open(tag)
    _arg(out, "e", base_row)
    if sub is not None:
        _arg(out, "sub", sub)
    if sup is not None:
        _arg(out, "sup", sup)
    out.close(tag)


_WRITERS = {"t": _token, "f": _frac, "r": _root, "d": _fenced, "a": _accented, "s": _scripted}
