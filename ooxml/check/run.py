"""docx_check's entry: the chosen rule sets over a document, findings located (IDs, else part and path)."""
from __future__ import annotations

from ooxml.check import word_ids, word_order, word_package, word_ranges, word_text
from ooxml.check.findings import Finding, locate
from ooxml.check.parts import Parts
from ooxml.xml import budget
from ooxml.xml.errors import ValidationError

RULES = ("word", "accessibility")


def checked_rules(rules: list[str] | None) -> tuple[str, ...]:
    if rules is None:
        return RULES
    unknown = [r for r in rules if r not in RULES]
    if unknown or not rules:
        raise ValidationError(f"Unknown rule set {', '.join(map(repr, unknown)) or '(none given)'}.",
                              hint="rules takes 'word', 'accessibility' or both; leave it out for both.")
    return tuple(r for r in RULES if r in rules)


def check(doc, rules: tuple[str, ...] = RULES) -> list[Finding]:
    parts = Parts(doc)
    out: list[Finding] = []
    if "word" in rules:
        out += word(parts)
    if "accessibility" in rules:
        from ooxml.check import access
        out += access.findings(parts)
    return locate(doc, out)


def word(parts: Parts) -> list[Finding]:
    out = word_package.findings(parts)
    for name, root in parts.word.items():
        budget.check()
        out += word_order.findings(name, root)
        if name in parts.stories:
            out += word_ids.findings(name, root) + word_ids.vml_id_findings(name, root) + word_ranges.findings(name, root) + word_text.findings(name, root)
        elif root.tag.endswith("}styles"):
            out += word_ids.style_id_findings(name, root)
    stories = {n: parts.word[n] for n in parts.stories if n in parts.word}
    return out + word_ids.doc_pr_findings(stories)
