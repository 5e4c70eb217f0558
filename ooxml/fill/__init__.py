"""docx_fill_template: data checked and named (data), placeholders found as the text reads
(placeholders), MERGEFIELD fields (merge), arrays repeated (repeat), the whole call (engine)."""
