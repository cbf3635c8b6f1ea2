"""Fief: England, the second edition of the Fief family."""
