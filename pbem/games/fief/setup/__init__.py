"""Game Setup (A)."""
