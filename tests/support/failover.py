"""One failover trial: a client edits through HAProxy, the worker holding its session dies (or
drains), a new client adopts the session; what was acknowledged must all be there, once."""
from __future__ import annotations

import os
import random
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

import anyio

from tests.support.client import read_body, texts
from tests.support.http_server import http_client
from tools.runtime.state.statestore import RedisState

CALL_TIMEOUT_S = 30  # generous upper bounds: a loaded machine is slow, a healthy one never waits them
ADOPT_S = 90


@dataclass
class Trial:
    acknowledged: dict[str, str] = field(default_factory=dict)  # text -> element ID
    sent: list[str] = field(default_factory=list)  # every text sent (acknowledged or not)
    failover_s: float | None = None
    killed: str | None = None


def owner_of(state: RedisState, sid: str) -> str | None:
    value = state.redis.get(state.keys(sid)[0])
    return value.decode().split("|")[0] if value else None


async def edit_until_broken(client, sid: str, trial: Trial, tag: str, stop_after: int = 400) -> None:
    for i in range(stop_after):
        text = f"{tag}-{i}"
        trial.sent.append(text)
        try:
            with anyio.fail_after(CALL_TIMEOUT_S):
                answer = await client.call("docx_insert_paragraph", session_id=sid, text=text,
                                           position="end:document_body")
        except Exception:
            return  # the worker died under the call: unacknowledged
        if answer.error_type == "SessionMoved" and trial.killed is None:
            await anyio.sleep(0.05)  # not applied; the worker it hashes to takes it over
            continue
        if answer.is_error:
            return  # StateUnavailable, or moved after the kill: not applied, so not acknowledged
        trial.acknowledged[text] = answer.element_id


async def until_ok(url: str, roots: list[Path], sid: str, name: str, seconds: float = ADOPT_S, **args):
    """A new MCP session that adopts ``sid``: retried (bounded) until the call succeeds."""
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        try:
            with anyio.fail_after(CALL_TIMEOUT_S):
                async with http_client(url, "auto", roots) as client:
                    while time.monotonic() < deadline:
                        answer = await client.call(name, **({"session_id": sid} if sid else {}), **args)
                        if answer.error_type != "SessionMoved":
                            return answer
                        last = answer
                        await anyio.sleep(0.05)
        except Exception as e:  # HAProxy may still send a request to the dead worker once
            last = e
            await anyio.sleep(0.05)
    raise AssertionError(f"no successful {name} on {sid} within {seconds} s: {last}")


async def run_trial(url: str, root: Path, state: RedisState, workers, tag: str, sig=signal.SIGKILL,
                    mode: str = "auto") -> Trial:
    """``mode`` 'auto': 2026-07-28 clients (no MCP session); 'legacy': 2025-11-25 clients, whose
    MCP session dies with the worker, so a new MCP session adopts the document session."""
    trial = Trial()
    sid = None
    if mode == "auto":
        created = await until_ok(url, [root], None, "docx_create")
        sid = created.head["Session ID"]
    try:
        async with http_client(url, mode, [root]) as client:
            if sid is None:  # its document session must be the editing MCP session's own
                sid = (await client.create()).head["Session ID"]
            async with anyio.create_task_group() as tg:
                tg.start_soon(kill_owner, state, sid, workers, trial, sig)
                await edit_until_broken(client, sid, trial, tag)
    except Exception:  # the client's transport breaks with the worker: a new MCP session adopts
        pass
    assert trial.killed is not None, "the owner was never killed (see the kill_owner assertion)"
    out = root / f"{tag}.docx"
    if mode == "legacy":
        await adopt_save_close(url, root, sid, out, trial)
    else:
        adopted = await until_ok(url, [root], sid, "docx_cursor_get")
        assert not adopted.is_error, adopted.text
        trial.failover_s = time.monotonic() - trial.failover_s
        saved = await until_ok(url, [root], sid, "docx_save", file_path=str(out))
        assert not saved.is_error, saved.text
        await until_ok(url, [root], sid, "docx_close")
    check_saved(out, trial)
    return trial


async def adopt_save_close(url: str, root: Path, sid: str, out: Path, trial: Trial) -> None:
    """One new 2025-11-25 MCP session adopts, saves and closes (its end would end the session).
    Until the dead worker's MCP session counts as ended its sessions answer SessionNotFound."""
    deadline, last = time.monotonic() + ADOPT_S, None
    while time.monotonic() < deadline:
        try:
            with anyio.fail_after(CALL_TIMEOUT_S):  # one try: a client stuck on the dead worker is replaced
                async with http_client(url, "legacy", [root]) as client:
                    adopted = await _retried(client, deadline, "docx_cursor_get", session_id=sid)
                    assert not adopted.is_error, adopted.text
                    trial.failover_s = time.monotonic() - trial.failover_s
                    saved = await _retried(client, deadline, "docx_save", session_id=sid, file_path=str(out))
                    assert not saved.is_error, saved.text
                    await _retried(client, deadline, "docx_close", session_id=sid)
                    return
        except AssertionError:
            raise
        except Exception as e:  # HAProxy may still send a request to the dead worker once
            while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
                e = e.exceptions[0]
            last = e
            await anyio.sleep(0.05)
    raise AssertionError(f"no adoption of {sid} within {ADOPT_S} s: {last!r}")


async def _retried(client, deadline: float, name: str, **args):
    while True:
        with anyio.fail_after(CALL_TIMEOUT_S):
            answer = await client.call(name, **args)
        if answer.error_type not in ("SessionMoved", "SessionNotFound") or time.monotonic() > deadline:
            return answer
        await anyio.sleep(0.05)


async def kill_owner(state: RedisState, sid: str, workers, trial: Trial, sig) -> None:
    await anyio.sleep(random.uniform(0.3, 1.2))
    owner, deadline = None, time.monotonic() + CALL_TIMEOUT_S
    while owner is None and time.monotonic() < deadline:
        owner = owner_of(state, sid)
        await anyio.sleep(0.005)
    assert owner is not None, f"nobody held the session's lease for {CALL_TIMEOUT_S} s"
    target = next(w for w in workers if w.name == owner)
    trial.killed = target.name
    trial.failover_s = time.monotonic()
    os.kill(target.proc.pid, sig)


def check_saved(path: Path, trial: Trial) -> None:
    body = read_body(path)
    paragraphs = [p for p in body.iter("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}p")]
    found: dict[str, list[str]] = {}
    for p in paragraphs:
        found.setdefault(texts(p), []).append(p.get("{urn:ooxml-mcp:ids:2026}id"))
    lost = [t for t, eid in trial.acknowledged.items() if found.get(t) != [eid]]
    twice = [t for t in trial.sent if len(found.get(t, [])) > 1]
    assert not lost, f"acknowledged edits lost or with another ID: {lost[:5]}"
    assert not twice, f"edits applied twice: {twice[:5]}"
