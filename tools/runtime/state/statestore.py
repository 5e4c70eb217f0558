"""Where durable document sessions live between workers: the state backend.

``StateBackend`` is the small interface a worker needs (leases, a fenced journal, snapshots);
``RedisState`` implements it on Redis (``--state redis://host:port/db``). Another store can
come later by implementing the same methods.

Keys of one document session ``sid`` (all under ``oxm:{sid}:`` so a Redis Cluster keeps them
in one slot):
- ``lease``: ``worker|epoch`` with a TTL; the owner renews it. Taking it bumps ``epoch``.
- ``meta``: hash: ``tenant``, ``mcp`` (the owner), ``head`` (ID of the last journal entry).
- ``snap``: the latest snapshot (bytes); ``journal``: a stream of the calls since.
- ``base``: the package a v3 snapshot names by hash (tools/runtime/state/snapshots.py ``split``), its hash
  in ``meta`` as ``base``: written only when it changed, in the same script as the snapshot.
- ``want``: another worker got a call for the session: the owner lets it go when idle.
- ``failed``: journal entries that could not be replayed (a list, kept for debugging until
  its TTL runs out, even after the session is gone).
Every write checks the lease in the same Lua script (fencing): a worker that lost its lease
(paused, partitioned) cannot append, snapshot or delete.

Who is alive, so that ownership holds on every worker: ``oxm:mcp:<id>`` names the worker that
holds a live MCP session (deleted when it ends), ``oxm:worker:<id>`` is that worker's heartbeat
(short TTL): an MCP session is live while both exist.

Session quotas, shared by every worker (tools/runtime/sessions/quotas.py): ``oxm:quota:<caller>`` is a
sorted set of the caller's session IDs scored by their last use (wall-clock seconds); a session
joins it when it is opened (refused at the quota, atomically) and leaves it when it ends.

An unreachable store raises ``StoreDown`` quickly (short timeouts, no retries) and, for a moment
after, at once without trying: callers answer ``StateUnavailable`` instead of waiting.
"""
from __future__ import annotations

import functools
import logging
import time
from dataclasses import dataclass

log = logging.getLogger("ooxml_mcp")
CONNECT_TIMEOUT_S = 1.0
SOCKET_TIMEOUT_S = 2.0
DOWN_FOR_S = 0.5  # after a failure, calls fail at once for this long (then one tries again)


class Fenced(Exception):
    """The caller does not hold the session's lease any more."""


class StoreDown(Exception):
    """The state store cannot be reached (or answered too slowly)."""


@dataclass
class Loaded:
    tenant: str | None
    mcp: str | None
    head: str
    snapshot: bytes
    entries: list[tuple[str, bytes]]
    base: bytes | None = None  # the package of a v3 snapshot


class StateBackend:
    """What a durable worker asks of its store. Tokens identify one holding of a lease."""

    def acquire(self, sid: str, worker: str, ttl_ms: int) -> str | None: ...
    def reclaim(self, sid: str, worker: str, ttl_ms: int, epoch: int) -> str | None: ...  # acquire, if still at epoch
    def renew(self, sid: str, token: str, ttl_ms: int) -> int: ...  # 0 lost, 1 renewed, 2 renewed but wanted

    def renew_many(self, leases: list[tuple[str, str]], ttl_ms: int) -> list[int | None]:
        """``renew`` of every (sid, token); None where that one failed. A store may do it in one round trip."""
        out: list[int | None] = []
        for sid, token in leases:
            try:
                out.append(self.renew(sid, token, ttl_ms))
            except Exception:
                out.append(None)
        return out

    def want(self, sid: str, worker: str, ttl_ms: int) -> None: ...
    def release(self, sid: str, token: str) -> None: ...
    def create(self, sid: str, token: str, tenant, mcp, snapshot: bytes, ttl_s: int,
               base: tuple[str, bytes] | None = None) -> None: ...
    def append(self, sid: str, token: str, entry: bytes, ttl_ms: int) -> str: ...

    def snapshot(self, sid: str, token: str, blob: bytes, head: str, ttl_s: int,
                 base: tuple[str, bytes | None] | None = None) -> bool:
        """Store ``blob`` as of journal entry ``head``. ``base``: (hash, bytes) of the package a v3
        blob names, bytes None when the store should hold it already: False then if it does not
        (nothing was written; send it again with its bytes)."""
    def set_owner(self, sid: str, token: str, tenant, mcp) -> None: ...
    def head(self, sid: str) -> tuple[str, str | None, str | None] | None: ...
    def load(self, sid: str) -> Loaded | None: ...
    def delete(self, sid: str, token: str) -> None: ...
    def keep_failed(self, sid: str, token: str, entries: list[bytes], ttl_s: int) -> None: ...
    def ping(self) -> bool: ...
    def problem(self) -> str | None: ...  # why the store is unreachable, None when it answers
    def heartbeat(self, worker: str, ttl_ms: int) -> None: ...
    def worker_gone(self, worker: str) -> None: ...
    def mcp_alive(self, mcp_sessions: list[str], worker: str, ttl_s: int) -> None: ...
    def mcp_gone(self, mcp_session: str) -> None: ...
    def mcp_live(self, mcp_session: str) -> bool: ...
    def quota_take(self, key: str, sid: str, limit: int, when: float, ttl_s: int) -> list[str] | None: ...
    def quota_members(self, key: str) -> list[tuple[str, float]]: ...  # longest idle first
    def quota_drop(self, key: str, sid: str) -> None: ...
    def quota_touch(self, used: list[tuple[str, str, float]]) -> None: ...  # (key, sid, when)


_ACQUIRE = """
if redis.call('EXISTS', KEYS[2]) == 0 and ARGV[3] == '0' then return false end
local epoch = redis.call('INCR', KEYS[5])
local token = ARGV[1] .. '|' .. epoch
if redis.call('SET', KEYS[1], token, 'NX', 'PX', ARGV[2]) then redis.call('DEL', KEYS[6]) return token end
return false
"""
_RECLAIM = """
if redis.call('GET', KEYS[5]) ~= ARGV[3] or redis.call('EXISTS', KEYS[1]) == 1 then return false end
local token = ARGV[1] .. '|' .. redis.call('INCR', KEYS[5])
redis.call('SET', KEYS[1], token, 'PX', ARGV[2])
redis.call('DEL', KEYS[6])
return token
"""
_RENEW = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if redis.call('EXISTS', KEYS[6]) == 1 then return 2 end
return 1
"""
_WANT = """
redis.call('SET', KEYS[6], ARGV[1], 'PX', ARGV[2])
return 1
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""
_CREATE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return redis.error_reply('FENCED') end
redis.call('HSET', KEYS[2], 'tenant', ARGV[2], 'mcp', ARGV[3], 'head', '0-0', 'base', ARGV[6])
redis.call('SET', KEYS[3], ARGV[4], 'EX', ARGV[5])
if ARGV[6] ~= '' then redis.call('SET', KEYS[8], ARGV[7], 'EX', ARGV[5]) end
redis.call('EXPIRE', KEYS[2], ARGV[5])
redis.call('EXPIRE', KEYS[5], ARGV[5])
return 1
"""
_APPEND = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return redis.error_reply('FENCED') end
local id = redis.call('XADD', KEYS[4], '*', 'e', ARGV[2])
redis.call('HSET', KEYS[2], 'head', id)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[4], ARGV[4])
return id
"""
_SNAPSHOT = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return redis.error_reply('FENCED') end
if redis.call('HGET', KEYS[2], 'head') ~= ARGV[3] then return redis.error_reply('FENCED') end
if ARGV[5] ~= '' then
  if ARGV[7] == '1' then
    redis.call('SET', KEYS[8], ARGV[6], 'EX', ARGV[4])
    redis.call('HSET', KEYS[2], 'base', ARGV[5])
  elseif redis.call('HGET', KEYS[2], 'base') ~= ARGV[5] then return 0 end
  redis.call('EXPIRE', KEYS[8], ARGV[4])
end
redis.call('SET', KEYS[3], ARGV[2], 'EX', ARGV[4])
redis.call('XTRIM', KEYS[4], 'MINID', ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('EXPIRE', KEYS[5], ARGV[4])
return 1
"""
_OWNER = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return redis.error_reply('FENCED') end
redis.call('HSET', KEYS[2], 'tenant', ARGV[2], 'mcp', ARGV[3])
return 1
"""
_FAILED = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return redis.error_reply('FENCED') end
for i = 3, #ARGV do redis.call('RPUSH', KEYS[7], ARGV[i]) end
redis.call('EXPIRE', KEYS[7], ARGV[2])
return 1
"""
_DELETE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return redis.error_reply('FENCED') end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[8])
return 1
"""

_QUOTA_TAKE = """
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return redis.call('ZRANGE', KEYS[1], 0, -1) end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""

_NONE = "\x00"  # an absent tenant / MCP session in the meta hash


def _enc(value: str | None) -> str:
    return _NONE if value is None else value


def _dec(value: bytes | None) -> str | None:
    text = value.decode() if value is not None else _NONE
    return None if text == _NONE else text


def _guarded(method):
    """Connection failures and timeouts become ``StoreDown``; while the store is known to be
    down, calls fail at once (a client must not wait a timeout on every call)."""
    @functools.wraps(method)
    def call(self, *args, **kwargs):
        if time.monotonic() < self._down_until:
            raise StoreDown(self._down_why)
        try:
            return method(self, *args, **kwargs)
        except self._down_errors as e:
            self._down_until, self._down_why = time.monotonic() + DOWN_FOR_S, f"{type(e).__name__}: {e}"
            raise StoreDown(self._down_why) from None
    return call


class RedisState(StateBackend):
    def __init__(self, url: str):
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry
        self.redis = redis.Redis.from_url(url, socket_timeout=SOCKET_TIMEOUT_S,
                                          socket_connect_timeout=CONNECT_TIMEOUT_S,
                                          retry=Retry(NoBackoff(), 0), health_check_interval=30)
        self._errors = (redis.ResponseError,)
        self._down_errors = (redis.ConnectionError, redis.TimeoutError, OSError)
        self._down_until, self._down_why = 0.0, ""
        self._scripts = {name: self.redis.register_script(src) for name, src in
                         (("acquire", _ACQUIRE), ("reclaim", _RECLAIM), ("renew", _RENEW), ("release", _RELEASE), ("create", _CREATE),
                          ("append", _APPEND), ("want", _WANT), ("snapshot", _SNAPSHOT), ("owner", _OWNER), ("delete", _DELETE),
                          ("failed", _FAILED))}
        self._quota_take = self.redis.register_script(_QUOTA_TAKE)

    @staticmethod
    def keys(sid: str) -> list[str]:
        base = f"oxm:{{{sid}}}:"
        return [base + k for k in ("lease", "meta", "snap", "journal", "epoch", "want", "failed", "base")]

    @_guarded
    def _run(self, name: str, sid: str, *args):
        try:
            return self._scripts[name](keys=self.keys(sid), args=list(args))
        except self._errors as e:
            if "FENCED" in str(e):
                raise Fenced(sid) from None
            raise

    def acquire(self, sid, worker, ttl_ms, new=False):
        token = self._run("acquire", sid, worker, ttl_ms, "1" if new else "0")
        return token.decode() if token else None

    def reclaim(self, sid, worker, ttl_ms, epoch):
        """The lease, only if nobody took it since epoch ``epoch`` (a failed try leaves the epoch as it was)."""
        token = self._run("reclaim", sid, worker, ttl_ms, epoch)
        return token.decode() if token else None

    def renew(self, sid, token, ttl_ms):
        return int(self._run("renew", sid, token, ttl_ms))

    @_guarded
    def renew_many(self, leases, ttl_ms):
        """Every renewal in one pipeline: one round trip a round, however many sessions a worker holds."""
        import redis
        sha = self._scripts["renew"].sha
        for attempt in (1, 2):
            with self.redis.pipeline(transaction=False) as pipe:
                for sid, token in leases:
                    keys = self.keys(sid)
                    pipe.evalsha(sha, len(keys), *keys, token, ttl_ms)
                out = pipe.execute(raise_on_error=False)
            if attempt == 1 and any(isinstance(r, redis.exceptions.NoScriptError) for r in out):
                self.redis.script_load(_RENEW)  # the store restarted and forgot its scripts
                continue
            return [int(r) if isinstance(r, int) else None for r in out]
        return [None] * len(leases)

    def want(self, sid, worker, ttl_ms):
        self._run("want", sid, worker, ttl_ms)

    def release(self, sid, token):
        self._run("release", sid, token)

    def create(self, sid, token, tenant, mcp, snapshot, ttl_s, base=None):
        name, data = base or ("", b"")
        self._run("create", sid, token, _enc(tenant), _enc(mcp), snapshot, ttl_s, name, data)

    def append(self, sid, token, entry, ttl_ms, ttl_s=86400):
        return self._run("append", sid, token, entry, ttl_ms, ttl_s).decode()

    def snapshot(self, sid, token, blob, head, ttl_s, base=None):
        name, data = base or ("", None)
        sent = "" if data is None else "1"
        return bool(self._run("snapshot", sid, token, blob, head, ttl_s, name, data or b"", sent))

    def set_owner(self, sid, token, tenant, mcp):
        self._run("owner", sid, token, _enc(tenant), _enc(mcp))

    @_guarded
    def head(self, sid):
        tenant, mcp, head = self.redis.hmget(self.keys(sid)[1], "tenant", "mcp", "head")
        return None if head is None else (head.decode(), _dec(tenant), _dec(mcp))

    @_guarded
    def load(self, sid):
        keys = self.keys(sid)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.hmget(keys[1], "tenant", "mcp", "head").get(keys[2]).get(keys[7])
            (tenant, mcp, head), blob, base = pipe.execute()
        if head is None or blob is None:
            return None
        from tools.runtime.state.snapshots import base_of
        if base is None and base_of(blob) is not None:  # expired or evicted apart from the snapshot
            log.warning("session %s: its snapshot's base is gone from the store", sid)
            return None
        # Entries after the snapshot's head (a snapshot trims the journal up to its head, inclusive of older).
        loaded = self._loaded(sid, tenant, mcp, blob)
        loaded.base = base
        return loaded

    def _loaded(self, sid, tenant, mcp, blob) -> Loaded:
        from tools.runtime.state.snapshots import snapshot_head
        start = snapshot_head(blob)
        entries = self.redis.xrange(self.keys(sid)[3], min="(" + start if start != "0-0" else "-")
        head = entries[-1][0].decode() if entries else start
        return Loaded(_dec(tenant), _dec(mcp), head, blob, [(i.decode(), f[b"e"]) for i, f in entries])

    def delete(self, sid, token):
        self._run("delete", sid, token)

    def keep_failed(self, sid, token, entries, ttl_s):
        self._run("failed", sid, token, ttl_s, *entries)

    def ping(self):
        return self.problem() is None

    def problem(self):
        try:
            self._ping()
            return None
        except StoreDown as e:
            return str(e)
        except Exception as e:
            return f"{type(e).__name__}: {e}"

    @_guarded
    def _ping(self):
        self.redis.ping()

    # ---- who is alive (ownership checks on every worker) ---------------------------------------------
    @_guarded
    def heartbeat(self, worker, ttl_ms):
        self.redis.set(f"oxm:worker:{worker}", b"1", px=ttl_ms)

    @_guarded
    def worker_gone(self, worker):
        self.redis.delete(f"oxm:worker:{worker}")

    @_guarded
    def mcp_alive(self, mcp_sessions, worker, ttl_s):
        with self.redis.pipeline(transaction=False) as pipe:
            for mcp in mcp_sessions:
                pipe.set(f"oxm:mcp:{mcp}", worker, ex=ttl_s)
            pipe.execute()

    @_guarded
    def mcp_gone(self, mcp_session):
        self.redis.delete(f"oxm:mcp:{mcp_session}")

    @_guarded
    def mcp_live(self, mcp_session):
        worker = self.redis.get(f"oxm:mcp:{mcp_session}")
        return worker is not None and bool(self.redis.exists(f"oxm:worker:{worker.decode()}"))

    # ---- session quotas, shared ------------------------------------------------------------------------
    @staticmethod
    def quota_key(key: str) -> str:
        return f"oxm:quota:{key}"

    @_guarded
    def quota_take(self, key, sid, limit, when, ttl_s):
        """None when ``sid`` joined the caller's sessions; else they are at ``limit``: their IDs."""
        taken = self._quota_take(keys=[self.quota_key(key)], args=[sid, limit, when, ttl_s])
        return None if taken == 1 else [m.decode() for m in taken]

    @_guarded
    def quota_members(self, key):
        return [(m.decode(), score) for m, score in self.redis.zrange(self.quota_key(key), 0, -1, withscores=True)]

    @_guarded
    def quota_drop(self, key, sid):
        self.redis.zrem(self.quota_key(key), sid)

    @_guarded
    def quota_touch(self, used):
        with self.redis.pipeline(transaction=False) as pipe:
            for key, sid, when in used:
                pipe.zadd(self.quota_key(key), {sid: when}, xx=True)
            pipe.execute()
