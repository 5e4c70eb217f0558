"""Imports every module that registers built-in tools."""
from tools import docx_blocks, docx_edit, docx_format, docx_images, docx_read, docx_session, docx_tables  # noqa: F401
