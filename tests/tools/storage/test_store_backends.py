"""The one storage interface (tools/storage/store.py) holds the same contract on both backends:
a folder and a real SeaweedFS bucket. Read with a tag; write only if the tag still matches or only
if absent (FileChanged otherwise, the other bytes intact); list a folder; delete; limits before bytes."""
from __future__ import annotations

import itertools

import pytest

from ooxml.opc.savefile import FileChanged
from ooxml.xml.errors import LimitExceeded
from tools.storage.folder import FolderStore
from tools.storage.s3 import S3Store
from tools.storage.store import ObjectNotFound

_n = itertools.count()


@pytest.fixture(params=["folder", "s3"])
def store(request, tmp_path):
    if request.param == "folder":
        return FolderStore(tmp_path)
    seaweed = request.getfixturevalue("seaweed")
    return S3Store(seaweed.make_bucket(f"contract-{next(_n)}-{tmp_path.name[-8:].lower().replace('_', '-')}"),
                   seaweed.settings())


def test_read_gives_the_bytes_and_a_tag(store):
    tag = store.write("a/doc.docx", b"first", expected=None)
    blob = store.read("a/doc.docx", 100)
    assert blob.data == b"first" and blob.tag == tag


def test_write_only_if_absent_refuses_an_existing_object(store):
    store.write("a/doc.docx", b"theirs", expected=None)
    with pytest.raises(FileChanged):
        store.write("a/doc.docx", b"mine", expected=None)
    assert store.read("a/doc.docx", 100).data == b"theirs"


def test_write_with_a_stale_tag_is_refused(store):
    old = store.write("a/doc.docx", b"one", expected=None)
    store.write("a/doc.docx", b"two", expected=old)
    with pytest.raises(FileChanged):
        store.write("a/doc.docx", b"three", expected=old)
    assert store.read("a/doc.docx", 100).data == b"two"


def test_write_with_the_current_tag_succeeds(store):
    tag = store.write("a/doc.docx", b"one", expected=None)
    new = store.write("a/doc.docx", b"two!", expected=tag)
    assert new != tag and store.read("a/doc.docx", 100) .data == b"two!"


def test_overwrite_ignores_the_tag(store):
    store.write("a/doc.docx", b"one", expected=None)
    store.write("a/doc.docx", b"mine", expected=None, overwrite=True)
    assert store.read("a/doc.docx", 100).data == b"mine"


def test_list_a_folder_and_delete(store):
    for key in ("f/one.docx", "f/sub/two.docx", "g/three.docx"):
        store.write(key, b"x", expected=None)
    assert sorted(store.list("f")) == ["f/one.docx", "f/sub/two.docx"]
    store.delete("f/one.docx")
    assert sorted(store.list("f")) == ["f/sub/two.docx"]
    assert not store.exists("f/one.docx") and store.exists("g/three.docx")


def test_read_over_the_limit_is_refused(store):
    store.write("big.docx", b"x" * 1000, expected=None)
    with pytest.raises(LimitExceeded):
        store.read("big.docx", 999)


def test_missing_object_is_named(store):
    with pytest.raises(ObjectNotFound):
        store.read("nothing/here.docx", 100)


def test_aws_409_conditional_request_conflict_is_file_changed():
    """AWS answers 409 ConditionalRequestConflict when another conditional write to the key is in flight;
    SeaweedFS cannot produce it, so the mapping is tested on the error obstore raises for it."""
    from obstore.exceptions import GenericError
    from tools.storage.s3 import put_refused
    conflict = GenericError("Generic S3 error: Error performing PUT http://s3/b/k - Server returned non-success "
                            "status code 409 Conflict: <Code>ConditionalRequestConflict</Code>")
    refused = put_refused(conflict, "s3://b/k", expected="etag-1")
    assert isinstance(refused, FileChanged) and "nothing was written" in str(refused)
    assert put_refused(GenericError("status code 500 Internal Server Error"), "s3://b/k", "etag-1") is None


def test_a_409_from_the_store_is_not_called_unavailable():
    from obstore.exceptions import GenericError
    store = S3Store("b", {"endpoint": "http://127.0.0.1:9", "access_key_id": "a", "secret_access_key": "b"})

    def run():
        raise GenericError("status code 409 Conflict: <Code>ConditionalRequestConflict</Code>")
    with pytest.raises(GenericError):  # passed on to write(), which answers FileChanged
        store._call("k", run)
