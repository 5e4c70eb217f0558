"""Go's ``fmt.Sprintf`` for template data: verbs, flags, width, precision, argument indexes.

Written from the ``fmt`` package documentation and checked against real Go output (see
tests/render/gotemplate). Mistakes in the format are written into the output as Go writes them
(``%!d(string=x)``, ``%!d(MISSING)``, ``%!(EXTRA int=2)``) rather than raised.

Deliberate differences, because the data are JSON values rather than Go types:
numbers accept both integer and float verbs (``%d`` of 3.0 prints 3; ``%f`` of 3 prints
3.000000), ``%v`` of a float without a precision prints the number as ``{{ . }}`` does,
``%s`` prints any value as ``{{ . }}`` would, and ``%v``/``%s`` of null print nothing.
"""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from .runtime import ExecError, format_number, kind_name, to_text

_TOO_LARGE = 1_000_000  # Go refuses widths and precisions beyond this
_INT_VERBS = frozenset("bcdoOqxXU")
_FLOAT_VERBS = frozenset("eEfFgG")


class _Spec:
    __slots__ = ("minus", "plus", "sharp", "space", "zero", "width", "prec")

    def __init__(self):
        self.minus = self.plus = self.sharp = self.space = self.zero = False
        self.width = self.prec = None


def go_type(value) -> str:
    """The Go type a value would have when decoded by encoding/json (literals: int)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, str):
        return "string"
    return "map[string]interface {}" if isinstance(value, Mapping) else "[]interface {}"


def sprintf(pos: int, fmt, *args) -> str:
    if not isinstance(fmt, str):
        raise ExecError(f"printf: the format must be a string, not {kind_name(fmt)}", pos)
    if "%" not in fmt:
        return fmt + _extra(args) if args else fmt
    return _Formatter(args).run(fmt)


def _extra(args) -> str:
    items = ", ".join("<nil>" if a is None else f"{go_type(a)}={to_text(a)}" for a in args)
    return f"%!(EXTRA {items})"


class _Formatter:
    def __init__(self, args: tuple):
        self.args = args
        self.argn = 0
        self.reordered = False
        self.good_index = True
        self.out: list[str] = []

    def run(self, fmt: str) -> str:
        i, end = 0, len(fmt)
        while i < end:
            j = fmt.find("%", i)
            if j < 0:
                self.out.append(fmt[i:])
                break
            self.out.append(fmt[i:j])
            i = self.directive(fmt, j + 1)
        if not self.reordered and self.argn < len(self.args):
            self.out.append(_extra(self.args[self.argn:]))
        return "".join(self.out)

    # -- parsing one directive -------------------------------------------------------------

    def directive(self, fmt: str, i: int) -> int:
        spec, end = _Spec(), len(fmt)
        self.good_index = True
        i = self.flags(fmt, i, spec)
        i, after_index = self.arg_index(fmt, i)
        if i < end and fmt[i] == "*":
            spec.width = self.int_arg()
            if spec.width is None:
                self.out.append("%!(BADWIDTH)")
            elif spec.width < 0:
                spec.width, spec.minus, spec.zero = -spec.width, True, False
            i, after_index = i + 1, False
        else:
            spec.width, i = _number(fmt, i)
            if after_index and spec.width is not None:
                self.good_index = False
        if i + 1 < end and fmt[i] == ".":
            i, after_index = self.precision(fmt, i + 1, spec, after_index)
        if not after_index:
            i, after_index = self.arg_index(fmt, i)
        if i >= end:
            self.out.append("%!(NOVERB)")
            return i
        self.verb(fmt[i], spec)
        return i + 1

    def flags(self, fmt: str, i: int, spec: _Spec) -> int:
        while i < len(fmt) and fmt[i] in "#0+- ":
            flag = fmt[i]
            if flag == "#":
                spec.sharp = True
            elif flag == "0":
                spec.zero = not spec.minus  # zeros only ever pad on the left
            elif flag == "+":
                spec.plus = True
            elif flag == "-":
                spec.minus, spec.zero = True, False
            else:
                spec.space = True
            i += 1
        return i

    def precision(self, fmt: str, i: int, spec: _Spec, after_index: bool) -> tuple[int, bool]:
        if after_index:  # "%[3].2d"
            self.good_index = False
        i, after_index = self.arg_index(fmt, i)
        if i < len(fmt) and fmt[i] == "*":
            spec.prec = self.int_arg()
            if spec.prec is None:
                self.out.append("%!(BADPREC)")
            elif spec.prec < 0:
                spec.prec = None
            return i + 1, False
        spec.prec, i = _number(fmt, i)
        if spec.prec is None:
            spec.prec = 0
        return i, after_index

    def arg_index(self, fmt: str, i: int) -> tuple[int, bool]:
        """An explicit argument index "[n]"; returns the new position and whether one was found."""
        if i >= len(fmt) or fmt[i] != "[":
            return i, False
        self.reordered = True
        close = fmt.find("]", i + 1)
        if close < 0:
            self.good_index = False
            return i + 1, False
        number, stop = _number(fmt, i + 1)
        if stop != close or number is None or not 1 <= number <= len(self.args):
            self.good_index = False
            return close + 1, number is not None and stop == close
        self.argn = number - 1
        return close + 1, True

    def int_arg(self) -> int | None:
        if self.argn >= len(self.args):
            return None
        value = self.args[self.argn]
        self.argn += 1
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if value.__class__ is not int or abs(value) > _TOO_LARGE:
            return None
        return value

    def verb(self, verb: str, spec: _Spec) -> None:
        if verb == "%":
            self.out.append("%")
        elif not self.good_index:
            self.out.append(f"%!{verb}(BADINDEX)")
        elif self.argn >= len(self.args):
            self.out.append(f"%!{verb}(MISSING)")
        else:
            value = self.args[self.argn]
            self.argn += 1
            if verb == "v":  # %+v and %#v mean other things in Go; plus is dropped
                spec.plus = False
            self.out.append(format_value(value, verb, spec))


def _number(fmt: str, i: int) -> tuple[int | None, int]:
    start = i
    while i < len(fmt) and fmt[i] in "0123456789":
        i += 1
    if i == start:
        return None, i
    value = int(fmt[start:i])
    return (value, i) if value <= _TOO_LARGE else (None, i)


# -- formatting one value ----------------------------------------------------------------------

def format_value(value, verb: str, spec: _Spec) -> str:
    if value is None:
        if verb in "vs":
            return _pad("", spec)
        return _pad("<nil>", spec) if verb == "T" else f"%!{verb}(<nil>)"
    if verb == "T":
        return _pad(go_type(value), spec)
    if isinstance(value, bool):
        return _pad("true" if value else "false", spec) if verb in "tv" else _bad(value, verb)
    if isinstance(value, float) and verb in _INT_VERBS and value.is_integer() and \
            abs(value) < 2 ** 63:
        value = int(value)
    if isinstance(value, int):
        if verb in _FLOAT_VERBS:
            return _format_float(float(value), verb, spec)
        if verb in "vs":
            verb = "d"
        return _format_int(value, verb, spec) if verb in _INT_VERBS else _bad(value, verb)
    if isinstance(value, float):
        if verb in _FLOAT_VERBS or verb == "v" and spec.prec is not None:
            return _format_float(value, "g" if verb == "v" else verb, spec)
        return _format_float(value, verb, spec) if verb in "vs" else _bad(value, verb)
    if isinstance(value, str):
        return _format_string(value, verb, spec)
    if verb in "vs":
        return _pad(_truncate(to_text(value), spec), spec)
    return _bad(value, verb)


def _bad(value, verb: str) -> str:
    return f"%!{verb}({go_type(value)}={to_text(value)})"


def _pad(text: str, spec: _Spec, zero: bool | None = None) -> str:
    if spec.width is None or len(text) >= spec.width:
        return text
    fill = ("0" if (spec.zero if zero is None else zero) else " ") * (spec.width - len(text))
    return text + fill if spec.minus else fill + text


def _truncate(text: str, spec: _Spec) -> str:
    return text if spec.prec is None else text[:spec.prec]


def _sign(negative: bool, spec: _Spec) -> str:
    return "-" if negative else "+" if spec.plus else " " if spec.space else ""


def _format_int(n: int, verb: str, spec: _Spec) -> str:
    if verb == "c":
        return _pad(_rune(n), spec)
    if verb == "q":
        return _pad(quote_rune(_rune(n), spec.plus), spec)
    if verb == "U":
        text = f"U+{n & 0xFFFFFFFFFFFFFFFF:04X}"  # Go shows negatives as uint64
        if spec.sharp and 0 <= n <= 0x10FFFF and chr(n).isprintable():
            text += f" '{chr(n)}'"
        return _pad(text, spec)
    digits = format(abs(n), {"d": "d", "b": "b", "o": "o", "O": "o", "x": "x", "X": "X"}[verb])
    sign = _sign(n < 0, spec)
    if spec.prec is not None:
        if spec.prec == 0 and n == 0:
            return _pad("", spec, zero=False)
        digits = digits.zfill(spec.prec)
    elif spec.zero and spec.width is not None:
        digits = digits.zfill(spec.width - len(sign))
    prefix = ""
    if spec.sharp:
        prefix = {"b": "0b", "x": "0x", "X": "0X"}.get(verb, "")
        if verb == "o" and not digits.startswith("0"):
            prefix = "0"
    if verb == "O":
        prefix = "0o"
    return _pad(sign + prefix + digits, spec, zero=False)


def _rune(n: int) -> str:
    return chr(n) if 0 <= n <= 0x10FFFF and not 0xD800 <= n <= 0xDFFF else "\ufffd"


def _format_float(x: float, verb: str, spec: _Spec) -> str:
    if x != x or x in (float("inf"), float("-inf")):
        return _pad(format_number(x), spec, zero=False)
    if verb in "vs":
        body = format_number(abs(x))
    elif verb in "gG":
        if spec.prec is None and not spec.sharp:
            body = _shortest_g(abs(x))
        else:  # Go's %#g keeps 6 significant digits, as Python's does
            precision = "" if spec.prec is None else f".{spec.prec}"
            body = format(abs(x), f"{'#' if spec.sharp else ''}{precision}g")
    else:
        precision = 6 if spec.prec is None else spec.prec
        body = format(abs(x), f"{'#' if spec.sharp else ''}.{precision}{verb.lower()}")
    if verb in "EG":
        body = body.upper()
    sign = _sign(x < 0 or (x == 0 and str(x).startswith("-")), spec)
    if spec.zero and spec.width is not None and not spec.minus:
        body = body.zfill(spec.width - len(sign))
    return _pad(sign + body, spec, zero=False)


def _shortest_g(x: float) -> str:
    """Go's %g without a precision: shortest digits; an exponent when it is < -4 or >= 6."""
    if x == 0:
        return "0"
    digits, exponent = Decimal(repr(x)).normalize().as_tuple()[1:]
    digits = "".join(map(str, digits))
    point = len(digits) + exponent  # value = 0.digits * 10**point
    exp = point - 1
    if exp < -4 or exp >= 6:  # Go uses precision 6 for this decision when shortest
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{mantissa}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    if point <= 0:
        return "0." + "0" * -point + digits
    if point >= len(digits):
        return digits + "0" * (point - len(digits))
    return digits[:point] + "." + digits[point:]


def _format_string(text: str, verb: str, spec: _Spec) -> str:
    if verb == "s" or verb == "v" and not spec.sharp:
        return _pad(_truncate(text, spec), spec)
    if verb in "qv":
        text = _truncate(text, spec)
        if spec.sharp and verb == "q" and _can_backquote(text):
            return _pad(f"`{text}`", spec)
        return _pad(quote(text, spec.plus), spec)
    if verb in "xX":
        return _hex_bytes(text.encode("utf-8", "surrogatepass"), verb, spec)
    return _bad(text, verb)


def _hex_bytes(data: bytes, verb: str, spec: _Spec) -> str:
    if spec.prec is not None:
        data = data[:spec.prec]
    form = "%02x" if verb == "x" else "%02X"
    prefix = ("0x" if verb == "x" else "0X") if spec.sharp else ""
    if spec.space:
        text = " ".join(prefix + form % b for b in data)
    else:
        text = (prefix if data else "") + "".join(form % b for b in data)
    return _pad(text, spec)


# -- Go quoting (strconv.Quote and friends) -----------------------------------------------------

_QUOTE_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
                  "\t": "\\t", "\v": "\\v"}


def _escape_rune(ch: str, quote_char: str, ascii_only: bool) -> str:
    if ch == quote_char or ch == "\\":
        return "\\" + ch
    code = ord(ch)
    if ch.isprintable() and (code < 0x80 or not ascii_only):
        return ch
    if ch in _QUOTE_ESCAPES:
        return _QUOTE_ESCAPES[ch]
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02x}"
    if 0xD800 <= code <= 0xDFFF:
        return "\\ufffd"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def quote(text: str, ascii_only: bool = False) -> str:
    return '"' + "".join(_escape_rune(c, '"', ascii_only) for c in text) + '"'


def quote_rune(ch: str, ascii_only: bool = False) -> str:
    return "'" + _escape_rune(ch, "'", ascii_only) + "'"


def _can_backquote(text: str) -> bool:
    return not any(c == "`" or c == "\ufeff" or (ord(c) < 0x20 and c != "\t") or c == "\x7f"
                   for c in text)
