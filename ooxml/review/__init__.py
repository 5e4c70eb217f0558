"""Tracked changes (the tracker every edit consults) and comments."""
