"""Markdown in: turning Markdown into body blocks, with the lists it needs."""
