"""--state: every acknowledged call is journaled; snapshot + replay equals the live session.

Random edit sequences (the generators of test_property_edits.py) run on a worker with a Redis
state store; another worker then recovers the session from Redis alone. Every part of the
recovered document must be byte-identical to the live one, and so must the session state.
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.services import redis_server
from tests.tools.docx.test_property_edits import SCALE, Driver, documents, step
import tools.catalog  # noqa: F401
from tools.runtime.state.durable import Durable
from tools.runtime.state.journal import signature
from tools.runtime.state.snapshots import document_bytes
from tools.runtime.state.statestore import RedisState


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


class DurableDriver(Driver):
    def __init__(self, root: Path, url: str, name: str = "w1", audit=None, **options):
        options.setdefault("lease_ms", 60_000)  # no renewer thread here: slow checked calls must not lose it
        self.durable = Durable(RedisState(url), name, **options)
        super().__init__(root, sessions=self.durable.store(), state=self.durable, audit=audit)
        self.durable.attach(self.services)

    def call(self, name: str, **args):
        outcome = super().call(name, **args)
        self.durable.settle()  # a snapshot it made due: the test reads the live document without its lock
        return outcome

    def session(self):
        return self.services.sessions.all()[0]


def parts(doc) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(document_bytes(doc))) as z:
        return {n: z.read(n) for n in z.namelist()}


def recovered_equals_live(driver: DurableDriver, url: str, root: Path) -> None:
    live = driver.session()
    other = DurableDriver(root, url, "w2")
    back = other.durable.recover(live.id)
    try:
        assert parts(back.doc) == parts(live.doc)
        assert signature(back) == signature(live)
        assert back.owner == live.owner and back.path == live.path and back.doc.modified == live.doc.modified
    finally:
        back.doc.close()


def run(driver: DurableDriver, data, n: int) -> None:
    for _ in range(n):
        name, args = data.draw(step(driver))
        driver.call(name, **args)


@settings(max_examples=max(1, int(8 * SCALE)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data(), every=st.sampled_from([3, 1000]))
def test_snapshot_plus_journal_equals_the_live_session(tmp_path_factory, redis_url, data, every):
    root = tmp_path_factory.mktemp("durable")
    driver = DurableDriver(root, redis_url, snapshot_every=every)
    driver.call("docx_create")
    run(driver, data, 10)
    recovered_equals_live(driver, redis_url, root)


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.name)
@settings(max_examples=max(1, int(3 * SCALE)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_replay_of_edits_on_an_opened_file(tmp_path_factory, redis_url, path, data):
    root = tmp_path_factory.mktemp("durablec")
    (root / path.name).write_bytes(path.read_bytes())
    driver = DurableDriver(root, redis_url)
    driver.call("docx_open", file_path=path.name)
    driver.call("docx_read_content", max_elements=20)  # read-only, but it mints IDs: journaled too
    run(driver, data, 8)
    recovered_equals_live(driver, redis_url, root)


def test_a_worker_that_believes_it_holds_a_lost_lease_is_fenced_and_drops_its_copy(tmp_path, redis_url):
    a = DurableDriver(tmp_path, redis_url, "wa", lease_ms=60_000)
    a.call("docx_create")
    sid = a.session().id
    a.call("docx_insert_paragraph", session_id=sid, text="acknowledged", position="end:document_body")
    a.durable.backend.redis.delete(a.durable.backend.keys(sid)[0])  # its lease expired while it was paused
    b = DurableDriver(tmp_path, redis_url, "wb", lease_ms=60_000)
    taken = b.call("docx_insert_paragraph", session_id=sid, text="on the new owner", position="end:document_body")
    late = a.call("docx_insert_paragraph", session_id=sid, text="too late", position="end:document_body")
    content = b.call("docx_read_content", session_id=sid)
    assert not taken.is_error and late.error_type == "SessionMoved"
    assert "lost its lease" in late.text and a.services.sessions.all() == []
    assert "acknowledged" in content.text and "on the new owner" in content.text and "too late" not in content.text


@st.composite
def newer_step(draw, driver: DurableDriver):
    """Tools of the later features (undo, lists, TOC, notes, Markdown) among the core edits."""
    if draw(st.booleans()):
        return draw(step(driver))
    t = draw(st.sampled_from(["last_insert", "cursor"] + driver.ids[-6:]))
    pos = draw(st.sampled_from(["end:document_body", "start:document_body", f"after:{t}"]))
    kind = draw(st.sampled_from(["undo", "redo", "set_list", "insert_list", "toc", "footnote", "markdown"]))
    return {
        "undo": ("docx_undo", {"steps": draw(st.integers(1, 2))}),
        "redo": ("docx_redo", {}),
        "set_list": ("docx_set_list", {"element_id": t, "list_type": draw(st.sampled_from(["bullet", "number"]))}),
        "insert_list": ("docx_insert_list", {"items": ["a", ["b", "c"]], "position": pos}),
        "toc": ("docx_insert_toc", {"position": pos}),
        "footnote": ("docx_insert_footnote", {"element_id": t, "text": "note"}),
        "markdown": ("docx_insert_markdown", {"markdown": "# T\n\n- x\n- y\n\n| a | b |\n|---|---|\n| 1 | 2 |",
                                              "position": pos}),
    }[kind]


@settings(max_examples=max(1, int(8 * SCALE)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data(), every=st.sampled_from([2, 1000]))
def test_replay_of_undo_lists_toc_notes_and_markdown(tmp_path_factory, redis_url, data, every):
    root = tmp_path_factory.mktemp("durablen")
    driver = DurableDriver(root, redis_url, snapshot_every=every)
    driver.call("docx_create")
    sid = driver.session().id
    for _ in range(10):
        name, args = data.draw(newer_step(driver))
        driver.call(name, session_id=sid, **args)
    recovered_equals_live(driver, redis_url, root)


@pytest.mark.parametrize("every", [1, 1000])
def test_replay_of_tracked_edits_and_comments_equals_the_live_session(tmp_path_factory, redis_url, every):
    """Revision dates and comment IDs come from the pinned clock and the minting tape; tracking
    itself survives a snapshot."""
    root = tmp_path_factory.mktemp("durable-review")
    driver = DurableDriver(root, redis_url, snapshot_every=every)
    driver.call("docx_create")
    ok = lambda name, **args: not driver.call(name, **args).is_error  # noqa: E731
    assert ok("docx_set_track_changes", enabled=True, author="Alice")
    assert ok("docx_insert_paragraph", text="The quick brown fox", position="end:document_body")
    assert ok("docx_update_paragraph_text", element_id="last_insert", new_text="The slow brown fox")
    assert ok("docx_add_comment", element_id="last_update", text="Which fox?")
    assert ok("docx_insert_paragraph", text="Tracked after a snapshot", position="end:document_body")
    body = driver.session().doc.body
    assert body.xpath("//w:ins", namespaces={"w": body.nsmap["w"]}), "the edits were not tracked"
    recovered_equals_live(driver, redis_url, root)
    back = DurableDriver(root, redis_url, "w3").durable.recover(driver.session().id)
    try:
        assert back.doc.tracker is not None and back.doc.tracker.author == "Alice"
    finally:
        back.doc.close()


UNDONE_TOC_THEN_REPLACE = [
    ("docx_undo", {"steps": 2}),
    ("docx_insert_paragraph", {"text": "\tc >c\tbZ题YcX", "position": "before:document_body"}),
    ("docx_undo", {"steps": 2}),
    ("docx_insert_page_break", {"position": "before:document_body"}),
    ("docx_insert_toc", {"position": "end:document_body"}),
    ("docx_undo", {"steps": 1}),
    ("docx_undo", {"steps": 1}),
    ("docx_replace_text", {"old_text": "a", "new_text": "aX\nZY标b"}),
    ("docx_insert_paragraph", {"text": "", "position": "before:document_body"}),
    ("docx_set_font", {"element_id": "last_insert", "bold": True, "size": 17}),
]


@pytest.mark.parametrize("every", [2, 1000])
def test_replay_after_undoing_a_toc_mints_the_same_ids_as_the_live_session(tmp_path_factory, redis_url, every):
    """Found by Hypothesis: undoing a TOC insert, then an edit that draws boxes, once made replay
    mint more IDs than the live call recorded."""
    root = tmp_path_factory.mktemp("durable-undo-toc")
    driver = DurableDriver(root, redis_url, snapshot_every=every)
    driver.call("docx_create")
    sid = driver.session().id
    for name, args in UNDONE_TOC_THEN_REPLACE:
        driver.call(name, session_id=sid, **args)
    recovered_equals_live(driver, redis_url, root)


def test_an_undo_reaching_behind_the_last_snapshot_is_recovered_like_the_live_session(tmp_path_factory, redis_url):
    """A snapshot holds no undo history, so replay could not undo steps older than it: such an
    undo is snapshotted rather than journaled."""
    root = tmp_path_factory.mktemp("durable-undo-snapshot")
    driver = DurableDriver(root, redis_url, snapshot_every=2)
    driver.call("docx_create")
    sid = driver.session().id
    for text in ("one", "two", "three"):  # a snapshot after the second
        assert not driver.call("docx_insert_paragraph", session_id=sid, text=text, position="end:document_body").is_error
    undone = driver.call("docx_undo", session_id=sid, steps=3)
    assert "**Undone**: 3" in undone.text
    recovered_equals_live(driver, redis_url, root)
    assert not driver.call("docx_redo", session_id=sid, steps=2).is_error
    recovered_equals_live(driver, redis_url, root)
    content = driver.call("docx_read_content", session_id=sid).text
    assert "one" in content and "two" in content and "three" not in content


def test_a_toc_insert_is_journaled_not_taken_for_a_save(tmp_path_factory, redis_url):
    """The page numbers' layout writes a throwaway copy of the document; that copy is no save."""
    root = tmp_path_factory.mktemp("durable-toc")
    driver = DurableDriver(root, redis_url, snapshot_every=1000)
    driver.call("docx_create")
    sid = driver.session().id
    assert not driver.call("docx_insert_toc", session_id=sid, position="end:document_body").is_error
    assert driver.session().doc.package.stamps == {}
    assert driver.durable.held[sid].since_snapshot == 1, "the TOC insert was not journaled"


def test_a_markdown_export_is_recovered_without_writing_its_file_again(tmp_path_factory, redis_url):
    """Recovery runs the export again for what it did to the session, not for its file."""
    root = tmp_path_factory.mktemp("durable-export")
    driver = DurableDriver(root, redis_url, snapshot_every=1000)
    driver.call("docx_create")
    sid = driver.session().id
    assert not driver.call("docx_insert_markdown", session_id=sid, markdown="# Title\n\ntext",
                           position="end:document_body").is_error
    assert not driver.call("docx_export_markdown", session_id=sid, file_path="out.md").is_error
    (root / "out.md").write_text("the user's own edits since the export\n")
    recovered_equals_live(driver, redis_url, root)
    assert (root / "out.md").read_text() == "the user's own edits since the export\n"
