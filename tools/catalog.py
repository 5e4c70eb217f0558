"""Imports every module that registers built-in tools."""
from tools import docx_edit, docx_format, docx_read, docx_session  # noqa: F401
