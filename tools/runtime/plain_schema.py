"""Arguments checked against a tool's input schema without jsonschema, in the common case.

The schemas ``@tool`` derives use a few keywords (type, enum, items, required,
additionalProperties); checking those directly costs a few microseconds, where jsonschema's
validator costs tens per call. ``plainly_valid`` answers True only when the arguments surely
pass; on anything else (a problem, or a keyword it does not know, as in operators' HTTP tools)
it answers False and jsonschema decides and words the problems.
"""
from __future__ import annotations

_KNOWN = frozenset({"type", "enum", "items", "description", "default", "title"})


def plainly_valid(schema: dict, arguments: dict) -> bool:
    if not schema.keys() <= {"type", "properties", "required", "additionalProperties"} \
            or schema.get("type") != "object":
        return False
    props = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    if extra is not True and (extra is not False or not props.keys() >= arguments.keys()):
        return False
    if any(name not in arguments for name in schema.get("required", ())):
        return False
    return all(name not in props or _fits(props[name], value) for name, value in arguments.items())


def _fits(prop: dict, value) -> bool:
    if not prop.keys() <= _KNOWN:
        return False
    kinds = prop.get("type")
    if kinds is not None and not any(_is(kind, value) for kind in ((kinds,) if isinstance(kinds, str) else kinds)):
        return False
    # enum: only strings and null compared here (jsonschema tells 1 from 1.0 and True from 1).
    if "enum" in prop and not (value is None or type(value) is str) or \
            "enum" in prop and value not in prop["enum"]:
        return False
    items = prop.get("items")
    return items is None or type(value) is not list or all(_fits(items, v) for v in value)


def _is(kind: str, value) -> bool:
    if kind == "string":
        return type(value) is str
    if kind == "integer":
        return type(value) is int  # 1.0 is an integer to jsonschema too: it decides that case
    if kind == "number":
        return type(value) in (int, float)
    if kind == "boolean":
        return type(value) is bool
    if kind == "null":
        return value is None
    if kind == "array":
        return type(value) is list
    if kind == "object":
        return type(value) is dict
    return False
