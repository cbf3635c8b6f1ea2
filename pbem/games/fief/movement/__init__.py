"""The Movement Phase (5)."""
