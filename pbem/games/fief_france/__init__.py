"""Fief: France, the first edition of the Fief family: its rules object and its own rules."""
