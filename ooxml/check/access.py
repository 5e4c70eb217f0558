"""Accessibility rules (placeholder until the rule modules land)."""
TAGS = ()


def findings(parts, scans):
    return []
