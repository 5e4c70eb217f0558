"""Response templates: compile and render time of render/gotemplate against Jinja2.

    python tests/bench/bench_templates.py [--batches 200] [--per-batch 50]

Both engines render the same text from the same data in the same run: a field and a
10-item loop, the "simple template" of SPEC section 9 (render target: at most 0.1 ms).
Times are medians of per-call averages over batches, in microseconds.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import jinja2  # noqa: E402

from render import gotemplate  # noqa: E402

RENDER_TARGET_US = 100.0

GO_SOURCE = """{{ .user.name }} has {{ len .items }} items:
{{- range $i, $it := .items }}
{{ $i }}. {{ $it.name }} x{{ $it.qty }}{{ end }}"""

JINJA_SOURCE = """{{ user.name }} has {{ items|length }} items:
{%- for it in items %}
{{ loop.index0 }}. {{ it.name }} x{{ it.qty }}{% endfor %}"""

DATA = {"user": {"name": "Ada Lovelace"},
        "items": [{"name": f"item-{i}", "qty": i * 3} for i in range(10)]}


def per_call_us(function, batches: int, per_batch: int) -> float:
    for _ in range(per_batch):  # warm-up
        function()
    samples = []
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(per_batch):
            function()
        samples.append((time.perf_counter() - start) / per_batch * 1e6)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=200)
    parser.add_argument("--per-batch", type=int, default=50)
    args = parser.parse_args()

    environment = jinja2.Environment(autoescape=False)
    ours, theirs = gotemplate.compile_template(GO_SOURCE), environment.from_string(JINJA_SOURCE)
    expected = theirs.render(**DATA)
    if ours.render(DATA) != expected:
        print(f"outputs differ:\n{ours.render(DATA)!r}\n{expected!r}")
        return 1

    compile_batches = max(5, args.batches // 10)
    rows = [
        ("compile", per_call_us(lambda: gotemplate.compile_template(GO_SOURCE),
                                compile_batches, 5),
         per_call_us(lambda: environment.from_string(JINJA_SOURCE), compile_batches, 5)),
        ("render", per_call_us(lambda: ours.render(DATA), args.batches, args.per_batch),
         per_call_us(lambda: theirs.render(**DATA), args.batches, args.per_batch)),
    ]
    gotemplate.get_template(GO_SOURCE)
    cached = per_call_us(lambda: gotemplate.get_template(GO_SOURCE), args.batches,
                         args.per_batch)

    print(f"Simple template (a field and a {len(DATA['items'])}-item loop), "
          f"Python {sys.version.split()[0]}, Jinja2 {jinja2.__version__}")
    print(f"{'':<22}{'gotemplate µs':>15}{'Jinja2 µs':>12}{'Jinja2/ours':>13}")
    for label, mine, jinja in rows:
        print(f"{label:<22}{mine:>15.1f}{jinja:>12.1f}{jinja / mine:>12.2f}x")
    print(f"{'get_template (cached)':<22}{cached:>15.2f}")
    render_us = rows[1][1]
    verdict = "yes" if render_us <= RENDER_TARGET_US else "NO"
    print(f"render <= {RENDER_TARGET_US / 1000:g} ms: {verdict} ({render_us:.1f} µs)")
    return 0 if render_us <= RENDER_TARGET_US else 1


if __name__ == "__main__":
    sys.exit(main())
