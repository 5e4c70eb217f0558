"""Styles: reading styles.xml, Word's built-in styles (one table), writing and applying styles."""
