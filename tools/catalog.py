"""Imports every module that registers built-in tools, and installs render's renderers (one list)."""
from render import renderers
from tools.docx import blocks, edit, format, tables, images, read, review, session  # noqa: F401 (this order: tools/list's)
from tools.docx import export, markdown, pages  # noqa: F401
from tools.docx import comments, review  # noqa: F401  (review: tracked changes and comments)
from tools.docx import layout, layout_delete, layout_fields, layout_links, layout_notes, layout_toc  # noqa: F401
from tools.docx import history  # noqa: F401
from tools.docx import lists, styles  # noqa: F401
from tools.docx import toolsets  # noqa: F401  (docx_toolsets: what tools/list offers)
from tools.docx import batch  # noqa: F401  (docx_batch: many edits, one step)
from tools.docx import forms  # noqa: F401  (content controls and templates)
from tools.docx import privacy  # noqa: F401  (docx_inspect, docx_redact, docx_scrub)
from tools.docx import compare  # noqa: F401  (review: docx_compare)
from tools.docx import equations  # noqa: F401  (content: LaTeX equations)
from tools.docx import charts  # noqa: F401  (charts: list, get, update)
from tools.docx import alt_text, changes  # noqa: F401  (verifying: docx_set_alt_text, docx_changes)
from tools.docx import text_boxes  # noqa: F401  (content: text boxes)
from tools.docx import check  # noqa: F401  (docx_check: validity and accessibility)
from tools.docx import fields  # noqa: F401  (layout: captions, cross-references, field updates)

renderers.install()  # render's tables: explicitly here, not by what happens to be imported
