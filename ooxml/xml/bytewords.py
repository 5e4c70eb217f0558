"""A part's bytes read eight at a time from any offset: ``words(data)[i]`` is the little-endian
number of ``data[i:i + 8]``. The byte scans of docx_compare and docx_check compare tag names and
attribute starts this way for thousands of offsets at once, in C (numpy), with no copy of the bytes."""
from __future__ import annotations

import numpy as np


def words(data: bytes) -> np.ndarray:
    """A view of ``data`` (at least 8 bytes): one uint64 per offset up to ``len(data) - 8``."""
    return np.ndarray((len(data) - 7,), "<u8", data, 0, (1,))
