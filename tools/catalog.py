"""Imports every module that registers built-in tools."""
from tools.docx import blocks, edit, format, images, read, session, tables  # noqa: F401
from tools.docx import markdown, pages  # noqa: F401
from tools.docx import comments, review  # noqa: F401,E402  (review: tracked changes and comments)
