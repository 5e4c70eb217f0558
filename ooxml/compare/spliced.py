"""docx_compare's fast path: only what changed is parsed, the redline's main part is spliced.

Both bodies are cut into blocks on their bytes (``byte_blocks``) and aligned there
(``byte_align``). Runs of matched blocks that need no tree stand in each document as one
placeholder paragraph; the engine (``redline.build``) compares these reduced documents with the
alignment given, and the redline's main part is the reduced redline's bytes with each placeholder
replaced by the revised document's own bytes of its run. Its tree is the revised runs' parse,
made on another core while the engine runs, with the reduced redline's blocks placed between
them (``revised_tree``); else the new document parses the spliced bytes.

Our IDs (a file saved by this server) are part of a block's bytes as of its XML in the whole
trees (parsed with our namespace declared, ``id_bytes.predeclare``); the redline, a new document, has
none: they are cut from the bytes spliced in, as ``views.part_bytes`` strips them from the trees.

None ("not sure") wherever the result could differ from the comparison of whole trees: revisions
in a main part, roots declaring other prefixes, blocks whose bytes are not what lxml writes for
them (checked on every block parsed and on a sample of the others), move detection.
"""
from __future__ import annotations

import re

from ooxml.compare import byte_align, byte_blocks, redline, revised_tree, sides, views
from ooxml.compare.byte_blocks import Body
from ooxml.compare.serial import child_strings
from ooxml.model.document import Document
from ooxml.opc.package import Package
from ooxml.review import word_id_counter
from ooxml.text import body as B
from ooxml.xml.background_parse import BackgroundParse
from ooxml.xml.errors import OoxmlError
from ooxml.xml.id_bytes import predeclare, predeclared
from ooxml.xml.move_namespaces import kept_on_move
from ooxml.xml.namespaces import OX, OX_PREFIX, W, W14
from ooxml.xml.safexml import parse_part
from ooxml.xml.wordids import WordIds, doc_pr_floor
from ooxml.opc.parts import story_part_names

_OUR_IDS = re.compile(rb' %s:id="[^"]*"(?=[^<>]*>)' % OX_PREFIX.encode())  # inside a tag (views.part_bytes' strip)
_OURS = b" %s:id=" % OX_PREFIX.encode()
_HOLDER = "\ue001"
_PLACED = re.compile(rb"<w:p><w:r><w:t>\xee\x80\x81(\d+)</w:t></w:r></w:p>")
_SAMPLE = 48  # runs a side whose first and last blocks are parsed to check their bytes are lxml's


def _holder(k: int) -> bytes:
    return f"<w:p><w:r><w:t>{_HOLDER}{k}</w:t></w:r></w:p>".encode()



class _Reduced(Document):
    """A reduced document: Word's ID counters are those of the whole main part (``full``)."""

    def __init__(self, package: Package, full: bytes):
        super().__init__(package)
        self.full = full

    def count_ids(self) -> None:
        """The w:id counter revisions take (``word_id_counter``), the whole main part counted."""
        word_id_counter.start_above(self, word_id_counter.ids_in(self.full))

    def word_ids(self, el):
        """The main part's counters as the whole tree would give them now: the original's IDs
        and those the comparison wrote so far (only the reduced tree has them)."""
        if self._doc_pr is None:
            others = [n for n in story_part_names(self.package, self.main_name) if n != self.main_name]
            self._doc_pr = [doc_pr_floor(self.package, others)]
            ids = WordIds(parse_part(self.full, self.main_name).getroot(), self._doc_pr)
            now = WordIds(self.root, self._doc_pr)
            ids.para_ids |= now.para_ids
            ids.bookmark_names |= now.bookmark_names
            ids.next_bookmark = max(ids.next_bookmark, now.next_bookmark)
            ids.next_revision = max(ids.next_revision, now.next_revision)
            self._word_ids[self.root] = ids
        return super().word_ids(el)


class _Plan:
    """Which blocks stand as placeholders (runs), and the reduced documents' bytes and alignment."""

    def __init__(self, a: Body, b: Body, found: list):
        self.a, self.b = a, b
        self.ours: bool | None = None  # whether the revised body holds our IDs
        self.runs: list[tuple[int, int, int, int]] = []  # (first a, last a, first b, last b)
        self.pairs: list = []  # the alignment of the reduced bodies
        ia = ib = 0  # blocks placed in each reduced body
        open_run = None
        held_a, held_b = byte_align.with_context(a), byte_align.with_context(b)
        for i, j in found:
            if i is not None and j is not None and i not in held_a and j not in held_b:
                if open_run is None:
                    open_run = [i, i, j, j]
                    self.runs.append(open_run)
                    self.pairs.append((ia, ib))
                    ia, ib = ia + 1, ib + 1
                open_run[1], open_run[3] = i, j
                continue
            open_run = None
            self.pairs.append((None if i is None else ia, None if j is None else ib))
            ia, ib = ia + (i is not None), ib + (j is not None)
        self.skipped = sum(r[1] - r[0] + 1 for r in self.runs)

    def reduced(self, side: int) -> bytes:
        body = (self.a, self.b)[side]
        out, at = [body.data[:body.start]], body.start
        for k, run in enumerate(self.runs):
            first, last = body.spans[run[2 * side]], body.spans[run[2 * side + 1]]
            out += [body.data[at:first[0]], _holder(k)]
            at = last[1]
        out.append(body.data[at:])
        return b"".join(out)

    def run_bytes(self, k: int) -> bytes | memoryview:
        """The revised bytes of run ``k``, without our IDs (the redline is a new document); a view
        where it has none (joined once, not copied twice)."""
        run = self.runs[k]
        start, end = self.b.spans[run[2]][0], self.b.spans[run[3]][1]
        if self.ours is None:  # (one look for the whole body)
            self.ours = self.b.data.find(_OURS, self.b.start, self.b.end) >= 0
        if not self.ours or self.b.data.find(_OURS, start, end) < 0:
            return memoryview(self.b.data)[start:end]
        return _OUR_IDS.sub(b"", self.b.data[start:end])

    def runs_only(self) -> bytes:
        """The revised main part with only its runs in the body, each stretch between them (and
        before the first, after the last) marked (``revised_tree.stretch``)."""
        b, pieces = self.b, []
        for k in range(len(self.runs)):
            pieces += [revised_tree.stretch(k), self.run_bytes(k)]
        pieces.append(revised_tree.stretch(len(self.runs)))
        return b"".join((b.data[:b.start], *pieces, b.data[b.end:]))

    def sample(self, side: int) -> list[int]:
        inside = [k for run in self.runs for k in (run[2 * side], run[2 * side + 1])]
        step = max(1, len(inside) // _SAMPLE)
        return inside[::step][:2 * _SAMPLE]


def redline_of(pkg_a: Package, pkg_b: Package, author: str, opts, policy, second_core: bool = True) -> tuple | None:
    """(Result, the redline as a new document), or None when the fast path is not sure
    (``second_core``: the redline's runs parsed on a thread of their own)."""
    if opts.moves or pkg_a.strict or pkg_b.strict:
        return None
    main_a, main_b = pkg_a.main_part_name(), pkg_b.main_part_name()
    data_a, data_b = pkg_a.part(main_a).data, pkg_b.part(main_b).data
    a, b = byte_blocks.scan(data_a), byte_blocks.scan(data_b)
    if a is None or b is None:
        return None
    ns = _nsmap(data_a, a), _nsmap(data_b, b)
    if ns[0] is None or ns[0] != ns[1] or ns[0].get("w") != W or list(ns[0].values()).count(W) != 1 or \
            ns[0].get(OX_PREFIX) != OX:
        return None
    plain = ns[0].get("w14", W14) == W14
    plan = _Plan(a, b, byte_align.pairs(a, b, plain))
    a.tags = b.tags = None  # (byte_plain's, 16 MB a 50,000-paragraph body: not held through the engine)
    if not plan.runs or not all(_as_lxml_writes(body, plan.sample(s)) for s, body in enumerate((a, b))):
        return None
    revised = BackgroundParse(plan.runs_only(), "compare-parse", second_core)  # on another core, while the rest runs here
    try:
        return _redline(pkg_a, pkg_b, plan, author, opts, policy, revised)
    finally:
        revised.close()  # (a declined path leaves no parse running, nor one to run)


def _redline(pkg_a: Package, pkg_b: Package, plan: _Plan, author: str, opts, policy,
             revised: BackgroundParse) -> tuple | None:
    main_a, main_b = pkg_a.main_part_name(), pkg_b.main_part_name()
    try:  # what fails to parse here is for the whole path to report
        doc_a = Document(_with_main(pkg_a, main_a, plan.reduced(0)))
    except OoxmlError:
        return None
    try:
        doc_b = _Reduced(_with_main(pkg_b, main_b, plan.reduced(1)), plan.b.data)
    except BaseException as e:
        doc_a.close()
        if isinstance(e, OoxmlError):
            return None
        raise
    try:
        if not (_parsed_as_read(doc_a, plan.a, plan, 0) and _parsed_as_read(doc_b, plan.b, plan, 1)):
            return None
        for doc, side, pkg in ((doc_a, sides.ORIGINAL, pkg_a), (doc_b, sides.REVISED, pkg_b)):
            with sides.about(side, sides.file_of(pkg)):
                policy(doc)
        doc_b.count_ids()
        result = redline.build(doc_a, doc_b, author, opts, body_pairs=plan.pairs)
        result.matched += plan.skipped - len(plan.runs)
        made = _spliced(doc_b, plan, revised)
        return None if made is None else (result, made)
    finally:
        doc_a.close()
        doc_b.close()


def _nsmap(data: bytes, body: Body | None) -> dict | None:
    if body is None:
        return None
    try:  # the root's start tag alone, as the whole path parses it (our namespace declared), closed
        # (safexml: a DTD there is refused, never read)
        root = parse_part(predeclare(data[:body.start])[0] + b"</w:body></w:document>", "").getroot()
    except OoxmlError:
        return None
    return dict(root.nsmap)


def _with_main(pkg: Package, main: str, data: bytes) -> Package:
    """A package of the same parts, its main part's bytes ``data`` (the original stays as it was)."""
    return Package.from_parts({name: data if name == main else part.data for name, part in pkg.parts.items()})


def _as_lxml_writes(body: Body, blocks: list[int]) -> bool:
    """Whether ``blocks`` parsed and written by lxml are their bytes (so equal bytes mean what equal
    XML means, and copied bytes are what the whole tree's serialization would write)."""
    if not blocks:
        return True
    data = body.data
    whole = data[:body.start] + b"".join(body.key(k) for k in blocks) + b"</w:body></w:document>"
    try:
        kids = list(parse_part(whole, "").getroot()[0])
    except (OoxmlError, IndexError):
        return False
    got = child_strings(kids[0].getparent(), kids=kids) if kids else []
    return got is not None and [x.encode() for x in got] == [body.key(k) for k in blocks]


def _parsed_as_read(doc, body: Body, plan: _Plan, side: int) -> bool:
    """Every block of a reduced body serializes to its bytes (placeholders aside)."""
    kids = list(doc.body)
    got = child_strings(doc.body, kids=kids)
    if got is None:
        return False
    blocks = [x for k, x in zip(kids, got) if isinstance(k.tag, str) and k.tag not in B.MARKERS]
    starts = {run[2 * side]: k for k, run in enumerate(plan.runs)}
    keep = {k for run in plan.runs for k in range(run[2 * side], run[2 * side + 1] + 1)}
    want = [_holder(starts[k]) if k in starts else body.key(k) for k in range(len(body.spans))
            if k in starts or k not in keep]
    return [x.encode() for x in blocks] == want


def _spliced(doc_b, plan: _Plan, revised: BackgroundParse) -> Document | None:
    """The redline as a new document (``views.as_new_document``): its main part spliced (None if
    its placeholders are not found once each, in order: a block's text looked like one), its tree
    the revised one made the redline (``revised_tree``), else parsed from the spliced bytes."""
    pkg = Package(None)
    for name, data in views.part_bytes(doc_b).items():
        part = doc_b.package.parts[name]
        if name == doc_b.main_name:
            pieces = _PLACED.split(data)
            if pieces[1::2] != [str(k).encode() for k in range(len(plan.runs))]:
                return None
            pieces[1::2] = [plan.run_bytes(k) for k in range(len(plan.runs))]
            main = pkg.add_part(name, b"".join(pieces))
            tree = revised.tree() if kept_on_move(data, part.tree.getroot().nsmap.values()) else None
            pre = tree is not None and predeclared(main.data, tree.getroot())
            if pre and revised_tree.place(part.tree, tree, len(plan.runs)):
                main.adopt(tree, pre)
            continue
        new = pkg.add_part(name, data)
        pre = part.loaded and part.prepared and predeclared(data, part.tree.getroot())
        if pre:
            new.adopt(part.tree, pre)
    return Document(pkg)
