"""The built-in tools: the explicit list of the modules that define them (``@tool``), made a Registry;
and render's renderers installed (one list). Import order is definition order: tools/list's."""
from render import renderers
from tools.docx import blocks, edit, format, tables, images, read, review, session
from tools.docx import export, markdown, pages
from tools.docx import comments  # review: tracked changes and comments
from tools.docx import layout, layout_delete, layout_fields, layout_links, layout_notes, layout_toc
from tools.docx import history
from tools.docx import lists, styles
from tools.docx import toolsets  # docx_toolsets: what tools/list offers
from tools.docx import batch  # docx_batch: many edits, one step
from tools.docx import forms  # content controls and templates
from tools.docx import privacy  # docx_inspect, docx_redact, docx_scrub
from tools.docx import compare  # review: docx_compare
from tools.docx import equations  # content: LaTeX equations
from tools.docx import charts  # charts: list, get, update
from tools.docx import alt_text, changes  # verifying: docx_set_alt_text, docx_changes
from tools.docx import text_boxes  # content: text boxes
from tools.docx import check  # docx_check: validity and accessibility
from tools.docx import fields  # layout: captions, cross-references, field updates
from tools.runtime.call.registry import Registry

MODULES = (blocks, edit, format, tables, images, read, review, session, export, markdown, pages, comments, layout,
           layout_delete, layout_fields, layout_links, layout_notes, layout_toc, history, lists, styles, toolsets,
           batch, forms, privacy, compare, equations, charts, alt_text, changes, text_boxes, check, fields)

renderers.install()  # render's tables: explicitly here, not by what happens to be imported


def registry() -> Registry:
    return Registry.of_modules(MODULES)
