"""Text arguments a .docx cannot hold are refused before a tool runs, never dropped unsaid.

XML 1.0 has no place for most C0 control characters, U+FFFE/U+FFFF or lone surrogates (JSON
can carry them all). Dropping them silently would write something other than what the agent
asked for, so every built-in tool refuses them, naming the argument, the character and where
it is. Tabs and line breaks are text: they become ``w:tab`` and ``w:br``.
"""
from __future__ import annotations

import re

from ooxml.xml.errors import ValidationError

_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_NAMES = {"\x0b": "a vertical tab", "\x0c": "a form feed", "\x00": "NUL"}


def check_text_arguments(arguments: dict) -> None:
    for name, value in arguments.items():
        if type(value) is not str or _NOT_XML.search(value):  # the common case: a clean string
            _check(name, value)


def _check(where: str, value) -> None:
    if isinstance(value, str):
        m = _NOT_XML.search(value)
        if m:
            ch = m.group()
            label = _NAMES.get(ch, "a control character")
            raise ValidationError(
                f"{where} contains {label} (U+{ord(ch):04X}) at character {m.start()}: a .docx cannot hold it.",
                hint="Remove the character and call again; write line breaks as \\n and tabs as \\t"
                     + (" (a page break is docx_insert_page_break)." if ch == "\x0c" else "."))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check(f"{where}[{i}]", item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check(f"{where}.{key}", key)
            _check(f"{where}.{key}", item)


_NESTING = (list, dict)
MAX_DEPTH = 32  # levels of lists and objects in one call's arguments (the deepest schema has 4)


def too_deep(arguments: dict) -> str | None:
    """Where the arguments nest deeper than MAX_DEPTH, if they do (walked without recursion:
    the validators that come next recurse per level)."""
    for value in arguments.values():
        if isinstance(value, _NESTING):
            break
    else:
        return None  # the common call: flat
    stack = [(value, 1, name) for name, value in arguments.items()]
    while stack:
        value, depth, where = stack.pop()
        if depth > MAX_DEPTH:
            return where
        if isinstance(value, list):
            stack.extend((item, depth + 1, f"{where}[{i}]") for i, item in enumerate(value))
        elif isinstance(value, dict):
            stack.extend((item, depth + 1, f"{where}.{key}") for key, item in value.items())
    return None
