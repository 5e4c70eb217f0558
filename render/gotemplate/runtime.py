"""Values and builtin functions for compiled templates, with JSON semantics.

Data is what ``json.loads`` returns: dict, list, str, int, float, bool, None. The generated
code inlines the common cases (a field of a dict, printing a str) and calls these helpers
for the rest. A helper that fails raises ``ExecError`` with the index of the template
position it was given; ``Template.render`` turns that into a ``TemplateRenderError``.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from decimal import Decimal
from urllib.parse import quote_plus

from .errors import MAX_OUTPUT_CHARS, MAX_RANGE_ITERATIONS


class ExecError(Exception):
    def __init__(self, reason: str, pos: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.pos = pos


class LimitHit(ExecError):
    def __init__(self, limit: str, value: int, reason: str, pos: int | None = None):
        super().__init__(reason, pos)
        self.limit = limit
        self.value = value


def kind_name(value) -> str:
    """The JSON type of a value, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object" if isinstance(value, Mapping) else "array"


# -- turning values into text ----------------------------------------------------------------

def format_number(x: float) -> str:
    """A float as JSON.stringify and Go's json.Marshal write it: 3.0 -> 3, 1e-7 -> 1e-7."""
    if x != x or x in (float("inf"), float("-inf")):
        return "NaN" if x != x else ("+Inf" if x > 0 else "-Inf")
    if x.is_integer() and abs(x) < 1e21:
        return "-0" if x == 0 and str(x)[0] == "-" else str(int(x))
    text = repr(x)
    if "e" not in text:
        return text
    if 1e-6 <= abs(x) < 1e21:  # repr chose an exponent where ECMAScript does not
        return format(Decimal(text), "f")
    mantissa, exponent = text.split("e")
    return f"{mantissa}e{exponent[0]}{exponent[1:].lstrip('0')}"


def to_text(value) -> str:
    """How {{ value }} prints: null prints nothing, objects and arrays as compact JSON."""
    cls = value.__class__
    if cls is str:
        return value
    if cls is int:
        return str(value)
    if value is None:
        return ""
    if cls is bool:
        return "true" if value else "false"
    if cls is float:
        return format_number(value)
    if isinstance(value, str):
        return str(value)
    return to_json(value)


_encode_string = json.encoder.encode_basestring  # escapes only '"', '\\' and controls
# Go writes \b and \f as \u0008/\u000c and escapes the JavaScript line separators.
_JSON_ODD = re.compile("[\b\f\u2028\u2029]")


def _json_string(text: str) -> str:
    if _JSON_ODD.search(text) is None:
        return _encode_string(text)
    parts = [f"\\u{ord(c):04x}" if c in "\b\f\u2028\u2029" else _encode_string(c)[1:-1]
             for c in text]
    return '"' + "".join(parts) + '"'


def to_json(value) -> str:
    """Compact JSON with sorted keys and no HTML escaping, as Go's json encoder writes it."""
    cls = value.__class__
    if cls is str:
        return _json_string(value)
    if value is None:
        return "null"
    if cls is bool:
        return "true" if value else "false"
    if cls is int:
        return str(value)
    if cls is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise ExecError(f"json: unsupported value: {format_number(value)}")
        return format_number(value)
    if isinstance(value, Mapping):
        items = sorted(value.items())
        return "{" + ",".join(_json_string(k) + ":" + to_json(v) for k, v in items) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(map(to_json, value)) + "]"
    if isinstance(value, str):
        return _json_string(value)
    raise ExecError(f"json: unsupported type {type(value).__name__}")


# -- fields and ranges -----------------------------------------------------------------------

def field(value, key: str, pos: int):
    """Lenient field access (the inlined fast path handles dicts): null and missing give null."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        return value.get(key)
    raise ExecError(f"can't evaluate field {key} in type {kind_name(value)}", pos)


def field_strict(value, key: str, pos: int):
    if isinstance(value, Mapping):
        if key in value:
            return value[key]
        raise ExecError(f'map has no entry for key "{key}"', pos)
    if value is None:
        raise ExecError(f'nil data; no entry for key "{key}"', pos)
    raise ExecError(f"can't evaluate field {key} in type {kind_name(value)}", pos)


def range_values(value, pos: int) -> list:
    if value.__class__ is list:
        return value
    if value is None:
        return []
    if isinstance(value, Mapping):
        return [value[k] for k in sorted(value)]
    if isinstance(value, (list, tuple)):
        return list(value)
    raise ExecError(f"range can't iterate over {to_text(value)} ({kind_name(value)})", pos)


def range_items(value, pos: int) -> tuple:
    """(keys, values): indexes for an array, sorted keys for an object."""
    if isinstance(value, Mapping):
        keys = sorted(value)
        return keys, [value[k] for k in keys]
    values = range_values(value, pos)
    return range(len(values)), values


def loop_limit(iterations: int, size: int, pos: int):
    if iterations > MAX_RANGE_ITERATIONS:
        raise LimitHit("MAX_RANGE_ITERATIONS", MAX_RANGE_ITERATIONS,
                       f"more than MAX_RANGE_ITERATIONS ({MAX_RANGE_ITERATIONS}) range "
                       "iterations in one render", pos)
    output_limit(size, pos)


def output_limit(size: int, pos: int):
    if size > MAX_OUTPUT_CHARS:
        raise LimitHit("MAX_OUTPUT_CHARS", MAX_OUTPUT_CHARS,
                       f"output longer than MAX_OUTPUT_CHARS ({MAX_OUTPUT_CHARS} characters)",
                       pos)


# -- comparisons -------------------------------------------------------------------------------

def _kind(value) -> str | None:
    """Comparison class: numbers compare with numbers whatever int/float they are."""
    cls = value.__class__
    if cls is str:
        return "s"
    if cls is int or cls is float:
        return "n"
    if value is None:
        return None
    if cls is bool:
        return "b"
    if isinstance(value, str):
        return "s"
    return "n" if isinstance(value, (int, float)) else "x"


def eq(pos: int, a, b, *more) -> bool:
    cls = a.__class__
    if not more and cls is b.__class__ and (cls is str or cls is int or cls is float):
        return a == b
    ka = _kind(a)
    if ka == "x":
        raise ExecError(f"invalid type for comparison: {kind_name(a)}", pos)
    for other in (b,) + more:
        kb = _kind(other)
        if ka is None or kb is None:
            if ka is kb:
                return True
            continue
        if kb == "x":
            raise ExecError(f"non-comparable type: {kind_name(other)}", pos)
        if ka != kb:
            raise ExecError(f"incompatible types for comparison: {kind_name(a)} and "
                            f"{kind_name(other)}", pos)
        if a == other:
            return True
    return False


def ne(pos: int, a, b) -> bool:
    return not eq(pos, a, b)


def _ordered(pos: int, a, b) -> None:
    ka, kb = _kind(a), _kind(b)
    if ka not in ("n", "s") or kb not in ("n", "s"):
        bad = a if ka not in ("n", "s") else b
        raise ExecError(f"invalid type for comparison: {kind_name(bad)}", pos)
    if ka != kb:
        raise ExecError(f"incompatible types for comparison: {kind_name(a)} and "
                        f"{kind_name(b)}", pos)


def lt(pos: int, a, b) -> bool:
    _ordered(pos, a, b)
    return a < b


def le(pos: int, a, b) -> bool:
    _ordered(pos, a, b)
    return a <= b


def gt(pos: int, a, b) -> bool:
    _ordered(pos, a, b)
    return a > b


def ge(pos: int, a, b) -> bool:
    _ordered(pos, a, b)
    return a >= b


# -- len, index, slice -------------------------------------------------------------------------

def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def length(pos: int, value) -> int:
    """Like Go: a string's length is its number of UTF-8 bytes."""
    if isinstance(value, str):
        return len(value) if value.isascii() else len(_utf8(value))
    if isinstance(value, (list, tuple, Mapping)):
        return len(value)
    if value is None:
        raise ExecError("len of nil", pos)
    raise ExecError(f"len of type {kind_name(value)}", pos)


def _int_arg(pos: int, value, what: str) -> int:
    """An index: an integer, or a float with an integral value (JSON numbers)."""
    if value.__class__ is int:
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if value is None:
        raise ExecError(f"cannot {what} with nil", pos)
    raise ExecError(f"cannot {what} with type {kind_name(value)}", pos)


def index(pos: int, item, *keys):
    for key in keys:
        if isinstance(item, Mapping):
            if not isinstance(key, str):
                raise ExecError(f"value has type {kind_name(key)}; should be string", pos)
            item = item.get(key)
            continue
        if item is None:
            raise ExecError("index of untyped nil", pos)
        if isinstance(item, str):
            item = _utf8(item)  # Go indexes the bytes of a string
        elif not isinstance(item, (list, tuple)):
            raise ExecError(f"can't index item of type {kind_name(item)}", pos)
        i = _int_arg(pos, key, "index slice/array")
        if not 0 <= i < len(item):
            raise ExecError(f"index out of range: {i}", pos)
        item = item[i]
    return item


def slice_(pos: int, item, *bounds):
    if item is None:
        raise ExecError("slice of untyped nil", pos)
    if isinstance(item, str):
        if len(bounds) > 2:
            raise ExecError("cannot 3-index slice a string", pos)
        data = item if item.isascii() else _utf8(item)
    elif isinstance(item, (list, tuple)):
        data = item
    else:
        raise ExecError(f"can't slice item of type {kind_name(item)}", pos)
    idx = [_int_arg(pos, b, "index slice/array") for b in bounds]
    for i in idx:
        if not 0 <= i <= len(data):
            raise ExecError(f"index out of range: {i}", pos)
    for i, j in zip(idx, idx[1:]):
        if i > j:
            raise ExecError(f"invalid slice index: {i} > {j}", pos)
    start = idx[0] if idx else 0
    stop = idx[1] if len(idx) > 1 else len(data)
    result = data[start:stop]
    return result.decode("utf-8", "replace") if isinstance(result, bytes) else result


# -- printing and escaping ------------------------------------------------------------------------

def sprint(args: tuple) -> str:
    """Go's fmt.Sprint: a space between operands when neither is a string."""
    parts, previous_string = [], True
    for i, arg in enumerate(args):
        is_string = isinstance(arg, str)
        if i and not is_string and not previous_string:
            parts.append(" ")
        parts.append(to_text(arg))
        previous_string = is_string
    return "".join(parts)


def sprintln(args: tuple) -> str:
    return " ".join(map(to_text, args)) + "\n"


def _argument_text(args: tuple) -> str:
    if len(args) == 1 and args[0].__class__ is str:
        return args[0]
    return sprint(args)


_HTML = str.maketrans({"&": "&amp;", "'": "&#39;", "<": "&lt;", ">": "&gt;", '"': "&#34;",
                       "\0": "\ufffd"})
_JS = str.maketrans({"\\": "\\\\", "'": "\\'", '"': '\\"', "<": "\\u003C", ">": "\\u003E",
                     "&": "\\u0026", "=": "\\u003D",
                     **{c: f"\\u{c:04X}" for c in range(0x20)}})
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def html(*args) -> str:
    return _argument_text(args).translate(_HTML)


def js(*args) -> str:
    text = _argument_text(args).translate(_JS)
    if text.isascii():
        return text
    return _NON_ASCII.sub(lambda m: m[0] if m[0].isprintable() else f"\\u{ord(m[0]):04X}", text)


def urlquery(*args) -> str:
    return quote_plus(_argument_text(args), safe="", errors="surrogatepass")


def print_(*args) -> str:
    return sprint(args)


def println(*args) -> str:
    return sprintln(args)


def json_(pos: int, value) -> str:
    try:
        return to_json(value)
    except ExecError as error:
        raise ExecError(error.reason, pos) from None
