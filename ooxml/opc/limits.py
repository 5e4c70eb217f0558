"""The limits a package is read under (sizes, parts, compression ratio), apart from the package
reader: the server's configuration holds them before any document (or lxml) is loaded."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 512 * 1024 * 1024
    max_total_uncompressed: int = 2 * 1024 * 1024 * 1024
    max_part_uncompressed: int = 512 * 1024 * 1024
    max_ratio: int = 200  # uncompressed/compressed, for parts over ratio_floor bytes
    ratio_floor: int = 10 * 1024 * 1024
    max_parts: int = 10_000
    max_call_growth_bytes: int = 16 * 1024 * 1024  # bytes one call may add: replace text, copies (checked first)


DEFAULT_LIMITS = Limits()
