"""Go ``text/template`` syntax, compiled to Python, for rendering JSON HTTP responses.

Operators write ``response_template`` in Go template syntax (SPEC section 9). No maintained
Python library implements it, so this module does: the source is lexed, parsed, turned into
the source of one Python function, and compiled once; ``Template.render`` then costs a
function call (about 20 µs for a field and a 10-item range).

    >>> compile_template("{{ .user.name }} has {{ len .roles }} roles").render(
    ...     {"user": {"name": "Ada"}, "roles": ["admin", "dev"]})
    'Ada has 2 roles'

Supported: text/template's actions (``if``/``else if``/``else``, ``range`` with ``else``,
``break`` and ``continue``, ``with``/``else with``/``else``), variables (``$``, ``$x :=``,
``$x =``, ``$i, $x :=`` in range), pipelines, parentheses, field chains on any value,
literals, whitespace trimming, comments, and the builtins ``and or not eq ne lt le gt ge
len index slice print printf println html js urlquery`` plus ``json`` (compact JSON).
Not supported: ``define``, ``template``, ``block`` and ``call``. docs/templates.md has the
details.

Deliberate differences from Go, because the data is JSON decoded by ``json.loads``:

- null and missing keys print nothing (Go: ``<no value>``); ``strict=True`` makes a
  missing key an error naming the key and its position, like Go's ``missingkey=error``.
  A field of null is null (Go: an error for null, ``<no value>`` for missing).
- Objects and arrays print as compact JSON with sorted keys (Go: ``map[a:1]``, ``[1 2]``).
- Numbers are numbers: ``eq 1 1.0`` is true and integer/float comparisons work (Go: error
  "incompatible types"); a float index such as ``index .list 1.0`` works; integral floats
  print as integers and other floats as JSON does (``1e-7``, not ``1e-07``; ``1234567``,
  not ``1.234567e+06``); printf's ``%d`` accepts integral floats and ``%f`` integers.
- ``printf``'s ``%v``/``%s`` of null print nothing and ``%s`` prints numbers and booleans.
- Errors Go reports only when executing (wrong number of arguments, an argument given to a
  non-function, ``{{ nil }}``, assigning an undefined variable) are reported when
  compiling. ``{{ .a | }}`` (an empty last command) is an error; Go ignores it.
- ``$x := ...`` inside parentheses is refused; a variable declared in one branch is not
  visible in the next ``else`` branch (Go parses that and fails when executing).
- Positions are 1-based line and character column; a failed field of a chain is reported
  at that field (Go: at the chain's second field, and syntax errors get no column).
- Limits: MAX_SOURCE_BYTES, MAX_OUTPUT_CHARS, MAX_RANGE_ITERATIONS, MAX_NESTING_DEPTH.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from . import printf
from . import runtime as rt
from .codegen import CodeGen
from .errors import (MAX_NESTING_DEPTH, MAX_OUTPUT_CHARS, MAX_RANGE_ITERATIONS,
                                MAX_SOURCE_BYTES, TemplateError, TemplateLimitError,
                                TemplateRenderError, TemplateRenderLimitError,
                                TemplateSyntaxError, TemplateSyntaxLimitError)
from .parser import Parser

__all__ = [
    "compile_template", "get_template", "clear_cache", "forget", "Template",
    "TemplateError", "TemplateSyntaxError", "TemplateRenderError", "TemplateLimitError",
    "TemplateSyntaxLimitError", "TemplateRenderLimitError", "MAX_SOURCE_BYTES",
    "MAX_OUTPUT_CHARS", "MAX_RANGE_ITERATIONS", "MAX_NESTING_DEPTH", "CACHE_SIZE",
]

CACHE_SIZE = 512  # compiled templates kept by get_template

# The names generated code uses; one shared dict, never written by the generated code.
_GLOBALS = {
    "__builtins__": {"len": len, "zip": zip, "str": str, "dict": dict, "list": list},
    "_s": rt.to_text, "_f": rt.field, "_fs": rt.field_strict,
    "_rv": rt.range_values, "_rkv": rt.range_items,
    "_llim": rt.loop_limit, "_olim": rt.output_limit,
    "_eq": rt.eq, "_ne": rt.ne, "_lt": rt.lt, "_le": rt.le, "_gt": rt.gt, "_ge": rt.ge,
    "_len": rt.length, "_index": rt.index, "_slice": rt.slice_, "_json": rt.json_,
    "_print": rt.print_, "_println": rt.println, "_html": rt.html, "_js": rt.js,
    "_urlquery": rt.urlquery, "_printf": printf.sprintf,
}


class Template:
    """A compiled template. ``render`` may be called from several threads at once."""

    __slots__ = ("source", "name", "strict", "python_source", "_render", "_positions")

    def __init__(self, source: str, name: str, strict: bool, python_source: str,
                 render, positions: list):
        self.source = source
        self.name = name
        self.strict = strict
        self.python_source = python_source  # kept for debugging
        self._render = render
        self._positions = positions

    def render(self, data) -> str:
        """Render with ``data`` (a value from json.loads) as dot and ``$``."""
        try:
            return self._render(data)
        except rt.ExecError as error:
            raise self._error(error) from None
        except RecursionError:
            raise TemplateRenderError("data is nested too deeply to render", name=self.name,
                                      hint="The upstream answer nests too deeply: ask for less of it.") from None

    def _error(self, error: rt.ExecError) -> TemplateRenderError:
        line = column = None
        reason = error.reason
        if error.pos is not None:
            line, column, context = self._positions[error.pos]
            if context not in ("output", "range"):
                reason = f"at <{context}>: {reason}"
        if isinstance(error, rt.LimitHit):
            return TemplateRenderLimitError(error.limit, error.value, reason, line, column,
                                            name=self.name)
        return TemplateRenderError(reason, line, column, name=self.name)

    def __repr__(self) -> str:
        return f"<Template {self.name!r} strict={self.strict}>"


def compile_template(source: str, name: str = "response_template", *,
                     strict: bool = False) -> Template:
    """Compile Go template ``source``; raise TemplateSyntaxError with the line and column."""
    _check_size(source, name)
    tree = Parser(source, name).parse()
    generator = CodeGen(tree, strict)
    python_source = generator.generate()
    try:
        code = compile(python_source, f"<template {name}>", "exec")
    except (SyntaxError, RecursionError, MemoryError) as error:  # should not happen
        raise TemplateSyntaxError(f"template too complex to compile: {error}", name=name,
                                  hint="Split the template, or nest fewer actions.") from None
    namespace: dict = {}
    exec(code, _GLOBALS, namespace)
    return Template(source, name, strict, python_source, namespace["_render"],
                    generator.positions)


def _check_size(source: str, name: str) -> None:
    # Characters never outnumber UTF-8 bytes, so only long sources need encoding.
    if len(source) * 4 > MAX_SOURCE_BYTES and len(source.encode("utf-8", "surrogatepass")) \
            > MAX_SOURCE_BYTES:
        raise TemplateSyntaxLimitError(
            "MAX_SOURCE_BYTES", MAX_SOURCE_BYTES,
            f"template source larger than MAX_SOURCE_BYTES ({MAX_SOURCE_BYTES} bytes)",
            name=name)


# -- the cache ---------------------------------------------------------------------------------

_cache: OrderedDict[tuple[str, bool], Template] = OrderedDict()
_lock = threading.Lock()


def get_template(source: str, strict: bool = False) -> Template:
    """The compiled template for ``source``, compiled on first use and kept (LRU, CACHE_SIZE)."""
    key = (source, strict)
    with _lock:
        template = _cache.get(key)
        if template is not None:
            _cache.move_to_end(key)
            return template
    template = compile_template(source, strict=strict)  # outside the lock: may be slow
    with _lock:
        template = _cache.setdefault(key, template)
        _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return template


def forget(source: str) -> None:
    """Drop ``source``'s compiled templates (strict or not), e.g. when its config changed."""
    with _lock:
        _cache.pop((source, False), None)
        _cache.pop((source, True), None)


def clear_cache() -> None:
    with _lock:
        _cache.clear()
