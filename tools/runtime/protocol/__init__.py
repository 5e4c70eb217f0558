"""The MCP protocol beside tools/call: resources, subscriptions, prompts, tasks, notices, instructions."""
