"""The operator's config as the server runs with it (SPEC §9): what a valid config holds.

Loading and validating: tools/config/loading.py; the config in force and its reload:
tools/config/live.py.
"""
from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from pathlib import Path

from ooxml.opc.link_policy import DEFAULT as DEFAULT_LINK_POLICY, LinkPolicy
from ooxml.opc.limits import Limits as DocumentLimits
from tools.http.spec import HttpToolSpec
from tools.runtime.sessions.limits import RuntimeLimits
from tools.runtime.call.registry import Tool
from tools.transport.client_address import ProxySpec

# Named in SPEC §9-§11, known even before they exist; "all" lists every toolset (tools/runtime/call/toolsets.py).
SPEC_TOOLSETS = {"core", "tables", "format", "review", "http", "styles", "layout", "forms", "privacy", "all"}


class ConfigError(Exception):
    """The config is unusable; ``findings`` lists every problem, each with its location."""

    def __init__(self, findings: list[str]):
        self.findings = list(findings)
        super().__init__(f"{len(self.findings)} problem(s) in the config:\n" + "\n".join(self.findings))


@dataclass
class AuditSpec:
    path: Path
    max_bytes: int = 10 * 1024 * 1024
    backups: int = 5
    fsync: bool = False


@dataclass
class HttpLimits:
    http_timeout_s: float = 10.0
    http_max_response_bytes: int = 1024 * 1024
    http_max_answer_chars: int = 50_000


@dataclass
class Config:
    source: Path | None = None
    toolsets: list[str] | None = None
    answers_view: str | None = None  # answers.view: the server's default answer view (render/views.py)
    answers_structured: bool = False  # answers.structured: the head as structuredContent (tools/runtime/protocol/structured.py)
    author: str | None = None  # default author of tracked changes and comments
    recovery_folder: Path | None = None  # where recovery files go when not beside the document
    tenant_tokens: dict[str, str] = field(default_factory=dict, repr=False)  # tenant -> bearer token
    http_tools: list[HttpToolSpec] = field(default_factory=list)
    audit: AuditSpec | None = None
    limits: HttpLimits = field(default_factory=HttpLimits)
    document_limits: DocumentLimits = field(default_factory=DocumentLimits)
    runtime_limits: RuntimeLimits = field(default_factory=RuntimeLimits)
    link_policy: LinkPolicy = DEFAULT_LINK_POLICY  # link schemes and field kinds allowed beyond the defaults
    secrets: frozenset[str] = field(default_factory=frozenset, repr=False)  # to redact from logs
    tools: list[Tool] = field(default_factory=list)
    proxy: ProxySpec | None = None  # which forwarded header to believe, from which proxies
    storage: dict | None = None  # object stores: endpoint, region, credentials; uploads (tools/storage)
    fetch: dict | None = None  # docx_open(url=…): allowed hosts and addresses (tools/storage/fetch.py)

    @property
    def tenants(self) -> list[str]:
        return list(self.tenant_tokens)

    def tenant_for_token(self, token: str | None) -> str | None:
        """The tenant whose token this is; compared in constant time, every token checked."""
        found = None
        for tenant, expected in self.tenant_tokens.items():
            if token is not None and hmac.compare_digest(token.encode(), expected.encode()):
                found = tenant
        return found
