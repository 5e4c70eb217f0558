"""Fields, the table of contents, hyperlinks and bookmarks."""
