"""Server plumbing in four wings: ``call`` (one tools/call), ``protocol`` (MCP beside tools),
``sessions`` (open documents), ``state`` (durable sessions with ``--state``)."""
