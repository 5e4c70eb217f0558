"""Exceptions raised by the Go ``text/template`` compiler, and the limits they enforce.

Every error carries the template position it refers to (``line``, ``column``, both 1-based,
column counted in characters) when there is one, and its message starts with
``line N, column M:`` so it can be shown to an operator as is. The errors are
``OoxmlError``s so the server reports them with an ``error_type`` like every other error.
"""
from __future__ import annotations

from ooxml.xml.errors import LimitExceeded, OoxmlError

# Limits. Each one is checked where it applies and reported by its constant's name.
MAX_SOURCE_BYTES = 64 * 1024  # template source, UTF-8 encoded
MAX_OUTPUT_CHARS = 1024 * 1024  # rendered text, in characters
MAX_RANGE_ITERATIONS = 100_000  # all {{range}} iterations of one render together
# Control structures plus parenthesised sub-expressions nested in each other. Templates are
# compiled to Python, which refuses more than 20 statically nested loops.
MAX_NESTING_DEPTH = 16


class TemplateError(OoxmlError):
    """A template could not be compiled or rendered."""

    error_type = "TemplateError"

    def __init__(self, reason: str, line: int | None = None, column: int | None = None,
                 *, name: str = "response_template", hint: str | None = None):
        self.reason = reason
        self.line = line
        self.column = column
        self.name = name
        message = f"line {line}, column {column}: {reason}" if line is not None else reason
        super().__init__(message, hint)


class TemplateSyntaxError(TemplateError):
    """The template source is not valid (raised by ``compile_template``)."""

    error_type = "TemplateSyntaxError"


class TemplateRenderError(TemplateError):
    """Rendering failed on the data given (raised by ``Template.render``)."""

    error_type = "TemplateRenderError"


class TemplateLimitError(TemplateError, LimitExceeded):
    """A limit was exceeded; ``limit`` is the name of the constant, ``limit_value`` its value."""

    error_type = "LimitExceeded"

    def __init__(self, limit: str, limit_value: int, reason: str, line: int | None = None,
                 column: int | None = None, *, name: str = "response_template"):
        self.limit = limit
        self.limit_value = limit_value
        super().__init__(reason, line, column, name=name)


class TemplateSyntaxLimitError(TemplateLimitError, TemplateSyntaxError):
    """A limit checked when compiling: ``MAX_SOURCE_BYTES`` or ``MAX_NESTING_DEPTH``."""


class TemplateRenderLimitError(TemplateLimitError, TemplateRenderError):
    """A limit checked when rendering: ``MAX_OUTPUT_CHARS`` or ``MAX_RANGE_ITERATIONS``."""
