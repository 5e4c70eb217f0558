"""Sections and page setup, headers and footers."""
