"""Loading the operator's config (SPEC §9): read YAML or JSON, validate it as a whole.

Validation never stops at the first problem: every finding is collected with its location and
raised together in one ``ConfigError``, so an operator fixes a config in one round. The built-in
tools' names come from the registry (filled by whoever reads a config: server.py loads the tools
first, tools/builtin.py), their toolsets from ``toolsets.NAMES``, not from importing the tools here.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import yaml

from tools.config.checks import Findings, keys_of
from tools.config.http_tools import parse_http_tools
from tools.config.model import SPEC_TOOLSETS, Config, ConfigError
from tools.config.sections import (parse_allow, parse_answers, parse_audit, parse_folder, parse_limits,
                                   parse_fetch, parse_proxy, parse_storage, parse_tenants, parse_toolsets)
from tools.http.tools import build_tools
from tools.runtime.call.toolsets import NAMES as BUILTIN_TOOLSETS

TOP_KEYS = ("toolsets", "audit_log", "tenants", "http_tools", "limits", "author", "allow", "answers", "recovery_folder", "proxy", "storage", "fetch")


def read_file(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError([f"{path}: cannot read the config: {e}"]) from None
    f = Findings()
    try:
        data = json.loads(text, object_pairs_hook=lambda pairs: no_duplicates(f, pairs)) \
            if path.suffix.lower() == ".json" else yaml.load(text, Loader=loader_for(f))
    except json.JSONDecodeError as e:
        raise ConfigError([f"{path}: line {e.lineno}, column {e.colno}: invalid JSON: {e.msg}"]) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        place = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise ConfigError([f"{path}: {place}invalid YAML: {getattr(e, 'problem', None) or e}"]) from None
    if f:
        raise ConfigError(f)
    return {} if data is None else data


def no_duplicates(f: Findings, pairs: list, mark: Any = None) -> dict:
    seen = {}
    for key, value in pairs:
        if key in seen:
            f.add(f"line {mark.line + 1}" if mark else "config", f"duplicate key {key!r}")
        seen[key] = value
    return seen


def loader_for(f: Findings) -> type:
    """A safe YAML loader that reports duplicate keys (PyYAML silently keeps the last one)."""

    class Loader(yaml.SafeLoader):
        def construct_mapping(self, node, deep=False):
            pairs = []
            for key_node, value_node in node.value:
                key = self.construct_object(key_node, deep=deep)
                pairs.append((key, self.construct_object(value_node, deep=deep)))
                if key in (k for k, _ in pairs[:-1]):
                    f.add(f"line {key_node.start_mark.line + 1}", f"duplicate key {key!r}")
            return dict(pairs)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, Loader.construct_mapping)
    return Loader


def parse_config(raw: Any, *, base_dir: Path, env: dict | None = None, source: Path | None = None,
                 stdio_tenant: str | None = None) -> Config:
    """Validate a decoded config as a whole: a Config, or ConfigError with every finding."""
    env = dict(os.environ) if env is None else env
    f = Findings()
    top = keys_of(f, "", raw, TOP_KEYS)
    if top is None:
        raise ConfigError(f)
    limits, doc_limits, runtime_limits = parse_limits(f, top.get("limits"))
    tenants = parse_tenants(f, top.get("tenants"), env)
    known_toolsets = set(BUILTIN_TOOLSETS) | SPEC_TOOLSETS
    config = Config(source=source, toolsets=parse_toolsets(f, top.get("toolsets"), known_toolsets),
                    audit=parse_audit(f, top.get("audit_log"), base_dir), limits=limits,
                    document_limits=doc_limits, runtime_limits=runtime_limits,
                    http_tools=parse_http_tools(f, top.get("http_tools"), tenants, limits, env),
                    link_policy=parse_allow(f, top.get("allow")))
    config.answers_view = parse_answers(f, top.get("answers"))
    config.proxy = parse_proxy(f, top.get("proxy"))
    config.answers_structured = (top.get("answers") or {}).get("structured") is True \
        if isinstance(top.get("answers"), dict) else False
    author = top.get("author")
    if author is not None and (not isinstance(author, str) or not author.strip()):
        f.add("author", "expected a non-empty string (the default author of tracked changes and comments)")
    else:
        config.author = author
    config.recovery_folder = parse_folder(f, "recovery_folder", top.get("recovery_folder"), base_dir)
    config.storage = parse_storage(f, top.get("storage"))
    config.fetch = parse_fetch(f, top.get("fetch"))
    if stdio_tenant is not None and stdio_tenant not in tenants:
        f.add("--tenant", f"{stdio_tenant!r} is not a configured tenant (configured: {', '.join(tenants) or 'none'})")
    if f:
        raise ConfigError(f)
    config.tenant_tokens = {name: token for name, token in tenants.items() if token}
    config.secrets = frozenset(config.tenant_tokens.values()).union(*(s.secrets for s in config.http_tools))
    config.tools = build_tools(config.http_tools)
    return config


def load_config(path: str | os.PathLike, *, env: dict | None = None, stdio_tenant: str | None = None) -> Config:
    path = Path(path).expanduser().resolve()
    return parse_config(read_file(path), base_dir=path.parent, env=env, source=path, stdio_tenant=stdio_tenant)
