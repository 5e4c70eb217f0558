"""Unicode math characters as LaTeX commands (the reverse of latex2mathml's own symbol table, so
what we write reads back the same), and math alphanumerics (𝐱, ℝ) as ``\\mathbf{x}``, ``\\mathbb{R}``."""
from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache

from latex2mathml.symbols_parser import SYMBOLS

# Where latex2mathml's table gives several names, the one papers use.
_PREFERRED = {
    "≤": r"\le", "≥": r"\ge", "≠": r"\neq", "→": r"\to", "…": r"\ldots", "ϕ": r"\phi", "φ": r"\varphi",
    "←": r"\leftarrow", "∫": r"\int", "∂": r"\partial", "⋅": r"\cdot", "·": r"\cdot", "∣": r"\mid", "∥": r"\parallel",
    "⟨": r"\langle", "⟩": r"\rangle", "∖": r"\setminus", "ε": r"\varepsilon", "ϵ": r"\epsilon",
    "′": "'", "″": "''", "−": "-", "∗": "*", "∼": r"\sim", "∘": r"\circ", "⋯": r"\cdots", "ℓ": r"\ell",
    "\u00a0": " ", "\u2009": r"\,", "\u2005": r"\;", "\u2003": r"\quad", "{": r"\{", "}": r"\}",
    "#": r"\#", "%": r"\%", "&": "&", "$": r"\$", "_": r"\_", "ℏ": r"\hbar", "∅": r"\emptyset",
}
_COMMAND = re.compile(r"\\[A-Za-z]+")
_ALPHA_STYLES = (("BOLD ITALIC", r"\boldsymbol"), ("DOUBLE-STRUCK", r"\mathbb"), ("BOLD SCRIPT", r"\mathcal"),
                 ("SCRIPT", r"\mathcal"), ("FRAKTUR", r"\mathfrak"), ("SANS-SERIF", r"\mathsf"),
                 ("MONOSPACE", r"\mathtt"), ("BOLD", r"\mathbf"))


_ASCII = {"{": r"\{", "}": r"\}", "~": r"\sim", "#": r"\#", "%": r"\%", "$": r"\$", "\\": r"\backslash"}


@cache
def _commands() -> dict[str, str]:
    table: dict[str, str] = {}
    for name, code in SYMBOLS.items():
        char = chr(int(code, 16))
        if char.isascii() or char in table or not _COMMAND.fullmatch(name):
            continue
        if name.endswith("up") and name[:-2] in SYMBOLS:
            continue
        table[char] = name
    table.update(_PREFERRED)
    return table


def _alphanumeric(char: str) -> str | None:
    """𝐱 -> \\mathbf{x}, ℝ -> \\mathbb{R}: a styled letter or digit as its style command."""
    name = unicodedata.name(char, "")
    if "CAPITAL" not in name and "SMALL" not in name and "DIGIT" not in name:
        return None
    if not (name.startswith("MATHEMATICAL ") or name.startswith("DOUBLE-STRUCK ") or
            name.startswith("SCRIPT ") or name.startswith("BLACK-LETTER ")):
        return None
    base = unicodedata.normalize("NFKC", char)
    if not (len(base) == 1 and base.isalnum()):
        return None
    if base.isalpha() and not base.isascii():  # a styled Greek letter: its command
        base = _commands().get(base, base)
    if name.startswith("MATHEMATICAL ITALIC") and "BOLD" not in name:
        return base
    for key, command in _ALPHA_STYLES:
        if key in name or (key == "FRAKTUR" and "BLACK-LETTER" in name):
            return f"{command}{{{base}}}"
    return base


def latex_of_char(char: str) -> str:
    """One character as LaTeX: a command (followed by nothing: the caller spaces it) or itself."""
    if char.isascii():
        return _ASCII.get(char, char)
    if char in _PREFERRED:
        return _PREFERRED[char]
    styled = _alphanumeric(char)
    if styled is not None:
        return styled
    return _commands().get(char, char)


def latex_of_text(text: str) -> str:
    """Math text as LaTeX: each character mapped, a space after a command that a letter follows."""
    return _latex_of_short(text) if len(text) <= _SHORT else _latex_of(text)


_SHORT = 24  # texts cached: the symbols and words that recur (a long text would only fill the cache)


@lru_cache(maxsize=4096)  # one C call for a cached text: most runs are one character
def _latex_of_short(text: str) -> str:
    return _latex_of(text)


def _latex_of(text: str) -> str:
    if len(text) == 1:  # nothing to space
        return latex_of_char(text)
    out: list[str] = []
    for char in text.replace("\u2003\u2003", "\ue000"):
        piece = r"\qquad" if char == "\ue000" else latex_of_char(char)
        if out and _COMMAND.fullmatch(out[-1]) and piece[:1].isalpha():
            out.append(" ")
        out.append(piece)
    return "".join(out)
