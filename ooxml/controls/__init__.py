"""Content controls (w:sdt): what a control is (model), how values are set (values), data
binding to custom XML parts (binding), new controls and repeating items (create)."""
