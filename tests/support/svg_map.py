"""A 200 KB SVG map (issue 31's speed target): small regions (curved paths with gradients) with 1,000
labels, like an exported chart or map. Seeded: the same bytes every run."""
from __future__ import annotations

import random


def big_svg(size: int = 200_000) -> str:
    rnd = random.Random(31)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800">'
             '<title>Benchmark map</title><defs>']
    parts += [f'<linearGradient id="g{i}"><stop offset="0" stop-color="#{rnd.randrange(1 << 24):06x}"/>'
              f'<stop offset="1" stop-color="#{rnd.randrange(1 << 24):06x}"/></linearGradient>' for i in range(20)]
    parts.append("</defs>")
    while sum(map(len, parts)) < size:  # a region of some 40 px with its label, as on a map
        x, y = rnd.uniform(0, 1160), rnd.uniform(0, 760)
        pts = " ".join(f"{x + rnd.uniform(0, 40):.1f},{y + rnd.uniform(0, 40):.1f}" for _ in range(6))
        parts.append(f'<g><path d="M {pts.replace(" ", " Q ", 1)} Z" fill="url(#g{rnd.randrange(20)})" '
                     f'stroke="#333" stroke-width="0.5"/><text x="{x:.0f}" y="{y + 20:.0f}" font-size="9">'
                     f'Label {len(parts)}</text></g>')
    parts.append("</svg>")
    return "".join(parts)
