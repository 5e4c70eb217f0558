"""Comparing two documents into a redline (SPEC §11): align blocks, diff words, write revisions.

``align`` (anchors and gap pairing), ``tokens`` (a paragraph's text and tokens), ``paragraphs``
(a matched pair diffed into runs), ``blocks`` (containers and tables), ``carry`` (copies from
the original's package), ``stories`` (headers, footers, notes), ``redline`` (the whole pass),
``views`` (accepted views, the redline's bytes).
"""
