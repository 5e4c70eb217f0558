"""Formatting values an agent passes, checked by type and range before anything changes.

Each key has one expected type; a wrong one is refused naming the key, what was expected and
what came (``{"bold": "false"}`` would otherwise turn bold on). Ranges are Word's: a value Word
itself would not accept in its dialogs is refused, never written.
"""
from __future__ import annotations

import math
import re

from ooxml.text import body as B
from ooxml.xml.errors import ValidationError
from ooxml.xml.units import inches, points, type_name

UNDERLINES = ("single words double thick dotted dottedHeavy dash dashedHeavy dashLong dashLongHeavy "
              "dotDash dashDotHeavy dotDotDash dashDotDotHeavy wave wavyHeavy wavyDouble none").split()
HIGHLIGHTS = ("black blue cyan green magenta red yellow white darkBlue darkCyan darkGreen darkMagenta "
              "darkRed darkYellow darkGray lightGray none").split()
ALIGNMENTS = {"left": "left", "center": "center", "centre": "center", "right": "right", "justify": "both",
              "both": "both", "distribute": "distribute"}
BOOLEAN_KEYS = ("bold", "italic", "strike", "all_caps", "small_caps", "superscript", "subscript",
                "keep_with_next", "keep_together", "page_break_before", "widow_control")
PARAGRAPH_KEYS = {"alignment", "space_before", "space_after", "line_spacing", "left_indent", "right_indent",
                  "first_line_indent", "keep_with_next", "keep_together", "page_break_before", "widow_control"}
RUN_KEYS = {"bold", "italic", "underline", "size", "color_hex", "font_name", "east_asian_font", "strike",
            "highlight", "all_caps", "small_caps", "superscript", "subscript"}
FONT_KEYS = {"bold", "italic", "underline", "size", "color_hex", "font_name", "east_asian_font"}
MAX_FONT_NAME = 31  # Word keeps at most 31 characters of a font name
# Word's ranges, in inches: spacing 0-1584 pt, indents -22 in to 22 in.
SPACING_RANGE = (0.0, 22.0)
INDENT_RANGE = (-22.0, 22.0)
LINE_MULTIPLE_RANGE = (0.06, 132.0)
LINE_LENGTH_RANGE = (0.7 / 72, 22.0)
_HEX = re.compile(r"^#?([0-9A-Fa-f]{6})$")
_LENGTH_HINT = "Lengths are numbers of inches or strings with a unit: '12pt', '0.5in', '1cm'."


def _refuse(key: str, expected: str, value, hint: str) -> ValidationError:
    shown = repr(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else \
        "null" if value is None else str(value)
    return ValidationError(f"{key} must be {expected}, not {type_name(value)} ({shown[:40]}).", hint=hint)


def check_boolean(key: str, value) -> bool:
    if not isinstance(value, bool):
        raise _refuse(key, "true or false", value, f'Pass a JSON boolean: {{"{key}": true}} or {{"{key}": false}}.')
    return value


def check_choice(key: str, value, choices, hint: str | None = None) -> str:
    if not isinstance(value, str) or value not in choices:
        listed = ", ".join(choices)
        if isinstance(value, str):
            raise ValidationError(f"{key} '{value[:40]}' is not one of Word's values.",
                                  hint=hint or f"Use one of: {listed}.")
        raise _refuse(key, "a string", value, hint or f"Use one of: {listed}.")
    return value


def check_length(key: str, value, lo: float, hi: float) -> float:
    """A length in inches within lo..hi (inches)."""
    number = inches(value, key)
    if not lo <= number <= hi:
        raise ValidationError(f"{key} {value} is out of range ({_inch_text(lo)} to {_inch_text(hi)}).",
                              hint=_LENGTH_HINT)
    return number


def _inch_text(value: float) -> str:
    return "0" if value == 0 else f"{value * 72:g}pt" if abs(value) < 1 else f"{value:g}in"


def check_size(value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise _refuse("size", "a number of points or a string with a unit", value, "Use e.g. 12 or '10.5pt'.")
    pt = points(value, "size")
    if not 1 <= pt <= 1638:
        raise ValidationError(f"size {value} is out of range (1-1638 pt).", hint="Use e.g. 12 or '10.5pt'.")
    return pt


def check_underline(value) -> None:
    if isinstance(value, bool):
        return
    check_choice("underline", value, UNDERLINES, "Use true/false or one of: " + ", ".join(UNDERLINES))


def check_color(value) -> None:
    if not isinstance(value, str):
        raise _refuse("color_hex", "a string", value, "Use six hex digits like 'FF0000', or 'auto'.")
    if value.lower() != "auto" and not _HEX.match(value):
        raise ValidationError(f"color_hex '{value[:40]}' is not a colour.",
                              hint="Use six hex digits like 'FF0000', or 'auto'.")


def check_font_name(key: str, value) -> None:
    if not isinstance(value, str):
        raise _refuse(key, "a font name (a string)", value, "Use e.g. 'Arial' or 'SimSun'.")
    if not value.strip():
        raise ValidationError(f"{key} is empty.", hint="Pass a font name such as 'Arial', or leave the key out.")
    if len(value) > MAX_FONT_NAME:
        raise ValidationError(f"{key} '{value[:40]}…' is longer than {MAX_FONT_NAME} characters, Word's limit.",
                              hint="Use the font's family name, e.g. 'Arial'.")
    if any(ord(ch) < 32 or 0xD800 <= ord(ch) <= 0xDFFF or ch in "\ufffe\uffff" for ch in value):
        raise ValidationError(f"{key} contains a control character.", hint="Pass the font name as plain text.")


def check_line_spacing(value) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise _refuse("line_spacing", "a number (a multiple, e.g. 1.5) or a length string ('14pt')", value,
                      "A number is a multiple of single spacing; a string with a unit is at-least spacing.")
    if isinstance(value, str):
        check_length("line_spacing", value, *LINE_LENGTH_RANGE)
        return
    lo, hi = LINE_MULTIPLE_RANGE
    if not math.isfinite(value) or not lo <= value <= hi:
        raise ValidationError(f"line_spacing {value} is out of range: a multiple is {lo:g} to {hi:g}.",
                              hint="1 is single spacing, 1.5 one and a half, 2 double.")


def check_font_args(size=None, underline=None, color_hex=None, font_name=None, east_asian_font=None) -> None:
    """docx_set_font's values (the schema checked their JSON types)."""
    if size is not None:
        check_size(size)
    if underline is not None:
        check_underline(underline)
    if color_hex is not None:
        check_color(color_hex)
    for key, value in (("font_name", font_name), ("east_asian_font", east_asian_font)):
        if value is not None:
            check_font_name(key, value)


_CHECKS = {
    "alignment": lambda v: check_choice("alignment", v, tuple(ALIGNMENTS), "Use left, center, right or justify."),
    "highlight": lambda v: check_choice("highlight", v, HIGHLIGHTS),
    "size": check_size, "underline": check_underline, "color_hex": check_color,
    "font_name": lambda v: check_font_name("font_name", v),
    "east_asian_font": lambda v: check_font_name("east_asian_font", v),
    "line_spacing": check_line_spacing,
    "space_before": lambda v: check_length("space_before", v, *SPACING_RANGE),
    "space_after": lambda v: check_length("space_after", v, *SPACING_RANGE),
    "left_indent": lambda v: check_length("left_indent", v, *INDENT_RANGE),
    "right_indent": lambda v: check_length("right_indent", v, *INDENT_RANGE),
    "first_line_indent": lambda v: check_length("first_line_indent", v, *INDENT_RANGE),
    **{key: (lambda k: lambda v: check_boolean(k, v))(key) for key in BOOLEAN_KEYS},
}


def check_properties(properties: dict) -> None:
    """Every value of ``properties`` (keys already known) has its key's type and range."""
    for key, value in properties.items():
        _CHECKS[key](value)
    if properties.get("superscript") is True and properties.get("subscript") is True:
        raise ValidationError("superscript and subscript cannot both be true.", hint="Pass one of them.")


def check_element_properties(el, properties: dict) -> None:
    """The keys ``properties`` may hold for a run or paragraph, and their values."""
    allowed = RUN_KEYS | (PARAGRAPH_KEYS if el.tag == B.W_P else set())
    unknown = sorted(set(properties) - allowed)
    if unknown:
        raise ValidationError(f"Unknown properties for a {B.kind(el).lower()}: {', '.join(unknown)}.",
                              hint="Valid keys: " + ", ".join(sorted(allowed)))
    if not properties:
        raise ValidationError("properties is empty.", hint="Valid keys: " + ", ".join(sorted(allowed)))
    check_properties(properties)
