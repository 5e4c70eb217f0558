"""Code generator: a parsed template becomes the source of one Python function.

The function is ``_render(R)`` (R: the data). Output goes to a list joined at the end.
Template variables are Python locals named by slot (``v0`` is ``$``); each ``with`` or
``range`` body gets its own local for dot. Limits are enforced inline: ``_n`` counts output
characters and ``_it`` range iterations, both checked where output or iterations are added.
Errors carry an index into ``positions`` so a failure names its line and column.
"""
from __future__ import annotations

import re

from . import parser as ast
from .errors import MAX_OUTPUT_CHARS, MAX_RANGE_ITERATIONS
from .runtime import to_text

_SIMPLE_NAME = re.compile(r"[A-Za-z_]\w*\Z")
# Builtins called as helper(pos, args...) and the global names they have in generated code.
_HELPERS = {"eq": "_eq", "ne": "_ne", "lt": "_lt", "le": "_le", "gt": "_gt", "ge": "_ge",
            "len": "_len", "index": "_index", "slice": "_slice", "printf": "_printf",
            "json": "_json"}
_PLAIN_HELPERS = {"print": "_print", "println": "_println", "html": "_html", "js": "_js",
                  "urlquery": "_urlquery"}


class CodeGen:
    def __init__(self, tree: ast.Tree, strict: bool):
        self.tree = tree
        self.strict = strict
        self.lines: list[str] = []
        self.level = 1
        self.temps = 0
        self.pending: list[str] = []  # static text not yet emitted
        self.positions: list[tuple[int, int, str]] = []
        self._position_index: dict[tuple[int, str], int] = {}

    def generate(self) -> str:
        self.lines = ["def _render(R):", "    _o = []", "    _a = _o.append", "    _n = 0",
                      "    _it = 0", "    v0 = R"]
        self.block(self.tree.body, "R")
        self.flush()
        self.emit('return "".join(_o)')
        return "\n".join(self.lines) + "\n"

    # -- helpers -----------------------------------------------------------------------------

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.level + line)

    def temp(self, prefix: str = "_t") -> str:
        self.temps += 1
        return f"{prefix}{self.temps}"

    def position(self, offset: int, context: str) -> int:
        key = (offset, context)
        if key not in self._position_index:
            line, column = self.tree.lexer.location(offset)
            self._position_index[key] = len(self.positions)
            self.positions.append((line, column, context))
        return self._position_index[key]

    def flush(self) -> None:
        if self.pending:
            text = "".join(self.pending)
            self.pending = []
            self.emit(f"_a({text!r})")
            self.emit(f"_n += {len(text)}")

    def indented(self, nodes: list, dot: str) -> None:
        self.level += 1
        mark = len(self.lines)
        self.block(nodes, dot)
        self.flush()
        if len(self.lines) == mark:
            self.emit("pass")
        self.level -= 1

    # -- statements --------------------------------------------------------------------------

    def block(self, nodes: list, dot: str) -> None:
        for node in nodes:
            if isinstance(node, ast.Text):
                self.pending.append(node.text)
                continue
            if isinstance(node, ast.Action) and not node.pipe.decl and \
                    isinstance(node.pipe.expr, ast.Literal):
                self.pending.append(to_text(node.pipe.expr.value))
                continue
            self.flush()
            if isinstance(node, ast.Action):
                self.action(node.pipe, dot)
            elif isinstance(node, ast.Branches):
                self.branches(node, dot)
            elif isinstance(node, ast.Range):
                self.range_(node, dot)
            else:
                self.emit(node.word)

    def action(self, pipe: ast.Pipe, dot: str) -> None:
        code, is_str = self.expr(pipe.expr, dot)
        if pipe.decl:
            self.emit(f"v{pipe.decl[0]} = {code}")
            return
        self.emit(f"_t = {code}")
        if not is_str:
            self.emit("if _t.__class__ is not str: _t = _s(_t)")
        self.emit("_a(_t)")
        self.emit("_n += len(_t)")
        where = self.position(pipe.pos, "output")
        self.emit(f"if _n > {MAX_OUTPUT_CHARS}: _olim(_n, {where})")

    def condition(self, pipe: ast.Pipe, dot: str) -> str:
        code, _ = self.expr(pipe.expr, dot)
        return f"(v{pipe.decl[0]} := {code})" if pipe.decl else code

    def branches(self, node: ast.Branches, dot: str) -> None:
        for number, (pipe, body) in enumerate(node.branches):
            keyword = "if" if number == 0 else "elif"
            condition = self.condition(pipe, dot)
            if node.kind == "with":
                inner = self.temp("d")
                self.emit(f"{keyword} ({inner} := {condition}):")
                self.indented(body, inner)
            else:
                self.emit(f"{keyword} {condition}:")
                self.indented(body, dot)
        if node.else_body is not None:
            self.emit("else:")
            self.indented(node.else_body, dot)

    def range_(self, node: ast.Range, dot: str) -> None:
        pipe = node.pipe
        code, _ = self.expr(pipe.expr, dot)
        where = self.position(pipe.pos, "range")
        collection, values, inner = self.temp(), self.temp("_v"), self.temp("d")
        self.emit(f"{collection} = {code}")
        for slot in pipe.decl:  # as in Go, the variables start as the collection itself
            self.emit(f"v{slot} = {collection}")
        if len(pipe.decl) == 2:
            keys = self.temp("_k")
            self.emit(f"{keys}, {values} = _rkv({collection}, {where})")
            loop = f"for v{pipe.decl[0]}, {inner} in zip({keys}, {values}):"
        else:
            self.emit(f"{values} = {collection} if {collection}.__class__ is list "
                      f"else _rv({collection}, {where})")
            loop = f"for {inner} in {values}:"
        if node.else_body is not None:
            self.emit(f"if {values}:")
            self.level += 1
        self.emit(loop)
        self.level += 1
        self.emit("_it += 1")
        self.emit(f"if _it > {MAX_RANGE_ITERATIONS} or _n > {MAX_OUTPUT_CHARS}: "
                  f"_llim(_it, _n, {where})")
        if pipe.decl:
            self.emit(f"v{pipe.decl[-1]} = {inner}")
        self.level -= 1
        self.indented(node.body, inner)
        if node.else_body is not None:
            self.level -= 1
            self.emit("else:")
            self.indented(node.else_body, dot)

    # -- expressions: return (python code, always a str) ---------------------------------------

    def expr(self, node, dot: str) -> tuple[str, bool]:
        if isinstance(node, ast.Literal):
            return repr(node.value), isinstance(node.value, str)
        if isinstance(node, ast.Dot):
            return dot, False
        if isinstance(node, ast.Var):
            return f"v{node.slot}", False
        if isinstance(node, ast.Field):
            return self.field(node, dot), False
        return self.call(node, dot)

    def field(self, node: ast.Field, dot: str) -> str:
        code, _ = self.expr(node.base, dot)
        for name, offset in node.names:
            where = self.position(offset, node.text)
            base = code
            if not _SIMPLE_NAME.match(code):
                # One name serves every chain: an inner chain is complete before the outer
                # walrus assigns, and nothing runs between an assignment and its use.
                base = "_c"
                code = f"({base} := {code})"
            key = repr(name)
            if self.strict:
                code = (f"({base}[{key}] if {code}.__class__ is dict and {key} in {base} "
                        f"else _fs({base}, {key}, {where}))")
            else:
                code = (f"({base}.get({key}) if {code}.__class__ is dict "
                        f"else _f({base}, {key}, {where}))")
        return code

    def call(self, node: ast.Call, dot: str) -> tuple[str, bool]:
        args = [self.expr(arg, dot)[0] for arg in node.args]
        name = node.name
        if name in ("and", "or"):
            return "(" + f" {name} ".join(args) + ")", False
        if name == "not":
            return f"(not {args[0]})", False
        if name in _PLAIN_HELPERS:
            return f"{_PLAIN_HELPERS[name]}({', '.join(args)})", True
        # Go blames printf's format argument for a format that is not a string.
        offset = _offset(node.args[0]) if name == "printf" else node.pos
        where = self.position(offset, name)
        return f"{_HELPERS[name]}({', '.join([str(where)] + args)})", name in ("printf", "json")


def _offset(node) -> int:
    return node.names[0][1] if isinstance(node, ast.Field) else node.pos
