"""--state (issue 24): a failed leak check survives a take-over, so docx_save on the worker that
recovers the session still repeats the warning."""
from __future__ import annotations

import zipfile

import pytest

from tests.support import planted
from tests.support.client import parse_head
from tests.tools.runtime.test_durable_replay import DurableDriver, redis_url  # noqa: F401  (module fixture)

SECRET = "Quillfeather"


def _with_secret_in_a_binary(path):
    """The planted document plus an OLE object holding the secret: no redaction can clean it."""
    with zipfile.ZipFile(planted.build(path, SECRET), "a") as z:
        z.writestr("word/embeddings/oleObject1.bin", b"\xd0\xcf\x11\xe0" + SECRET.encode("utf-16-le"))
    return path


def take_over(driver: DurableDriver, sid: str, root, url: str) -> DurableDriver:
    """The worker dies (its lease is gone); the next call reaches another worker."""
    backend = driver.durable.backend
    backend.redis.delete(backend.keys(sid)[0])
    return DurableDriver(root, url, "w2")


@pytest.mark.parametrize("call,args", [("docx_redact", {"text": SECRET}), ("docx_inspect", {"find": SECRET})],
                         ids=["redact", "inspect_find"])
@pytest.mark.parametrize("every", [1, 1000], ids=["snapshot", "journal"])
def test_a_failed_leak_check_is_repeated_by_save_after_a_take_over(tmp_path, redis_url, call, args,  # noqa: F811
                                                                    every):
    driver = DurableDriver(tmp_path, redis_url, snapshot_every=every)
    driver.call("docx_open", file_path=str(_with_secret_in_a_binary(tmp_path / "p.docx")))
    warning = parse_head(driver.call(call, **args).text)["Leak Check"]
    assert warning.startswith("FAILED: ")
    sid = driver.session().id
    other = take_over(driver, sid, tmp_path, redis_url)
    saved = other.call("docx_save", session_id=sid, file_path=str(tmp_path / "out.docx"))
    assert parse_head(saved.text)["Leak Check"] == warning


def test_a_failed_leak_check_outlives_a_pass_for_another_text_after_a_take_over(tmp_path, redis_url):  # noqa: F811
    """Issue 29 #8: the warning is kept per secret, in the snapshot the other worker restores."""
    driver = DurableDriver(tmp_path, redis_url, snapshot_every=1)
    driver.call("docx_open", file_path=str(_with_secret_in_a_binary(tmp_path / "p.docx")))
    warning = parse_head(driver.call("docx_redact", text=SECRET).text)["Leak Check"]
    sid = driver.session().id
    other = take_over(driver, sid, tmp_path, redis_url)
    passed = parse_head(other.call("docx_inspect", session_id=sid, find="no such words here").text)["Leak Check"]
    assert passed.startswith("nothing left")
    saved = other.call("docx_save", session_id=sid, file_path=str(tmp_path / "out.docx"))
    assert parse_head(saved.text)["Leak Check"] == warning
