"""Findings and type checks for validating a config: every problem is collected with its location
(``http_tools[2].params[1].position: 'cookie' is not one of body, header, path, query``), never
stopping at the first."""
from __future__ import annotations

from typing import Any


class Findings(list):
    def add(self, where: str, message: str) -> None:
        self.append(f"{where}: {message}" if where else message)


def at(where: str, key: object) -> str:
    return f"{where}.{key}" if where else str(key)


KINDS = {
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}
KIND_WORDS = {"string": "a string", "boolean": "a boolean", "integer": "an integer", "number": "a number",
              "array": "a list", "object": "a mapping"}


def kind_of(value: Any) -> str:
    for kind in ("boolean", "integer", "number", "string", "array", "object"):
        if KINDS[kind](value):
            return KIND_WORDS[kind]
    return "null" if value is None else type(value).__name__


def expect(f: Findings, where: str, value: Any, kind: str, *, positive: bool = False) -> bool:
    if not KINDS[kind](value):
        f.add(where, f"expected {KIND_WORDS[kind]}, got {kind_of(value)}")
        return False
    if positive and value <= 0:
        f.add(where, f"expected a value above 0, got {value}")
        return False
    return True


def option(f: Findings, where: str, mapping: dict, key: str, kind: str, default: Any, **kw) -> Any:
    """``mapping[key]`` if present and of the right kind, else ``default`` (noting a finding)."""
    if key not in mapping:
        return default
    value = mapping[key]
    return value if expect(f, at(where, key), value, kind, **kw) else default


def keys_of(f: Findings, where: str, value: Any, allowed: tuple, required: tuple = ()) -> dict | None:
    if not isinstance(value, dict):
        f.add(where or "config", f"expected a mapping, got {kind_of(value)}")
        return None
    for key in value:
        if key not in allowed:
            f.add(at(where, key), f"unknown key (expected one of: {', '.join(allowed)})")
    for key in required:
        if key not in value:
            f.add(at(where, key), "required key is missing")
    return value


def one_of(f: Findings, where: str, value: Any, choices: tuple) -> bool:
    if value not in choices:
        f.add(where, f"{value!r} is not one of {', '.join(choices)}")
        return False
    return True
