"""What a redaction looks for: literal texts or one regular expression, as one compiled pattern.

Python's ``re`` has no timeout, so a pattern is bounded instead: its length, no nested quantifiers
(the shape of catastrophic backtracking), no empty match; and it only ever runs on one paragraph
or one part's text at a time, with the call budget checked between them.
"""
from __future__ import annotations

import re

from ooxml.xml.errors import ValidationError

BARRIER = "\x00"  # stands for a tab, break, image ... in a paragraph's text: no match spans it
MAX_TEXT = 1000
MAX_PATTERN = 500
# A group holding a quantifier, itself quantified: (a+)+, (\w*x)*, (a|aa){2,} ...
_NESTED = re.compile(r"\((?:[^()\\]|\\.)*(?:[+*?]|\{\d*,?\d*\})\)(?:[+*]|\{\d*,\d*\})|"
                     r"\((?:[^()\\]|\\.)*\|(?:[^()\\]|\\.)*\)(?:[+*]|\{\d*,\d*\})")


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
    body = "|".join(re.escape(t) for t in texts)
    return Matcher(_compile(body, case_sensitive, whole_word), ", ".join(repr(t) for t in texts[:3]),
                   _compile(body, case_sensitive, False), texts if case_sensitive else [t.lower() for t in texts],
                   ["text", texts, case_sensitive, whole_word])


def for_pattern(pattern: str, case_sensitive: bool = True, whole_word: bool = False) -> Matcher:
    if len(pattern) > MAX_PATTERN:
        raise ValidationError(f"pattern is {len(pattern)} characters, over {MAX_PATTERN}.",
                              hint="Use a shorter regular expression, or redact literal texts with text=.")
    if _NESTED.search(pattern):
        raise ValidationError("pattern nests a quantifier inside a quantified group, which can run without end.",
                              hint="Write it without nested repetition, e.g. [a-z0-9.]+@[a-z0-9.]+ "
                                   "instead of (\\w+\\.?)+@.")
    try:
        regex = _compile(pattern, case_sensitive, whole_word)
        m = Matcher(regex, f"/{pattern}/", _without_context(regex), spec=["pattern", pattern, case_sensitive, whole_word])
    except re.error as e:
        raise ValidationError(f"pattern is not a valid regular expression: {e}.",
                              hint="Python syntax; escape literal characters such as . ( [ with a backslash.")
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


def _without_context(regex: re.Pattern) -> re.Pattern:
    """The pattern with its anchors, word boundaries and lookarounds taken out: it matches wherever
    the pattern does, whatever stands around, so a search of many paragraphs' texts joined in one
    string finds every paragraph that may hold a match (``\\b\\d{10}\\b`` misses digits that
    a neighbour's digits touch there). A group captured inside a lookaround taken out is referred
    to by its own pattern instead (``(?=(Q))\\1`` reads as ``(?:Q)``): what a reference matched, the
    group's pattern matched. Read through ``re``'s own parser; unknown: match anything."""
    try:
        from re import _compiler, _parser  # noqa: PLC2701 (CPython's own parser, no public twin)
        tree = _parser.parse(regex.pattern, regex.flags)
        lost: dict[int, object] = {}
        _strip(tree, lost)
        _inline(tree, lost, 0)
        return _compiler.compile(tree, regex.flags)
    except Exception:  # another Python's internals, references nested too deep: every paragraph
        return re.compile("(?s:.+)")


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
