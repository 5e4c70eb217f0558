"""S3-compatible object stores as a Store, through obstore (Rust ``object_store``): conditional puts
are its put modes (``create`` = ``If-None-Match: *``, ``{"e_tag": …}`` = ``If-Match``), bodies stream,
and one client type covers AWS S3, SeaweedFS, Ceph RGW and Garage (GCS and Azure by the same API).

Endpoint, region and credentials: the config's ``storage`` section, else the standard AWS variables.
Timeouts and retries are short: a store that is down is StoreUnavailable within seconds, not a hang.
"""
from __future__ import annotations

import os
import threading
from datetime import timedelta

from ooxml.opc.savefile import FileChanged
from tools.storage.store import Blob, ObjectNotFound, StoreDenied, StoreUnavailable, too_big

_CLIENT = {"connect_timeout": "3s", "timeout": "60s"}
_RETRY = {"max_retries": 2, "retry_timeout": timedelta(seconds=8),
          "backoff": {"init_backoff": timedelta(milliseconds=100), "max_backoff": timedelta(seconds=2), "base": 2}}
_ENV = {"endpoint": ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"), "region": ("AWS_REGION", "AWS_DEFAULT_REGION"),
        "access_key_id": ("AWS_ACCESS_KEY_ID",), "secret_access_key": ("AWS_SECRET_ACCESS_KEY",),
        "session_token": ("AWS_SESSION_TOKEN",)}


def settings(section: dict | None) -> dict:
    """The connection settings: the config's ``storage`` section first, then the environment."""
    out = {}
    for name, variables in _ENV.items():
        value = (section or {}).get(name) or next((os.environ[v] for v in variables if os.environ.get(v)), None)
        if value:
            out[name] = str(value)
    return out


class S3Store:
    def __init__(self, bucket: str, section: dict | None = None):
        import obstore.store
        self.bucket = bucket
        conf = settings(section)
        options = dict(_CLIENT, allow_http=str(conf.get("endpoint", "")).startswith("http://"))
        conf.setdefault("region", "us-east-1")
        self._store = obstore.store.S3Store(bucket, config=conf, client_options=options, retry_config=_RETRY)

    def read(self, key: str, max_bytes: int) -> Blob:
        import obstore
        result = self._call(key, lambda: obstore.get(self._store, key))
        size = int(result.meta["size"])
        if size > max_bytes:  # judged on the answer's head: the body is never fetched
            raise too_big(key, size, max_bytes)

        def collect() -> list[bytes]:  # inside _call: a store failing mid-body is named too
            chunks, got = [], 0
            for chunk in result.stream(min_chunk_size=1 << 20):
                got += len(chunk)
                if got > max_bytes:
                    raise too_big(key, got, max_bytes)
                chunks.append(bytes(chunk))
            return chunks
        return Blob(b"".join(self._call(key, collect)), result.meta["e_tag"] or "")

    def stream(self, key: str, max_bytes: int, chunk: int = 1 << 20):
        """(size, chunks) without holding the object: for downloads."""
        import obstore
        result = self._call(key, lambda: obstore.get(self._store, key))
        size = int(result.meta["size"])
        if size > max_bytes:
            raise too_big(key, size, max_bytes)
        return size, (bytes(c) for c in result.stream(min_chunk_size=chunk))

    def write(self, key: str, data: bytes, *, expected: str | None, overwrite: bool = False) -> str:
        import obstore
        mode = "overwrite" if overwrite else {"e_tag": expected} if expected else "create"
        try:
            answer = self._call(key, lambda: obstore.put(self._store, key, data, mode=mode))
        except Exception as e:
            refused = put_refused(e, f"s3://{self.bucket}/{key}", expected)
            if refused is None:
                raise
            raise refused from None
        return answer["e_tag"] or ""

    def put_new(self, key: str, source) -> str:
        """A multipart upload in 5 MB parts (a conditional put would be one request holding it all:
        the key is fresh, nothing to guard)."""
        import obstore
        answer = self._call(key, lambda: obstore.put(self._store, key, source, use_multipart=True))
        return answer["e_tag"] or ""

    def exists(self, key: str) -> bool:
        import obstore
        try:
            self._call(key, lambda: obstore.head(self._store, key))
            return True
        except ObjectNotFound:
            return False

    def list(self, folder: str, limit: int = 1000) -> list[str]:
        import obstore

        def collect():
            out = []
            for batch in obstore.list(self._store, prefix=folder or None):
                out += [m["path"] for m in batch]
                if len(out) >= limit:
                    break
            return out[:limit]
        return self._call(folder, collect)

    def delete(self, key: str) -> None:
        import obstore
        self._call(key, lambda: obstore.delete(self._store, key))

    def _call(self, key: str, run):
        """``run()`` with obstore's errors turned into named ones (conditional-put refusals pass)."""
        from obstore.exceptions import GenericError, NotFoundError, PermissionDeniedError, UnauthenticatedError
        where = f"s3://{self.bucket}/{key}"
        try:
            return run()
        except (FileNotFoundError, NotFoundError) as e:
            if "NoSuchBucket" in str(e):
                raise ObjectNotFound(f"Bucket '{self.bucket}' does not exist.",
                                     hint="Check the --root bucket name and the store's endpoint.") from None
            raise ObjectNotFound(f"'{where}' does not exist.", hint="Check the key; list the folder first.") from None
        except (PermissionDeniedError, UnauthenticatedError, PermissionError):
            raise StoreDenied(f"The object store refused access to '{where}' (credentials or policy).",
                              hint="Check AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or the config's storage section.") \
                from None
        except (GenericError, OSError, ConnectionError, TimeoutError) as e:
            if is_conflict(e):  # a 409 refusal: write() names it
                raise
            raise StoreUnavailable(f"The object store did not answer for '{where}': {str(e).splitlines()[0][:200]}",
                                   hint="Check that the store is up and its endpoint is right; then retry.") from None


def is_conflict(error: BaseException) -> bool:
    """A conditional put refused: 412 (PreconditionError), an object created meanwhile (AlreadyExistsError),
    or AWS's 409 ConditionalRequestConflict (another conditional write to the key in flight), which
    obstore passes on as a generic error naming the status."""
    from obstore.exceptions import AlreadyExistsError, GenericError, PreconditionError
    if isinstance(error, (AlreadyExistsError, PreconditionError)):
        return True
    text = str(error)
    return isinstance(error, GenericError) and ("ConditionalRequestConflict" in text or "409 Conflict" in text)


def put_refused(error: BaseException, where: str, expected: str | None) -> FileChanged | None:
    """The FileChanged a refused conditional put answers (nothing was written); None for other errors."""
    if not is_conflict(error):
        return None
    return FileChanged(f"'{where}' " + ("changed since it was opened or last saved" if expected else
                                        "was created by someone else meanwhile") + "; nothing was written.",
                       hint="Save under another name, reopen it to see the other changes, or pass overwrite=true.")


_STORES: dict[tuple, S3Store] = {}
_LOCK = threading.Lock()


def store_for(bucket: str, section: dict | None = None) -> S3Store:
    """One client per bucket and settings (clients pool their connections)."""
    key = (bucket, tuple(sorted(settings(section).items())))
    with _LOCK:
        if key not in _STORES:
            _STORES[key] = S3Store(bucket, section)
        return _STORES[key]
