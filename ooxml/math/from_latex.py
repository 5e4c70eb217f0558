"""LaTeX -> Office Math: checked (braces, environments, unknown commands, missing arguments, each
error naming its position), parsed by latex2mathml, mapped by ``mathml.convert``."""
from __future__ import annotations

import re

from latex2mathml.converter import convert as to_mathml
from latex2mathml.exceptions import NoAvailableTokensError
from lxml import etree

from ooxml.xml.errors import LimitExceeded, ValidationError
from ooxml.math import mathml
from ooxml.xml import safexml
from ooxml.xml.namespaces import M

_HINT = "Write standard LaTeX math (no $ delimiters), e.g. \\frac{a}{b}, x^{2}, \\sum_{i=1}^{n} x_i."
_MML = "{http://www.w3.org/1998/Math/MathML}"
_ENV = re.compile(r"\\(begin|end)\s*\{([^}]*)\}")
MAX_LATEX = 20_000


def _fail(latex: str, pos: int, what: str) -> ValidationError:
    near = latex[max(0, pos - 10): pos + 10]
    return ValidationError(f"LaTeX does not parse at position {pos} ({what}, near {near!r}).", hint=_HINT)


def _check_braces(latex: str) -> None:
    stack: list[int] = []
    i = 0
    while i < len(latex):
        c = latex[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            stack.append(i)
        elif c == "}":
            if not stack:
                raise _fail(latex, i, "unmatched '}'")
            stack.pop()
        i += 1
    if stack:
        raise _fail(latex, stack[-1], "'{' never closed")


def _check_environments(latex: str) -> None:
    open_envs: list[tuple[str, int]] = []
    for match in _ENV.finditer(latex):
        kind, name = match.groups()
        if kind == "begin":
            open_envs.append((name, match.start()))
        elif not open_envs or open_envs[-1][0] != name:
            raise _fail(latex, match.start(), f"\\end{{{name}}} without its \\begin")
        else:
            open_envs.pop()
    if open_envs:
        raise _fail(latex, open_envs[-1][1], f"\\begin{{{open_envs[-1][0]}}} never ended")


def parse(latex: str) -> etree._Element:
    """``latex`` as MathML, or ValidationError naming where it goes wrong."""
    if not latex.strip():
        raise ValidationError("latex is empty.", hint=_HINT)
    if len(latex) > MAX_LATEX:
        raise ValidationError(f"latex is {len(latex)} characters; at most {MAX_LATEX}.", hint=_HINT)
    stripped = latex.strip()
    if stripped.startswith("$") or stripped.endswith("$"):
        raise _fail(latex, latex.index("$"), "'$' delimiters are not part of the formula")
    _check_braces(latex)
    _check_environments(latex)
    try:
        text = to_mathml(latex)
    except NoAvailableTokensError:
        raise _fail(latex, len(latex), "an argument is missing at the end") from None
    except Exception as exc:  # latex2mathml's own errors: name the first command it complains of
        raise _fail(latex, _position_of(latex, str(exc)), type(exc).__name__) from None
    text = text.replace(">&<", ">&amp;<")  # latex2mathml leaves an alignment '&' unescaped
    try:
        tree = safexml.parse_part(text.encode("utf-8"), "latex").getroot()
    except LimitExceeded:
        raise ValidationError(f"latex nests deeper than {safexml.MAX_DEPTH // 2} levels.", hint=_HINT) from None
    _check_tree(latex, tree)
    return tree


def _position_of(latex: str, detail: str) -> int:
    word = detail.strip().split()[0] if detail.strip() else ""
    pos = latex.find(word) if word else -1
    return pos if pos >= 0 else len(latex)


def _check_tree(latex: str, tree: etree._Element) -> None:
    """What latex2mathml lets through: unknown commands (kept as text) and missing arguments."""
    for el in tree.iter():
        if not isinstance(el.tag, str):
            continue
        text = el.text or ""
        local = etree.QName(el).localname
        if local in ("mi", "mo") and text.startswith("\\") and len(text) > 1:
            raise _fail(latex, max(latex.find(text), 0), f"unknown command {text}")
        arity = {"mfrac": 2, "mroot": 2, "msub": 2, "msup": 2, "msubsup": 3}.get(local)
        if arity and len(el) < arity:
            command = {"mfrac": "\\frac", "mroot": "\\sqrt"}.get(local, "^ or _")
            pos = latex.find(command) if command.startswith("\\") else len(latex)
            raise _fail(latex, max(pos, 0), f"{command} needs {arity} arguments")


def to_omml(latex: str, display: bool) -> etree._Element:
    """``m:oMathPara`` (display) or ``m:oMath`` (inline) for ``latex``."""
    math = mathml.convert(parse(latex))
    if not display:
        return math
    para = etree.Element(f"{{{M}}}oMathPara")
    para.append(math)
    return para
