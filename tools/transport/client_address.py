"""Where an HTTP request comes from: the peer, or behind trusted proxies the forwarded client.

Anonymous clients (no tenant, no MCP session) get their session quota per source address
(tools/runtime/sessions/quotas.py). Behind a proxy every request comes from the proxy, so the config's
``proxy`` key names the header the proxies set (``X-Forwarded-For``) and the proxies trusted to
set it. The header is read only when the peer is a trusted proxy (anyone else could forge it),
from the right: the first address that is not a trusted proxy is the client.
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass


@dataclass(frozen=True)
class ProxySpec:
    forwarded_header: str  # lower case, e.g. "x-forwarded-for"
    trusted: tuple  # ipaddress networks

    def trusts(self, address: str | None) -> bool:
        ip = parse_ip(address)
        return ip is not None and any(ip in net for net in self.trusted)


def parse_ip(text: str | None):
    if not text:
        return None
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def client_address(peer: str | None, headers, proxy: ProxySpec | None) -> str | None:
    """The client's address; ``headers`` is a list of (name, value) as the request has them."""
    if proxy is None or not proxy.trusts(peer):
        return peer
    hops = [h.strip() for name, value in headers if name.lower() == proxy.forwarded_header
            for h in value.split(",") if h.strip()]
    for hop in reversed(hops):
        if not proxy.trusts(hop):
            ip = parse_ip(hop)
            return str(ip) if ip is not None else peer  # garbage the proxy passed on: the proxy itself
    return str(parse_ip(hops[0])) if hops and parse_ip(hops[0]) else peer


def request_address(request, proxy: ProxySpec | None) -> str | None:
    """``client_address`` of a Starlette request (as the MCP SDK hands it to the handlers)."""
    client = getattr(request, "client", None)
    peer = getattr(client, "host", None)
    raw = getattr(getattr(request, "headers", None), "raw", None) or []
    if proxy is None:
        return peer
    return client_address(peer, [(n.decode("latin-1"), v.decode("latin-1")) for n, v in raw], proxy)
