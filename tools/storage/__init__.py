"""Where documents live: folders and S3-compatible object stores behind one small interface
(``store.Store``). ``roots`` parses ``s3://bucket[/prefix]`` roots and judges keys (the sandbox for
objects); ``folder`` and ``s3`` are the two backends; ``documents`` opens and saves a document on one.
Imports only ``ooxml`` (tools/runtime imports this, never the other way)."""
