"""Documents from https:// URLs (``docx_open(url=…)``), only from hosts the config's ``fetch.allow``
lists (nothing by default). The host is resolved once and the connection goes to that address
(no DNS rebinding between the check and the connect); loopback, private, link-local and reserved
addresses are refused unless ``fetch.allow_addresses`` lists them; redirects are followed by hand,
each judged like the first URL; the body is counted as it arrives (size limit) under one deadline."""
from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from ooxml.xml.errors import LimitExceeded, OoxmlError, ValidationError
from tools.storage.store import StoreDenied, StoreUnavailable

MAX_REDIRECTS = 3


@dataclass(frozen=True)
class FetchPolicy:
    allow: tuple[str, ...] = ()  # host or host:port, lower case
    allow_addresses: tuple = ()  # ip_network objects a listed host may resolve to even if not public
    timeout_s: float = 20.0
    ca_file: str | None = None

    @classmethod
    def of(cls, section: dict | None) -> FetchPolicy:
        section = section or {}
        nets = tuple(ipaddress.ip_network(str(a), strict=False) for a in section.get("allow_addresses") or ())
        return cls(tuple(str(h).lower() for h in section.get("allow") or ()), nets,
                   float(section.get("timeout_s") or 20.0), section.get("ca_file"))


def fetch(url: str, policy: FetchPolicy, max_bytes: int) -> bytes:
    deadline = time.monotonic() + policy.timeout_s
    for _ in range(MAX_REDIRECTS + 1):
        host, port, address, target = _judge(url, policy)
        status, location, body = _get(host, port, address, target, policy, max_bytes, deadline)
        if status in (301, 302, 303, 307, 308) and location:
            url = urljoin(url, location)
            continue
        if status != 200:
            raise OoxmlError(f"'{url}' answered HTTP {status}.", error_type="FileNotFound",
                             hint="Check the URL; only a 200 answer is opened.")
        return body
    raise ValidationError(f"'{url}' redirects more than {MAX_REDIRECTS} times.", hint="Give the final URL.")


def _judge(url: str, policy: FetchPolicy):
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.hostname:
        raise ValidationError(f"'{url}' is not an https:// URL.", hint="Only https:// URLs are opened.")
    host, port = parts.hostname.lower(), parts.port or 443
    if host not in policy.allow and f"{host}:{port}" not in policy.allow:
        raise StoreDenied(f"Host '{host}' is not in the config's fetch.allow.",
                          hint="Ask the operator to list it, or upload the file (POST /files).")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as e:
        raise StoreUnavailable(f"'{host}' does not resolve: {e}.", hint="Check the host name.") from None
    address = ipaddress.ip_address(infos[0][4][0])
    public = address.is_global and not address.is_multicast
    if not public and not any(address in net for net in policy.allow_addresses):
        raise StoreDenied(f"'{host}' resolves to {address}, a loopback, private or link-local address.",
                          hint="Such addresses are refused unless fetch.allow_addresses lists them.")
    return host, port, str(address), (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


class _Pinned(http.client.HTTPSConnection):
    """HTTPS to the address judged, with the certificate checked for the host name."""

    def __init__(self, host, port, address, **kw):
        super().__init__(host, port, **kw)
        self._address = address

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def _get(host, port, address, target, policy, max_bytes, deadline):
    context = ssl.create_default_context(cafile=policy.ca_file)
    left = max(0.1, deadline - time.monotonic())
    conn = _Pinned(host, port, address, timeout=left, context=context)
    try:
        conn.request("GET", target, headers={"User-Agent": "ooxml-mcp", "Accept-Encoding": "identity"})
        response = conn.getresponse()
        declared = response.getheader("Content-Length")
        if declared and declared.isdigit() and int(declared) > max_bytes:
            raise LimitExceeded(f"The document is {declared} bytes, over the file size limit ({max_bytes}).",
                                hint="Open a smaller file; the operator sets limits.max_file_bytes.")
        chunks, size = [], 0
        while chunk := response.read(1 << 16):
            size += len(chunk)
            if size > max_bytes:
                raise LimitExceeded(f"The document is over the file size limit ({max_bytes}).",
                                    hint="Open a smaller file; the operator sets limits.max_file_bytes.")
            if time.monotonic() > deadline:
                raise StoreUnavailable("The download took longer than fetch.timeout_s.", hint="Retry later.")
            chunks.append(chunk)
        return response.status, response.getheader("Location"), b"".join(chunks)
    except (OSError, http.client.HTTPException) as e:
        raise StoreUnavailable(f"'https://{host}:{port}' failed: {e}.", hint="Check the host and retry.") from None
    finally:
        conn.close()
