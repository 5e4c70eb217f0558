"""What a redaction looks for: literal texts or one regular expression, as one compiled pattern.

Literal texts are an alternation of escaped strings (Python's ``re``: linear). A pattern is run by the
``regex`` module with the call's time left as its timeout (``Bounded``), so any pattern users write
is accepted and a match that runs too long ends the call with LimitExceeded, before it changed
anything it would not put back; the matching lets go of the GIL, so the server answers meanwhile.
It only ever runs on one paragraph or one part's text at a time.
"""
from __future__ import annotations

import re

import regex as rx

from ooxml.xml import budget
from ooxml.xml.errors import LimitExceeded, ValidationError

BARRIER = "\x00"  # stands for a tab, break, image ... in a paragraph's text: no match spans it
MAX_TEXT = 1000
MAX_PATTERN = 500
# Characters that show nothing (soft hyphen, zero-width space / (non-)joiner, word joiner, BOM): a text
# looked for matches with any of them between its characters
INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
_GAP = f"[{INVISIBLE}]*"
UNBOUNDED_S = 30.0  # a pattern's time when the call has no limit (scripts, tests)


class Bounded:
    """A ``regex`` pattern with ``re.Pattern``'s search/finditer/fullmatch, each run with the call's
    time left as its timeout."""

    def __init__(self, compiled):
        self.compiled = compiled
        self.pattern, self.flags = compiled.pattern, compiled.flags

    def search(self, text: str):
        return self._run(self.compiled.search, text)

    def fullmatch(self, text: str):
        return self._run(self.compiled.fullmatch, text)

    def finditer(self, text: str) -> list:
        return self._run(lambda t, **kw: list(self.compiled.finditer(t, **kw)), text)

    def _run(self, method, text: str):
        left = budget.remaining()
        if left is not None and left <= 0:
            budget.check()
        try:
            return method(text, timeout=UNBOUNDED_S if left is None else left, concurrent=True)
        except TimeoutError:
            raise _too_long(budget.current_limit()) from None


def _too_long(limit: float | None) -> LimitExceeded:
    return LimitExceeded(f"The pattern ran past the call's time limit{f' of {limit:g} s' if limit else ''} "
                         "(it backtracks without end on this text); nothing was changed.",
                         hint="Write it without nested or overlapping repetition, e.g. [a-z0-9.]+@[a-z0-9.]+ "
                              "instead of (\\w+\\.?)+@, or redact literal texts with text=.")


class Matcher:
    def __init__(self, regex: re.Pattern, label: str, loose: re.Pattern | None = None,
                 needles: list[str] | None = None, spec: list | None = None):
        self.regex = regex
        self.spec = spec  # what was asked, to build the same matcher again (from_spec)
        self.loose = loose or regex  # without word boundaries: finds a superset, to skip what cannot match
        self.needles = needles  # literal texts (lower-cased when the case is ignored); None for a pattern
        self.case_sensitive = not regex.flags & re.IGNORECASE
        self.label = label  # what is looked for, as the answer names it

    def spans(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in self.regex.finditer(text) if m.end() > m.start() and BARRIER not in m.group()]

    def search(self, text: str) -> bool:
        if self.regex.search(text) is None:
            return False
        return bool(self.spans(text))


def for_texts(texts: list[str], case_sensitive: bool = True, whole_word: bool = False) -> Matcher:
    texts = sorted({t for t in texts if t}, key=lambda t: (-len(t), t))  # the same order in every process
    body = "|".join(_literal(t) for t in texts)
    return Matcher(_compile(body, case_sensitive, whole_word), ", ".join(repr(t) for t in texts[:3]),
                   _compile(body, case_sensitive, False), texts if case_sensitive else [t.lower() for t in texts],
                   ["text", texts, case_sensitive, whole_word])


def _literal(text: str) -> str:
    """``text`` with any invisible characters between its characters: a soft hyphen or a zero-width space
    inside a name hides nothing from a reader."""
    chars = [c for c in text if c not in INVISIBLE]
    return _GAP.join(re.escape(c) for c in chars) if chars else re.escape(text)


def for_pattern(pattern: str, case_sensitive: bool = True, whole_word: bool = False) -> Matcher:
    if len(pattern) > MAX_PATTERN:
        raise ValidationError(f"pattern is {len(pattern)} characters, over {MAX_PATTERN}.",
                              hint="Use a shorter regular expression, or redact literal texts with text=.")
    body = rf"(?<!\w)(?:{pattern})(?!\w)" if whole_word else pattern
    flags = 0 if case_sensitive else rx.IGNORECASE
    try:
        regex = Bounded(rx.compile(body, flags))
    except (rx.error, re.error, ValueError, OverflowError) as e:
        raise ValidationError(f"pattern is not a valid regular expression: {e}.",
                              hint="Python syntax; escape literal characters such as . ( [ with a backslash.")
    m = Matcher(regex, f"/{pattern}/", _without_context(body, flags),
                spec=["pattern", pattern, case_sensitive, whole_word])
    if m.regex.fullmatch("") is not None or m.regex.search("\u2588") is not None:
        raise ValidationError("pattern matches empty text or the redaction mark itself.",
                              hint="Make it need at least one character, e.g. \\d+ instead of \\d*.")
    return m


def from_spec(spec: list) -> Matcher:
    """The matcher ``Matcher.spec`` describes (known_leaks: a secret checked again at save)."""
    kind, what, case_sensitive, whole_word = spec
    if kind == "pattern":
        return for_pattern(what, case_sensitive, whole_word)
    return for_texts(what, case_sensitive, whole_word)


def _without_context(pattern: str, flags: int) -> Bounded:
    """The pattern with its anchors, word boundaries and lookarounds taken out: it matches wherever
    the pattern does, whatever stands around, so a search of many paragraphs' texts joined in one
    string finds every paragraph that may hold a match (``\\b\\d{10}\\b`` misses digits that
    a neighbour's digits touch there). A group captured inside a lookaround taken out is referred
    to by its own pattern instead (``(?=(Q))\\1`` reads as ``(?:Q)``): what a reference matched, the
    group's pattern matched. Read through ``re``'s own parser, written back for ``regex``
    (``unparse``); unknown: match anything."""
    try:
        from re import _parser  # noqa: PLC2701 (CPython's own parser, no public twin)
        tree = _parser.parse(pattern, flags)
        lost: dict[int, object] = {}
        _strip(tree, lost)
        _inline(tree, lost, 0)
        return Bounded(rx.compile(unparse(tree)))
    except Exception:  # another Python's internals, references nested too deep: every paragraph
        return Bounded(rx.compile("(?s:.+)"))


def _strip(sub, lost: dict) -> None:
    """Assertions out of ``sub``; the groups captured inside them into ``lost`` (number -> pattern)."""
    from re import _parser as P
    kept = []
    for op, av in sub.data:
        if op in (P.ASSERT, P.ASSERT_NOT):
            _collect(av[1], lost)
        if op in (P.AT, P.ASSERT, P.ASSERT_NOT):
            continue
        for child in _children(op, av):
            _strip(child, lost)
        kept.append((op, av))
    sub.data = kept
    sub.width = None  # cached by the parser; the compiler's shortest-match shortcut reads it


def _collect(sub, lost: dict) -> None:
    from re import _parser as P
    for op, av in sub.data:
        if op is P.SUBPATTERN and av[0] is not None:
            lost[av[0]] = av[3]
        for child in _children(op, av):
            _collect(child, lost)


def _inline(sub, lost: dict, depth: int) -> None:
    """References to ``lost`` groups replaced by a non-capturing copy of the group's pattern."""
    from re import _parser as P
    if depth > 4:
        raise ValueError("references nested too deep")
    for k, (op, av) in enumerate(sub.data):
        if op is P.GROUPREF and av in lost:
            body = _copied(lost[av])
            _uncapture(body)
            _inline(body, lost, depth + 1)
            sub.data[k] = (P.SUBPATTERN, (None, 0, 0, body))
        elif op is P.GROUPREF_EXISTS and av[0] in lost:
            raise ValueError("a condition on a group captured in a lookaround")
        else:
            for child in _children(op, av):
                _inline(child, lost, depth)
    sub.width = None


def _copied(node):
    """A parsed pattern copied (its opcodes are constants that ``copy.deepcopy`` cannot copy)."""
    from re import _parser as P
    if isinstance(node, P.SubPattern):
        return P.SubPattern(node.state, [_copied(item) for item in node.data])
    if isinstance(node, (tuple, list)):
        return type(node)(_copied(item) for item in node)
    return node


def _uncapture(sub) -> None:
    from re import _parser as P
    sub.data = [(op, (None, *av[1:])) if op is P.SUBPATTERN else (op, av) for op, av in sub.data]
    sub.width = None
    for op, av in sub.data:
        for child in _children(op, av):
            _uncapture(child)


def _children(op, av) -> list:
    from re import _parser as P
    if op is P.SUBPATTERN:
        return [av[3]]
    if op is P.BRANCH:
        return list(av[1])
    if op in (P.MAX_REPEAT, P.MIN_REPEAT) or op is getattr(P, "POSSESSIVE_REPEAT", None):
        return [av[2]]
    if op is getattr(P, "ATOMIC_GROUP", None):
        return [av]
    if op is P.GROUPREF_EXISTS:
        return [b for b in av[1:] if b is not None]
    return []


# ---- a parsed pattern written back as text (the ``regex`` module's syntax) --------------------------
_FLAG_LETTERS = ((re.IGNORECASE, "i"), (re.MULTILINE, "m"), (re.DOTALL, "s"), (re.ASCII, "a"))


def unparse(tree) -> str:
    """``re._parser``'s tree of a whole pattern as a pattern: groups named ``g<n>`` (numbers kept
    whatever groups were taken out), every other character by its code point."""
    letters = "".join(c for f, c in _FLAG_LETTERS if tree.state.flags & f)
    return (f"(?{letters})" if letters else "") + _seq(tree)


def _seq(sub) -> str:
    return "".join(_item(op, av) for op, av in sub.data)


def _char(code: int) -> str:
    ch = chr(code)
    return ch if ch.isalnum() and ch.isascii() else f"\\U{code:08x}"


def _item(op, av) -> str:  # noqa: C901 (one branch per opcode)
    from re import _constants as K
    if op is K.LITERAL:
        return _char(av)
    if op is K.NOT_LITERAL:
        return f"[^{_char(av)}]"
    if op is K.ANY:
        return "."
    if op is K.IN:
        neg = "^" if av and av[0][0] is K.NEGATE else ""
        return f"[{neg}{''.join(_class_item(o, a) for o, a in av if o is not K.NEGATE)}]"
    if op is K.AT:
        return _AT[av]
    if op is K.BRANCH:
        return "(?:" + "|".join(_seq(b) for b in av[1]) + ")"
    if op is K.SUBPATTERN:
        group, add, drop, body = av
        if group is not None:
            return f"(?P<g{group}>{_seq(body)})" if not (add or drop) else f"(?P<g{group}>{_flagged(add, drop, body)})"
        return _flagged(add, drop, body)
    if op in (K.MAX_REPEAT, K.MIN_REPEAT, K.POSSESSIVE_REPEAT):
        lo, hi, body = av
        count = {(0, K.MAXREPEAT): "*", (1, K.MAXREPEAT): "+", (0, 1): "?"}.get(
            (lo, hi), f"{{{lo},{'' if hi is K.MAXREPEAT else hi}}}")
        return f"(?:{_seq(body)}){count}" + ("?" if op is K.MIN_REPEAT else "+" if op is K.POSSESSIVE_REPEAT else "")
    if op is K.ATOMIC_GROUP:
        return f"(?>{_seq(av)})"
    if op in (K.ASSERT, K.ASSERT_NOT):
        direction, body = av
        kind = ("=" if op is K.ASSERT else "!")
        return f"(?{'<' if direction < 0 else ''}{kind}{_seq(body)})"
    if op is K.GROUPREF:
        return f"(?P=g{av})"
    if op is K.GROUPREF_EXISTS:
        group, yes, no = av
        return f"(?(g{group}){_seq(yes)}" + (f"|{_seq(no)}" if no is not None else "") + ")"
    raise ValueError(f"opcode {op}")


def _flagged(add: int, drop: int, body) -> str:
    on = "".join(c for f, c in _FLAG_LETTERS if add & f)
    off = "".join(c for f, c in _FLAG_LETTERS if drop & f)
    return f"(?{on}{'-' + off if off else ''}:{_seq(body)})"


def _class_item(op, av) -> str:
    from re import _constants as K
    if op is K.LITERAL:
        return _char(av)
    if op is K.RANGE:
        return f"{_char(av[0])}-{_char(av[1])}"
    if op is K.CATEGORY:
        return _CATEGORY[av]
    raise ValueError(f"class opcode {op}")


def _tables():
    from re import _constants as K
    at = {K.AT_BEGINNING: "^", K.AT_BEGINNING_STRING: "\\A", K.AT_END: "$", K.AT_END_STRING: "\\Z",
          K.AT_BOUNDARY: "\\b", K.AT_NON_BOUNDARY: "\\B"}
    cat = {K.CATEGORY_DIGIT: "\\d", K.CATEGORY_NOT_DIGIT: "\\D", K.CATEGORY_SPACE: "\\s",
           K.CATEGORY_NOT_SPACE: "\\S", K.CATEGORY_WORD: "\\w", K.CATEGORY_NOT_WORD: "\\W"}
    return at, cat


_AT, _CATEGORY = _tables()


def _compile(body: str, case_sensitive: bool, whole_word: bool) -> re.Pattern:
    if whole_word:
        body = rf"(?<!\w)(?:{body})(?!\w)"
    return re.compile(body, 0 if case_sensitive else re.IGNORECASE)


def check_text(text: str) -> None:
    if not text.strip():
        raise ValidationError("text is empty: there is nothing to redact.", hint="Pass the text to remove.")
    if len(text) > MAX_TEXT or any(ch in text for ch in "\t\n\r" + BARRIER):
        raise ValidationError(f"text must be one line of at most {MAX_TEXT} characters.",
                              hint="Redact each line separately, or use pattern= for a regular expression.")
