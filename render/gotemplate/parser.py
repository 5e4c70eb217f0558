"""Parser for Go ``text/template``: tokens to a small tree the code generator walks.

Besides the grammar, the parser resolves every ``$variable`` to a numbered slot (so scoping
is settled before any code is generated) and folds each pipeline into one expression tree:
``.a | printf "%d"`` becomes ``Call("printf", ["%d", .a])``. Mistakes Go only notices when
executing (a wrong number of arguments, an argument given to a non-function) are reported
here, so a config with a broken template is refused when it is loaded.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from . import lexer as lx
from .errors import MAX_NESTING_DEPTH, TemplateSyntaxLimitError

# Builtin functions and their (minimum, maximum) number of arguments; None: no maximum.
ARITY = {
    "and": (1, None), "or": (1, None), "not": (1, 1),
    "eq": (2, None), "ne": (2, 2), "lt": (2, 2), "le": (2, 2), "gt": (2, 2), "ge": (2, 2),
    "len": (1, 1), "index": (1, None), "slice": (1, 4),
    "print": (0, None), "println": (0, None), "printf": (1, None),
    "html": (0, None), "js": (0, None), "urlquery": (0, None), "json": (1, 1),
}
UNSUPPORTED = {
    "call": 'function "call" is not supported: JSON data holds no functions',
    "template": '"{{template}}" is not supported: a response template is a single template',
    "define": '"{{define}}" is not supported: a response template is a single template',
    "block": '"{{block}}" is not supported: a response template is a single template',
}


# -- the tree ------------------------------------------------------------------------------

@dataclass(slots=True)
class Literal:
    value: object
    pos: int


@dataclass(slots=True)
class Dot:
    pos: int


@dataclass(slots=True)
class Var:
    slot: int
    pos: int


@dataclass(slots=True)
class Field:
    base: object  # Dot, Var, Call or a parenthesised expression
    names: list  # [(name, pos)]
    text: str  # source text, for error messages


@dataclass(slots=True)
class Call:
    name: str
    args: list
    pos: int


@dataclass(slots=True)
class Pipe:
    decl: list  # slots declared (:=) or assigned (=)
    assign: bool
    expr: object
    pos: int


@dataclass(slots=True)
class Text:
    text: str


@dataclass(slots=True)
class Action:
    pipe: Pipe


@dataclass(slots=True)
class Branches:
    """{{if}} or {{with}} with its {{else if}}/{{else with}} branches and final {{else}}."""

    kind: str
    branches: list  # [(Pipe, body)]
    else_body: list | None


@dataclass(slots=True)
class Range:
    pipe: Pipe
    body: list
    else_body: list | None


@dataclass(slots=True)
class Jump:
    word: str  # "break" or "continue"
    pos: int


@dataclass(slots=True)
class _FuncRef:
    """A function name before it is known whether it heads a command or is an argument."""

    name: str
    pos: int


@dataclass
class Tree:
    body: list
    slots: int  # number of variable slots; slot 0 is $
    lexer: lx.Lexer = field(repr=False)


# -- the parser ----------------------------------------------------------------------------

class Parser:
    def __init__(self, source: str, name: str):
        self.lexer = lx.Lexer(source, name)
        self.name = name
        self.tokens = self.lexer.tokenize()
        self.i = 0
        self.scopes: list[dict[str, int]] = [{"$": 0}]
        self.slots = 1
        self.depth = 0
        self.in_loop = False

    def parse(self) -> Tree:
        body, stop = self.parse_list()
        if stop.kind != lx.EOF:
            raise self.unexpected(stop)
        return Tree(body, self.slots, self.lexer)

    # -- token helpers ---------------------------------------------------------------------

    def peek(self, ahead: int = 0) -> lx.Token:
        return self.tokens[min(self.i + ahead, len(self.tokens) - 1)]

    def next(self) -> lx.Token:
        token = self.peek()
        self.i += 1
        return token

    def error(self, pos: int, reason: str):
        return self.lexer.error(pos, reason)

    def describe(self, token: lx.Token) -> str:
        if token.kind == lx.EOF:
            return "end of template"
        if token.kind == lx.RDELIM:
            return '"}}"'
        return f'"{self.lexer.src[token.pos:token.end]}"'

    def unexpected(self, token: lx.Token, where: str = ""):
        if token.kind == lx.EOF:
            return self.error(token.pos, "unexpected end of template" + where)
        return self.error(token.pos, f"unexpected {self.describe(token)}{where}")

    def expect_close(self, where: str) -> None:
        token = self.next()
        if token.kind != lx.RDELIM:
            raise self.unexpected(token, f" in {where}")

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING_DEPTH:
            line, column = self.lexer.location(pos)
            raise TemplateSyntaxLimitError(
                "MAX_NESTING_DEPTH", MAX_NESTING_DEPTH,
                f"nesting deeper than MAX_NESTING_DEPTH ({MAX_NESTING_DEPTH}) "
                "control structures and parentheses", line, column, name=self.name)

    # -- scopes ----------------------------------------------------------------------------

    def declare(self, name: str) -> int:
        slot = self.slots
        self.slots += 1
        self.scopes[-1][name] = slot
        return slot

    def lookup(self, token: lx.Token) -> int:
        for scope in reversed(self.scopes):
            if token.value in scope:
                return scope[token.value]
        raise self.error(token.pos, f'undefined variable "{token.value}"')

    # -- lists and control structures -------------------------------------------------------

    def parse_list(self) -> tuple[list, lx.Token]:
        """Parse until {{end}}, {{else}} or the end; return the nodes and the stopping token."""
        nodes: list = []
        while True:
            token = self.next()
            if token.kind == lx.TEXT:
                nodes.append(Text(token.value))
            elif token.kind == lx.EOF:
                return nodes, token
            else:
                head = self.peek()
                if head.kind == lx.KEYWORD and head.value in ("end", "else"):
                    self.next()
                    return nodes, head
                nodes.append(self.parse_action(token, head))

    def parse_action(self, start: lx.Token, head: lx.Token):
        if head.kind != lx.KEYWORD:
            return Action(self.parse_pipe("command", lx.RDELIM))
        self.next()
        word = head.value
        if word in UNSUPPORTED:
            raise self.error(head.pos, UNSUPPORTED[word])
        if word in ("break", "continue"):
            if not self.in_loop:
                raise self.error(head.pos, f"{{{{{word}}}}} outside {{{{range}}}}")
            self.expect_close(f"{{{{{word}}}}}")
            return Jump(word, head.pos)
        self.enter(start.pos)
        mark = len(self.scopes)
        node = self.parse_range(head) if word == "range" else self.parse_branches(head)
        del self.scopes[mark:]
        self.depth -= 1
        return node

    def parse_body(self, in_loop: bool) -> tuple[list, lx.Token]:
        outer = self.in_loop
        self.in_loop = in_loop
        self.scopes.append({})
        body, stop = self.parse_list()
        self.scopes.pop()
        self.in_loop = outer
        return body, stop

    def check_stop(self, stop: lx.Token, opener: lx.Token, allow_else: bool) -> None:
        if stop.kind == lx.EOF:
            line, column = self.lexer.location(opener.pos)
            raise self.error(stop.pos, f'unexpected end of template: "{opener.value}" at line '
                                       f'{line}, column {column} has no "end"')
        if stop.value == "else" and not allow_else:
            raise self.error(stop.pos, f'expected "end"; found "else" (the "{opener.value}" '
                                       "already has an else)")

    def parse_branches(self, opener: lx.Token) -> Branches:
        kind, branches, else_body = opener.value, [], None
        while True:
            self.scopes.append({})  # visible in this branch and the ones after it
            pipe = self.parse_pipe(kind, lx.RDELIM)
            body, stop = self.parse_body(self.in_loop)
            branches.append((pipe, body))
            self.check_stop(stop, opener, allow_else=True)
            if stop.value == "end":
                self.expect_close('"end"')
                return Branches(kind, branches, None)
            chained = self.peek()
            if chained.kind == lx.KEYWORD and chained.value == kind:
                self.next()  # {{else if ...}} / {{else with ...}}
                continue
            if chained.kind == lx.KEYWORD and chained.value in ("if", "with"):
                raise self.error(chained.pos, f'"else {chained.value}" is not allowed in '
                                              f'"{kind}"; only "else {kind}"')
            self.expect_close('"else"')
            else_body, stop = self.parse_body(self.in_loop)
            self.check_stop(stop, opener, allow_else=False)
            self.expect_close('"end"')
            return Branches(kind, branches, else_body)

    def parse_range(self, opener: lx.Token) -> Range:
        self.scopes.append({})
        pipe = self.parse_pipe("range", lx.RDELIM)
        body, stop = self.parse_body(True)
        self.check_stop(stop, opener, allow_else=True)
        else_body = None
        if stop.value == "else":
            self.expect_close('"else"')
            # Go's break in a range's else stops nothing; refuse it rather than break an
            # enclosing loop.
            else_body, stop = self.parse_body(False)
            self.check_stop(stop, opener, allow_else=False)
        self.expect_close('"end"')
        return Range(pipe, body, else_body)

    # -- pipelines ---------------------------------------------------------------------------

    def parse_declarations(self, context: str) -> tuple[list, bool]:
        first, after = self.peek(), self.peek(1)
        if first.kind != lx.VAR or after.kind not in (lx.DECLARE, lx.ASSIGN, lx.COMMA):
            return [], False
        self.i += 2
        if after.kind != lx.COMMA:
            return [first], after.kind == lx.ASSIGN
        if context != "range":
            raise self.error(after.pos, f"too many declarations in {context}")
        second, op = self.next(), self.next()
        if second.kind != lx.VAR:
            raise self.error(second.pos, "range can only initialize variables")
        if op.kind != lx.DECLARE:
            raise self.error(op.pos, f'expected ":=" after "{first.value}, {second.value}", '
                                     f"found {self.describe(op)}")
        return [first, second], False

    def parse_pipe(self, context: str, end: str) -> Pipe:
        names, assign = self.parse_declarations(context)
        pos = self.peek().pos
        if names and end == lx.RPAREN:
            raise self.error(names[0].pos, "declarations inside parentheses are not supported")
        expr = self.parse_commands(context, end)
        if assign:
            slots = [self.lookup(names[0])]
        else:  # declared after the expression, which still sees any outer variable
            slots = [self.declare(token.value) for token in names]
        return Pipe(slots, assign, expr, pos)

    def parse_commands(self, context: str, end: str):
        value = None
        for stage in itertools.count(1):
            args = self.parse_command(context)
            value = self.fold(args, value, stage)
            token = self.next()
            if token.kind == end:
                return value
            if token.kind != lx.PIPE:
                if token.kind == lx.EOF and end == lx.RPAREN:
                    raise self.error(token.pos, "unclosed left parenthesis")
                raise self.unexpected(token, f" in {context}")
            context = "command"

    def parse_command(self, context: str) -> list:
        args: list = []
        while True:
            token = self.peek()
            if token.kind in (lx.PIPE, lx.RDELIM, lx.RPAREN, lx.EOF):
                break
            if args and not token.space:
                raise self.unexpected(token, " in operand")
            args.append(self.parse_operand())
        if not args:
            raise self.error(token.pos, f"missing value for {context}")
        return args

    def fold(self, args: list, piped, stage: int):
        """Turn one command (and the value piped into it) into an expression."""
        head, rest = args[0], args[1:] + ([piped] if piped is not None else [])
        if isinstance(head, _FuncRef):
            return self.call(head, rest)
        text = self.node_text(head)
        if stage > 1 and isinstance(head, (Literal, Dot)):
            raise self.error(head.pos, f"non executable command in pipeline stage {stage}")
        if rest:
            raise self.error(head.pos if not isinstance(head, Field) else head.names[0][1],
                             f"can't give argument to non-function {text}")
        if isinstance(head, Literal) and head.value is None:
            raise self.error(head.pos, "nil is not a command")
        return head

    def call(self, ref: _FuncRef, args: list) -> Call:
        args = [self.call(a, []) if isinstance(a, _FuncRef) else a for a in args]
        low, high = ARITY[ref.name]
        if len(args) < low or high is not None and len(args) > high:
            want = f"at least {low}" if high is None else \
                str(low) if low == high else f"{low} to {high}"
            raise self.error(ref.pos, f"wrong number of args for {ref.name}: want {want} "
                                      f"got {len(args)}")
        return Call(ref.name, args, ref.pos)

    def node_text(self, node) -> str:
        if isinstance(node, Field):
            return node.text
        token = next(t for t in self.tokens if t.pos == node.pos)
        return self.lexer.src[token.pos:token.end]

    # -- operands -----------------------------------------------------------------------------

    def parse_operand(self):
        token = self.next()
        node = self.parse_term(token)
        chain = []
        while self.peek().kind == lx.FIELD and not self.peek().space:
            field_token = self.next()
            chain.append((field_token.value, field_token.pos))
        if not chain:
            return node
        if isinstance(node, (Literal, Dot)):
            raise self.error(chain[0][1], f'unexpected . after term "{self.node_text(node)}"')
        if isinstance(node, _FuncRef):
            node = self.call(node, [])
        text = self.lexer.src[token.pos:self.tokens[self.i - 1].end]
        if isinstance(node, Field):
            return Field(node.base, node.names + chain, text)
        return Field(node, chain, text)

    def parse_term(self, token: lx.Token):
        kind = token.kind
        if kind in lx.LITERALS:
            return Literal(token.value, token.pos)
        if kind == lx.DOT:
            return Dot(token.pos)
        if kind == lx.VAR:
            return Var(self.lookup(token), token.pos)
        if kind == lx.FIELD:
            return Field(Dot(token.pos), [(token.value, token.pos)], "." + token.value)
        if kind == lx.IDENT:
            if token.value in UNSUPPORTED:
                raise self.error(token.pos, UNSUPPORTED[token.value])
            if token.value not in ARITY:
                raise self.error(token.pos, f'function "{token.value}" not defined')
            return _FuncRef(token.value, token.pos)
        if kind == lx.LPAREN:
            self.enter(token.pos)
            pipe = self.parse_pipe("parenthesized pipeline", lx.RPAREN)
            self.depth -= 1
            return pipe.expr
        if kind == lx.KEYWORD:
            raise self.error(token.pos, f'unexpected "{token.value}" in operand')
        raise self.unexpected(token, " in operand")
