"""Lexer for Go ``text/template`` source: text, actions, and the tokens inside actions.

Trim markers (``{{- `` and `` -}}``) and comments are handled here, so the parser only sees
text that is already trimmed. Literal values (strings, numbers, characters) are decoded
here too, so every syntax error about a literal points at the literal itself.
"""
from __future__ import annotations

import bisect
import re

from .errors import TemplateSyntaxError

SPACE = " \t\r\n"  # Go's trim markers and action separators use exactly these
KEYWORDS = frozenset(
    "block break continue define else end if range template with".split())

# Token kinds
TEXT, LDELIM, RDELIM, EOF = "text", "ldelim", "rdelim", "eof"
IDENT, KEYWORD, FIELD, VAR, DOT = "ident", "keyword", "field", "var", "dot"
BOOL, NIL, NUMBER, STRING, CHAR = "bool", "nil", "number", "string", "char"
PIPE, LPAREN, RPAREN, DECLARE, ASSIGN, COMMA = "|", "(", ")", ":=", "=", ","
LITERALS = frozenset((BOOL, NIL, NUMBER, STRING, CHAR))

_SIMPLE = {"|": PIPE, "(": LPAREN, ")": RPAREN, ",": COMMA, "=": ASSIGN}
_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
            "\\": "\\"}
_NUMBER = re.compile(r"""[+-]?(?:
      0[xX][0-9a-fA-F_]*(?:\.[0-9a-fA-F_]*)?(?:[pP][+-]?[0-9_]+)?
    | 0[oO][0-7_]*
    | 0[bB][01_]*
    | [0-9_]*(?:\.[0-9_]*)?(?:[eE][+-]?[0-9_]+)?
    )i?""", re.X)
_INT_MIN, _INT_MAX = -(1 << 63), (1 << 63) - 1


class Token:
    __slots__ = ("kind", "value", "pos", "end", "space")

    def __init__(self, kind, value, pos, end, space=False):
        self.kind = kind
        self.value = value  # decoded literal, name, or keyword
        self.pos = pos  # offset of the first character in the source
        self.end = end
        self.space = space  # preceded by white space inside the action


def is_word_char(ch: str) -> bool:
    """Go's alphanumeric: underscore, Unicode letter or decimal digit."""
    return ch == "_" or ch.isalpha() or ch.isdecimal()


class Lexer:
    def __init__(self, source: str, name: str):
        self.src = source
        self.name = name
        self.tokens: list[Token] = []
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", source)]

    def location(self, pos: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, pos)
        return line, pos - self._line_starts[line - 1] + 1

    def error(self, pos: int, reason: str) -> TemplateSyntaxError:
        line, column = self.location(pos)
        return TemplateSyntaxError(reason, line, column, name=self.name)

    # -- text and delimiters ------------------------------------------------------------

    def tokenize(self) -> list[Token]:
        src, n, pos, trim_next = self.src, len(self.src), 0, False
        while True:
            start = src.find("{{", pos)
            text = src[pos:] if start < 0 else src[pos:start]
            if trim_next:
                text = text.lstrip(SPACE)
            if start < 0:
                self._text(text, pos)
                break
            left_trim = src.startswith("-", start + 2) and start + 3 < n and src[start + 3] in SPACE
            if left_trim:
                text = text.rstrip(SPACE)
            self._text(text, pos)
            inner = start + (4 if left_trim else 2)
            if src.startswith("/*", inner):
                pos, trim_next = self._comment(start, inner)
            else:
                self.tokens.append(Token(LDELIM, "{{", start, inner))
                pos, trim_next = self._action(start, inner)
        self.tokens.append(Token(EOF, None, n, n))
        return self.tokens

    def _text(self, text: str, pos: int) -> None:
        if text:
            self.tokens.append(Token(TEXT, text, pos, pos))

    def _right_delim(self, pos: int) -> int:
        """Length of the right delimiter at pos (4 with a trim marker), or 0."""
        src = self.src
        if src.startswith("}}", pos):
            return 2
        if pos < len(src) and src[pos] in SPACE and src.startswith("-}}", pos + 1):
            return 4
        return 0

    def _comment(self, start: int, inner: int) -> tuple[int, bool]:
        close = self.src.find("*/", inner + 2)
        if close < 0:
            raise self.error(start, "unclosed comment")
        width = self._right_delim(close + 2)
        if not width:
            raise self.error(close, "comment ends before closing delimiter")
        return close + 2 + width, width == 4

    # -- inside an action -----------------------------------------------------------------

    def _action(self, start: int, pos: int) -> tuple[int, bool]:
        src, n, space = self.src, len(self.src), False
        while True:
            width = self._right_delim(pos)
            if width:
                self.tokens.append(Token(RDELIM, "}}", pos, pos + width))
                return pos + width, width == 4
            if pos >= n:
                line, column = self.location(start)
                raise self.error(pos, f"unclosed action (opened at line {line}, column {column})")
            ch = src[pos]
            if ch in SPACE:
                space = True
                pos += 1
                continue
            token = self._token(pos, ch)
            token.space = space
            space = False
            self.tokens.append(token)
            pos = token.end

    def _token(self, pos: int, ch: str) -> Token:
        src = self.src
        if ch in _SIMPLE:
            return Token(_SIMPLE[ch], ch, pos, pos + 1)
        if ch == ":":
            if src.startswith(":=", pos):
                return Token(DECLARE, ":=", pos, pos + 2)
            raise self.error(pos, 'expected ":="')
        if ch == '"':
            return self._quoted(pos)
        if ch == "`":
            return self._raw(pos)
        if ch == "'":
            return self._char(pos)
        if ch == "$":
            return self._word(pos, VAR, pos + 1)
        nxt = src[pos + 1:pos + 2]
        if ch == "." and not (nxt and nxt in "0123456789"):
            return self._word(pos, FIELD, pos + 1) if nxt and is_word_char(nxt) else \
                Token(DOT, ".", pos, pos + 1)
        if ch in "0123456789+-.":
            return self._number(pos)
        if is_word_char(ch):
            return self._identifier(pos)
        raise self.error(pos, f'unexpected "{ch}" in action')

    def _scan_word(self, pos: int) -> int:
        src, n = self.src, len(self.src)
        while pos < n and is_word_char(src[pos]):
            pos += 1
        return pos

    def _check_terminator(self, start: int, end: int) -> None:
        """A name must be followed by a separator, as in Go (``.a-`` is an error)."""
        src = self.src
        if end >= len(src) or src[end] in SPACE or src[end] in ".,|:()=" or \
                src.startswith("}}", end):
            return
        raise self.error(end, f'bad character "{src[end]}" after "{src[start:end]}"')

    def _word(self, pos: int, kind: str, name_start: int) -> Token:
        end = self._scan_word(name_start)
        self._check_terminator(pos, end)
        value = self.src[pos:end] if kind == VAR else self.src[name_start:end]
        return Token(kind, value, pos, end)

    def _identifier(self, pos: int) -> Token:
        end = self._scan_word(pos)
        self._check_terminator(pos, end)
        word = self.src[pos:end]
        if word in KEYWORDS:
            return Token(KEYWORD, word, pos, end)
        if word in ("true", "false"):
            return Token(BOOL, word == "true", pos, end)
        if word == "nil":
            return Token(NIL, None, pos, end)
        return Token(IDENT, word, pos, end)

    # -- literals -------------------------------------------------------------------------

    def _number(self, pos: int) -> Token:
        src = self.src
        end = _NUMBER.match(src, pos).end()
        text = src[pos:end]
        if end < len(src) and is_word_char(src[end]) or not any(c.isdigit() for c in text):
            raise self.error(pos, f'bad number syntax: "{src[pos:self._scan_word(end + 1)]}"')
        return Token(NUMBER, self._number_value(text, pos), pos, end)

    def _number_value(self, text: str, pos: int) -> int | float:
        if text.endswith("i"):
            raise self.error(pos, f'complex number "{text}" is not supported')
        body = text.lstrip("+-")
        negative = text.startswith("-")
        try:
            if body[:2].lower() == "0x" and any(c in body for c in ".pP"):
                if not any(c in body for c in "pP"):  # Go requires the p exponent
                    raise ValueError(body)
                value = float.fromhex(body.replace("_", ""))
            elif body[:2].lower() in ("0x", "0o", "0b"):
                value = int(body, 0)
            elif re.fullmatch(r"0[0-9_]+", body):  # Go's legacy octal, as in 0755
                value = int(body.replace("_", ""), 8)
            elif any(c in body for c in ".eE"):
                value = float(body)
            else:
                value = int(body, 10)
        except ValueError:
            raise self.error(pos, f'bad number syntax: "{text}"') from None
        value = -value if negative else value
        if isinstance(value, int) and not _INT_MIN <= value <= _INT_MAX:
            raise self.error(pos, f'integer overflow: "{text}"')
        if isinstance(value, float) and value in (float("inf"), float("-inf")):
            raise self.error(pos, f'number out of range: "{text}"')
        return value

    def _quoted(self, pos: int) -> Token:
        src, i, n = self.src, pos + 1, len(self.src)
        while i < n and src[i] not in '"\n':
            i += 2 if src[i] == "\\" and i + 1 < n and src[i + 1] != "\n" else 1
        if i >= n or src[i] != '"':
            raise self.error(pos, "unterminated quoted string")
        return Token(STRING, self._unescape(pos + 1, i, '"'), pos, i + 1)

    def _raw(self, pos: int) -> Token:
        close = self.src.find("`", pos + 1)
        if close < 0:
            raise self.error(pos, "unterminated raw quoted string")
        return Token(STRING, self.src[pos + 1:close].replace("\r", ""), pos, close + 1)

    def _char(self, pos: int) -> Token:
        src, i, n = self.src, pos + 1, len(self.src)
        while i < n and src[i] not in "'\n":
            i += 2 if src[i] == "\\" and i + 1 < n and src[i + 1] != "\n" else 1
        if i >= n or src[i] != "'":
            raise self.error(pos, "unterminated character constant")
        value = self._unescape(pos + 1, i, "'")
        if len(value) != 1:
            raise self.error(pos, f"malformed character constant: {src[pos:i + 1]}")
        return Token(CHAR, ord(value), pos, i + 1)

    def _unescape(self, start: int, end: int, quote: str) -> str:
        """Decode Go escapes; \\x and octal escapes are bytes, combined as UTF-8."""
        src, out, i = self.src, bytearray(), start
        while i < end:
            ch = src[i]
            if ch != "\\":
                out += ch.encode("utf-8", "surrogatepass")
                i += 1
                continue
            i = self._escape(i, quote, out)
        return out.decode("utf-8", "replace")

    def _escape(self, i: int, quote: str, out: bytearray) -> int:
        src = self.src
        code = src[i + 1]
        if code in _ESCAPES or code == quote:
            out += _ESCAPES.get(code, code).encode()
            return i + 2
        sizes = {"x": 2, "u": 4, "U": 8}
        if code in sizes:
            digits = src[i + 2:i + 2 + sizes[code]]
            if len(digits) == sizes[code] and all(c in "0123456789abcdefABCDEF" for c in digits):
                value = int(digits, 16)
                if code == "x":
                    out.append(value)
                elif value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF:
                    out += chr(value).encode()
                else:
                    raise self.error(i, f"invalid Unicode escape \\{code}{digits}")
                return i + 2 + sizes[code]
        elif code in "01234567":
            digits = src[i + 1:i + 4]
            if len(digits) == 3 and all(c in "01234567" for c in digits) and int(digits, 8) < 256:
                out.append(int(digits, 8))
                return i + 4
        raise self.error(i, f'invalid escape "\\{code}" in quoted literal')
