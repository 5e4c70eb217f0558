"""Body text: blocks and runs, building and formatting them, ranges, replace, images, notes, copies."""
