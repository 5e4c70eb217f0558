"""The config's sections besides ``http_tools``: limits, allow, tenants, proxy, toolsets, answers,
audit log, folders. Each returns its part of the Config and adds findings for what is wrong."""
from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

from ooxml.opc.link_policy import DEFAULT as DEFAULT_LINK_POLICY, FETCHING_FIELDS, KNOWN_SCHEMES, LinkPolicy
from ooxml.opc.package import Limits as DocumentLimits
from tools.config.checks import Findings, at, expect, keys_of, option
from tools.config.model import AuditSpec, HttpLimits
from tools.runtime.sessions.limits import RUNTIME_LIMIT_TYPES, RuntimeLimits
from tools.runtime.call.registry import NAME_RE
from tools.transport.client_address import ProxySpec

ALLOW_KEYS = ("url_schemes", "field_kinds")
PROXY_KEYS = ("forwarded_header", "trusted_proxies")
AUDIT_KEYS = ("path", "max_bytes", "backups", "fsync")
HTTP_LIMIT_KEYS = ("http_timeout_s", "http_max_response_bytes", "http_max_answer_chars")
DOC_LIMIT_KEYS = tuple(f.name for f in fields(DocumentLimits))
RUNTIME_LIMIT_KEYS = tuple(RUNTIME_LIMIT_TYPES)
TCHAR_RE = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")  # RFC 9110 token
ENV_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def parse_limits(f: Findings, raw: Any) -> tuple[HttpLimits, DocumentLimits, RuntimeLimits]:
    if raw is None or keys_of(f, "limits", raw, HTTP_LIMIT_KEYS + DOC_LIMIT_KEYS + RUNTIME_LIMIT_KEYS) is None:
        return HttpLimits(), DocumentLimits(), RuntimeLimits()
    http, doc, runtime = HttpLimits(), {}, {}
    for key, value in raw.items():
        kind = "number" if key == "http_timeout_s" else RUNTIME_LIMIT_TYPES.get(key, "integer")
        if key in HTTP_LIMIT_KEYS and expect(f, at("limits", key), value, kind, positive=True):
            setattr(http, key, value)
        elif key in DOC_LIMIT_KEYS and expect(f, at("limits", key), value, "integer", positive=True):
            doc[key] = value
        elif key in RUNTIME_LIMIT_KEYS and expect(f, at("limits", key), value, kind, positive=True):
            runtime[key] = value
    return http, DocumentLimits(**doc), RuntimeLimits(**runtime)


def parse_allow(f: Findings, raw: Any) -> LinkPolicy:
    """``allow: {url_schemes: [...], field_kinds: [...]}``: what documents may point to beyond the defaults."""
    if raw is None or keys_of(f, "allow", raw, ALLOW_KEYS) is None:
        return DEFAULT_LINK_POLICY
    named = {}
    for key, known, norm in (("url_schemes", KNOWN_SCHEMES, str.lower), ("field_kinds", FETCHING_FIELDS, str.upper)):
        values = raw.get(key, [])
        if not expect(f, at("allow", key), values, "array"):
            continue
        good = [norm(v) for v in values if isinstance(v, str) and norm(v) in known]
        for v in values:
            if not isinstance(v, str) or norm(v) not in known:
                f.add(at("allow", key), f"{v!r} is not one of {', '.join(sorted(known))}")
        named[key] = frozenset(good)
    return LinkPolicy(schemes=DEFAULT_LINK_POLICY.schemes | named.get("url_schemes", frozenset()),
                      fields=named.get("field_kinds", frozenset()))


def parse_tenants(f: Findings, raw: Any, env: dict) -> dict[str, str | None]:
    """Tenant -> token (None when its variable is unset, which is a finding)."""
    if raw is None or not expect(f, "tenants", raw, "object"):
        return {}
    tenants: dict[str, str | None] = {}
    owner_of_token: dict[str, str] = {}
    for name, spec in raw.items():
        where = at("tenants", name)
        if not isinstance(name, str) or not NAME_RE.match(name):
            f.add(where, f"{name!r} is not a valid tenant name: use 1-64 characters from A-Z a-z 0-9 _ . -")
        tenants[str(name)] = token = tenant_token(f, where, spec, env)
        if token is not None:
            if token in owner_of_token:
                f.add(at(where, "token_env"), f"same token as tenant '{owner_of_token[token]}'")
            owner_of_token.setdefault(token, str(name))
    return tenants


def tenant_token(f: Findings, where: str, spec: Any, env: dict) -> str | None:
    if keys_of(f, where, spec, ("token_env",), ("token_env",)) is None or "token_env" not in spec:
        return None
    var = spec["token_env"]
    if not expect(f, at(where, "token_env"), var, "string"):
        return None
    if not ENV_NAME_RE.match(var):
        f.add(at(where, "token_env"), f"{var!r} is not an environment variable name")
        return None
    if not env.get(var):
        f.add(at(where, "token_env"), f"environment variable {var} is not set (or is empty)")
        return None
    return env[var]


def parse_proxy(f: Findings, raw: Any) -> ProxySpec | None:
    """``proxy: {forwarded_header: X-Forwarded-For, trusted_proxies: [10.0.0.0/8, 127.0.0.1]}``."""
    if raw is None or keys_of(f, "proxy", raw, PROXY_KEYS, PROXY_KEYS) is None:
        return None
    name, trusted, nets = raw.get("forwarded_header"), raw.get("trusted_proxies"), []
    if "forwarded_header" in raw and expect(f, "proxy.forwarded_header", name, "string") and not TCHAR_RE.match(name):
        f.add("proxy.forwarded_header", f"{name!r} is not a header name")
    if "trusted_proxies" in raw and expect(f, "proxy.trusted_proxies", trusted, "array"):
        if not trusted:
            f.add("proxy.trusted_proxies", "expected at least one address or network (e.g. 10.0.0.0/8)")
        for i, item in enumerate(trusted):
            try:
                nets.append(ipaddress.ip_network(str(item), strict=False))
            except ValueError:
                f.add(f"proxy.trusted_proxies[{i}]", f"{item!r} is not an IP address or network")
    if not isinstance(name, str) or not nets:
        return None
    return ProxySpec(name.lower(), tuple(nets))


def parse_toolsets(f: Findings, raw: Any, known: set[str]) -> list[str] | None:
    if raw is None or not expect(f, "toolsets", raw, "array"):
        return None
    if not raw:
        f.add("toolsets", "an empty list would hide every tool; omit the key to list every group")
    for i, name in enumerate(raw):
        if expect(f, f"toolsets[{i}]", name, "string") and name not in known:
            f.add(f"toolsets[{i}]", f"unknown toolset {name!r} (known: {', '.join(sorted(known))})")
    return [t for t in raw if isinstance(t, str)] or None


def parse_answers(f: Findings, raw: Any) -> str | None:
    """``answers: {view: full|compact|none}``."""
    from render.views import VIEWS
    answers = keys_of(f, "answers", raw, ("view", "structured")) if raw is not None else None
    structured = (answers or {}).get("structured")
    if structured is not None and not isinstance(structured, bool):
        f.add("answers.structured", f"must be true or false, not {structured!r}")
    view = (answers or {}).get("view")
    if view is not None and view not in VIEWS:
        f.add("answers.view", f"unknown view {view!r} (known: {', '.join(VIEWS)})")
        return None
    return view


def parse_audit(f: Findings, raw: Any, base_dir: Path) -> AuditSpec | None:
    """``audit_log: PATH`` or ``audit_log: {path, max_bytes, backups, fsync}``."""
    if raw is None:
        return None
    if isinstance(raw, str):
        raw, where = {"path": raw}, "audit_log"
    elif keys_of(f, "audit_log", raw, AUDIT_KEYS, ("path",)) is None or "path" not in raw:
        return None
    else:
        where = "audit_log.path"
    if not expect(f, where, raw["path"], "string"):
        return None
    if not raw["path"].strip():
        f.add(where, "the path is empty")
        return None
    path = Path(os.path.expanduser(raw["path"]))
    path = path if path.is_absolute() else base_dir / path  # relative to the config file
    if not path.parent.is_dir():
        f.add(where, f"folder '{path.parent}' does not exist")
    defaults = AuditSpec(path)
    spec = AuditSpec(path, max_bytes=option(f, "audit_log", raw, "max_bytes", "integer", defaults.max_bytes,
                                            positive=True),
                     backups=option(f, "audit_log", raw, "backups", "integer", defaults.backups),
                     fsync=option(f, "audit_log", raw, "fsync", "boolean", False))
    if spec.backups < 0:
        f.add("audit_log.backups", f"expected 0 or more, got {spec.backups}")
    return spec


def parse_folder(f: Findings, where: str, raw: Any, base_dir: Path) -> Path | None:
    """A folder path (relative to the config file), resolved now; it is created when first needed."""
    if raw is None or not expect(f, where, raw, "string"):
        return None
    if not raw.strip():
        f.add(where, "the path is empty")
        return None
    path = Path(os.path.expanduser(raw))
    return Path(os.path.realpath(path if path.is_absolute() else base_dir / path))


STORAGE_KEYS = ("endpoint", "region", "access_key_id", "secret_access_key", "session_token", "uploads",
                "max_upload_bytes")


def parse_storage(f: Findings, raw: Any) -> dict | None:
    """``storage: {endpoint, region, access_key_id, secret_access_key, uploads, max_upload_bytes}``:
    object-store settings (else the AWS variables) and the upload area (a folder or s3://bucket/prefix)."""
    if raw is None or keys_of(f, "storage", raw, STORAGE_KEYS) is None:
        return None
    for key in STORAGE_KEYS[:-1]:
        if key in raw:
            expect(f, f"storage.{key}", raw[key], "string")
    size = raw.get("max_upload_bytes")
    if size is not None and (not isinstance(size, int) or isinstance(size, bool) or size <= 0):
        f.add("storage.max_upload_bytes", "expected a positive integer")
    return dict(raw)


FETCH_KEYS = ("allow", "allow_addresses", "timeout_s", "ca_file")


def parse_fetch(f: Findings, raw: Any) -> dict | None:
    """``fetch: {allow: [host, host:port], allow_addresses: [10.0.0.0/8], timeout_s, ca_file}``: where
    docx_open(url=…) may fetch from (tools/storage/fetch.py); nothing when absent."""
    if raw is None or keys_of(f, "fetch", raw, FETCH_KEYS) is None:
        return None
    for key in ("allow", "allow_addresses"):
        if key in raw and expect(f, f"fetch.{key}", raw[key], "array"):
            for i, item in enumerate(raw[key]):
                if not isinstance(item, str) or not item.strip():
                    f.add(f"fetch.{key}[{i}]", "expected a non-empty string")
                elif key == "allow_addresses":
                    try:
                        ipaddress.ip_network(item, strict=False)
                    except ValueError:
                        f.add(f"fetch.{key}[{i}]", f"{item!r} is not an address or network")
    if "timeout_s" in raw:
        expect(f, "fetch.timeout_s", raw["timeout_s"], "number", positive=True)
    if "ca_file" in raw:
        expect(f, "fetch.ca_file", raw["ca_file"], "string")
    return dict(raw)
