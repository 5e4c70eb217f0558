"""Arguments checked against a tool's input schema without jsonschema, in the common case.

The schemas ``@tool`` derives use a few keywords (type, enum, items, required,
additionalProperties); checking those directly costs a few microseconds, where jsonschema's
validator costs tens per call. ``plainly_valid`` answers True only when the arguments surely
pass; on anything else (a problem, or a keyword it does not know, as in operators' HTTP tools)
it answers False and jsonschema decides and words the problems.
"""
from __future__ import annotations

_KNOWN = frozenset({"type", "enum", "items", "description", "default", "title"})
_TYPES = {"string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
          "null": (type(None),), "array": (list,), "object": (dict,)}  # exact types: 1.0 and True decided by jsonschema
_NEVER = object()  # a property whose schema uses a keyword not known here
_plans: dict = {}  # id(schema) -> (schema, plan): a schema is read once, not on every call


def plainly_valid(schema: dict, arguments: dict) -> bool:
    known = _plans.get(id(schema))
    plan = known[1] if known is not None and known[0] is schema else _plan_of(schema)
    if plan is None:
        return False
    required, props, extra = plan
    for name in required:
        if name not in arguments:
            return False
    for name, value in arguments.items():
        prop = props.get(name)
        if prop is None:
            if not extra:
                return False
        elif not _fits(prop, value):
            return False
    return True


def _plan_of(schema: dict):
    if len(_plans) > 4096:  # schemas of reloaded configs: never unbounded
        _plans.clear()
    plan = _plan(schema)
    _plans[id(schema)] = (schema, plan)
    return plan


def _plan(schema: dict):
    if not schema.keys() <= {"type", "properties", "required", "additionalProperties"} \
            or schema.get("type") != "object":
        return None
    extra = schema.get("additionalProperties", True)
    if extra is not True and extra is not False:
        return None
    props = {name: _prop_plan(prop) for name, prop in schema.get("properties", {}).items()}
    return tuple(schema.get("required", ())), props, extra


def _prop_plan(prop: dict):
    """(types or None, enum or None, items plan or None), or _NEVER."""
    if not isinstance(prop, dict) or not prop.keys() <= _KNOWN:
        return _NEVER
    kinds = prop.get("type")
    types = None
    if kinds is not None:
        types = frozenset(t for kind in ((kinds,) if isinstance(kinds, str) else kinds) for t in _TYPES.get(kind, ()))
    items = prop.get("items")
    return types, prop.get("enum"), None if items is None else _prop_plan(items)


def _fits(plan, value) -> bool:
    if plan is _NEVER:
        return False
    types, enum, items = plan
    if types is not None and type(value) not in types:
        return False
    # enum: only strings and null compared here (jsonschema tells 1 from 1.0 and True from 1).
    if enum is not None and (not (value is None or type(value) is str) or value not in enum):
        return False
    return items is None or type(value) is not list or all(_fits(items, v) for v in value)
