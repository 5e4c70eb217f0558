"""Server plumbing: the tool registry, the dispatcher, sessions, the sandbox, the audit log."""
