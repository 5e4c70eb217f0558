"""What a document carries about people and what it says: inspect, redact, leak check, scrub (SPEC §11)."""
