"""Fief: England, the second edition of the Fief family (docs/fief-england.md)."""
