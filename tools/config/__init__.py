"""The operator's config (SPEC §9): what it holds (model), loading and validation (loading, sections,
http_tools, checks), the config in force and its reload (live). The HTTP tools it declares are
tools/http/'s."""
