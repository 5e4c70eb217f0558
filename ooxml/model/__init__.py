"""The open document: Document, its undo history and the history codec, block positions, integrity checks."""
