"""Documents on object roots (``--root s3://bucket[/prefix]``) against a real SeaweedFS: open, edit
and save round trips, conditional saves (FileChanged both ways, the other writer's bytes intact),
the sandbox for keys, read limits before parsing, named errors for unknown buckets, bad
credentials and a store that is down."""
from __future__ import annotations

import hashlib
import itertools
import time

import obstore
import pytest

from ooxml.model.document import Document
from ooxml.opc.limits import Limits
from ooxml.text import body as B
from tests.support.client import open_client
from tests.support.corpus import corpus_files
from tools.config.model import Config
from tools.storage.roots import ObjectRoot

pytestmark = pytest.mark.anyio
_names = itertools.count()
W_P = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}p"


@pytest.fixture
def bucket(seaweed) -> str:
    return seaweed.make_bucket(f"docs-{next(_names)}-{int(time.time() * 1000) % 10**8}")


def config_for(seaweed, **extra) -> Config:
    return Config(storage=seaweed.settings(), **extra)


def put(seaweed, bucket: str, key: str, data: bytes) -> None:
    obstore.put(seaweed.client(bucket), key, data)


def get(seaweed, bucket: str, key: str) -> bytes:
    return bytes(obstore.get(seaweed.client(bucket), key).bytes())


def exists(seaweed, bucket: str, key: str) -> bool:
    return any(m["path"] == key for batch in obstore.list(seaweed.client(bucket)) for m in batch)


def text_of(data: bytes) -> str:
    doc = Document.from_bytes(data)
    try:
        return "\n".join(B.paragraph_text(p) for p in doc.body.iter(W_P))
    finally:
        doc.close()


def client_for(seaweed, tmp_path, bucket: str, prefix: str = "team", first: bool = True, **config):
    roots = [ObjectRoot(bucket, prefix)]
    return open_client([tmp_path], config=config_for(seaweed, **config), objects=roots, objects_first=first)


def sample(tmp_path) -> bytes:
    doc = Document.create()
    path = tmp_path / "sample.docx"
    doc.save(path)
    doc.close()
    return path.read_bytes()


ROUND_TRIP = [f for f in corpus_files() if f.stat().st_size < 400_000][:3] if corpus_files() else []


@pytest.mark.parametrize("source", ROUND_TRIP or [None], ids=lambda p: p.name if p else "no-corpus")
async def test_corpus_round_trip_on_object_root(seaweed, bucket, tmp_path, source):
    if source is None:
        pytest.skip("docx corpus not found")
    put(seaweed, bucket, f"team/{source.name}", source.read_bytes())
    async with client_for(seaweed, tmp_path, bucket) as c:
        opened = await c.ok("docx_open", file_path=f"s3://{bucket}/team/{source.name}")
        sid = opened.head["Session ID"]
        await c.ok("docx_insert_paragraph", session_id=sid, text="Stored in the bucket", position="end:document_body")
        saved = await c.ok("docx_save", session_id=sid)
    data = get(seaweed, bucket, f"team/{source.name}")
    assert saved.head["Size"] == f"{len(data)} bytes"
    assert "Stored in the bucket" in text_of(data)


async def test_relative_paths_start_at_the_first_object_root(seaweed, bucket, tmp_path):
    async with client_for(seaweed, tmp_path, bucket) as c:
        created = await c.ok("docx_create", file_path="reports/new.docx")
        await c.ok("docx_insert_paragraph", session_id=created.head["Session ID"], text="fresh", position="end:document_body")
        await c.ok("docx_save", session_id=created.head["Session ID"])
    assert "fresh" in text_of(get(seaweed, bucket, "team/reports/new.docx"))
    assert not list((tmp_path).glob("**/*.docx"))


async def test_save_refused_when_the_object_changed_since_open(seaweed, bucket, tmp_path):
    put(seaweed, bucket, "team/a.docx", sample(tmp_path))
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_open", file_path=f"s3://{bucket}/team/a.docx")).head["Session ID"]
        await c.ok("docx_insert_paragraph", session_id=sid, text="mine", position="end:document_body")
        theirs = b"the other writer's bytes"
        put(seaweed, bucket, "team/a.docx", theirs)
        refused = await c.call("docx_save", session_id=sid)
    assert refused.error_type == "FileChanged", refused.text
    assert get(seaweed, bucket, "team/a.docx") == theirs


async def test_save_refused_when_a_new_object_appeared_meanwhile(seaweed, bucket, tmp_path):
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_create", file_path=f"s3://{bucket}/team/new.docx")).head["Session ID"]
        theirs = b"created by someone else"
        put(seaweed, bucket, "team/new.docx", theirs)
        refused = await c.call("docx_save", session_id=sid)
    assert refused.error_type == "FileChanged", refused.text
    assert get(seaweed, bucket, "team/new.docx") == theirs


async def test_a_second_save_follows_the_first(seaweed, bucket, tmp_path):
    put(seaweed, bucket, "team/b.docx", sample(tmp_path))
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_open", file_path=f"s3://{bucket}/team/b.docx")).head["Session ID"]
        for word in ("one", "two"):
            await c.ok("docx_insert_paragraph", session_id=sid, text=word, position="end:document_body")
            await c.ok("docx_save", session_id=sid)
    assert "two" in text_of(get(seaweed, bucket, "team/b.docx"))


async def test_a_save_to_an_object_answers_the_sha256_of_what_was_read_and_written(seaweed, bucket, tmp_path):
    original = sample(tmp_path)
    put(seaweed, bucket, "team/h.docx", original)
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_open", file_path=f"s3://{bucket}/team/h.docx")).head["Session ID"]
        await c.ok("docx_insert_paragraph", session_id=sid, text="more", position="end:document_body")
        saved = await c.ok("docx_save", session_id=sid)
    assert saved.head["Read SHA"] == hashlib.sha256(original).hexdigest()
    assert saved.head["Written SHA"] == hashlib.sha256(get(seaweed, bucket, "team/h.docx")).hexdigest()


async def test_overwrite_writes_over_the_other_writer(seaweed, bucket, tmp_path):
    put(seaweed, bucket, "team/c.docx", sample(tmp_path))
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_open", file_path=f"s3://{bucket}/team/c.docx")).head["Session ID"]
        await c.ok("docx_insert_paragraph", session_id=sid, text="mine wins", position="end:document_body")
        put(seaweed, bucket, "team/c.docx", b"theirs")
        await c.ok("docx_save", session_id=sid, overwrite=True)
    assert "mine wins" in text_of(get(seaweed, bucket, "team/c.docx"))


async def test_save_as_to_another_object(seaweed, bucket, tmp_path):
    original = sample(tmp_path)
    put(seaweed, bucket, "team/d.docx", original)
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_open", file_path=f"s3://{bucket}/team/d.docx")).head["Session ID"]
        await c.ok("docx_insert_paragraph", session_id=sid, text="copy", position="end:document_body")
        await c.ok("docx_save", session_id=sid, file_path=f"s3://{bucket}/team/sub/d2.docx")
    assert "copy" in text_of(get(seaweed, bucket, "team/sub/d2.docx"))
    assert get(seaweed, bucket, "team/d.docx") == original


@pytest.mark.parametrize("target", ["s3://{other}/team/x.docx", "s3://{bucket}/elsewhere/x.docx",
                                    "s3://{bucket}/team/../x.docx", "../x.docx", "s3://{bucket}/team//x.docx",
                                    "s3://{bucket}/team/./x.docx"])
async def test_keys_outside_the_root_are_refused(seaweed, bucket, tmp_path, target):
    other = seaweed.make_bucket(bucket + "-other")
    path = target.format(bucket=bucket, other=other)
    async with client_for(seaweed, tmp_path, bucket) as c:
        created = await c.call("docx_create", file_path=path)
        assert created.error_type == "PermissionDenied", created.text
        sid = (await c.ok("docx_create")).head["Session ID"]
        refused = await c.call("docx_save", session_id=sid, file_path=path)
        assert refused.error_type == "PermissionDenied", refused.text
        opened = await c.call("docx_open", file_path=path)
        assert opened.error_type == "PermissionDenied", opened.text
    assert not exists(seaweed, bucket, "x.docx") and not exists(seaweed, bucket, "elsewhere/x.docx")
    assert not exists(seaweed, other, "team/x.docx")


async def test_size_limit_is_judged_before_the_object_is_parsed(seaweed, bucket, tmp_path):
    from ooxml.opc.package import DEFAULT_LIMITS  # noqa: F401 (the limit the config replaces)
    put(seaweed, bucket, "team/big.docx", b"PK" + b"\0" * 5000)  # not even a zip: a parse would say so
    async with client_for(seaweed, tmp_path, bucket, document_limits=Limits(max_file_bytes=4096)) as c:
        refused = await c.call("docx_open", file_path=f"s3://{bucket}/team/big.docx")
    assert refused.error_type == "LimitExceeded", refused.text


async def test_unknown_bucket_is_named(seaweed, tmp_path):
    async with client_for(seaweed, tmp_path, "no-such-bucket-here") as c:
        refused = await c.call("docx_open", file_path="s3://no-such-bucket-here/team/a.docx")
    assert refused.error_type == "FileNotFound", refused.text
    assert "no-such-bucket-here" in refused.text


async def test_missing_object_is_named(seaweed, bucket, tmp_path):
    async with client_for(seaweed, tmp_path, bucket) as c:
        refused = await c.call("docx_open", file_path="team-missing.docx")
    assert refused.error_type == "FileNotFound", refused.text


async def test_bad_credentials_are_refused_by_name(seaweed, bucket, tmp_path):
    put(seaweed, bucket, "team/e.docx", sample(tmp_path))
    config = Config(storage={**seaweed.settings(), "secret_access_key": "wrong"})
    async with open_client([tmp_path], config=config, objects=[ObjectRoot(bucket, "team")], objects_first=True) as c:
        refused = await c.call("docx_open", file_path="e.docx")
    assert refused.error_type == "PermissionDenied", refused.text
    assert "credentials" in refused.text


async def test_a_store_that_is_down_answers_at_once(tmp_path):
    from tests.support.services import free_port
    config = Config(storage={"endpoint": f"http://127.0.0.1:{free_port()}", "access_key_id": "a",
                             "secret_access_key": "b"})
    async with open_client([tmp_path], config=config, objects=[ObjectRoot("some-bucket", "")],
                           objects_first=True) as c:
        started = time.monotonic()
        refused = await c.call("docx_open", file_path="a.docx")
    assert refused.error_type == "StoreUnavailable", refused.text
    assert time.monotonic() - started < 15


async def test_markdown_export_to_an_object(seaweed, bucket, tmp_path):
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_create")).head["Session ID"]
        await c.ok("docx_insert_paragraph", session_id=sid, text="Exported text", position="end:document_body")
        exported = await c.client.call_tool("docx_export_markdown", {"session_id": sid, "file_path": "out/notes.md"})
        assert not exported.is_error, exported.content[0].text
        again = await c.ok("docx_export_markdown", session_id=sid, file_path="out/notes.md")  # its own: no overwrite
        put(seaweed, bucket, "team/out/notes.md", b"theirs")
        refused = await c.call("docx_export_markdown", session_id=sid, file_path="out/notes.md")
        wrong = await c.call("docx_export_markdown", session_id=sid, file_path="out/notes.txt")
    assert [x.uri for x in exported.content if x.type == "resource_link"] == [f"s3://{bucket}/team/out/notes.md"]
    assert again.head["File"] == f"s3://{bucket}/team/out/notes.md"
    assert refused.error_type == "FileChanged", refused.text
    assert get(seaweed, bucket, "team/out/notes.md") == b"theirs"
    assert wrong.error_type == "UnsupportedFileType", wrong.text


async def test_the_saved_objects_link_reads_as_a_blob(seaweed, bucket, tmp_path):
    import base64
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_create", file_path="linked.docx")).head["Session ID"]
        saved = await c.client.call_tool("docx_save", {"session_id": sid})
        link = next(x for x in saved.content if x.type == "resource_link")
        read = await c.client.read_resource(str(link.uri))
        from mcp.shared.exceptions import MCPError
        with pytest.raises(MCPError) as refused:
            await c.client.read_resource(f"s3://{bucket}/elsewhere/x.docx")
        assert "outside the allowed object roots" in str(refused.value)
    assert base64.b64decode(read.contents[0].blob) == get(seaweed, bucket, "team/linked.docx")


async def test_an_image_from_an_object(seaweed, bucket, tmp_path):
    import io
    from PIL import Image
    png = io.BytesIO()
    Image.new("RGB", (20, 10), "red").save(png, "PNG")
    put(seaweed, bucket, "team/pics/red.png", png.getvalue())
    async with client_for(seaweed, tmp_path, bucket) as c:
        sid = (await c.ok("docx_create", file_path="pictured.docx")).head["Session ID"]
        await c.ok("docx_insert_image", session_id=sid, image_path="pics/red.png", position="end:document_body")
        outside = await c.call("docx_insert_image", session_id=sid, image_path=f"s3://{bucket}/x/red.png",
                               position="end:document_body")
        await c.ok("docx_save", session_id=sid)
    assert outside.error_type == "PermissionDenied", outside.text
    doc = Document.from_bytes(get(seaweed, bucket, "team/pictured.docx"))
    try:
        media = [n for n in doc.package.parts if n.startswith("word/media/")]
        assert len(media) == 1 and doc.package.parts[media[0]].data == png.getvalue()
    finally:
        doc.close()


async def test_a_save_while_the_store_is_down_is_named_and_keeps_the_edits(tmp_path):
    from tests.support.seaweed import SeaweedFS
    own = SeaweedFS().start()  # its own store: this test stops it
    try:
        name = own.make_bucket("down-docs")
        obstore.put(own.client(name), "team/a.docx", sample(tmp_path))
        async with client_for(own, tmp_path, name) as c:
            sid = (await c.ok("docx_open", file_path="a.docx")).head["Session ID"]
            await c.ok("docx_insert_paragraph", session_id=sid, text="kept", position="end:document_body")
            own.proc.terminate()
            own.proc.wait(30)
            started = time.monotonic()
            refused = await c.call("docx_save", session_id=sid)
            elapsed = time.monotonic() - started
            closed = await c.ok("docx_close", session_id=sid)
    finally:
        own.close()
    assert refused.error_type == "StoreUnavailable", refused.text
    assert elapsed < 15
    assert closed.head["Unsaved Changes"] == "yes, discarded"
