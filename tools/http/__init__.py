"""Operator-declared HTTP tools: what one is (spec.py) and the calls they make (tools.py); the config
that declares them is tools/config/."""
