"""Document sessions: the store and owners, locks and endings, quotas, limits, sandbox, recovery files."""
