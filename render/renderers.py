"""Every view module that draws a kind of content, in one explicit list (as Starlette's
``routes=[...]``). ``install()`` fills render's tables from it; the server calls it once where it
loads the tools (tools/catalog.py). The order is the order of the lines under a box."""
from __future__ import annotations

from render import alt_text_view, blocks, charts_view, comments, controls_view, equations, inline
from render import notes_view, text_boxes_view

RENDERERS = (equations.RENDERER, text_boxes_view.RENDERER, charts_view.RENDERER, comments.RENDERER,
             notes_view.RENDERER, alt_text_view.RENDERER, controls_view.RENDERER)


def install(renderers=RENDERERS) -> None:
    """Put ``renderers`` into render's tables (again: no change)."""
    for r in renderers:
        for kind in r.inline:
            inline.register(kind)
        for tag, wrapper in r.wrappers.items():
            inline.register(wrapper_tag=tag, wrapper=wrapper)
        if r.below is not None and r.below not in blocks.BELOW_BOX:
            blocks.BELOW_BOX.append(r.below)
        blocks.BELOW_TAGS.update(r.below_tags)
        blocks.TITLES.update(r.titles)
