"""What an HTTP tool is, once its config is validated: shared by the config parser and the tool runner."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

PLACEHOLDER_RE = re.compile(r"(?<!\$)\{([^{}]*)\}")  # ${ENV} is not a placeholder
CONTROL_RE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # CTLs but HTAB: never in a header value


@dataclass
class ParamSpec:
    name: str
    position: str
    type: str = "string"
    required: bool = False
    description: str | None = None
    enum: list | None = None
    default: Any = None
    has_default: bool = False
    items: dict | None = None


@dataclass
class HttpToolSpec:
    name: str
    description: str
    method: str
    endpoint: str
    params: list[ParamSpec]
    timeout_s: float
    max_response_bytes: int
    max_answer_chars: int
    response_template: str = ""
    strict_template: bool = False
    follow_redirects: bool = True
    tenants: frozenset[str] | None = None
    title: str | None = None
    read_only: bool | None = None
    destructive: bool | None = None
    idempotent: bool | None = None
    # Static headers with ${ENV} already substituted: secrets, so never in repr or logs.
    headers: dict[str, str] = field(default_factory=dict, repr=False)
    secrets: frozenset[str] = field(default_factory=frozenset, repr=False)
