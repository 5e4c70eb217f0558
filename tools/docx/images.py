"""The image tool: a picture from a file, inline in a new paragraph or among a paragraph's runs."""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from ooxml.text import images as I
from ooxml.text import svg_check, svg_fallback
from ooxml.text.svg_check import SvgFile
from ooxml.review import edits
from ooxml.xml import growth
from ooxml.xml.errors import InvalidPosition, LimitExceeded
from ooxml.xml.namespaces import w
from ooxml.layout.sections import page_box, section_of
from ooxml.xml.units import emu
from tools.docx.common import call_limits, object_image
from ooxml.model.insertion import block_insertion, valid_positions
from ooxml.tabular.widths import EMU_PER_TWIP, available_width
from tools.docx.protocol import Edit
from tools.runtime.call.registry import CallContext, tool
from tools.runtime.sessions.sandbox import object_target, resolve_in_roots
from tools.storage.objects import check_tenant, storage_section
from tools.storage.documents import store_of


def _read(path):
    """A PNG/JPEG/GIF by its header, or an SVG checked for anything reaching outside it."""
    if path.suffix.lower() != ".svg":
        return I.read_image(path)
    size = path.stat().st_size
    if size > svg_check.MAX_SVG_BYTES:
        raise LimitExceeded(f"The SVG is {size} bytes, over the limit of {svg_check.MAX_SVG_BYTES}.",
                            hint="Simplify the SVG or convert it to PNG.")
    return svg_check.read_svg(path.name, path.read_bytes())


def _run_mode(pos) -> bool:
    """A run position (inside a paragraph, or next to a run) rather than a block position."""
    t = pos.target
    return (t.tag == B.W_P and pos.mode in ("start", "end")) or t.tag == B.W_R


def _limits(doc, pos, run_mode: bool) -> tuple[int, int]:
    """The largest picture (EMU) that fits the text area where it goes."""
    para = pos.target if pos.target.tag == B.W_P else B.find_ancestor(pos.target, B.W_P)
    if run_mode:
        container, anchor = para.getparent(), para
    else:
        container, _ = block_insertion(doc, pos, "paragraph")
        anchor = pos.target
    box = page_box(section_of(doc, anchor))
    return available_width(doc, container, anchor) * EMU_PER_TWIP, box.text_height * EMU_PER_TWIP


@tool(title="Insert an image")
def docx_insert_image(ctx: CallContext, e: Edit, session_id: str | None, image_path: str, position: str,
                      width: float | str | None = None, height: float | str | None = None) -> None:
    """Insert a PNG, JPEG, GIF or SVG at a block or run position; width or height alone keeps the aspect ratio."""
    _insert_image(ctx, e, image_path, position, width, height)


def _insert_image(ctx, e, image_path: str, position: str, width, height) -> None:
    doc = e.doc
    cx_req = emu(width, "width") if width is not None else None
    cy_req = emu(height, "height") if height is not None else None
    I.check_length(cx_req, "width")
    I.check_length(cy_req, "height")
    image = _image_at(ctx, image_path)
    growth.spend(len(image.data), call_limits(ctx, doc).max_call_growth_bytes, f"The image {image.name}",
                 hint="Insert fewer or smaller images per call; the operator sets limits.max_call_growth_bytes.")
    pos = e.position(position)
    run_mode = _run_mode(pos)
    if run_mode and pos.target.tag == B.W_R and pos.mode not in ("before", "after"):
        raise InvalidPosition(f"An image cannot go inside a run ({pos.mode}:).",
                              hint="Use before:/after: a run, or start:/end: a paragraph.")
    if not run_mode and B.find_ancestor(pos.target, B.W_P) is not None:
        raise InvalidPosition(f"An image cannot go {pos.mode} a {B.kind(pos.target)}.",
                              hint="Valid positions here: " + valid_positions(doc, pos.target, "run"))
    cx, cy = I.fit_size(image.natural_emu(), cx_req, cy_req, *_limits(doc, pos, run_mode))
    png = svg_fallback.render(image, cx, cy) if isinstance(image, SvgFile) else None
    if png is not None:
        growth.spend(len(png), call_limits(ctx, doc).max_call_growth_bytes, f"The fallback of {image.name}",
                     hint="Insert fewer or smaller images per call; the operator sets limits.max_call_growth_bytes.")
    # Everything is checked: from here on the document changes.
    part_name = doc.part_of(pos.target).name
    if png is not None:
        rid, svg_rid = I.add_svg_parts(doc.package, part_name, image.data, png)
        drawing = I.inline_drawing(rid, cx, cy, doc.word_ids(pos.target).new_doc_pr(), image.name, svg_rid,
                                   descr=image.title)
    else:
        rid = I.add_image_part(doc.package, part_name, image)
        drawing = I.inline_drawing(rid, cx, cy, doc.word_ids(pos.target).new_doc_pr(), image.name)
    run = etree.Element(w("r"))
    run.append(drawing)
    fields = {"Position": pos.text, "File": image.name, "Size": f"{cx / 914400:.2f}in × {cy / 914400:.2f}in"}
    if run_mode:
        para = pos.target if pos.target.tag == B.W_P else B.find_ancestor(pos.target, B.W_P)
        e.show(para)
        e.change(para)
        edits.place_run(doc, para, run, pos.mode, pos.target)
        e.done(para, marker="NEW", inserted=run, element_id=doc.id_of(drawing),
               fields={**fields, "Paragraph": doc.id_of(para)})
    else:
        p = etree.Element(w("p"))
        p.append(run)
        e.insert(p, pos)
        pid = doc.id_of(p)
        e.done(p, marker="NEW", inserted=p, element_id=doc.id_of(drawing), fields={**fields, "Paragraph": pid})


def _image_at(ctx, image_path: str):
    """The image a path names: a file in the roots, or an object (read under the image size limit)."""
    location = object_target(image_path, ctx.services.roots)
    if location is None:
        return _read(resolve_in_roots(image_path, ctx.services.roots, must_exist=True))
    if not location.name.lower().endswith(".svg"):
        return object_image(ctx, location)
    check_tenant(ctx, location)
    data = store_of(location, storage_section(ctx)).read(location.key, svg_check.MAX_SVG_BYTES).data
    return svg_check.read_svg(location.name, data)


