"""Complex fields: ``fldChar`` begin, ``instrText``, separate, the cached result, end.

A field is written as five runs in one paragraph. Its ID (``fld_…``) sits on the begin
``w:fldChar``. Views read only ``w:t``, so a field shows its result, never its instruction.
"""
from __future__ import annotations

import datetime
import re

from lxml import etree

from ooxml.text import body as B
from ooxml.xml import clock
from ooxml.text.build import make_run
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import XML, w

W_FLDCHAR, W_INSTR = w("fldChar"), w("instrText")
KNOWN = ("PAGE", "NUMPAGES", "DATE", "TIME", "SEQ", "REF")
_RAW = re.compile(r"^[A-Za-z][A-Za-z0-9]*(\s.*)?$", re.S)
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")
MAX_INSTRUCTION = 255  # Word's limit for a field code


def _fld(kind: str) -> etree._Element:
    r = etree.Element(w("r"))
    etree.SubElement(r, W_FLDCHAR, {w("fldCharType"): kind})
    return r


def field_runs(instruction: str, result: str, rpr: etree._Element | None = None,
               dirty: bool = False) -> list[etree._Element]:
    """The five runs of a complex field showing ``result``."""
    begin = _fld("begin")
    if dirty:
        begin[0].set(w("dirty"), "true")  # Word recomputes it on open
    instr = etree.Element(w("r"))
    it = etree.SubElement(instr, W_INSTR)
    it.set(f"{{{XML}}}space", "preserve")
    it.text = f" {instruction} "
    runs = [begin, instr, _fld("separate"), make_run(result) if result else etree.Element(w("r")), _fld("end")]
    if rpr is not None and len(rpr):
        from ooxml.text.build import copy_props
        for r in runs:
            r.insert(0, copy_props(rpr))
    if not result:
        runs.pop(3)
    return runs


def begin_char(runs: list[etree._Element]) -> etree._Element:
    return runs[0].find(W_FLDCHAR)


def instruction_for(field: str, argument: str | None) -> tuple[str, str]:
    """(field name, full instruction) for a known field or a raw instruction; validates both."""
    name = (field or "").strip()
    upper = name.upper()
    if upper in KNOWN:
        arg = (argument or "").strip()
        if upper in ("SEQ", "REF"):
            ident = arg.split()[0] if arg else ""
            if not _IDENT.match(ident):
                raise ValidationError(f"{upper} needs a {'sequence name' if upper == 'SEQ' else 'bookmark name'} "
                                      "in instruction (letters, digits, _; starts with a letter).",
                                      hint="Examples: field='SEQ', instruction='Figure'; field='REF', "
                                           "instruction='Intro_section'.")
            full = f"{upper} {arg}" + (" \\h" if upper == "REF" and "\\h" not in arg else "")
        elif upper in ("DATE", "TIME") and not arg:
            full = f'{upper} \\@ "{"yyyy-MM-dd" if upper == "DATE" else "HH:mm"}"'
        else:
            full = f"{upper} {arg}".strip()
        return upper, _checked(full)
    raw = (argument or name).strip()
    if not _RAW.match(raw):
        raise ValidationError(f"field '{field}' is neither PAGE, NUMPAGES, DATE, TIME, SEQ, REF nor a field "
                              "instruction.", hint="Raw instructions start with the field name, e.g. 'AUTHOR' or "
                                                   "'FILENAME \\p'.")
    return raw.split()[0].upper(), _checked(raw)


def _checked(instruction: str) -> str:
    if len(instruction) > MAX_INSTRUCTION or any(ch in instruction for ch in "\n\r\x00"):
        raise ValidationError("The field instruction is too long or holds line breaks.",
                              hint="Give the instruction as one line of at most 255 characters, e.g. 'AUTHOR'.")
    return instruction


def date_result(instruction: str, now: datetime.datetime | None = None) -> str:
    """Today's date or time as the picture switch asks (the common Word pictures)."""
    now = now or clock.now().astimezone()  # local time, as Word shows it; pinned during a replay
    m = re.search(r'\\@\s*"([^"]*)"', instruction)
    picture = m.group(1) if m else ("HH:mm" if instruction.upper().startswith("TIME") else "M/d/yyyy")
    tokens = [("yyyy", "%Y"), ("yy", "%y"), ("MMMM", "%B"), ("MMM", "%b"), ("MM", "%m"), ("M", "{M}"),
              ("dddd", "%A"), ("ddd", "%a"), ("dd", "%d"), ("d", "{d}"), ("HH", "%H"), ("H", "{H}"),
              ("hh", "%I"), ("h", "{h}"), ("mm", "%M"), ("ss", "%S"), ("am/pm", "%p"), ("AM/PM", "%p")]
    out, i = [], 0
    while i < len(picture):
        for tok, fmt in tokens:
            if picture.startswith(tok, i):
                out.append(fmt)
                i += len(tok)
                break
        else:
            out.append(picture[i].replace("%", "%%"))
            i += 1
    text = now.strftime("".join(out))
    return text.format(M=now.month, d=now.day, H=now.hour, h=(now.hour % 12) or 12)


# ---- reading fields already in a part --------------------------------------------------------------

def instruction_of(begin: etree._Element) -> str:
    """The instruction of the field whose begin fldChar is ``begin`` (its own, nested ones skipped)."""
    parts, depth = [], 0
    for el in _following(begin):
        if el.tag == W_FLDCHAR:
            kind = el.get(w("fldCharType"))
            if kind == "begin":
                depth += 1
            elif kind in ("separate", "end"):
                if depth == 0:
                    break
                if kind == "end":
                    depth -= 1
        elif el.tag == W_INSTR and depth == 0:
            parts.append(el.text or "")
    return "".join(parts).strip()


def _following(el: etree._Element):
    cur = el
    while cur is not None:
        nxt = cur.getnext()
        while nxt is None:
            cur = cur.getparent()
            if cur is None:
                return
            nxt = cur.getnext()
        cur = nxt
        yield cur
        yield from cur.iterdescendants()


following = _following  # every element after ``el`` in document order


def end_run(begin: etree._Element) -> etree._Element | None:
    """The run holding the matching end fldChar."""
    depth = 0
    for el in _following(begin):
        if el.tag == W_FLDCHAR:
            kind = el.get(w("fldCharType"))
            if kind == "begin":
                depth += 1
            elif kind == "end":
                if depth == 0:
                    return el.getparent()
                depth -= 1
    return None


def field_span(begin: etree._Element) -> list[etree._Element]:
    """Sibling elements from the begin run to the end run, when both share a parent."""
    first, last = begin.getparent(), end_run(begin)
    if last is None or last.getparent() is not first.getparent():
        return []
    span = [first]
    for sib in first.itersiblings():
        span.append(sib)
        if sib is last:
            return span
    return []


def seq_count(root: etree._Element, ident: str, mine: etree._Element) -> int:
    """How many SEQ ``ident`` fields stand before ``mine`` (a begin fldChar) in ``root``, plus one."""
    n = 0
    for el in root.iter(W_FLDCHAR, w("fldSimple")):
        if el is mine:
            return n + 1
        if el.tag == W_FLDCHAR and el.get(w("fldCharType")) == "begin":
            instr = instruction_of(el).split()
        elif el.tag == w("fldSimple"):
            instr = (el.get(w("instr")) or "").split()
        else:
            continue
        if len(instr) >= 2 and instr[0].upper() == "SEQ" and instr[1] == ident and "\\c" not in instr:
            n += 1
    return n + 1


def set_result(runs_or_begin, text: str) -> None:
    """Replace the cached result of the field whose begin fldChar is given."""
    begin = runs_or_begin
    span = field_span(begin)
    sep_seen = False
    for r in span:
        fc = r.find(W_FLDCHAR)
        if fc is not None and fc.get(w("fldCharType")) == "separate":
            sep_seen = True
            continue
        if sep_seen and r.tag == B.W_R and fc is None:
            for t in r.findall(B.W_T):
                t.text = text
                text = ""
            return


def bookmark_text(root: etree._Element, name: str) -> str | None:
    """The text a bookmark spans in its first paragraph (None when there is no such bookmark)."""
    for start in root.iter(w("bookmarkStart")):
        if start.get(w("name")) != name:
            continue
        bid, out = start.get(w("id")), []
        for el in _following(start):
            if el.tag == w("bookmarkEnd") and el.get(w("id")) == bid:
                break
            if el.tag == B.W_P and out:
                break
            if el.tag == B.W_T:
                out.append(el.text or "")
        return "".join(out)
    return None


def result_text(begin: etree._Element) -> str:
    """The cached result's text of the field whose begin fldChar is given (same paragraph)."""
    seen, out = False, []
    for r in field_span(begin):
        fc = r.find(W_FLDCHAR)
        if fc is not None:
            seen = seen or fc.get(w("fldCharType")) == "separate"
        elif seen:
            out.append(B.run_text(r))
    return "".join(out)
