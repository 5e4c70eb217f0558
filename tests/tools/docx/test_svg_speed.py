"""Issue 31's speed target for SVG: docx_insert_image of a 200 KB SVG (1,000 labels) with its PNG
fallback drawn in the call takes at most 300 ms of CPU (least of five calls: the machine is shared)."""
from __future__ import annotations

import resource

import pytest

from tests.support.svg_map import big_svg

pytestmark = pytest.mark.anyio


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)  # every thread: tools run in worker threads
    return r.ru_utime + r.ru_stime


async def test_a_200_kb_svg_with_its_fallback_is_inserted_within_300_ms_of_cpu(docx, tmp_path):
    path = tmp_path / "map.svg"
    path.write_text(big_svg(), encoding="utf-8")
    await docx.create()
    await docx.ok("docx_insert_image", image_path=str(path), position="end:document_body", width="6in")  # warm
    times = []
    for _ in range(5):
        start = cpu()
        await docx.ok("docx_insert_image", image_path=str(path), position="end:document_body", width="6in")
        times.append(cpu() - start)
    print(f"SVG insert: least of {len(times)} {min(times) * 1000:.0f} ms CPU")
    assert min(times) <= 0.300, f"{min(times) * 1000:.0f} ms CPU"
