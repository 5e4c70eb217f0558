"""--state: undo and redo after a take-over behave exactly as on a worker that never lost the session.

A durable worker runs a sequence of calls; a snapshot is forced in the middle (it carries the undo
history), the worker "dies" (its lease is gone) and another worker takes the session over from
Redis (snapshot + journal), then runs the rest, then undoes everything and redoes everything.
Beside it, a single plain worker runs the very same calls with the same minted IDs and the same
clock. After every call the answers (session ID aside) and every part of the two documents must
be the same, byte for byte, docx_get_history included.
"""
from __future__ import annotations

import re
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ooxml.xml import clock
from ooxml.xml import minting
from tests.support.services import redis_server
from tests.tools.runtime.test_durable_replay import newer_step, parts
from tests.tools.docx.test_property_edits import FIXTURES, SCALE, Driver
import tools.catalog  # noqa: F401
from tools.runtime.state.durable import Durable
from tools.runtime.state.statestore import RedisState


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


class Taped(Durable):
    """A durable worker that hands each call's minted values and time to the test."""

    def __init__(self, *args, tapes: list, **kwargs):
        super().__init__(*args, **kwargs)
        self.tapes = tapes

    def _after(self, session, tool, name, arguments, tape, when):
        self.tapes.append((list(tape.values), when))
        super()._after(session, tool, name, arguments, tape, when)


class TapedDriver(Driver):
    def __init__(self, root, url: str, name: str, tapes: list, snapshot_every: int):
        # A long lease: no renewer thread runs here, and checked calls can be slow.
        self.durable = Taped(RedisState(url), name, lease_ms=60_000, snapshot_every=snapshot_every, tapes=tapes)
        super().__init__(root, sessions=self.durable.store(), state=self.durable)
        self.durable.attach(self.services)

    def call(self, name: str, **args):
        outcome = super().call(name, **args)
        self.durable.settle()  # a snapshot it made due: the test reads the live document without its lock
        return outcome


class Pair:
    """The durable worker(s) and the single plain worker, fed the same calls."""

    def __init__(self, tmp_path, url, snapshot_every: int = 1000):
        self.url, self.every, self.tapes = url, snapshot_every, []
        self.root, self.single_root = tmp_path / "d", tmp_path / "r"
        self.root.mkdir()
        self.single_root.mkdir()
        self.worker = TapedDriver(self.root, url, "w1", self.tapes, snapshot_every)
        self.single = Driver(self.single_root)
        self.sid = None

    def start(self, name: str, **args) -> None:
        if "file_path" in args:
            shutil.copy(FIXTURES / args["file_path"], self.root / args["file_path"])
            shutil.copy(FIXTURES / args["file_path"], self.single_root / args["file_path"])
        self.call(name, **args)

    def call(self, name: str, **args) -> str:
        sid_args = {"session_id": self.sid} if self.sid else {}
        taped = len(self.tapes)
        got = self.worker.call(name, **sid_args, **args)
        if len(self.tapes) > taped:  # it succeeded: the same IDs and time for the single worker
            values, when = self.tapes[-1]
            with minting.using(minting.Tape(values)), clock.pinned(when):
                want = self.single.call(name, **args)
        else:
            want = self.single.call(name, **args)
        assert got.is_error == want.is_error, (got.text, want.text)
        self.sid = self.sid or self.worker.services.sessions.all()[0].id
        assert self._plain(got.text) == self._plain(want.text), name
        assert parts(self.live().doc) == parts(self.single.session().doc), f"documents differ after {name}"
        return got.text

    def _plain(self, text: str) -> str:
        text = text.replace(str(self.root), "ROOT").replace(str(self.single_root), "ROOT")
        return re.sub(r"doc_[0-9a-f]{24}(\.[\w.:-]+)?", "doc_X", text)  # durable IDs name their worker

    def live(self):
        return self.worker.services.sessions.local(self.sid)

    def snapshot(self) -> None:
        if not self.worker.durable.holds(self.sid):
            self.call("docx_get_history")  # a worker snapshots only what it holds: take it first
        self.worker.durable.snapshot(self.live())

    def take_over(self) -> None:
        """The worker dies (its lease is gone); the next call reaches another worker."""
        backend = self.worker.durable.backend
        backend.redis.delete(backend.keys(self.sid)[0])
        self.worker = TapedDriver(self.root, self.url, "w2", self.tapes, self.every)

    def steps(self) -> tuple[int, int]:
        rec = self.live().doc.history
        return len(rec.undo_steps), len(rec.redo_steps)


SCRIPT = [
    ("docx_insert_paragraph", {"text": "first", "position": "end:document_body"}),
    ("docx_insert_table", {"rows": 2, "cols": 2, "position": "end:document_body"}),
    ("docx_set_font", {"element_id": "last_insert", "bold": True, "size": 14}),
    ("docx_insert_heading", {"text": "Heading", "level": 1, "position": "start:document_body"}),
    ("docx_replace_text", {"old_text": "first", "new_text": "1st"}),
    ("docx_undo", {"steps": 1}),
    ("docx_insert_footnote", {"element_id": "last_insert", "text": "a note"}),
    ("docx_delete", {"element_id": "last_insert"}),
]
AFTER = [
    ("docx_insert_list", {"items": ["a", ["b", "c"]], "position": "end:document_body"}),
    ("docx_undo", {"steps": 2}),
    ("docx_insert_paragraph", {"text": "on the new worker", "position": "end:document_body"}),
]


def undo_all_redo_all(pair: Pair) -> None:
    history = pair.call("docx_get_history")
    assert "docx_insert_table" in history, "the steps made before the snapshot are in the history"
    undo, _ = pair.steps()
    for _ in range(undo):
        pair.call("docx_undo", steps=1)
    assert pair.steps()[0] == 0
    assert "Nothing to undo" in pair.call("docx_undo")
    pair.call("docx_get_history")
    pair.call("docx_redo", steps=undo + 5)
    assert pair.steps() == (undo, 0)
    pair.call("docx_get_history")


@pytest.mark.parametrize("start", [("docx_create", {}), ("docx_open", {"file_path": "report.docx"})],
                         ids=["created", "opened"])
def test_undo_after_a_take_over_reaches_as_far_back_as_on_one_worker(tmp_path, redis_url, start):
    pair = Pair(tmp_path, redis_url)
    pair.start(start[0], **start[1])
    for name, args in SCRIPT[:5]:
        pair.call(name, **args)
    pair.snapshot()  # the history so far travels in the snapshot, not in the journal
    for name, args in SCRIPT[5:]:
        pair.call(name, **args)
    before = pair.steps()
    pair.take_over()
    pair.call("docx_read_content")  # the new worker recovers the session here
    assert pair.steps() == before
    assert pair.worker.durable.worker_id == "w2"
    for name, args in AFTER:
        pair.call(name, **args)
    undo_all_redo_all(pair)


@settings(max_examples=max(1, int(6 * SCALE)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data(), every=st.sampled_from([3, 1000]), n=st.integers(4, 10),
       start=st.sampled_from([None, "report.docx", "no-styles.docx"]))
def test_random_edits_undone_and_redone_across_a_take_over_match_one_worker(tmp_path_factory, redis_url,
                                                                           data, every, n, start):
    pair = Pair(tmp_path_factory.mktemp("history"), redis_url, snapshot_every=every)
    pair.start("docx_open", file_path=start) if start else pair.start("docx_create")
    snap_at, take_at = data.draw(st.integers(0, n)), data.draw(st.integers(0, n))
    for i in range(n):
        if i == snap_at:
            pair.snapshot()
        if i == take_at:
            pair.take_over()
        name, args = data.draw(newer_step(pair.single))
        pair.call(name, **args)
    undo, redo = pair.steps()
    for _ in range(undo):
        pair.call("docx_undo")
    pair.call("docx_redo", steps=undo + redo + 1)
    pair.call("docx_get_history")



def test_a_cells_paragraph_saved_alone_travels_in_the_snapshot_and_is_undone_after_a_take_over(tmp_path, redis_url):
    """An undo step holding a paragraph nested in a table (found by its place in the table): encoded
    in the snapshot, decoded on the new worker, undone after a later step saved the whole table."""
    pair = Pair(tmp_path, redis_url)
    pair.start("docx_create")
    table = re.search(r"table_[0-9a-f]+", pair.call("docx_insert_table", rows=2, cols=2, position="end:document_body",
                                                   data=[["a", "b"], ["c", "d"]])).group(0)
    pair.call("docx_insert_paragraph_to_cell", text="in a cell", table_id=table, row=1, col=1)
    pair.call("docx_update_paragraph_text", element_id="last_insert", new_text="edited in a cell")
    step = pair.live().doc.history.undo_steps[-1]
    assert [op[1].tag.split("}")[1] for op in step.ops if op[0] == "swap"] == ["p"]
    pair.snapshot()
    pair.take_over()
    pair.call("docx_read_content")
    pair.call("docx_insert_row_at", table_id=table, position="end")  # saves the whole table
    undo, _ = pair.steps()
    for _ in range(undo):
        pair.call("docx_undo", steps=1)
    pair.call("docx_redo", steps=undo)
    assert pair.steps() == (undo, 0)
