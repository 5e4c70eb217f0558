"""One fill of a whole document from a JSON object (docx_fill_template).

The fill runs twice over the same code: first as a dry run that changes nothing (every value is
checked, every name found, the growth measured: strict mode and bad input stop here), then for
real. Both share one reading of the document (``reading.py``); a copy takes its template's. Arrays repeat a repeating section's item or the table row holding their placeholders, once
per element; inside a copy, ``{{items.x}}`` and a control tagged ``x`` name the element's field.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from ooxml.text import body as B
from ooxml.xml import budget
from ooxml.review import revisions as REV
from ooxml.controls import binding as BIND
from ooxml.controls import model as M
from ooxml.controls import values as V
from ooxml.xml.errors import LimitExceeded, ValidationError
from ooxml.fill import data as D
from ooxml.fill import merge, placeholders as PH
from ooxml.fill.reading import Reading
from ooxml.xml.wordids import copy_plan, prepare_copy, prepare_planned



@dataclass
class Report:
    filled: dict[str, int] = field(default_factory=dict)  # data name -> places filled
    missing: dict[str, int] = field(default_factory=dict)  # document name -> places without data
    unused: list[str] = field(default_factory=list)
    unsupported: dict[str, int] = field(default_factory=dict)  # tags PH.PATTERN does not take, as written
    counts: dict[str, int] = field(default_factory=lambda: {"controls": 0, "placeholders": 0, "merge_fields": 0,
                                                            "items": 0, "rows": 0})
    changed: list = field(default_factory=list)  # elements changed, in order (for the answer)
    growth: int = 0


class Fill:
    def __init__(self, doc, data: dict, *, dry: bool, read_image=None, max_growth: int = 16 << 20,
                 check_url=None, readings: dict | None = None):
        self.doc, self.data, self.dry, self.read_image, self.check_url = doc, data, dry, read_image, check_url
        self.max_growth = max_growth
        self.used: set[str] = set()
        self.report = Report()
        self.tracked = REV.tracker(doc) is not None
        self.stores = None if dry else BIND.store_parts(doc.package)
        self.skip: set = set()  # elements already handled (templates, set controls): not looked into again
        self.readings = {} if readings is None else readings  # root -> Reading, and "names", shared by both runs
        self.stale: set = set()  # paragraphs, rows and tables holding a change: read from the tree again
        self.copying = 0  # inside a new copy: the section or table around it is reported changed after it

    # ---- the whole document ----------------------------------------------------------------
    def run(self) -> Report:
        scope = D.Scope(self.data, self.used)
        for root in M.story_roots(self.doc):
            self.within(root, scope)
        offered = self.readings.get("names")
        if offered is None:
            offered = self.readings["names"] = D.names(self.data)
        self.report.unused = [n for n in offered if n not in self.used]
        return self.report

    def within(self, root: etree._Element, scope: D.Scope) -> None:
        reading = self.readings.get(root)
        if reading is None:
            reading = self.readings[root] = Reading(root)
        self.sections(reading, scope)
        self.rows(reading, scope)
        self.controls(reading, scope)
        self.paragraphs(reading, scope)

    def _skipped(self, guards: tuple) -> bool:
        """Handled already: the element or a ``w:sdt``/``w:tr`` above it below the walk's root is in ``skip``."""
        return bool(guards) and not self.skip.isdisjoint(guards)

    def _changed(self, el: etree._Element) -> None:
        """``el`` changed (real run): the paragraphs, rows and tables holding it are read again. A
        paragraph's own placeholders need no mark: nothing reads it again (a row's names are read
        before its paragraphs are filled, a copy is filled from its template's reading)."""
        self.stale.update(el.iterancestors(B.W_P, B.W_TR, B.W_TBL))
        if el.tag in (B.W_P, B.W_TR, B.W_TBL):
            self.stale.add(el)

    def _dry_items(self, template: etree._Element, name: str, items: list, scope: D.Scope) -> None:
        """Each element checked against the one template (what it handles is forgotten between them)."""
        saved = set(self.skip)
        for item in items:
            self.skip = set(saved)
            self.within(template, scope.child(name, item))
        self.skip = saved

    def _note(self, kind: str, name: str, found: bool, el=None) -> None:
        book = self.report.filled if found else self.report.missing
        book[name] = book.get(name, 0) + 1
        if found:
            self.report.counts[kind] += 1
            if el is not None and not self.dry:
                self.report.changed.append(el)

    def _grow(self, n: int) -> None:
        self.report.growth += n
        if self.dry and self.report.growth > self.max_growth:
            raise LimitExceeded(f"The fill would add more than {self.max_growth:,} bytes, what the call may still "
                                "add (limits.max_call_growth_bytes; a batch's calls count together).",
                                hint="Fill fewer items per call; the operator sets limits.max_call_growth_bytes.")

    # ---- arrays: repeating sections ------------------------------------------------------------
    def sections(self, reading: Reading, scope: D.Scope) -> None:
        for c in reading.controls:
            ctrl = c.ctrl
            if ctrl.kind != "repeating_section" or self._skipped(c.chain):
                continue
            sdt = ctrl.el
            found, value, name = self._lookup(scope, ctrl)
            if not found or not isinstance(value, list):
                continue
            self.skip.add(sdt)
            scope.use(name)
            self.report.filled[name] = self.report.filled.get(name, 0) + len(value)
            self._repeat_section(ctrl, name, value, scope)

    def _lookup(self, scope: D.Scope, ctrl: M.Control):
        for key in (ctrl.tag, ctrl.alias):
            if key and all(part for part in key.split(".")):
                found, value, name = scope.get(key.strip())
                if found:
                    return found, value, name
        return False, None, ctrl.tag or ctrl.alias

    def _repeat_section(self, ctrl: M.Control, name: str, items: list, scope: D.Scope) -> None:
        content = ctrl.content
        olds = [c for c in content if c.tag == B.W_SDT] if content is not None else []
        if not olds:
            return
        template = self._reading(olds[0])
        self._grow(template.byte_size() * max(len(items) - 1, 0))
        if self.dry:
            self._dry_items(template.root, name, items, scope)
            self.report.counts["items"] += len(items)
            return
        self.doc.will_change(ctrl.el)
        self._changed(ctrl.el)
        self._add_copies(template, olds[-1], ctrl.el, name, items, scope)
        for old in olds:
            if self.tracked:
                REV.delete_block(self.doc, old)
            else:
                self.doc.ids.forget(old)
                content.remove(old)
        self.report.counts["items"] += len(items)
        self.report.changed.append(ctrl.el)
        self.doc.changed(ctrl.el)

    def _reading(self, root: etree._Element) -> Reading:
        reading = self.readings.get(root)
        if reading is None:
            reading = self.readings[root] = Reading(root)
        return reading

    def _add_copies(self, template: Reading, last, owner, name: str, items: list, scope: D.Scope) -> None:
        """A copy of ``template`` (as it was before any fill) after ``last`` for each item, filled from it;
        Word's IDs of the copies are new within the part holding ``owner``."""
        pristine = template
        if template.root in self.stale:  # changed since it was read: read it again
            pristine = Reading(template.root)
        ids = self.doc.word_ids(owner)
        plan = copy_plan(pristine.root)
        for item in items:
            budget.check()
            new, reading, els = pristine.copy_of()
            self.readings[new] = reading
            if plan is None:
                prepare_copy(new, ids)
            else:
                prepare_planned(els, plan, ids)
            last.addnext(new)
            last = new
            self.copying += 1
            try:
                self.within(new, scope.child(name, item))
            finally:
                self.copying -= 1
            self.skip.add(new)
            if self.tracked:
                REV.mark_inserted(self.doc, new)

    # ---- arrays: table rows -----------------------------------------------------------------------
    def rows(self, reading: Reading, scope: D.Scope) -> None:
        for table in reading.tables:
            tbl = table.tbl
            if self._skipped(table.chain):
                continue
            for tr in (B.table_rows(tbl) if tbl in self.stale else table.rows):
                key = self._row_array(reading, tr, scope)
                if key is not None:
                    found, value, name = scope.get(key)
                    self.skip.add(tr)
                    scope.use(name)
                    self.report.filled[name] = self.report.filled.get(name, 0) + len(value)
                    self._repeat_row(tbl, tr, name, value, scope)

    def _row_array(self, reading: Reading, tr: etree._Element, scope: D.Scope) -> str | None:
        """The array a row repeats over: the longest dotted prefix of a placeholder naming a list."""
        for name in self._row_names(reading, tr):
            parts = name.split(".")
            for k in range(len(parts), 0, -1):
                key = ".".join(parts[:k])
                found, value, _ = scope.get(key)
                if found and isinstance(value, list):
                    return key
        return None

    def _row_names(self, reading: Reading, tr: etree._Element) -> list[str]:
        """The dotted names of the row's placeholders in order (read once while the row is unchanged)."""
        names = None if tr in self.stale else reading.row_names.get(tr)
        if names is not None:
            return names
        names = []
        for p in tr.iter(B.W_P):
            para = None if p in self.stale else reading.para(p)
            if para is not None:
                found = para.read()
                names += [m.group(1) for m in found[2]] if found else []
            elif PH.might_hold(p):
                names += [m.group(1) for m in PH.PATTERN.finditer(PH.segments(p)[1])]
        if tr not in self.stale:
            reading.row_names[tr] = names
        return names

    def _repeat_row(self, tbl, tr, name: str, items: list, scope: D.Scope) -> None:
        template = self._reading(tr)
        self._grow(template.byte_size() * max(len(items) - 1, 0))
        if self.dry:
            self._dry_items(tr, name, items, scope)
            self.report.counts["rows"] += len(items)
            return
        self.doc.will_change(tbl)
        self._changed(tbl)
        self._add_copies(template, tr, tbl, name, items, scope)
        if self.tracked:
            REV.delete_row(self.doc, tr)
        elif items or len(B.table_rows(tbl)) > 1:
            self.doc.ids.forget(tr)
            tr.getparent().remove(tr)
        self.report.counts["rows"] += len(items)
        self.report.changed.append(tbl)
        self.doc.changed(tbl)

    # ---- content controls ---------------------------------------------------------------------------
    def controls(self, reading: Reading, scope: D.Scope) -> None:
        for c in reading.controls:
            if not c.named or self._skipped(c.chain):
                continue
            ctrl = c.ctrl
            sdt = ctrl.el
            found, value, name = self._lookup(scope, ctrl)
            if not found:
                self._note("controls", name, False)
                continue
            if isinstance(value, (list, dict)):
                raise ValidationError(f"'{name}' is a {'list' if isinstance(value, list) else 'object'}, but "
                                      f"control '{ctrl.tag or ctrl.alias}' is a {ctrl.kind.replace('_', ' ')}.",
                                      hint="Pass a single value for it, or tag a repeating section with this name.")
            if value is None:
                value = False if ctrl.kind == "checkbox" else ""
                if ctrl.kind in ("date", "picture", "dropdown"):
                    self._note("controls", name, False)
                    continue
            planned = V.plan(ctrl, value, self.read_image, self.check_url)
            self._grow(len(planned.display.encode()) + (len(planned.image.data) if planned.image else 0))
            scope.use(name)
            self.skip.add(sdt)
            if not self.dry:
                budget.check()
                rid = None
                if planned.image is not None:
                    from ooxml.text.images import add_image_part
                    rid = add_image_part(self.doc.package, self.doc.part_of(sdt).name, planned.image)
                V.apply(self.doc, planned, self.stores, rid)
                self._changed(sdt)
            self._note("controls", name, True, sdt)

    # ---- placeholders and merge fields ----------------------------------------------------------------
    def paragraphs(self, reading: Reading, scope: D.Scope) -> None:
        stale = self.stale
        for para in reading.paras:
            p = para.p
            if para.chain is None and p not in stale:
                continue  # no "{", no merge field, unchanged: the most paragraphs, passed over first
            if (not para.merge and p not in stale and para.read() is None) or self._skipped(para.guards(reading.root)):
                continue  # no placeholder, no merge field: nothing to look up
            fields = merge.in_paragraph(p) if para.merge else []
            if p in stale or (fields and para.read() is None):
                found = PH.find(p) if fields or PH.might_hold(p) else None
                tags = PH.unsupported(found[1], found[2]) if found else None
            else:
                found = para.read()
                tags = para.unsupported() if found else None
            if found is None:
                continue
            self._placeholders(p, scope, found, tags)
            self._merge_fields(p, scope, fields)

    def _placeholders(self, p: etree._Element, scope: D.Scope, found, tags: list[str]) -> None:
        segs, text, matches = found
        for tag in tags:
            self.report.unsupported[tag] = self.report.unsupported.get(tag, 0) + 1
        edits = []
        for m in matches:
            found, value, name = scope.get(m.group(1))
            if not found:
                self._note("placeholders", m.group(1), False)
                continue
            value_text = D.as_text(value, name)
            self._grow(len(value_text.encode()))
            scope.use(name)
            edits.append((m.start(), m.end(), value_text))
            self._note("placeholders", name, True)
        if edits and not self.dry:
            budget.check()
            if not self.copying:  # a copy's: the section or table around it was announced whole first
                self.doc.will_change(p)
            PH.write(self.doc, p, segs, edits, self.tracked)
            if not self.copying:
                self.doc.changed(p)
            self.report.changed.append(p)

    def _merge_fields(self, p: etree._Element, scope: D.Scope, fields: list) -> None:
        if not fields:
            return
        fields = merge.in_paragraph(p) if not self.dry else fields  # placeholders may have moved runs
        for f in fields:
            found, value, name = scope.get(f.name)
            if not found:
                self._note("merge_fields", f.name, False)
                continue
            value_text = D.as_text(value, name)
            self._grow(len(value_text.encode()))
            scope.use(name)
            if not self.dry:
                budget.check()
                self.doc.will_change(p)
                merge.replace(self.doc, f, value_text, self.tracked)
                self.doc.changed(p)
                self.report.changed.append(p)
            self._note("merge_fields", name, True)


def fill(doc, data: dict, *, strict: bool, read_image, max_growth: int, check_url=None) -> Report:
    """Check (dry run), refuse in strict mode, then fill. Raises before any change."""
    D.check(data, max_growth)
    readings: dict = {}  # read once: the fill reads what the dry run read
    dry = Fill(doc, data, dry=True, read_image=read_image, max_growth=max_growth, check_url=check_url,
               readings=readings).run()
    if strict and (dry.missing or dry.unused or dry.unsupported):
        parts = []
        if dry.unsupported:
            parts.append("unsupported placeholders " + ", ".join(list(dry.unsupported)[:20]))
        if dry.missing:
            parts.append("no data for " + ", ".join(list(dry.missing)[:20]))
        if dry.unused:
            parts.append("unused data " + ", ".join(dry.unused[:20]))
        raise ValidationError("strict fill refused: " + "; ".join(parts) + ". Nothing was changed.",
                              hint="Add the missing names to data and drop the unused ones; write placeholders as {{name}} or "
                                   "{{a.b}} (no filters or expressions); or pass strict=false.")
    return Fill(doc, data, dry=False, read_image=read_image, max_growth=max_growth, check_url=check_url,
                readings=readings).run()
