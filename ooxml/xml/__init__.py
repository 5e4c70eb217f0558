"""XML primitives every other folder builds on: namespaces, errors, numbers and units, schema order, safe parsing, budgets, our IDs and Word's."""
