"""What latex2mathml writes for one symbol, fence, accent or font command, asked of it once per
command (bounded caches): fast_latex.py writes these as the reference path would, without copying
latex2mathml's tables. Each answer is None when the command is anything but that plain kind."""
from __future__ import annotations

import re
from functools import lru_cache

from latex2mathml.converter import convert_to_element

from ooxml.math import mathml

_REF = re.compile(r"&#x([0-9A-Fa-f]+);")
_SCRIPTED = {(True, False): "msub", (False, True): "msup", (True, True): "msubsup"}


@lru_cache(maxsize=256)
def fence(token: str, left: bool) -> str | None:
    """The character of a \\left (``left``) or \\right delimiter token; None if it is no plain fence."""
    probe = rf"\left{token} x \right." if left else rf"\left. x \right{token}"
    el = _probe(probe)
    if el is None or el.tag != "mrow" or len(el) != 3 or el[1].tag != "mi":
        return None
    mark = el[0] if left else el[2]
    if mark.tag != "mo" or mark.get("fence") != "true" or len(mark):
        return None
    return _resolved(mark.text or "")


def _probe(latex: str):
    """latex2mathml's MathML of ``latex`` when it is one element (under ``math``/``mrow``), else None."""
    try:
        math = convert_to_element(latex)
    except Exception:
        return None
    row = math[0] if len(math) == 1 and math[0].tag == "mrow" else None
    return row[0] if row is not None and len(row) == 1 else None


def _resolved(text: str) -> str | None:
    text = _REF.sub(lambda m: chr(int(m.group(1), 16)), text)
    return None if "&" in text or text.startswith("\\") else text


@lru_cache(maxsize=1024)
def atom(token: str) -> tuple | None:
    """A symbol as latex2mathml writes it: one token element, the same before a letter (so it takes
    no argument); None for anything else."""
    try:
        alone, before = convert_to_element(token), convert_to_element(token + " x")
    except Exception:
        return None
    if len(alone) != 1 or len(alone[0]) != 1 or len(before) != 1 or len(before[0]) != 2:
        return None
    el, first, x = alone[0][0], before[0][0], before[0][1]
    if el.tag not in ("mi", "mn", "mo", "mtext", "mspace") or len(el) or x.tag != "mi" or x.text != "x":
        return None
    if (first.tag, first.text, first.attrib) != (el.tag, el.text, el.attrib):
        return None
    if el.tag == "mspace":
        return ("t", "mspace", el.get("width", ""), None) if len(el.attrib) == 1 else None
    text = _resolved(el.text or "")
    if text is None or set(el.attrib) - {"stretchy", "fence", "movablelimits", "form"} or el.get("fence") == "true":
        return None
    return ("t", el.tag, text, el.get("mathvariant"))


@lru_cache(maxsize=256)
def scripts_plainly(source: str | None, node: tuple, sub: bool, sup: bool) -> bool:
    """Whether latex2mathml scripts this symbol as msub/msup/msubsup (not munder/mover)."""
    if source is None or node[1] == "mtext":
        return False
    el = _probe(source + ("_{x}" if sub else "") + ("^{y}" if sup else ""))
    return el is not None and el.tag == _SCRIPTED[sub, sup] and _atom_of(el[0]) == node


def _atom_of(el) -> tuple | None:
    if len(el) or el.tag not in ("mi", "mn", "mo"):
        return None
    return ("t", el.tag, _resolved(el.text or ""), el.get("mathvariant"))


@lru_cache(maxsize=64)
def variant(name: str) -> tuple[str | None] | None:
    """(mathvariant,) of the letters of a font command (\\mathrm{ab}); None if it writes them otherwise."""
    el = _probe(name + "{ab}")
    if el is None or el.tag != "mrow" or [(c.tag, c.text) for c in el] != [("mi", "a"), ("mi", "b")]:
        return None
    variants = {c.get("mathvariant") for c in el}
    if len(variants) != 1 or any(set(c.attrib) - {"mathvariant"} for c in el):
        return None
    return (variants.pop(),)


@lru_cache(maxsize=128)
def accent(name: str) -> tuple | None:
    """What an accent or bar command writes (("acc", chr) or ("bar", pos)); None for anything else."""
    el = _probe(name + "{x}")
    if el is None or el.tag not in ("mover", "munder") or len(el) != 2:
        return None
    base, mark = el
    if base.tag != "mrow" or [(c.tag, c.text) for c in base] != [("mi", "x")] or mark.tag != "mo" or len(mark):
        return None
    char = _resolved(mark.text or "")
    if char is None or char in ("⏞", "⏟"):
        return None
    if char in ("―", "‾"):
        return ("bar", "top" if el.tag == "mover" else "bot")
    if el.tag == "mover" and (el.get("accent") == "true" or mark.get("accent") == "true" or len(char) == 1):
        return ("acc", mathml.ACCENT_CHARS.get(char, char))
    return None
