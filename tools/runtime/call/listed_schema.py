"""The input schema as tools/list shows it: what an agent needs to call the tool right, no more.

Optional arguments are nullable in the schema the server validates against (a client may send
null for "left out"), but saying so on every argument costs agents bytes on each listing and tells
them nothing they act on: the listed copy leaves "null" out of each argument's type, enum or anyOf. Nor does it
say additionalProperties (an unknown argument is still refused, by name, when the call is validated),
nor the answer's ``view`` every editing tool takes (60 copies of it were 1.5 KB of every listing): the
server's instructions say once that editing tools take it, and its values. The call still validates it.
A boolean's default false is left out too (the instructions say a boolean left out is false).
"""
from __future__ import annotations

VIEW = {"enum": ["full", "compact", "none"]}  # registry.VIEW_SCHEMA without its null


def listed(schema: dict) -> dict:
    props = {name: _not_null(prop) for name, prop in schema.get("properties", {}).items()}
    if props.get("view") == VIEW:
        del props["view"]
    out = {k: v for k, v in schema.items() if k != "additionalProperties"}
    return {**out, "properties": props}


def _not_null(prop: dict) -> dict:
    """An argument's own nullability only: a null inside it (a list item that means "skip") stays."""
    out = dict(prop)
    if out.get("default") is False:
        del out["default"]
    kinds = out.get("type")
    if isinstance(kinds, list) and "null" in kinds:
        rest = [k for k in kinds if k != "null"]
        out["type"] = rest[0] if len(rest) == 1 else rest
    if isinstance(out.get("enum"), list) and None in out["enum"]:
        out["enum"] = [v for v in out["enum"] if v is not None]
    if isinstance(out.get("anyOf"), list) and {"type": "null"} in out["anyOf"]:
        rest = [x for x in out["anyOf"] if x != {"type": "null"}]
        if len(rest) == 1 and not set(rest[0]) & set(out):
            del out["anyOf"]
            out.update(rest[0])
        else:
            out["anyOf"] = rest
    return out
