"""Number formats of list labels (w:numFmt): 3 -> '3', 'c', 'III', '03', '3rd' ...

Values are clamped to what each format can show, so a hostile start value never builds a huge
string. Formats we do not draw fall back to decimal; ``FALLBACK`` names them for notes.
"""
from __future__ import annotations

DRAWN = {"decimal", "lowerLetter", "upperLetter", "lowerRoman", "upperRoman", "bullet", "decimalZero",
         "ordinal", "none", "chineseCounting", "chineseCountingThousand"}
MAX_VALUE = 32767  # Word's largest list number
MAX_LETTER_REPEAT = 40  # a..z, aa..zz, ... Word repeats the letter; keep it bounded

_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
          (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))

# Bullets in symbol fonts are byte codes of the font (often written as U+F0xx): the glyph Word draws.
_SYMBOL = {0xB7: "•", 0xA7: "♣", 0xA8: "♦", 0xA9: "♥", 0xAA: "♠", 0x2D: "−", 0xAE: "→", 0xDE: "⇒", 0xB0: "°"}
_WINGDINGS = {0x6C: "●", 0x6E: "■", 0x6F: "□", 0x71: "❑", 0x75: "◆", 0x76: "❖", 0x77: "⬥", 0x9F: "•",
              0xA1: "○", 0xA7: "▪", 0xD8: "➢", 0xE0: "➔", 0xFB: "✗", 0xFC: "✓", 0xFE: "☑"}
SYMBOL_FONTS = {"symbol": _SYMBOL, "wingdings": _WINGDINGS}


def clamp(value: int) -> int:
    return max(0, min(MAX_VALUE, value))


def roman(n: int) -> str:
    n = max(1, min(n, 3999))
    out = []
    for value, letters in _ROMAN:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def letter(n: int) -> str:
    if n <= 0:
        return ""
    n = min(n, 26 * MAX_LETTER_REPEAT)
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


_ZH_DIGITS = "零一二三四五六七八九"
_ZH_UNITS = ((1000, "千"), (100, "百"), (10, "十"), (1, ""))


def _zh_below_10k(n: int, leading: bool) -> str:
    out, zero, started = [], False, False
    for value, unit in _ZH_UNITS:
        d = n // value % 10
        if d == 0:
            zero = zero or started  # one 零 for a run of zeros between digits
            continue
        if zero:
            out.append("零")
            zero = False
        if not (d == 1 and value == 10 and leading and not started):  # 十一, but 一百一十
            out.append(_ZH_DIGITS[d])
        out.append(unit)
        started = True
    return "".join(out)


def chinese(n: int) -> str:
    """Chinese counting (chineseCounting, chineseCountingThousand): 十一, 一百零一, 一万零一十."""
    if n <= 0:
        return _ZH_DIGITS[0]
    high, low = divmod(n, 10000)
    if not high:
        return _zh_below_10k(low, True)
    return _zh_below_10k(high, True) + "万" + ("零" if 0 < low < 1000 else "") + _zh_below_10k(low, False)


def format_number(n: int, fmt: str) -> str:
    """One level's number in its format (bullets and 'none' are handled by the template)."""
    n = clamp(n)
    if fmt == "lowerLetter":
        return letter(n)
    if fmt == "upperLetter":
        return letter(n).upper()
    if fmt == "lowerRoman":
        return roman(n) if n else "0"
    if fmt == "upperRoman":
        return roman(n).upper() if n else "0"
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt == "ordinal":
        return ordinal(n)
    if fmt == "none":
        return ""
    if fmt in ("chineseCounting", "chineseCountingThousand"):
        return chinese(n)
    return str(n)  # decimal, and the fallback for every other format


def bullet_text(text: str, font: str | None = None) -> str:
    """The bullet as Word draws it: symbol-font codes mapped to their glyphs ('•' when unknown)."""
    table = SYMBOL_FONTS.get((font or "").lower())
    out = []
    for ch in text:
        code = ord(ch)
        if 0xF000 <= code <= 0xF0FF:
            code -= 0xF000
        elif table is None or code > 0xFF:
            out.append(ch)
            continue
        out.append((table or {}).get(code) or (_SYMBOL.get(code) if table is None else None) or "•")
    return "".join(out)
