"""LaTeX -> Office Math: checked (braces, environments, unknown commands, missing arguments, each
error naming its position), parsed by latex2mathml, mapped by ``mathml.written``."""
from __future__ import annotations

import re

from latex2mathml.converter import convert_to_element
from latex2mathml.exceptions import NoAvailableTokensError
from lxml import etree

from ooxml.xml.errors import ValidationError
from ooxml.math import fast_latex, mathml
from ooxml.xml import safexml

_HINT = "Write standard LaTeX math (no $ delimiters), e.g. \\frac{a}{b}, x^{2}, \\sum_{i=1}^{n} x_i."
_ENV = re.compile(r"\\(begin|end)\s*\{([^}]*)\}")
MAX_LATEX = 20_000
MAX_DEPTH = safexml.MAX_DEPTH  # what the MathML text parsed by our parser allowed before
_REFS = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);")
_ARITY = {"mfrac": 2, "mroot": 2, "msub": 2, "msup": 2, "msubsup": 3}
_COMMAND_OF = {"mfrac": "\\frac", "mroot": "\\sqrt"}
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def _resolved(m: re.Match) -> str:
    ref = m.group(1)
    if ref[0] != "#":
        return _NAMED[ref]
    code = int(ref[2:], 16) if ref[1] in "xX" else int(ref[1:])
    return chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else m.group(0)


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


def _check_text(latex: str) -> None:
    if not latex.strip():
        raise ValidationError("latex is empty.", hint=_HINT)
    if len(latex) > MAX_LATEX:
        raise ValidationError(f"latex is {len(latex)} characters; at most {MAX_LATEX}.", hint=_HINT)
    stripped = latex.strip()
    if stripped.startswith("$") or stripped.endswith("$"):
        raise _fail(latex, latex.index("$"), "'$' delimiters are not part of the formula")


def parse(latex: str):
    """``latex`` as MathML (latex2mathml's ElementTree, tags without namespace, character references
    resolved), or ValidationError naming where it goes wrong. Taken as a tree: its text written and
    parsed again cost a third of an insert."""
    _check_text(latex)
    _check_braces(latex)
    _check_environments(latex)
    try:
        tree = convert_to_element(latex)
    except NoAvailableTokensError:
        raise _fail(latex, len(latex), "an argument is missing at the end") from None
    except Exception as exc:  # latex2mathml's own errors: name the first command it complains of
        raise _fail(latex, _position_of(latex, str(exc)), type(exc).__name__) from None
    _check_tree(latex, tree)
    return tree


def _position_of(latex: str, detail: str) -> int:
    word = detail.strip().split()[0] if detail.strip() else ""
    pos = latex.find(word) if word else -1
    return pos if pos >= 0 else len(latex)


def _check_tree(latex: str, tree) -> None:
    """What latex2mathml lets through: unknown commands (kept as text), missing arguments, nesting
    deeper than MAX_DEPTH (our conversion recurses); character references in text resolved."""
    elements = list(tree.iter())  # document order
    if len(elements) > MAX_DEPTH:  # only then can it nest too deep: depths counted (a slower walk)
        elements = _in_order(tree)
    for el in elements:
        text = el.text or ""
        if "&" in text:
            el.text = text = _REFS.sub(_resolved, text)
        local = el.tag
        if local in ("mi", "mo") and text.startswith("\\") and len(text) > 1:
            raise _fail(latex, max(latex.find(text), 0), f"unknown command {text}")
        arity = _ARITY.get(local)
        if arity and len(el) < arity:
            command = _COMMAND_OF.get(local, "^ or _")
            pos = latex.find(command) if command.startswith("\\") else len(latex)
            raise _fail(latex, max(pos, 0), f"{command} needs {arity} arguments")


def _in_order(tree):
    """The tree's elements in document order; ValidationError on reaching one nested too deep."""
    stack = [(tree, 0)]
    while stack:
        el, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValidationError(f"latex nests deeper than {MAX_DEPTH // 2} levels.", hint=_HINT)
        stack.extend((child, depth + 1) for child in reversed(el))  # popped in document order
        yield el


def to_omml(latex: str, display: bool) -> etree._Element:
    """``m:oMathPara`` (display) or ``m:oMath`` (inline) for ``latex``."""
    return mathml.parsed(_inside(latex), display)


def display_paragraph(latex: str) -> etree._Element:
    """A new ``w:p`` holding ``latex`` as a display equation (its first child, ``m:oMathPara``)."""
    return mathml.in_paragraph(_inside(latex))


def _inside(latex: str) -> str:
    """The OMML text inside ``m:oMath``: the common subset written directly (fast_latex.py, a fifth
    of the time), the rest parsed by latex2mathml."""
    _check_text(latex)
    inside = fast_latex.omml(latex)
    return mathml.written(parse(latex)) if inside is None else inside
