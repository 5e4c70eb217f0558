"""The inbound transports' own concerns: who calls over Streamable HTTP (bearer token -> tenant, the
caller's address behind trusted proxies) and stdio lines the SDK cannot read."""
