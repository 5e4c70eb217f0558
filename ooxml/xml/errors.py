"""Errors with a type name an agent can act on.

Every error the product reports carries an ``error_type`` (the ``**Error Type**`` of an
answer), a message saying what was wrong, and optionally a hint saying what to do.
"""


class OoxmlError(Exception):
    error_type = "Error"

    def __init__(self, message: str, hint: str | None = None, error_type: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        if error_type:
            self.error_type = error_type


class InvalidDocument(OoxmlError):
    error_type = "InvalidDocument"


class LimitExceeded(OoxmlError):
    error_type = "LimitExceeded"


class ElementNotFound(OoxmlError):
    error_type = "ElementNotFound"


class InvalidElementType(OoxmlError):
    error_type = "InvalidElementType"


class InvalidPosition(OoxmlError):
    error_type = "InvalidPosition"


class ValidationError(OoxmlError):
    error_type = "ValidationError"
