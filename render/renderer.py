"""What one view module draws, as a value: render/renderers.py lists them and installs them into
the tables of render/inline.py and render/blocks.py (no module registers itself at import)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Renderer:
    inline: tuple = ()  # InlineKinds drawn in a paragraph's line
    wrappers: dict = field(default_factory=dict)  # tag -> Wrapper around inline content
    below: Callable | None = None  # (doc, el) -> lines under the box of an element holding below_tags
    below_tags: frozenset = frozenset()
    titles: dict = field(default_factory=dict)  # tag -> (doc, el) -> a box's title
