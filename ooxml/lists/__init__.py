"""Numbering: the numbering part, list definitions and formats, one writer of it, copies of lists."""
