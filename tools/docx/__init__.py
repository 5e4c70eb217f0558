"""The docx_* tools: thin MCP tools over ooxml/ that answer through render/."""
