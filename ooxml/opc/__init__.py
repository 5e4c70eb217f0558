"""The package: parts, relationships and content types (one write API), files read and written, Strict, external references."""
