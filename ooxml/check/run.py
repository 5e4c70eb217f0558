"""docx_check's entry: the chosen rule sets over a document, findings located (IDs, else part and path)."""
from __future__ import annotations

from ooxml.check import access, access_structure, screen_rules, word_ids, word_order, word_package, word_ranges, word_text
from ooxml.check.findings import Finding, locate
from ooxml.check.parts import Parts
from ooxml.check.walk import Walk, visitors
from ooxml.xml import budget, gc_pause
from ooxml.xml.errors import ValidationError

RULES = ("word", "accessibility")
WORD_TAGS = (*word_ids.TAGS, *word_ranges.TAGS, *word_text.TAGS, *word_package.TAGS)  # kept by the walk


def checked_rules(rules: list[str] | None) -> tuple[str, ...]:
    if rules is None:
        return RULES
    unknown = [r for r in rules if r not in RULES]
    if unknown or not rules:
        raise ValidationError(f"Unknown rule set {', '.join(map(repr, unknown)) or '(none given)'}.",
                              hint="rules takes 'word', 'accessibility' or both; leave it out for both.")
    return tuple(r for r in RULES if r in rules)


def check(doc, rules: tuple[str, ...] = RULES) -> list[Finding]:
    with gc_pause.paused():  # 15-20 % of the CPU on 50,000 paragraphs went to collections
        return _check(doc, rules)


def _check(doc, rules: tuple[str, ...]) -> list[Finding]:
    parts = Parts(doc)
    tags = set(WORD_TAGS if "word" in rules else ()) | set(access.TAGS if "accessibility" in rules else ())
    scans, seen = {}, {}
    for name, root in parts.word.items():
        budget.check()
        story = name in parts.stories
        # what the part's bytes prove clean is not walked for (ooxml/check/screen_rules.py)
        proven = screen_rules.cleared(doc, name, "word" in rules, "accessibility" in rules) if story else set()
        seen[name] = _Visitors(name, rules, story, name == doc.main_name, proven)
        scans[name] = Walk(root, tags, seen[name].table())
    out: list[Finding] = []
    if "word" in rules:
        out += word(parts, scans, seen)
    if "accessibility" in rules:
        main = seen.get(doc.main_name)
        out += access.findings(parts, scans, main.paragraphs if main else None, main.proven if main else set())
    return locate(doc, out)


class _Visitors:
    """The rules that judge elements as the walk of one part passes them."""

    def __init__(self, name: str, rules: tuple[str, ...], story: bool, main: bool, proven: set = frozenset()):
        word = "word" in rules
        self.proven = proven  # rules the screen proved clean in the part
        self.order = word_order.Visitor(name) if word and "order" not in proven else None
        self.para_ids = word_ids.ParaIds() if word and story and "para-id" not in proven else None
        self.cells = word_text.Cells() if word and story and "cell-end" not in proven else None
        self.paragraphs = access_structure.Paragraphs() if main and "accessibility" in rules and \
            "empty-paragraphs" not in proven else None

    def table(self) -> dict:
        found = [v.visitors() for v in (self.order, self.para_ids, self.cells, self.paragraphs) if v is not None]
        return visitors(*found)


def word(parts: Parts, scans: dict, seen: dict) -> list[Finding]:
    out = word_package.findings(parts, scans)
    for name, scan in scans.items():
        visited = seen[name]
        out += visited.order.findings() if visited.order is not None else []
        if name in parts.stories:
            out += word_ids.findings(name, scan, visited.para_ids) + word_ranges.findings(name, scan) + \
                word_text.findings(name, scan, visited.cells, "newline" not in visited.proven)
        elif scan.root.tag.endswith("}styles"):
            out += word_ids.style_id_findings(name, scan.root)
    return out + word_ids.doc_pr_findings({n: scans[n] for n in parts.stories if n in scans})
