"""Inspect, redact, scrub (SPEC §11, toolset privacy): what a document carries, removed with proof."""
from __future__ import annotations

from ooxml.text import body as B
from ooxml.xml import growth
from ooxml.xml.errors import ValidationError
from ooxml.privacy import inspect as IN
from ooxml.privacy import known_leaks as KL
from ooxml.privacy import leak_check as LC
from ooxml.privacy import matcher as MT
from ooxml.privacy import redact as RX
from ooxml.privacy import scrub as SC
from ooxml.privacy import svg_fallbacks as SF
from render.answer import success_answer
from render.width import cut
from tools.docx.common import call_limits, resolve, session_of
from tools.docx.protocol import Edit
from tools.runtime.call.registry import CallContext, tool

MAX_REPLACEMENT = 100
MAX_ELEMENTS = 100


def _matcher(session, text, pattern, element_ids, case_sensitive, whole_word):
    given = [a for a in (text, pattern, element_ids) if a]
    if len(given) != 1:
        raise ValidationError("Pass exactly one of text, pattern or element_ids.",
                              hint="Redact a literal text with text=, a regular expression with pattern=, "
                                   "or the text of elements with element_ids=[...].")
    if text:
        MT.check_text(text)
        return MT.for_texts([text], case_sensitive, whole_word), []
    if pattern:
        return MT.for_pattern(pattern, case_sensitive, whole_word), []
    if len(element_ids) > MAX_ELEMENTS:
        raise ValidationError(f"{len(element_ids)} element_ids, over {MAX_ELEMENTS}.", hint="Redact in several calls.")
    elements = [resolve(session, raw, "element_ids") for raw in element_ids]
    texts = [t for el in elements for t in RX.element_texts(el)]
    return MT.for_texts(texts or ["\x00"], case_sensitive, whole_word), elements


def _check_replacement(replacement: str, matcher) -> None:
    if not replacement or len(replacement) > MAX_REPLACEMENT or any(c in replacement for c in "\t\n\r\x00"):
        raise ValidationError(f"replacement must be 1 to {MAX_REPLACEMENT} characters on one line.",
                              hint="Keep the default '█' (one per character), or pass a short text like '[redacted]'.")
    if matcher.search(replacement):
        raise ValidationError("replacement contains what is being redacted.", hint="Choose a replacement without it.")


@tool(toolset="privacy", destructive=True, title="Redact text everywhere")
def docx_redact(ctx: CallContext, e: Edit, session_id: str | None, text: str | None = None, pattern: str | None = None,
                element_ids: list[str] | None = None, replacement: str = "█", case_sensitive: bool = True,
                whole_word: bool = False) -> None:
    """Remove a text, a pattern's matches or elements' text from every part, then prove nothing is left.

    Args:
        pattern: Python regex; one running too long ends the call (LimitExceeded).
        element_ids: Elements whose text (4+ characters) goes everywhere.
        replacement: One character repeats per character; longer text replaces each match.
    """
    _redact(ctx, e, text, pattern, element_ids, replacement, case_sensitive, whole_word)


def _redact(ctx, e, text, pattern, element_ids, replacement, case_sensitive, whole_word) -> None:
    session, doc = e.session, e.doc
    matcher, elements = _matcher(session, text, pattern, element_ids, case_sensitive, whole_word)
    _check_replacement(replacement, matcher)
    replacer = RX.Replacer(replacement)
    local = sum(RX.redact_element(doc, el, replacer) for el in elements)
    result = RX.redact_package(doc, matcher, replacer)
    redrawn = SF.redraw(doc, {n for n in result.parts if doc.package.content_type_of(n) == "image/svg+xml"})
    limit = call_limits(ctx, doc).max_call_growth_bytes
    growth.spend(replacer.growth, limit, "The replacements",
                 hint="Use a shorter replacement, or redact in parts of the document.")
    report = LC.check_package(doc.package, matcher, result.serialized)
    KL.record(session.leaks, matcher, report)
    _done(e, result, local, report, matcher, redrawn)


def _done(e, result: RX.Result, local: int, report: LC.Report, matcher, redrawn: list[str]) -> None:
    doc = e.doc
    fields = {"Looked For": cut(matcher.label, 80), "Matches": result.matches + local,
              "Parts Changed": len(result.parts) or ("the elements" if local else 0), "Leak Check": report.verdict(),
              **e.not_tracked("a redaction is final (a tracked deletion would keep the text)")}
    first = result.changed[0] if result.changed else next(B.iter_blocks(doc.body), None)
    places = [f"- {name}: {n}" for name, n in list(result.parts.items())[:12]]
    places += [f"- {name}: drawn again from its redacted SVG" for name in redrawn[:12]]
    content = "\n".join(["Replaced in:", *places] if places else ["No occurrence found."]) + "\n" + \
        "\n".join(report.lines())
    e.done(first, marker="UPDATED" if result.changed else None, fields=fields, content=content.strip(),
           head_id=bool(result.changed), updated=first if result.changed else None)


@tool(toolset="privacy", read_only=True, idempotent=True, title="Inspect what a document carries")
def docx_inspect(ctx: CallContext, session_id: str | None, find: str | None = None) -> str:
    """Document Inspector's report (comments, revisions, properties, personal info, hidden text ...): counts,
    where.

    Args:
        find: Search every part for this text (case-insensitive).
    """
    session = session_of(ctx, session_id)
    findings = IN.inspect(session.doc)
    fields = {"Session ID": session.id, "Categories Found": sum(1 for f in findings if f.count)}
    lines = [f.line() for f in findings]
    if find:
        MT.check_text(find)
        matcher = MT.for_texts([find], case_sensitive=False)
        report = LC.check_package(session.doc.package, matcher)
        KL.record(session.leaks, matcher, report)
        fields["Leak Check"] = report.verdict()
        lines += report.lines()
    return success_answer("Inspect Document", fields=fields, content="\n".join(lines))


@tool(toolset="privacy", destructive=True, title="Scrub personal information", operation="Scrub Document")
def docx_scrub(ctx: CallContext, e: Edit, session_id: str | None, categories: list[str] | None = None) -> None:
    """Remove Inspector categories (default: personal_info, properties, comments, revisions (accepted),
    custom_xml, hidden_text)."""
    doc = e.doc
    chosen = SC.check(categories)
    done = SC.scrub(doc, chosen)
    left = {f.category: f.count for f in IN.inspect(doc) if f.category in chosen}
    fields = {"Scrubbed": ", ".join(chosen), "Removed": sum(done.values()),
              "Left": ", ".join(f"{c} {n}" for c, n in left.items() if n) or "nothing",
              **e.not_tracked("scrubbing is final")}
    lines = [f"- {c}: {n} removed" for c, n in done.items()]
    e.done(next(B.iter_blocks(doc.body), None), fields=fields, content="\n".join(lines), head_id=False)
