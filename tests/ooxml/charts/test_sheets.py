"""The chart workbook's bytes depend on the call's clock only, so a journal replay writes the same file."""
from __future__ import annotations

import io
import time
import zipfile
from datetime import datetime, timezone

from ooxml.charts.build import workbook
from ooxml.xml import clock

WHEN = datetime(2026, 3, 4, 5, 6, 7, tzinfo=timezone.utc)


def test_a_workbook_written_twice_at_the_same_call_time_is_byte_identical():
    with clock.pinned(WHEN):
        first = workbook(["a", "b"], [("Sales", [1, 2])])
    time.sleep(2.1)  # past the zip format's two-second date resolution
    with clock.pinned(WHEN):
        second = workbook(["a", "b"], [("Sales", [1, 2])])
    assert first == second


def test_a_workbook_is_stamped_with_the_calls_time():
    with clock.pinned(WHEN):
        data = workbook(["a"], [("S", [1])])
    core = zipfile.ZipFile(io.BytesIO(data)).read("docProps/core.xml").decode()
    assert "<dcterms:created" in core and core.count("2026-03-04T05:06:07Z") == 2  # created and modified
