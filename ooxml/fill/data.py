"""The fill's data: limits, dotted-name lookup with the scopes of repeated items, the names it holds."""
from __future__ import annotations

import json

from ooxml.xml.errors import LimitExceeded, ValidationError

MAX_DEPTH = 8
MAX_ITEMS = 10_000
_MISSING = object()


def check(data, max_bytes: int) -> None:
    if not isinstance(data, dict):
        raise ValidationError("data must be a JSON object of names and values.",
                              hint='Pass e.g. {"name": "Ada", "items": [{"x": 1}]}.')
    try:
        size = len(json.dumps(data, ensure_ascii=False).encode())
    except (TypeError, ValueError) as e:
        raise ValidationError(f"data is not plain JSON: {e}.", hint="Pass strings, numbers, booleans, "
                              "null, arrays and objects only.") from None
    if size > max_bytes:
        raise LimitExceeded(f"data is {size:,} bytes, over the limit of {max_bytes:,} bytes a call may add.",
                            hint="Fill in parts; the operator sets limits.max_call_growth_bytes.")
    _walk(data, 1)


def _walk(value, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise LimitExceeded(f"data is nested more than {MAX_DEPTH} levels deep.",
                            hint="Flatten the data: a template names values at most a few levels down.")
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str) or not k or "." in k:
                raise ValidationError(f"data key {k!r:.40} is not a name.",
                                      hint="Use non-empty names without dots; nest objects for a.b.")
            _walk(v, depth + 1)
    elif isinstance(value, list):
        if len(value) > MAX_ITEMS:
            raise LimitExceeded(f"An array in data has {len(value):,} items, over {MAX_ITEMS:,}.",
                                hint="Fill fewer items per call.")
        for v in value:
            _walk(v, depth + 1)


def lookup(obj, dotted: str):
    cur = obj
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return _MISSING
        cur = cur[part]
    return cur


class Scope:
    """Names as a place sees them: inside a repeated item, ``items.x`` and ``x`` are the item's."""

    def __init__(self, data: dict, used: set, prefix: str | None = None, item=None, parent: "Scope | None" = None):
        self.data, self.used, self.prefix, self.item, self.parent = data, used, prefix, item, parent
        self.dotted = None if prefix is None else prefix + "."

    def get(self, name: str):
        """(found, value, the data name it came from)."""
        if self.prefix is not None and name == self.prefix and not isinstance(self.item, (dict, list)):
            return True, self.item, name  # an array of plain values: {{tags}} in the repeated row
        if self.prefix is not None and isinstance(self.item, dict):
            rest = name[len(self.dotted):] if name.startswith(self.dotted) else name
            value = self.item.get(rest, _MISSING) if "." not in rest else lookup(self.item, rest)
            if value is not _MISSING:
                return True, value, self.dotted + rest
        if self.parent is not None:
            return self.parent.get(name)
        value = lookup(self.data, name)
        return (value is not _MISSING), (None if value is _MISSING else value), name

    def use(self, name: str) -> None:
        if name in self.used:
            return  # and every prefix of it, added with it
        self.used.add(name)
        while "." in name:
            name = name.rsplit(".", 1)[0]
            self.used.add(name)

    def child(self, prefix: str, item) -> "Scope":
        return Scope(self.data, self.used, prefix, item, self)


def names(data: dict, prefix: str = "") -> list[str]:
    """Every name the data offers: leaves by dotted name, arrays by name and their items' fields."""
    out = []
    for k, v in data.items():
        name = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            out += names(v, name + ".")
        elif isinstance(v, list):
            out.append(name)
            fields = {}
            for item in v:
                if isinstance(item, dict):
                    for f in names(item, name + "."):
                        fields[f] = None
            out += list(fields)
        else:
            out.append(name)
    return out


def as_text(value, name: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    raise ValidationError(f"'{name}' is a {'list' if isinstance(value, list) else 'object'} where the template "
                          "has text.", hint=f"Name a field inside it ({{{{{name}.field}}}}), or pass text.")
