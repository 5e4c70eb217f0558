"""Operator-declared HTTP tools: their config, the calls they make, tenants over HTTP."""
