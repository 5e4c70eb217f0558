"""DrawingML charts (SPEC §12): a chart part's kind, title, axes and data read from its caches or its
embedded workbook (`model`, `sheets`), and new data written to both (`update`)."""
